package render

import (
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"github.com/readsim/readsim/effort"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/readsim/readsim/index/article"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func parse(t testing.TB, name, src string) *article.Article {
	t.Helper()
	a, err := article.Parse(strings.NewReader(src), name)
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	return a
}

func render(t testing.TB, a *article.Article, ps []effort.Span, opt Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Page(&b, a, ps, opt); err != nil {
		t.Fatalf("Page: %v", err)
	}
	if _, err := checkPage(a, ps, b.Bytes(), opt); err != nil {
		t.Fatalf("%v\n%s", err, b.Bytes())
	}
	return b.Bytes()
}

// The markup of the anchors and arrows, as documented.
func anchor(k, o int) string {
	return fmt.Sprintf(`<span class="rs-ui rs-pass" id="p%d" data-o="%d"></span>`, k, o)
}

const back = `<a class="rs-arrow" href="./" aria-label="Back to the results">←</a>`

func next(k int) string {
	return `<span class="rs-ui rs-nav">` + back +
		fmt.Sprintf(`<a class="rs-arrow" href="#p%d" aria-label="Next passage">↓</a></span>`, k)
}

const last = `<span class="rs-ui rs-nav">` + back +
	`<a class="rs-arrow" href="#top" aria-label="Back to the top of the article">↑</a></span>`

const xl = ` xmlns:xlink="http://www.w3.org/1999/xlink"`

