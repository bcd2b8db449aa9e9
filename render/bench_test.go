package render

import (
	"fmt"
	"github.com/readsim/readsim/effort"
	"os"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/article"
)

// benchArticle builds a 2009-format article of about size bytes of XML, with
// sections, paragraphs, emphasis, semantic wrappers, links, lists and tables
// in the proportions of the sample collection, some non-ASCII text included.
func benchArticle(tb testing.TB, size int) (*article.Article, int) {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><article xmlns:xlink="http://www.w3.org/1999/xlink"><header><title>Bench</title><id>1</id><categories><category>A</category></categories></header><bdy>` + "\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "<sec>\n<st>Section %d</st>\n", i)
		b.WriteString(`<p>The <b>caisson</b> of the Akashi Kaikyō Bridge was sunk by <person wordnetid="1" confidence="0.9">James B. Eads</person> into the bed of the river, and <it>caisson disease</it> followed; see <link xlink:type="simple" xlink:href="../2004.xml">scour</link> and the “bends” for more about the foundations of long-span bridges.</p>` + "\n")
		b.WriteString(`<p>Sinking a caisson is a slow and delicate operation. The cutting edge must bear evenly on the soil so that the caisson descends vertically; if one side meets a boulder, it may tilt.</p>` + "\n")
		if i%3 == 0 {
			b.WriteString("<list>\n<entry>An <b>open caisson</b> is a shaft.</entry>\n<entry>A <b>box caisson</b> is closed at the bottom.</entry>\n</list>\n")
		}
		if i%5 == 0 {
			b.WriteString("<table>\n<row><header>Order</header><header>Focal length</header></row>\n<row><col>First</col><col>920 mm</col></row>\n</table>\n")
		}
		b.WriteString("</sec>\n")
	}
	b.WriteString("</bdy></article>\n")
	a, err := article.Parse(strings.NewReader(b.String()), "1.xml")
	if err != nil {
		tb.Fatal(err)
	}
	return a, b.Len()
}

// benchPassages are five passages spread over the article.
func benchPassages(n int) []effort.Span {
	var ps []effort.Span
	for k := 1; k <= 5; k++ {
		s := n * k / 6
		ps = append(ps, effort.Span{Start: s, End: s + n/20})
	}
	return ps
}

// BenchmarkPage renders articles of 5, 20, 80 and 320 KB of XML with five
// passages each; the target is at most 2 ms for 20 KB, and a time linear in
// the size (MB/s about constant).
func BenchmarkPage(b *testing.B) {
	for _, kb := range []int{5, 20, 80, 320} {
		a, size := benchArticle(b, kb<<10)
		ps := benchPassages(a.Len)
		b.Run(fmt.Sprintf("%dKB", kb), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				var err error
				buf, err = AppendPage(buf[:0], a, ps, Options{})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// wikipediaDir is the folder of the real Wikipedia articles (INEX 2009
// format), relative to this package; tests and benchmarks skip without it.
const wikipediaDir = "../../shared/data/wikipedia"

// BenchmarkPageWikipedia renders every real article of wikipediaDir (77
// articles, 0.9 MB of XML: English, Chinese, Korean) with three passages each;
// MB/s is over their XML.
func BenchmarkPageWikipedia(b *testing.B) {
	d, err := article.OpenDir(wikipediaDir)
	if err != nil {
		b.Skipf("no real articles: %v", err)
	}
	type doc struct {
		a  *article.Article
		ps []effort.Span
	}
	var docs []doc
	size := 0
	for _, id := range d.IDs() {
		a, err := d.Parse(id)
		if err != nil {
			b.Fatal(err)
		}
		p, _ := d.Path(id)
		if st, err := os.Stat(p); err == nil {
			size += int(st.Size())
		}
		n := a.Len
		docs = append(docs, doc{a, []effort.Span{{Start: n / 5, End: n/5 + 200}, {Start: n / 2, End: n/2 + 400}, {Start: 4 * n / 5, End: 4*n/5 + 100}}})
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		for _, d := range docs {
			buf, err = AppendPage(buf[:0], d.a, d.ps, Options{})
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}
