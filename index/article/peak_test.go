package article

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"
)

// The three inputs of docs/performance.md's article-parser memory
// figures: a 10 MiB CDATA section, a 30 MiB line of words, and a 100 KB
// article whose entities add 16 M characters.
func peakInputs() map[string][]byte {
	r := rand.New(rand.NewSource(1))
	words := strings.Fields("the of and in a to was is for on as by with he that at from his it an were")
	var w bytes.Buffer
	w.WriteString("<article><bdy><p>")
	for w.Len() < 30<<20 {
		w.WriteString(words[r.Intn(len(words))])
		w.WriteByte(' ')
	}
	w.WriteString("</p></bdy></article>\n")
	return map[string][]byte{
		"cdata-10MiB": []byte("<article><bdy><p><![CDATA[" + strings.Repeat("abcdefghij", 1<<20) + "]]></p></bdy></article>\n"),
		"words-30MiB": w.Bytes(),
		"entities-16M": []byte(`<!DOCTYPE article [<!ENTITY e "` + strings.Repeat("word ", 200) + `">]>` + "\n<article><bdy><p>" +
			strings.Repeat("&e;", 16000) + "</p></bdy></article>\n"),
	}
}

// peakHeap runs f and returns the most heap its objects took meanwhile
// (sampled every 200 µs, after a GC), less what they took before.
func peakHeap(f func()) uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	base := s[0].Value.Uint64()
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(stop)
	<-done
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}

// BenchmarkParsePeak reports, for each input, the parser's peak heap per
// byte of its text (file bytes plus what entities add): peak/text-B.
func BenchmarkParsePeak(b *testing.B) {
	for name, data := range peakInputs() {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var textBytes int
			var peak uint64
			for b.Loop() {
				peak = max(peak, peakHeap(func() {
					a, err := defaultReader.parse(bytes.NewReader(data), "peak.xml", int64(len(data)))
					if err != nil {
						b.Fatal(err)
					}
					textBytes = max(len(data), len(a.Text))
					runtime.KeepAlive(a)
				}))
			}
			b.ReportMetric(float64(peak)/float64(textBytes), "peak/text-B")
			b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
		})
	}
}

// sameArticle says how a and b differ ("" for not at all): text, length,
// title, header id, links and every element with its attributes.
func sameArticle(a, b *Article) string {
	switch {
	case a.Text != b.Text || a.Len != b.Len:
		return fmt.Sprintf("text %.60q (%d), %.60q (%d)", a.Text, a.Len, b.Text, b.Len)
	case a.Title != b.Title || a.HeaderID != b.HeaderID:
		return fmt.Sprintf("title %q %q, id %q %q", a.Title, b.Title, a.HeaderID, b.HeaderID)
	case !reflect.DeepEqual(a.Links, b.Links):
		return fmt.Sprintf("links %v, %v", a.Links, b.Links)
	case !reflect.DeepEqual(a.Elements, b.Elements):
		return fmt.Sprintf("elements %v, %v", a.Elements, b.Elements)
	}
	return ""
}

// cutInputs are articles whose runs of text the filter may cut wrongly:
// references, CR LF, multi-byte characters, CDATA full of ']', comments
// full of '-', quoted values holding '>' and references, a DOCTYPE.
var cutInputs = []string{
	"<article>\r\n<p>caf\u00e9 \u4e2d\u6587 &amp; &#x41;&#66; &lt;x&gt; \U0001F600\r\nend\r</p></article>",
	"<article><p><![CDATA[a]]]]><![CDATA[]b]]]c]]]]></p><p><![CDATA[\u00e9\u00e9]\u00e9]]></p></article>",
	"<article><!-- a - b -- c - --><p>x<!---->y<!-- \u00e9 --></p></article>",
	`<article><p title="a>b&amp;c" alt='&#x41;>'>t&gt;t</p><q a="" b=''>q</q></article>`,
	"<?xml version=\"1.0\"?>\n<!DOCTYPE article [<!ENTITY co \"Company &amp; Co\"><!ENTITY e \"\u00e9\">]>\n<article><p>&co;&e;&co;</p><?pi a>b ?><p>z</p></article>",
	"<article xmlns:x=\"u\"><x:p x:a=\"1\">one</x:p>\n\n<p>two</p><link href=\"../12.xml\">l</link></article>",
}

// Cutting long runs of text (refFilter) changes nothing of what is read:
// every span case, every cut input and the sample's articles read alike
// cut every 1, 2, 3, 5 and 7 bytes, and their errors fall on the same line.
func TestCutsChangeNothing(t *testing.T) {
	var inputs []string
	for _, tc := range spanCases {
		inputs = append(inputs, tc.xml)
	}
	inputs = append(inputs, cutInputs...)
	files, _ := filepath.Glob("../../corpus-sample/articles/*/*.xml")
	for _, f := range files[:min(len(files), 8)] {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, string(b))
	}
	inputs = append(inputs, "<article><p>a&#xD800;</p></article>", "<article>\n<p>unclosed\n</article>", "<article><p a='1' a='2'/></article>")
	for n, in := range inputs {
		want, werr := Parse(strings.NewReader(in), "c.xml")
		for _, every := range []int{1, 2, 3, 5, 7} {
			rd := &Reader{splitEvery: every}
			// one byte a read: the decoder reads little ahead of its
			// tokens, so that runs start being cut right after the root
			// starts (a file's first 4 KB are read before it does)
			got, err := rd.Parse(iotest.OneByteReader(strings.NewReader(in)), "c.xml")
			var we, ge *Error
			switch {
			case (werr == nil) != (err == nil):
				t.Errorf("input %d, cut every %d: %v, uncut %v", n, every, err, werr)
			case werr != nil && (!errors.As(werr, &we) || !errors.As(err, &ge) || we.Line != ge.Line || we.Msg != ge.Msg):
				t.Errorf("input %d, cut every %d: %v, uncut %v", n, every, err, werr)
			case werr == nil:
				if d := sameArticle(want, got); d != "" {
					t.Errorf("input %d, cut every %d: %s", n, every, d)
				}
			}
		}
	}
}