func TestPage(t *testing.T) {
	tests := []struct {
		name    string
		xml     string
		ps      []effort.Span
		opt     Options
		want    []string // substrings of the page
		notWant []string
	}{{
		name: "passage on an inline element",
		xml:  `<article><p>Hello <b>big</b> world</p></article>`,
		ps:   []effort.Span{{Start: 6, End: 9}},
		want: []string{`<p data-o="0">Hello <b data-o="6">` + anchor(1, 6) + `<mark data-o="6">big</mark>` + last + `</b> world</p>`},
	}, {
		name: "passage cutting through elements",
		xml:  `<article><p>ab<b>cd</b>ef</p></article>`,
		ps:   []effort.Span{{Start: 1, End: 5}},
		want: []string{`<p data-o="0">a` + anchor(1, 1) + `<mark data-o="1">b</mark><b data-o="2"><mark data-o="2">cd</mark></b><mark data-o="4">e</mark>` + last + `f</p>`},
	}, {
		name: "two passages given out of order chain",
		xml:  `<article><p>one two three</p></article>`,
		ps:   []effort.Span{{Start: 8, End: 13}, {Start: 0, End: 3}},
		want: []string{
			`<p data-o="0">` + anchor(1, 0) + `<mark data-o="0">one</mark>` + next(2) + ` two ` + anchor(2, 8) + `<mark data-o="8">three</mark>` + last + `</p>`,
			`<nav id="top" class="rs-ui rs-top" aria-label="Passages">` + back + `<a class="rs-arrow" href="#p1" aria-label="First passage">↓</a><label for="rs-hl" class="rs-switch">Highlight</label></nav>`,
		},
	}, {
		name: "overlapping passages merge",
		xml:  `<article><p>abcdef</p></article>`,
		ps:   []effort.Span{{Start: 0, End: 3}, {Start: 2, End: 5}, {Start: 9, End: 20}, {Start: -4, End: 0}},
		want: []string{`<p data-o="0">` + anchor(1, 0) + `<mark data-o="0">abcde</mark>` + last + `f</p>`},
	}, {
		name: "arrows follow a link the passage ends in",
		xml:  `<article` + xl + `><p>see <link xlink:href="../42.xml">the bridge</link> now</p></article>`,
		ps:   []effort.Span{{Start: 0, End: 7}},
		want: []string{`<p data-o="0">` + anchor(1, 0) + `<mark data-o="0">see </mark><a data-o="4" href="42.xhtml"><mark data-o="4">the</mark> bridge</a>` + last + ` now</p>`},
	}, {
		name: "arrows before trailing white space",
		xml:  `<article><p>abc  </p><p>def</p></article>`,
		ps:   []effort.Span{{Start: 0, End: 5}},
		want: []string{`<p data-o="0">` + anchor(1, 0) + `<mark data-o="0">abc</mark>` + last + `<mark data-o="3">  </mark></p><p data-o="5">def</p>`},
	}, {
		name: "white space between list items is left alone",
		xml:  "<article><list>\n<entry>x</entry>\n<entry>y</entry>\n</list></article>",
		ps:   []effort.Span{{Start: 0, End: 6}},
		want: []string{"<ul data-o=\"0\">\n<li data-o=\"1\">" + anchor(1, 1) + `<mark data-o="1">x</mark></li>` + "\n" + `<li data-o="3"><mark data-o="3">y</mark>` + last + "</li>\n</ul>"},
	}, {
		name: "anchor moves past white space between sections",
		xml:  "<article><bdy><sec><p>a</p>\n</sec>\n<sec><p>b</p></sec></bdy></article>",
		ps:   []effort.Span{{Start: 2, End: 4}},
		want: []string{`<section data-o="3"><p data-o="3">` + anchor(1, 3) + `<mark data-o="3">b</mark>` + last + `</p></section>`},
	}, {
		name: "table in its own box, header cells",
		xml:  `<article><table><row><header>A</header><col>B</col></row></table></article>`,
		want: []string{`<div class="rs-table" data-o="0"><table><tr data-o="0"><th data-o="0">A</th><td data-o="1">B</td></tr></table></div>`},
	}, {
		name: "headings from section titles",
		xml:  `<article><bdy><sec><st>One</st><sec><st>Two</st></sec></sec><st>Loose</st></bdy></article>`,
		want: []string{`<div class="rs-body" data-o="0"><section class="rs-empty" data-o="0"><h2 data-o="0">One</h2><section class="rs-empty" data-o="3"><h3 data-o="3">Two</h3></section></section><h2 data-o="6">Loose</h2></div>`},
	}, {
		name: "2006 article: title, conversion warnings as labelled metadata",
		xml:  `<article><name id="7">Name</name><conversionwarning>0</conversionwarning><body><section><title>T</title><p><emph2>i</emph2><emph3>b</emph3></p><normallist><item>x</item></normallist></section></body></article>`,
		want: []string{`<h1 data-o="0">Name</h1><details class="rs-about"><summary class="rs-ui">About this article</summary><div class="rs-field" data-o="4"><span class="rs-ui rs-label">Conversion warnings</span>0</div></details><div class="rs-body" data-o="5"><section data-o="5"><h2 data-o="5">T</h2><p data-o="6"><i data-o="6">i</i><b data-o="7">b</b></p><ul data-o="8"><li data-o="8">x</li></ul></section></div>`,
			`<title>Name</title>`, `<article class="rs-doc" data-o="0"`},
	}, {
		// text: T 0, 9 1, 5 2, Z 3, U 4, 7 5, ":C" 6-7, D 8, x 9
		name: "2009 header: title first, labelled fields folded, categories a labelled list",
		xml:  `<article><header><title>T</title><id>9</id><revision><id>5</id><timestamp>Z</timestamp><contributor><username>U</username><id>7</id></contributor></revision><categories><category>:C</category><category>D</category></categories></header><bdy><p>x</p></bdy></article>`,
		want: []string{`<article class="rs-doc rs-flex" data-o="0" data-len="10" data-id="a"><header class="rs-head" data-o="0"><h1 data-o="0">T</h1>` +
			`<details class="rs-about"><summary class="rs-ui">About this article</summary>` +
			`<div class="rs-field" data-o="1"><span class="rs-ui rs-label">Article id</span>9</div>` +
			`<div data-o="2"><div class="rs-field" data-o="2"><span class="rs-ui rs-label">Revision</span>5</div>` +
			`<div class="rs-field" data-o="3"><span class="rs-ui rs-label">Last edited</span>Z</div>` +
			`<div class="rs-field" data-o="4"><span class="rs-ui rs-label">Contributor</span><span data-o="4">U</span><span class="rs-sub" data-o="5"><span class="rs-ui rs-label">user id</span>7</span></div></div></details>` +
			`<nav class="rs-cats" data-o="6"><h2 class="rs-ui">Categories</h2><ul><li class="rs-cat" data-o="6"><span class="rs-colon" data-o="6">:</span>C</li><li class="rs-cat" data-o="8">D</li></ul></nav></header>` +
			`<div class="rs-body" data-o="9"><p data-o="9">x</p></div></article>`,
			`<title>T</title>`},
	}, {
		name: "a passage in the folded metadata unfolds it",
		xml:  `<article><header><title>T</title><id>9</id><revision><id>5</id></revision></header><bdy><p>x</p></bdy></article>`,
		ps:   []effort.Span{{Start: 2, End: 3}},
		want: []string{`<details class="rs-about" open="open"><summary class="rs-ui">About this article</summary><div class="rs-field" data-o="1"><span class="rs-ui rs-label">Article id</span>9</div><div data-o="2"><div class="rs-field" data-o="2"><span class="rs-ui rs-label">Revision</span>` + anchor(1, 2) + `<mark data-o="2">5</mark>` + last + `</div></div></details>`},
	}, {
		name: "categories stay in place when the root holds loose text",
		xml:  `<article><header><title>T</title><categories><category>C</category></categories></header>loose <b>x</b></article>`,
		want: []string{`<article class="rs-doc" data-o="0" data-len="9" data-id="a"><header class="rs-head" data-o="0"><h1 data-o="0">T</h1><nav class="rs-cats" data-o="1"><h2 class="rs-ui">Categories</h2><ul><li class="rs-cat" data-o="1">C</li></ul></nav></header>loose <b data-o="8">x</b></article>`},
	}, {
		name:    "semantic wrappers are transparent, even around the header",
		xml:     `<article><sport wordnetid="100523513" confidence="0.95"><header><title>T</title><categories><category>C</category></categories></header><bdy><p>a <person wordnetid="1" confidence="0.9"><country wordnetid="2">b</country></person> c</p><list><person wordnetid="1"><entry>d</entry></person></list><table><row><person wordnetid="1"><header>e</header><col>f</col></person></row></table></bdy></sport></article>`,
		want:    []string{`<title>T</title>`, `<article class="rs-doc rs-flex" data-o="0"`, `<header class="rs-head" data-o="0"><h1 data-o="0">T</h1>`, `<p data-o="2">a b c</p><ul data-o="7"><li data-o="7">d</li></ul><div class="rs-table" data-o="8"><table><tr data-o="8"><th data-o="8">e</th><td data-o="9">f</td></tr></table></div>`},
		notWant: []string{"sport", "person", "country", "wordnetid", "confidence", `<span data-o="4">`},
	}, {
		name: "section levels: sec h2, ss1 h3, ss2 h4 (also directly in a sec)",
		xml:  `<article><bdy><sec><st>A</st><ss1><st>B</st><ss2><st>C</st></ss2></ss1><ss2><st>D</st></ss2></sec></bdy></article>`,
		want: []string{`<section class="rs-empty" data-o="0"><h2 data-o="0">A</h2><section class="rs-empty" data-o="1"><h3 data-o="1">B</h3><section class="rs-empty" data-o="2"><h4 data-o="2">C</h4></section></section><section class="rs-empty" data-o="3"><h4 data-o="3">D</h4></section></section>`},
	}, {
		// a heading with nothing under it (its sub-section empty too), an
		// image with no caption, an empty list item and paragraph are
		// hidden; a section with text, or with a passage, is not
		name: "empty shells",
		xml:  `<article><bdy><sec><st>R</st><ss1><st>S</st> </ss1></sec><sec><st>T</st><p>x</p><p> </p><image src="i.jpg"> </image><list><entry>y</entry><entry> </entry></list></sec><sec><st>U</st> </sec></bdy></article>`,
		ps:   []effort.Span{{Start: 10, End: 11}},
		want: []string{`<section class="rs-empty" data-o="0"><h2 data-o="0">R</h2><section class="rs-empty" data-o="1"><h3 data-o="1">S</h3> </section></section>`,
			`<p class="rs-empty" data-o="5"> </p><figure class="rs-img rs-empty" data-o="6">`,
			`<li data-o="7">y</li><li class="rs-empty" data-o="8"> </li>`,
			`<section data-o="9"><h2 data-o="9">U</h2>`},
	}, {
		name: "table: caption, header cells directly in the table make a row",
		xml:  `<article><table><caption>Cap</caption><header>A</header><header>B</header><row><col>1</col><col>2</col></row></table></article>`,
		want: []string{`<div class="rs-table" data-o="0"><table><caption data-o="0">Cap</caption><tr><th data-o="3">A</th><th data-o="4">B</th></tr><tr data-o="5"><td data-o="5">1</td><td data-o="6">2</td></tr></table></div>`},
	}, {
		name:    "image: its caption, labelled, no image fetched",
		xml:     `<article><p>a<image width="300px" src="x.jpg" type="thumb"><caption>cap</caption></image></p></article>`,
		want:    []string{`<div class="rs-p" data-o="0">a<figure class="rs-img" data-o="1"><span class="rs-ui rs-label">Image</span><figcaption data-o="1">cap</figcaption></figure></div>`},
		notWant: []string{"x.jpg", "<img", "300px"},
	}, {
		name: "math as monospace text in an indent",
		xml:  `<article><p>x<indent><math>T_d = \frac {a} {b}</math></indent></p></article>`,
		want: []string{`<div class="rs-p" data-o="0">x<div class="rs-indent" data-o="1"><code class="rs-math" data-o="1">T_d = \frac {a} {b}</code></div></div>`},
	}, {
		// text: a 0, 1 1, 9 2, 1 3, n 4, 1 5, m 6, 9 7, o 8
		name: "a footnote mark opens its note in a drawer when the note exists",
		xml: `<article` + xl + `><p>a<ref xlink:type="simple" xlink:href="#xpointer(//reflist/entry[@id=%221%22])">1</ref><ref xlink:href="#xpointer(//reflist/entry[@id=%229%22])">9</ref></p>` +
			`<reflist><entry id="1">1n</entry><entry id="1">1m</entry><entry id="9&quot;x">9o</entry></reflist></article>`,
		want: []string{`<p data-o="0">a<button class="rs-ref" data-o="1" type="button" popovertarget="rs-fn-1"><sup class="rs-mark">1</sup></button><sup class="rs-ref" data-o="2">9</sup></p>`,
			`<ol class="rs-refs" data-o="3"><li class="rs-fn" data-o="3" id="rs-fn-1" popover="auto" value="1"><button type="button" class="rs-ui rs-fn-x" popovertarget="rs-fn-1" popovertargetaction="hide" aria-label="Close the note">×</button>1n</li><li class="rs-fn" data-o="5">1m</li><li class="rs-fn" data-o="7">9o</li></ol>`},
	}, {
		name: "a reader's language: lang from the article, the page's own words in English",
		xml:  `<article><header><title>語</title><id>1</id></header><bdy><p>中文的文章，中文的文章。</p></bdy></article>`,
		want: []string{`lang="zh" xml:lang="zh"`, `<nav id="top" class="rs-ui rs-top" aria-label="Passages" lang="en">`,
			`<summary class="rs-ui" lang="en">About this article</summary><div class="rs-field" data-o="1"><span class="rs-ui rs-label" lang="en">Article id</span>1</div>`},
	}, {
		name:    "links to articles the prototype does not have stay text",
		xml:     `<article` + xl + `><p><link xlink:href="../42.xml">x</link><link xlink:href="../929/43.xml">y</link></p></article>`,
		opt:     Options{ArticleURL: func(id string) string { return map[string]string{"42": "/article/42"}[id] }},
		want:    []string{`<p data-o="0"><a data-o="0" href="/article/42">x</a><span class="rs-link" data-o="1">y</span></p>`},
		notWant: []string{"43"},
	}, {
		name: "a passage of white space between blocks: the anchor at its start, inside it",
		xml:  "<article><bdy>\n\n<p>abc</p></bdy></article>",
		ps:   []effort.Span{{Start: 0, End: 2}},
		want: []string{`<div class="rs-body" data-o="0">` + anchor(1, 0) + "\n\n" + last + `<p data-o="2">abc</p></div>`},
	}, {
		name: "a passage starting on white space: the anchor at its first text",
		xml:  "<article><bdy>\n\n<p>abc</p></bdy></article>",
		ps:   []effort.Span{{Start: 0, End: 3}},
		want: []string{`<div class="rs-body" data-o="0">` + "\n\n" + `<p data-o="2">` + anchor(1, 2) + `<mark data-o="2">a</mark>` + last + `bc</p></div>`},
	}, {
		name: "two passages in one link: the link is split around the arrows",
		xml:  `<article` + xl + `><p><link xlink:href="../42.xml">ab<b>cd</b>ef</link> g</p></article>`,
		ps:   []effort.Span{{Start: 0, End: 3}, {Start: 3, End: 5}},
		want: []string{`<p data-o="0"><a data-o="0" href="42.xhtml">` + anchor(1, 0) + `<mark data-o="0">ab</mark><b data-o="2"><mark data-o="2">c</mark></b></a>` + next(2) +
			`<a data-o="3" href="42.xhtml"><b data-o="3">` + anchor(2, 3) + `<mark data-o="3">d</mark></b><mark data-o="4">e</mark>f</a>` + last + ` g</p>`},
	}, {
		name: "paragraph holding a list becomes a div",
		xml:  `<article><p>a<list><entry>b</entry></list></p></article>`,
		want: []string{`<div class="rs-p" data-o="0">a<ul data-o="1"><li data-o="1">b</li></ul></div>`},
	}, {
		name: "escaping",
		xml:  `<article><p>a&#13;b &lt;c&gt; ]]&gt; &amp; "q" 'a'</p></article>`,
		want: []string{`<p data-o="0">a&#13;b &lt;c&gt; ]]&gt; &amp; "q" 'a'</p>`},
	}, {
		name: "links: article, external, javascript, nested",
		xml: `<article` + xl + `><p><outsidelink xlink:href="http://example.org/?a=1&amp;b=&quot;2&quot;">x</outsidelink>` +
			`<outsidelink xlink:href="javascript:alert(1)">y</outsidelink>` +
			`<collectionlink xlink:href="5.xml">z<link xlink:href="../6.xml">w</link></collectionlink></p></article>`,
		want: []string{
			`<a class="rs-ext" data-o="0" href="http://example.org/?a=1&amp;b=&quot;2&quot;" rel="external nofollow noopener noreferrer">x</a>`,
			`<span data-o="1">y</span>`,
			`<a data-o="2" href="5.xhtml">z<span class="rs-link" data-o="3">w</span></a>`,
		},
		notWant: []string{"javascript"},
	}, {
		name: "no passages: no down arrow",
		xml:  `<article><p>x</p></article>`,
		want: []string{`<nav id="top" class="rs-ui rs-top" aria-label="Passages">` + back + `<label for="rs-hl" class="rs-switch">Highlight</label></nav>`,
			`<input type="checkbox" id="rs-hl" class="rs-ui" checked="checked"/>`,
			`<meta name="viewport" content="width=device-width, initial-scale=1"/>`,
			`<html xmlns="http://www.w3.org/1999/xhtml" lang="en" xml:lang="en">`,
			`<style>` + CSS + `</style>`},
		notWant: []string{`class="rs-ui rs-nav"`, `class="rs-ui rs-pass"`, "<mark"},
	}, {
		name:    "highlight off, stylesheet, script and URLs of a server",
		xml:     `<article` + xl + `><p><link xlink:href="../42.xml">x</link></p></article>`,
		ps:      []effort.Span{{Start: 0, End: 1}},
		opt:     Options{NoHighlight: true, StylesheetURL: "/s/render.css", ScriptURL: "/s/render.js", ResultsURL: "/search?q=a&b", ArticleURL: func(id string) string { return "/article/" + id + "?q=a&b" }, Lang: "fi"},
		want:    []string{`<input type="checkbox" id="rs-hl" class="rs-ui"/>`, `<link rel="stylesheet" href="/s/render.css"/>`, `<script src="/s/render.js" defer="defer"></script>`, `href="/search?q=a&amp;b"`, `<a data-o="0" href="/article/42?q=a&amp;b">`, `lang="fi" xml:lang="fi"`},
		notWant: []string{"<style>", "checked"},
	}, {
		name: "an icon, and ← labelled for where it leads",
		xml:  `<article><p>x</p></article>`,
		ps:   []effort.Span{{Start: 0, End: 1}},
		opt:  Options{IconURL: "/s/icon.svg?a&b", ResultsURL: "/", ResultsLabel: `Back to the "start" page`},
		want: []string{"</title>\n" + `<link rel="icon" href="/s/icon.svg?a&amp;b"/>` + "\n<style>",
			`<a class="rs-arrow" href="/" aria-label="Back to the &quot;start&quot; page">←</a><a class="rs-arrow" href="#p1" aria-label="First passage">↓</a>`,
			`<a class="rs-arrow" href="/" aria-label="Back to the &quot;start&quot; page">←</a><a class="rs-arrow" href="#top"`},
		notWant: []string{"Back to the results"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := parse(t, "a.xml", tt.xml)
			page := string(render(t, a, tt.ps, tt.opt))
			for _, w := range tt.want {
				if !strings.Contains(page, w) {
					t.Errorf("page lacks\n%s\n---- page:\n%s", w, page)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(page, w) {
					t.Errorf("page contains %q", w)
				}
			}
		})
	}
}

func TestShownPassages(t *testing.T) {
	tests := []struct {
		in   []effort.Span
		n    int
		want []effort.Span
	}{
		{nil, 10, []effort.Span{}},
		{[]effort.Span{{Start: 5, End: 7}, {Start: 1, End: 2}}, 10, []effort.Span{{Start: 1, End: 2}, {Start: 5, End: 7}}},
		{[]effort.Span{{Start: 1, End: 4}, {Start: 3, End: 6}, {Start: 6, End: 8}}, 10, []effort.Span{{Start: 1, End: 6}, {Start: 6, End: 8}}},
		{[]effort.Span{{Start: 1, End: 9}, {Start: 2, End: 3}}, 10, []effort.Span{{Start: 1, End: 9}}},
		{[]effort.Span{{Start: -3, End: 2}, {Start: 8, End: 15}, {Start: 12, End: 14}, {Start: 4, End: 4}, {Start: 5, End: 3}}, 10, []effort.Span{{Start: 0, End: 2}, {Start: 8, End: 10}}},
	}
	for _, tt := range tests {
		got := ShownPassages(tt.in, tt.n)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("ShownPassages(%v, %d) = %v, want %v", tt.in, tt.n, got, tt.want)
		}
	}
}

