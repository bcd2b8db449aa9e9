package article

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/article/shareddata"
)

// synthetic writes an INEX 2009-style article of about size bytes: sections of
// paragraphs with emphasis, links and a little non-ASCII text.
func synthetic(size int) []byte {
	r := rand.New(rand.NewSource(1))
	words := strings.Fields("the of and in a to was is for on as by with he that at from his it an were are which this also be has or had first one their its new after but who not they have her she two been other when there all during into school time may years more most only over city some world would where later up such used many can state about national out known university united then made")
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<article xmlns:xlink="http://www.w3.org/1999/xlink">` + "\n<header>\n<title>Synthetic</title>\n<id>1</id>\n</header>\n<bdy>\n")
	for sec := 1; b.Len() < size; sec++ {
		fmt.Fprintf(&b, "<sec>\n<st>Section %d</st>\n", sec)
		for p := 0; p < 6 && b.Len() < size; p++ {
			b.WriteString("<p>")
			for w := 0; w < 80; w++ {
				switch r.Intn(40) {
				case 0:
					fmt.Fprintf(&b, `<link xlink:type="simple" xlink:href="../%d.xml">%s</link> `, r.Intn(1e6), words[r.Intn(len(words))])
				case 1:
					fmt.Fprintf(&b, "<b>%s</b> ", words[r.Intn(len(words))])
				case 2:
					b.WriteString("café &amp; naïve ")
				default:
					b.WriteString(words[r.Intn(len(words))])
					b.WriteByte(' ')
				}
			}
			b.WriteString("</p>\n")
		}
		b.WriteString("</sec>\n")
	}
	b.WriteString("</bdy>\n</article>\n")
	return b.Bytes()
}

func benchParse(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(bytes.NewReader(data), "bench.xml"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseSample parses every article of corpus-sample.
func BenchmarkParseSample(b *testing.B) {
	files, _ := filepath.Glob("../../corpus-sample/articles/*/*.xml")
	if len(files) == 0 {
		b.Skip("no corpus-sample articles")
	}
	var all [][]byte
	total := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		all = append(all, data)
		total += len(data)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, data := range all {
			if _, err := Parse(bytes.NewReader(data), "bench.xml"); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(all)), "articles/op")
}

// BenchmarkParseWikipedia parses the 77 real Wikipedia articles of the
// shared data (English, Chinese, Korean) with their collection's DTD.
func BenchmarkParseWikipedia(b *testing.B) {
	dir := shareddata.Wikipedia(b)
	d, err := OpenDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	total := int64(0)
	for _, id := range d.IDs() {
		p, _ := d.Path(id)
		st, err := os.Stat(p)
		if err != nil {
			b.Fatal(err)
		}
		total += st.Size()
	}
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for _, id := range d.IDs() {
			if _, err := d.Parse(id); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(d.IDs())), "articles/op")
}

func BenchmarkParse20KB(b *testing.B) { benchParse(b, synthetic(20<<10)) }
func BenchmarkParse1MB(b *testing.B)  { benchParse(b, synthetic(1<<20)) }

// BenchmarkParse50MB parses a synthetic 50 MB article and reports the heap it
// keeps against the size of its text.
func BenchmarkParse50MB(b *testing.B) {
	data := synthetic(50 << 20)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		a, err := Parse(bytes.NewReader(data), "bench.xml")
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(len(a.Text)), "heap/text")
		b.ReportMetric(float64(len(a.Elements)), "elements")
		b.ReportMetric(float64(len(a.Text))/(1<<20), "text-MiB")
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "heap-MiB")
		runtime.KeepAlive(a)
	}
}
