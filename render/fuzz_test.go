package render

import (
	"bytes"
	"github.com/readsim/readsim/effort"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/article"
)

// passagesFrom turns fuzz bytes into passages over an article of n
// characters: each 4 bytes are a start and a length.
func passagesFrom(b []byte, n int) []effort.Span {
	var ps []effort.Span
	for ; len(b) >= 4 && len(ps) < 16; b = b[4:] {
		s := (int(b[0])<<8 | int(b[1])) % (n + 2)
		l := int(b[2])<<8 | int(b[3])
		ps = append(ps, effort.Span{Start: s - 1, End: s - 1 + l%(n+3)}) // may start before 0 or end past n
	}
	return ps
}

// fuzzRender renders a with passages from pb and checks the page.
func fuzzRender(t *testing.T, a *article.Article, pb []byte) {
	ps := passagesFrom(pb, a.Len)
	for _, opt := range []Options{{}, {NoHighlight: true, ResultsURL: "/search?q=a&b", StylesheetURL: "/c.css"}} {
		var b bytes.Buffer
		if err := Page(&b, a, ps, opt); err != nil {
			t.Fatalf("Page: %v", err)
		}
		if _, err := checkPage(a, ps, b.Bytes(), opt); err != nil {
			t.Fatalf("passages %v: %v\n%s", ps, err, b.Bytes())
		}
	}
}

// seeds are the articles of testdata, of the sample collection and the
// five smallest real Wikipedia articles of each language (2009 format:
// header, wrappers, references, tables, images).
func seeds(f *testing.F) [][]byte {
	var out [][]byte
	files, _ := filepath.Glob("testdata/*.xml")
	more, _ := filepath.Glob("../corpus-sample/articles/*/*.xml")
	files = append(files, more...)
	for _, lang := range []string{"en", "zh", "ko"} {
		real, _ := filepath.Glob(filepath.Join(wikipediaDir, lang, "*.xml"))
		sort.Slice(real, func(i, j int) bool { return fileSize(real[i]) < fileSize(real[j]) })
		files = append(files, real[:min(5, len(real))]...)
	}
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			out = append(out, b)
		}
	}
	return out
}

func fileSize(name string) int64 {
	st, err := os.Stat(name)
	if err != nil {
		return 0
	}
	return st.Size()
}

// FuzzPage renders arbitrary XML articles (those package article accepts)
// with arbitrary passages; every page must re-parse and pass checkPage.
func FuzzPage(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s, []byte{0, 10, 0, 40, 1, 0, 0, 200})
	}
	f.Add([]byte(`<article><p>a<b>b</b>c</p></article>`), []byte{0, 1, 0, 1})
	f.Fuzz(func(t *testing.T, data, pb []byte) {
		a, err := article.Parse(bytes.NewReader(data), "f.xml")
		if err != nil {
			return
		}
		fuzzRender(t, a, pb)
	})
}

// Pieces FuzzBuild assembles articles from: every element name the renderer
// knows in both collections (the 2009 header, references, images, math,
// semantic wrappers among them), some it does not, attributes that make
// links, footnotes and wrappers, and text that needs escaping.
var (
	fuzzNames = []string{"p", "sec", "st", "b", "it", "list", "entry", "table", "row", "col", "header",
		"title", "name", "section", "body", "bdy", "normallist", "item", "numberlist", "emph2", "emph3",
		"br", "person", "script", "style", "a", "template", "conversionwarning", "category", "sub",
		"id", "revision", "timestamp", "contributor", "username", "categories", "ss1", "ss2", "image",
		"caption", "math", "indent", "ref", "reflist", "weblink", "link", "sport"}
	fuzzAttrs = []string{``, ` xlink:href="../12.xml"`, ` xlink:href="12.xml"`, ` xlink:href="javascript:alert(1)"`,
		` xlink:href="http://example.org/?a=1&amp;b"`, ` onclick="alert(1)"`, ` style="x"`, ` id="top"`, ` class="rs-ui"`,
		` wordnetid="100523513" confidence="0.95"`, ` xlink:type="simple" xlink:href="#xpointer(//reflist/entry[@id=%221%22])"`,
		` id="1"`, ` id="2"`, ` xlink:href="#xpointer(//reflist/entry[@id=%222%22])"`, ` id="rs-fn-1"`, ` src="x.jpg"`}
	fuzzTexts = []string{"\n", " ", "word", "]]&gt;", "&lt;script&gt;", "&amp;", "&#13;", "\t", "é", "𝄞", "&#x2014;",
		"<![CDATA[<x>&]]>", "a long run of text with spaces ", "\"'", ":", "中文", "한국어", "\n\n\n"}
)

// FuzzBuild builds well-formed articles from a program of bytes, so that the
// fuzzer spends its time on the renderer rather than on XML syntax.
func FuzzBuild(f *testing.F) {
	f.Add([]byte{0, 0x80, 2, 0x81, 5, 0xC0, 0x40, 3, 0x82, 0xC0, 0xC0}, []byte{0, 1, 0, 3})
	f.Add([]byte{4, 5, 6, 0x82, 8, 0x81, 0xC0, 0x83, 0xC0, 0xC0, 0xC0}, []byte{0, 0, 0, 9, 0, 5, 0, 2})
	// <header><title>word</title><id>word</id><categories><category>:</category></categories></header><bdy>\n\n\n<p>word</p></bdy>
	f.Add([]byte{10, 11, 0x82, 0xC0, 30, 0x82, 0xC0, 35, 28, 0x8E, 0xC0, 0xC0, 0xC0, 15, 0x91, 0, 0x82, 0xC0, 0xC0}, []byte{0, 11, 0, 3, 0, 13, 0, 2})
	// <p><link …>word<b>word</b>word</link></p> with two passages in the link
	f.Add([]byte{0, 45, 0x82, 3, 0x82, 0xC0, 0x82, 0xC0, 0xC0}, []byte{0, 1, 0, 3, 0, 6, 0, 4})
	f.Fuzz(func(t *testing.T, prog, pb []byte) {
		var b strings.Builder
		b.WriteString(`<article xmlns:xlink="http://www.w3.org/1999/xlink">`)
		var open []string
		for i, op := range prog {
			switch {
			case op < 0x80: // open an element
				if len(open) >= 40 {
					continue
				}
				n := fuzzNames[int(op)%len(fuzzNames)]
				b.WriteString("<" + n + fuzzAttrs[(int(op)/len(fuzzNames)+i)%len(fuzzAttrs)] + ">")
				open = append(open, n)
			case op < 0xC0: // text
				b.WriteString(fuzzTexts[int(op-0x80)%len(fuzzTexts)])
			default: // close
				if len(open) > 0 {
					b.WriteString("</" + open[len(open)-1] + ">")
					open = open[:len(open)-1]
				}
			}
		}
		for len(open) > 0 {
			b.WriteString("</" + open[len(open)-1] + ">")
			open = open[:len(open)-1]
		}
		b.WriteString("</article>")
		a, err := article.Parse(strings.NewReader(b.String()), "b.xml")
		if err != nil {
			t.Fatalf("the builder made a bad article: %v\n%s", err, b.String())
		}
		fuzzRender(t, a, pb)
	})
}