// An Article built by hand may hold characters XML cannot carry; they become
// U+FFFD one for one, so offsets still hold.
func TestUnencodableCharacters(t *testing.T) {
	text := "a\x01b\xffc\r\uFFFEd\x00"
	n := utf8.RuneCountInString(text) // 9: the invalid byte counts one
	a := &article.Article{ID: "h", Text: text, Len: n, Elements: []article.Element{
		{Name: "article", Pos: 1, End: n, Parent: -1, Next: 2},
		{Name: "p", Pos: 1, End: n, Parent: 0, Depth: 1, Next: 2},
	}}
	page := string(render(t, a, []effort.Span{{Start: 2, End: 4}}, Options{}))
	want := `<p data-o="0">a` + "\uFFFD" + anchor(1, 2) + `<mark data-o="2">b` + "\uFFFD" + `</mark>` + last + "c&#13;\uFFFDd\uFFFD</p>"
	if !strings.Contains(page, want) {
		t.Errorf("page lacks\n%s\n---- page:\n%s", want, page)
	}
}

func TestInconsistentArticle(t *testing.T) {
	good := func() *article.Article {
		return &article.Article{ID: "x", Text: "abcd", Len: 4, Elements: []article.Element{
			{Name: "article", End: 4, Parent: -1, Next: 3},
			{Name: "p", Start: 0, End: 2, Parent: 0, Depth: 1, Next: 2},
			{Name: "p", Start: 2, End: 4, Parent: 0, Depth: 1, Next: 3},
		}}
	}
	tests := []struct {
		name  string
		spoil func(a *article.Article)
	}{
		{"no elements", func(a *article.Article) { a.Elements = nil }},
		{"wrong length", func(a *article.Article) { a.Len = 5 }},
		{"root short", func(a *article.Article) { a.Elements[0].End = 3 }},
		{"child past parent", func(a *article.Article) { a.Elements[2].End = 9 }},
		{"children overlap", func(a *article.Article) { a.Elements[2].Start = 1 }},
		{"bad next", func(a *article.Article) { a.Elements[1].Next = 1 }},
		{"bad parent", func(a *article.Article) { a.Elements[2].Parent = 1 }},
	}
	if err := Page(new(bytes.Buffer), good(), nil, Options{}); err != nil {
		t.Fatalf("the good article: %v", err)
	}
	for _, tt := range tests {
		a := good()
		tt.spoil(a)
		if err := Page(new(bytes.Buffer), a, nil, Options{}); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
	if err := Page(new(bytes.Buffer), nil, nil, Options{}); err == nil {
		t.Errorf("nil article: no error")
	}
}

func TestHostileArticle(t *testing.T) {
	a, err := article.ParseFile("testdata/hostile.xml")
	if err != nil {
		t.Fatal(err)
	}
	ps := []effort.Span{{Start: 10, End: 25}, {Start: 96, End: 146}}
	for _, opt := range []Options{{}, {StylesheetURL: "/c.css"}} {
		page := string(render(t, a, ps, opt)) // checkPage: allowed elements, attributes, URLs only
		for _, bad := range []string{"javascript:", " onclick=", " onload=", " onerror=", " onmouseover=", "<script", "<iframe", "<svg", "<img", "<object", " style=", "position:fixed", "evil.example", "data:text"} {
			if strings.Contains(strings.ToLower(markup(t, page)), bad) {
				t.Errorf("%q reaches the page", bad)
			}
		}
		// what is text in the article stays text, escaped
		for _, want := range []string{`&lt;script&gt;alert(8)&lt;/script&gt;`, `]]&gt;`, `&#13;CR`, `alert("script element") &amp;&amp; document.cookie`, `&lt;b onclick='alert(1)'&gt;x&lt;/b&gt;`} {
			if !strings.Contains(page, want) {
				t.Errorf("page lacks %s", want)
			}
		}
		if n := strings.Count(page, `id="top"`); n != 1 {
			t.Errorf("%d elements with id top", n)
		}
		if strings.Contains(page, "<style>") != (opt.StylesheetURL == "") {
			t.Errorf("style element present: %v, stylesheet URL %q", strings.Contains(page, "<style>"), opt.StylesheetURL)
		}
	}
}

// markup returns the tags of page without its text: element names and
// attributes, as <name attr="value" …>.
func markup(t *testing.T, page string) string {
	var b strings.Builder
	d := xml.NewDecoder(strings.NewReader(page))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return b.String()
		}
		if err != nil {
			t.Fatal(err)
		}
		if s, ok := tok.(xml.StartElement); ok {
			b.WriteString("<" + s.Name.Local)
			for _, a := range s.Attr {
				fmt.Fprintf(&b, " %s=%q", a.Name.Local, a.Value)
			}
			b.WriteString(">")
		}
	}
}

