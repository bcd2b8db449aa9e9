package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/internal/ground/testfs"
)

// warnings collects a Reader's warnings.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) add(m string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, m)
}

// dtdArticle is an article of the INEX 2009 layout whose DOCTYPE names
// ../article.dtd and which uses an entity declared only there (&nbsp;,
// U+00A0, and &mdash;, U+2014).
func dtdArticle(title, body string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE article SYSTEM "../article.dtd">
<article><header><title>` + title + `</title></header><bdy><p>` + body + `&nbsp;&mdash;</p></bdy></article>`
}

// TestCollectionDTD checks a collection laid out as INEX 2009 (articles in
// folders, the DTD at the root): every article is read with the DTD's
// entities, the DTD is the collection's (not a skipped file), and a
// changed, new or removed DTD rebuilds the index, saying why.
func TestCollectionDTD(t *testing.T) {
	dir := t.TempDir()
	articles, idx := filepath.Join(dir, "articles"), filepath.Join(dir, "idx")
	testfs.Write(t, articles, map[string]string{
		"article.dtd": `<!ENTITY nbsp "&#160;"> <!ENTITY mdash "&#8212;">`,
		"en/1.xml":    dtdArticle("Lens", "A lens"),
		"en/2.xml":    dtdArticle("Bridge", "A bridge"),
		"ko/3.xml":    dtdArticle("다리", "다리는"),
	})
	var w warnings
	rebuild := func() *BuildResult {
		t.Helper()
		res, err := Build(BuildOptions{Articles: articles, Index: idx, Reader: &article.Reader{Root: articles, Warn: w.add}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := rebuild()
	if res.Indexed != 3 || len(res.Broken) != 0 || len(res.NotXML) != 0 || len(w.msgs) != 0 {
		t.Fatalf("indexed %d, broken %v, not XML %v, warnings %v; want 3 articles and nothing else", res.Indexed, res.Broken, res.NotXML, w.msgs)
	}
	if want := []string{filepath.Join(articles, "article.dtd")}; !reflect.DeepEqual(res.DTDs, want) {
		t.Errorf("DTDs %v, want %v", res.DTDs, want)
	}
	if want := map[string]int{"en": 2, "ko": 1}; !reflect.DeepEqual(res.Langs, want) {
		t.Errorf("languages %v, want %v", res.Langs, want)
	}
	x := openTest(t, idx)
	d, err := x.Article("1")
	if err != nil {
		t.Fatal(err)
	}
	// "Lens" + "A lens" + U+00A0 U+2014
	if want := "LensA lens\u00a0\u2014"; d.Text != want || d.Lang != "en" {
		t.Errorf("text %q lang %q, want %q and en", d.Text, d.Lang, want)
	}
	x.Close()

	// unchanged: nothing to do
	if res := rebuild(); res.Full || res.Indexed != 0 || res.Unchanged != 3 || res.Rebuilt != "" {
		t.Errorf("unchanged: %+v, want 3 unchanged", res)
	}
	// a changed DTD changes the text of the articles that use it
	later := time.Now().Add(time.Hour)
	testfs.Write(t, articles, map[string]string{"article.dtd": `<!ENTITY nbsp " "> <!ENTITY mdash "--">`})
	os.Chtimes(filepath.Join(articles, "article.dtd"), later, later)
	res = rebuild()
	if !res.Full || res.Indexed != 3 || !strings.Contains(res.Rebuilt, "the DTD article.dtd changed") {
		t.Errorf("DTD changed: full=%v indexed=%d rebuilt=%q, want a full build saying the DTD changed", res.Full, res.Indexed, res.Rebuilt)
	}
	x = openTest(t, idx)
	if d, _ := x.Article("1"); d == nil || d.Text != "LensA lens --" {
		t.Errorf("after the DTD changed: %+v, want the text LensA lens --", d)
	}
	x.Close()
	// a new DTD, then none
	testfs.Write(t, articles, map[string]string{"ko/extra.dtd": `<!ENTITY x "y">`})
	if res := rebuild(); !res.Full || !strings.Contains(res.Rebuilt, "the DTD ko/extra.dtd is new") {
		t.Errorf("new DTD: rebuilt=%q", res.Rebuilt)
	}
	os.Remove(filepath.Join(articles, "ko", "extra.dtd"))
	if res := rebuild(); !res.Full || !strings.Contains(res.Rebuilt, "the DTD ko/extra.dtd is gone") {
		t.Errorf("removed DTD: rebuilt=%q", res.Rebuilt)
	}
	// forcing the language rebuilds too, and analyses every article so
	res, err = Build(BuildOptions{Articles: articles, Index: idx, Reader: &article.Reader{Root: articles, Lang: "ko"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Full || !strings.Contains(res.Rebuilt, "language changed from detected per article to ko") || !reflect.DeepEqual(res.Langs, map[string]int{"ko": 3}) {
		t.Errorf("--lang ko: full=%v rebuilt=%q langs %v", res.Full, res.Rebuilt, res.Langs)
	}
}

// TestMissingDTDWarnsOnce checks that a collection whose DTD is missing is
// read with the built-in XHTML entities and warned about once, not once
// per article.
func TestMissingDTDWarnsOnce(t *testing.T) {
	dir := t.TempDir()
	articles := filepath.Join(dir, "articles")
	files := map[string]string{}
	for i := 1; i <= 5; i++ {
		files[fmt.Sprintf("en/%d.xml", i)] = dtdArticle("Lens", "A lens")
	}
	testfs.Write(t, articles, files)
	var w warnings
	res, err := Build(BuildOptions{Articles: articles, Index: filepath.Join(dir, "idx"), Workers: 3, Reader: &article.Reader{Root: articles, Warn: w.add}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Indexed != 5 || len(res.Broken) != 0 || len(res.DTDs) != 0 {
		t.Errorf("indexed %d broken %v DTDs %v, want 5 articles read with the built-in entities", res.Indexed, res.Broken, res.DTDs)
	}
	if len(w.msgs) != 1 || !strings.Contains(w.msgs[0], "article.dtd") {
		t.Errorf("warnings %q, want one about article.dtd", w.msgs)
	}
	// a --dtd file that does not exist is bad input
	_, err = Build(BuildOptions{Articles: articles, Index: filepath.Join(dir, "idx"), Reader: &article.Reader{Root: articles, DTD: filepath.Join(dir, "none.dtd")}})
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "none.dtd") {
		t.Errorf("missing --dtd: %v, want an InputError naming none.dtd", err)
	}
}

// TestBadArticlesAmongGood checks that articles the parser refuses (one
// nested 10,001 deep, a UTF-16 file, a file cut short) are skipped, counted
// and named, and the good ones indexed.
func TestBadArticlesAmongGood(t *testing.T) {
	deep := "<article>" + strings.Repeat("<sec>", article.MaxDepth) + "x" + strings.Repeat("</sec>", article.MaxDepth) + "</article>"
	utf16 := []byte{0xFF, 0xFE}
	for _, r := range `<article><p>lens</p></article>` {
		utf16 = append(utf16, byte(r), 0)
	}
	dir := t.TempDir()
	articles := filepath.Join(dir, "articles")
	testfs.Write(t, articles, map[string]string{
		"a/1.xml":    `<article><header><title>Lens</title></header><bdy><p>A lens.</p></bdy></article>`,
		"a/deep.xml": deep,
		"a/u16.xml":  string(utf16),
		"a/cut.xml":  `<article><header><title>Cut`,
		"b/2.xml":    `<article><header><title>Bridge</title></header><bdy><p>A bridge.</p></bdy></article>`,
	})
	res, err := Build(BuildOptions{Articles: articles, Index: filepath.Join(dir, "idx")})
	if err != nil {
		t.Fatal(err)
	}
	if res.Indexed != 2 || res.Articles != 2 {
		t.Errorf("indexed %d, articles %d, want 2 and 2", res.Indexed, res.Articles)
	}
	got := map[string]string{}
	for _, b := range res.Broken {
		got[filepath.Base(b.Path)] = b.Reason
	}
	for name, why := range map[string]string{"deep.xml": "deeper than 10000", "u16.xml": "UTF-16", "cut.xml": ""} {
		r, ok := got[name]
		if !ok || !strings.Contains(r, why) {
			t.Errorf("%s: skipped %v with %q, want skipped saying %q", name, ok, r, why)
		}
	}
	if len(res.Broken) != 3 {
		t.Errorf("broken %v, want 3", res.Broken)
	}
}

// TestDeepCandidates checks the depth bound on candidate elements: in an
// article of 4,999 nested sections each with a paragraph, only the
// sections and paragraphs at most maxCandidateDepth deep are candidates.
// Depths: article 0, bdy 1, the k-th section (k from 1) k+1, its paragraph
// k+2; sections 1…63 (depths 2…64) and paragraphs 1…62 (depths 3…64).
// Without the bound the candidates' XPaths alone would hold 25 million
// steps.
func TestDeepCandidates(t *testing.T) {
	const n = 4999
	var b strings.Builder
	b.WriteString("<article><bdy>")
	for k := 0; k < n; k++ {
		b.WriteString("<sec><p>word</p>")
	}
	b.WriteString(strings.Repeat("</sec>", n) + "</bdy></article>")
	dir := t.TempDir()
	testfs.Write(t, dir, map[string]string{"a/1.xml": b.String()})
	res, err := Build(BuildOptions{Articles: filepath.Join(dir, "a"), Index: filepath.Join(dir, "idx")})
	if err != nil {
		t.Fatal(err)
	}
	if res.Indexed != 1 || res.Elements != 63+62 {
		t.Errorf("indexed %d, %d candidate elements, want 1 and 125", res.Indexed, res.Elements)
	}
}

// TestCandidatesRealMarkup checks the candidate elements and word breaks
// of INEX 2009 markup: semantic wrappers are never candidates and do not
// break words, their text is kept; list entries and image captions are
// candidates, reference-list entries are not; the body's own text runs
// (inline elements and wrappers included, cut at block elements, white
// space trimmed) are.
//
// Text content: "Wrapped" [0,7); bdy's run "Lead text here." [7,22); p[1]
// "Red" [22,25) + wrapper "Fox" [25,28) + "es run." [28,35) → "RedFoxes
// run." [22,35); list entry[1] "Entry text" [35,45); image/caption "A
// caption" [45,54); p[2] holds a reflist whose entry[1] is "Cited work"
// [54,64); wrapper country holds p "x" [64,65); bdy's run "  Tail. " [65,73)
// trimmed to "Tail." [67,72).
func TestCandidatesRealMarkup(t *testing.T) {
	const a = `<article><header><title>Wrapped</title></header><bdy>` +
		`Lead <b>text</b> here.` +
		`<p>Red<animal wordnetid="1" confidence="0.8">Fox</animal>es run.</p>` +
		`<list><entry>Entry text</entry></list>` +
		`<image><caption>A caption</caption></image>` +
		`<p><reflist><entry id="1">Cited work</entry></reflist></p>` +
		`<country wordnetid="2"><p>x</p></country>  Tail. </bdy></article>`
	dir := t.TempDir()
	testfs.Write(t, dir, map[string]string{"a/1.xml": a, "a/2.xml": `<article><p>other</p></article>`})
	idx := filepath.Join(dir, "idx")
	if _, err := Build(BuildOptions{Articles: filepath.Join(dir, "a"), Index: idx}); err != nil {
		t.Fatal(err)
	}
	x := openTest(t, idx)
	d, err := x.Article("1")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range d.Elems {
		got = append(got, fmt.Sprintf("%s %d %d", e.XPath, e.Start, e.End))
	}
	want := []string{
		"/article[1]/bdy[1]/text() 7 22",
		"/article[1]/bdy[1]/p[1] 22 35",
		"/article[1]/bdy[1]/list[1]/entry[1] 35 45",
		"/article[1]/bdy[1]/image[1]/caption[1] 45 54",
		"/article[1]/bdy[1]/p[2] 54 64",
		"/article[1]/bdy[1]/country[1]/p[1] 64 65",
		"/article[1]/bdy[1]/text() 67 72",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("candidates\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// the wrapper does not break "RedFoxes": one word, stemmed "redfox"
	if r := search(t, x, "redfoxes"); len(r) != 1 || r[0].ID != "1" || len(r[0].Passages) != 1 || r[0].Passages[0].Start != 22 {
		t.Errorf("redfoxes: %+v, want article 1, passage p[1]", r)
	}
	// the lead is found in the body's run
	if r := search(t, x, "lead"); len(r) != 1 || !reflect.DeepEqual(spans(r[0].Passages), []span{{7, 22, "/article[1]/bdy[1]/text()"}}) {
		t.Errorf("lead: %+v, want the run [7,22)", r)
	}
	if r := search(t, x, "fox"); len(r) != 0 {
		t.Errorf("fox matches %+v: the wrapper split the word", r)
	}
}

// The CJK precision collection. Terms (bigrams; the title is part of the
// text), worked out by hand:
//
//	101 zh, title 意大利: 意大 大利 | 意大 大利 利是 是一 一个 个国 国家
//	102 zh, 大 and 利 apart: 大象 | 大象 象很 很大 | 利息 息很 很高
//	103 zh, 大利 alone: 地名 | 大利 利是 是一 一个 个地 地名
//	104 en, 意大利 inside English: itali | itali 意大 大利 countri
//	105 en, 大 and 利 apart in English: charact | charact 大 利
//	201 ko, title 송혜교: 송혜 혜교 | 송혜 혜교 교는 배우 우이 이다
//	202 ko: 배우 | 배우 목록
var cjkArticles = map[string]string{
	"zh/101.xml": `<article><header><title>意大利</title></header><bdy><p>意大利是一个国家。</p></bdy></article>`,
	"zh/102.xml": `<article><header><title>大象</title></header><bdy><p>大象很大。</p><p>利息很高。</p></bdy></article>`,
	"zh/103.xml": `<article><header><title>地名</title></header><bdy><p>大利是一个地名。</p></bdy></article>`,
	"en/104.xml": `<article><header><title>Italy</title></header><bdy><p>Italy (意大利) is a country.</p></bdy></article>`,
	"en/105.xml": `<article><header><title>Characters</title></header><bdy><p>The characters 大 and 利.</p></bdy></article>`,
	"ko/201.xml": `<article><header><title>송혜교</title></header><bdy><p>송혜교는 배우이다.</p></bdy></article>`,
	"ko/202.xml": `<article><header><title>배우</title></header><bdy><p>배우 목록</p></bdy></article>`,
}

// TestCJKPrecision checks that a CJK query matches articles sharing a
// bigram with it and never articles sharing only single characters, in a
// collection mixing English, Chinese and Korean.
//
// 意大利 is 意大 大利: 101 and 104 hold both, 103 holds 大利; 102 and 105
// hold 大 and 利 apart. 101 has both in its title too (title boost 2): it
// is first. 104 (5 tokens) holds both in its text, 103 (7 tokens) one:
// BM25 ranks 104 above 103. A lone 大 is a character term: it fetches
// every article holding 大, alone (105) or in a bigram (101–104), and no
// other; the order is TestCharacterQueries's business. 송혜교가 is 송혜 혜교
// 교가: only 201 holds a bigram of it (its 송혜교는).
func TestCJKPrecision(t *testing.T) {
	dir := t.TempDir()
	articles, idx := filepath.Join(dir, "articles"), filepath.Join(dir, "idx")
	testfs.Write(t, articles, cjkArticles)
	res, err := Build(BuildOptions{Articles: articles, Index: idx})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"en": 2, "zh": 3, "ko": 2}; !reflect.DeepEqual(res.Langs, want) {
		t.Fatalf("languages %v, want %v", res.Langs, want)
	}
	x := openTest(t, idx)
	for _, tc := range []struct {
		q       string
		ids     []string
		inOrder bool
	}{
		{"意大利", []string{"101", "104", "103"}, true},
		{"大", []string{"101", "102", "103", "104", "105"}, false},
		{"利息", []string{"102"}, true},
		{"송혜교", []string{"201"}, true},
		{"송혜교가", []string{"201"}, true},
		{"italy", []string{"104"}, true}, // itali: the zh articles hold no Latin word
	} {
		var ids []string
		for _, r := range search(t, x, tc.q) {
			ids = append(ids, r.ID)
		}
		if !tc.inOrder {
			sort.Strings(ids)
		}
		if !reflect.DeepEqual(ids, tc.ids) {
			t.Errorf("%q: fetched %v, want %v", tc.q, ids, tc.ids)
		}
	}
	// snippets mark the overlapping bigrams as one
	for _, tc := range []struct{ q, id, want string }{
		{"意大利", "101", "[意大利]是一个国家。"},
		{"意大利", "104", "Italy ([意大利]) is a country."},
		{"송혜교", "201", "[송혜교]는 배우이다."},
	} {
		pq, err := x.Prepare(tc.q)
		if err != nil {
			t.Fatal(err)
		}
		d, err := x.Article(tc.id)
		if err != nil {
			t.Fatal(err)
		}
		ps := x.Browse(d, pq, Options{})
		if len(ps) != 1 {
			t.Errorf("%q in %s: passages %+v, want the paragraph", tc.q, tc.id, ps)
			continue
		}
		if got := Snippet(d, ps[0], pq, 160); got != tc.want {
			t.Errorf("%q in %s: snippet %q, want %q", tc.q, tc.id, got, tc.want)
		}
	}
	hits, err := x.Fetch(context.Background(), mustPrepare(t, x, "송혜교"), 1, Options{})
	if err != nil || len(hits) != 1 || hits[0].Lang != "ko" || hits[0].Title != "송혜교" {
		t.Errorf("hit %+v %v, want 201 in ko", hits, err)
	}
}

func mustPrepare(t *testing.T, x *Index, q string) *Query {
	t.Helper()
	pq, err := x.Prepare(q)
	if err != nil {
		t.Fatal(err)
	}
	return pq
}

// TestHeaderIDMismatch checks that an article whose <header><id> is not
// its file name is indexed under its file name and reported; a wrapped
// header (<article><sport wordnetid=…><header>) is read through the wrapper.
func TestHeaderIDMismatch(t *testing.T) {
	dir := t.TempDir()
	articles, idx := filepath.Join(dir, "articles"), filepath.Join(dir, "idx")
	testfs.Write(t, articles, map[string]string{
		"1.xml": `<article><header><title>One</title><id>1</id></header><bdy><p>one</p></bdy></article>`,
		"2.xml": `<article><header><title>Two</title><id>20</id></header><bdy><p>two</p></bdy></article>`,
		"3.xml": `<article><sport wordnetid="5"><header><title>Martial arts</title><id>33</id></header><bdy><p>three</p></bdy></sport></article>`,
		"4.xml": `<article><header><title>Four</title></header><bdy><p>four</p></bdy></article>`,
	})
	res, err := Build(BuildOptions{Articles: articles, Index: idx})
	if err != nil {
		t.Fatal(err)
	}
	want := []IDMismatch{
		{Path: filepath.Join(articles, "2.xml"), ID: "2", HeaderID: "20"},
		{Path: filepath.Join(articles, "3.xml"), ID: "3", HeaderID: "33"},
	}
	if !reflect.DeepEqual(res.IDMismatches, want) {
		t.Errorf("mismatches %+v, want %+v", res.IDMismatches, want)
	}
	x := openTest(t, idx)
	var ids []string
	for _, r := range search(t, x, "martial arts") {
		ids = append(ids, r.ID+" "+r.Title)
	}
	if !reflect.DeepEqual(ids, []string{"3 Martial arts"}) {
		t.Errorf("martial arts: %v, want article 3 titled Martial arts", ids)
	}
	if d, err := x.Article("20"); err == nil {
		t.Errorf("article 20 exists: %+v", d)
	}
}

// TestCJKUpdate checks that removing a Chinese article takes exactly its
// bigrams out of the element frequencies (an update reanalyses the stored
// article as the build analysed it). Candidate elements holding 意大: 101's
// p and 104's p; holding 大利: those and 103's p. Without 101: 1 and 2.
func TestCJKUpdate(t *testing.T) {
	dir := t.TempDir()
	articles, idx := filepath.Join(dir, "articles"), filepath.Join(dir, "idx")
	testfs.Write(t, articles, cjkArticles)
	df := func() map[string]float64 {
		t.Helper()
		x, err := Open(idx)
		if err != nil {
			t.Fatal(err)
		}
		defer x.Close()
		return mustPrepare(t, x, "意大利").stats.DF
	}
	if _, err := Build(BuildOptions{Articles: articles, Index: idx}); err != nil {
		t.Fatal(err)
	}
	if got, want := df(), map[string]float64{"意大": 2, "大利": 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("element frequencies %v, want %v", got, want)
	}
	os.Remove(filepath.Join(articles, "zh", "101.xml"))
	res, err := Build(BuildOptions{Articles: articles, Index: idx})
	if err != nil {
		t.Fatal(err)
	}
	if res.Full || res.Removed != 1 {
		t.Errorf("update: full=%v removed=%d, want an update removing 1", res.Full, res.Removed)
	}
	if got, want := df(), map[string]float64{"意大": 1, "大利": 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("after removing 101: element frequencies %v, want %v", got, want)
	}
}