func TestCSS(t *testing.T) {
	if strings.ContainsAny(CSS, "<>&") {
		t.Errorf("CSS contains one of < > &")
	}
	if h := CSSHash(); !strings.HasPrefix(h, "sha256-") || len(h) != len("sha256-")+44 {
		t.Errorf("CSSHash() = %q", h)
	}
}

// goldenCases are the articles of testdata/ with their passages.
var goldenCases = []struct {
	file string
	ps   []effort.Span
}{
	{"2005", []effort.Span{{Start: 200, End: 400}, {Start: 1000, End: 1500}, {Start: 2758, End: 2763}}},
	{"1105", []effort.Span{{Start: 60, End: 300}, {Start: 2100, End: 2400}}},
	{"hostile", []effort.Span{{Start: 10, End: 25}, {Start: 96, End: 146}}},
	// one in the infobox, one ending with the footnote mark, one in the
	// hidden markup of a line
	{"wikimarkup", []effort.Span{{Start: 51, End: 59}, {Start: 268, End: 281}, {Start: 314, End: 358}}},
}

// TestGolden guards against unintended changes to whole pages. The golden
// files are the program's own output, reviewed by eye when written with
// -update; they prove nothing about correctness. That is proved by the
// hand-derived assertions of TestPage, by checkPage (every character of the
// article on the page, every data-o, the anchor chain, the marks) and by the
// hostile article's safety checks, which every golden page also passes.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.file, func(t *testing.T) {
			a, err := article.ParseFile(filepath.Join("testdata", c.file+".xml"))
			if err != nil {
				t.Fatal(err)
			}
			page := render(t, a, c.ps, Options{StylesheetURL: "render.css"})
			golden := filepath.Join("testdata", c.file+".golden.xhtml")
			if *update {
				if err := os.WriteFile(golden, page, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(page, want) {
				t.Errorf("page differs from %s (review and run go test -update):\n%s", golden, firstDiff(want, page))
			}
		})
	}
}

func firstDiff(want, got []byte) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	from := max(i-80, 0)
	return fmt.Sprintf("at byte %d:\nwant …%s\n got …%s", i, want[from:min(i+80, len(want))], got[from:min(i+80, len(got))])
}

// TestCorpusSample renders every article of corpus-sample with a few passages
// and checks each page.
func TestCorpusSample(t *testing.T) {
	var files []string
	filepath.WalkDir("../corpus-sample/articles", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".xml") {
			files = append(files, path)
		}
		return nil
	})
	if len(files) == 0 {
		t.Skip("no articles in ../corpus-sample/articles")
	}
	for _, f := range files {
		a, err := article.ParseFile(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		n := a.Len
		var second effort.Span // the second element that holds text
		for i, seen := 1, 0; i < len(a.Elements); i++ {
			if e := a.Elements[i]; e.End > e.Start && e.Depth >= 2 {
				if seen++; seen == 2 {
					second = effort.Span{Start: e.Start, End: e.End}
					break
				}
			}
		}
		for _, ps := range [][]effort.Span{nil, {{Start: n / 10, End: n / 5}, {Start: n / 2, End: n/2 + 300}, {Start: n - 50, End: n + 10}}, {second, {Start: n / 3, End: n/3 + 1}}, {{Start: 0, End: n}}} {
			var b bytes.Buffer
			if err := Page(&b, a, ps, Options{}); err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			if _, err := checkPage(a, ps, b.Bytes(), Options{}); err != nil {
				t.Errorf("%s with passages %v: %v", f, ps, err)
			}
		}
	}
	t.Logf("%d articles", len(files))
}

func TestRefTarget(t *testing.T) {
	tests := []struct{ href, want string }{
		{"#xpointer(//reflist/entry[@id=%221%22])", "1"},
		{"#xpointer(//reflist/entry[@id=%2212%22])", "12"},
		{`#xpointer(//reflist/entry[@id="7"])`, "7"},
		{"#xpointer(//reflist/entry[@id=%277%27])", "7"},
		{"#xpointer(//reflist/entry[@id=%221%27])", ""},
		{"#xpointer(//reflist/entry[@id=%22a%22])", ""},
		{"#xpointer(//reflist/entry[@id=%22%22])", ""},
		{"#xpointer(//reflist/entry[@id=%221%22)", ""},
		{"#xpointer(//reflist/entry[@id=1])", ""},
		{"../12.xml", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := refTarget(tt.href); got != tt.want {
			t.Errorf("refTarget(%q) = %q, want %q", tt.href, got, tt.want)
		}
	}
}
