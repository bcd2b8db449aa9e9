package index

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	bsearch "github.com/blevesearch/bleve/v2/search"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/browse"
	"github.com/readsim/readsim/index/chars"
	"github.com/readsim/readsim/index/records"
	"github.com/readsim/readsim/internal/ground/testfs"
)

// The rules of a result list (docs/search.md): snippets that keep blocks
// apart, a passage for every hit, auxiliary text weighed less, one idf
// for the variants of a query word.

// ruleArticles are small articles whose snippets and scores are worked
// out by hand below.
var ruleArticles = map[string]string{
	"en/9001.xml": `<article xmlns:xlink="http://www.w3.org/1999/xlink"><header><title>Jigsaw puzzle</title><id>9001</id></header><bdy>
<sec><st>History</st>
<p>The first jigsaw was cut around 1760.<ref xlink:type="simple" xlink:href="#xpointer(//reflist/entry[@id=%223%22])">3</ref>
In recent years jigsaws went digital.</p>
<p><image src="a.png"><caption>A jigsaw of a map</caption></image>
Maps were the first pictures.</p>
<p><list><entry>Wooden jigsaws</entry><entry>Card jigsaws</entry></list></p>
</sec></bdy></article>`,
	"zh/9002.xml": `<article><header><title>泡菜</title></header><bdy><sec><st>歷史</st><p>泡菜源自朝鮮<ref>1</ref>，歷史悠久，是朝鮮的傳統食品。</p></sec></bdy></article>`,
}

// TestSnippetSeparators: a snippet never runs a heading, a caption or a
// list item into the next block, and leaves footnote marks out. The
// snippets of each article's section, written by hand from the text:
// "1760.3 In recent" and "History The first" before this rule.
func TestSnippetSeparators(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, filepath.Join(dir, "a"), ruleArticles)
	if _, err := Build(BuildOptions{Articles: filepath.Join(dir, "a"), Index: filepath.Join(dir, "idx")}); err != nil {
		t.Fatal(err)
	}
	x := openTest(t, filepath.Join(dir, "idx"))
	for _, tc := range []struct {
		id, q, want string
	}{
		{"9001", "history", "[History] · The first jigsaw was cut around 1760. In recent years jigsaws went digital. A jigsaw of a map · Maps were the first pictures. Wooden jigsaws · Card jigsaws"},
		{"9001", "card", "History · The first jigsaw was cut around 1760. In recent years jigsaws went digital. A jigsaw of a map · Maps were the first pictures. Wooden jigsaws · [Card] jigsaws"},
		// a footnote mark inside a sentence: left out, no separator
		{"9002", "歷史", "[歷史] · 泡菜源自朝鮮，[歷史]悠久，是朝鮮的傳統食品。"},
	} {
		d, err := x.Article(tc.id)
		if err != nil {
			t.Fatal(err)
		}
		sec := -1
		for k, el := range d.Elems {
			if el.XPath == "/article[1]/bdy[1]/sec[1]" {
				sec = k
			}
		}
		if sec < 0 {
			t.Fatalf("%s: no section among %v", tc.id, d.Elems)
		}
		pq := mustPrepare(t, x, tc.q)
		if got := Snippet(d, Passage{Span: d.Elems[sec].Span}, pq, 1000); got != tc.want {
			t.Errorf("%s %q: snippet %q, want %q", tc.id, tc.q, got, tc.want)
		}
	}
}

// TestSnippetBoundaries checks, on every sample and real article, the
// snippet around each of its section headings, captions and footnote
// marks (60 characters either side, nothing marked): a heading or a
// caption whose text ends without punctuation is followed by a
// separator, never run into the next block's first word; a footnote
// mark never follows the text it is glued to ("tubes.3 In res"). It
// fails without the separators and the footnote marks left out.
func TestSnippetBoundaries(t *testing.T) {
	eachCollection(t, func(t *testing.T, dir string, x *Index, files []string) {
		rd := &article.Reader{Root: dir}
		q := &Query{} // no terms: nothing marked
		checked := map[string]int{}
		for _, f := range files {
			a, err := rd.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			d, err := x.Article(strings.TrimSuffix(filepath.Base(f), ".xml"))
			if err != nil || d.Text != a.Text {
				t.Fatalf("%s: %v, or not the text parsed", f, err)
			}
			ci := d.Chars()
			shown := func(s, e int) string { return chars.OneSpace(records.ShownText(ci, d.Quiet, s, e)) }
			for i := range a.Elements {
				e := &a.Elements[i]
				kind := boundaryKind(a, i)
				if kind == "" || e.End <= e.Start {
					continue
				}
				p := Passage{Span: effort.Span{Start: max(e.Start-60, 0), End: min(e.End+60, d.Len)}}
				snip := Snippet(d, p, q, 1000)
				before, after := shown(p.Start, e.Start), shown(e.End, p.End)
				if kind == "footnote" {
					mark := strings.TrimSpace(a.Slice(e.Start, e.End))
					if tail := lastRunes(before, 6); tail != "" && mark != "" && strings.Contains(snip, tail+mark) {
						t.Errorf("%s: footnote %q glued: %q", f, mark, snip)
					}
					checked[kind]++
					continue
				}
				own := shown(e.Start, e.End)
				if own == "" || after == "" || endsWithStop(own) || startsWithPunct(after) {
					continue
				}
				want := lastRunes(own, 6) + records.Separator + firstWord(after)
				if !strings.Contains(snip, want) {
					t.Errorf("%s: %s %q: snippet %q, want %q in it", f, kind, own, snip, want)
				}
				checked[kind]++
			}
		}
		t.Logf("%v checked", checked)
		if checked["heading"] == 0 || dir == realData && (checked["footnote"] == 0 || checked["caption"] == 0) {
			t.Errorf("checked %v: a kind went untested", checked)
		}
	})
}

// boundaryKind names what element i is for TestSnippetBoundaries: a
// section's heading, a caption, a footnote mark, or "".
func boundaryKind(a *article.Article, i int) string {
	e := &a.Elements[i]
	switch {
	case e.Name == "ref":
		return "footnote"
	case e.Name == "caption":
		return "caption"
	case e.Name == "st" || e.Name == "title" && e.Parent >= 0 && a.Elements[e.Parent].Name == "section":
		return "heading"
	}
	return ""
}

// lastRunes returns the last n characters of s.
func lastRunes(s string, n int) string {
	r := []rune(s)
	return string(r[max(len(r)-n, 0):])
}

// firstWord returns s up to its first space, at most 6 characters.
func firstWord(s string) string {
	if i := strings.IndexByte(s, ' '); i >= 0 {
		s = s[:i]
	}
	r := []rune(s)
	return string(r[:min(len(r), 6)])
}

// endsWithStop reports whether s ends with punctuation (a snippet writes
// no separator after a sentence's or a clause's end).
func endsWithStop(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return unicode.IsPunct(r)
}

// startsWithPunct reports whether s starts with punctuation.
func startsWithPunct(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsPunct(r)
}

// TestEveryHitHasPassage: on the sample and the real articles, for the
// shared queries and every title, every hit of Search and Hits has a
// passage; a hit in which browse finds no element holding a query term
// has the lead (browse.Lead), marked NoMatch, and Hits says so. Before,
// such hits had none ("0 matching passages").
func TestEveryHitHasPassage(t *testing.T) {
	eachCollection(t, func(t *testing.T, dir string, x *Index, files []string) {
		ctx := context.Background()
		leads := 0
		var queries []string
		for _, f := range files {
			d, err := x.Article(strings.TrimSuffix(filepath.Base(f), ".xml"))
			if err != nil {
				t.Fatal(err)
			}
			queries = append(queries, d.Title)
		}
		for _, q := range append(queries, sharedQueries...) {
			pq, err := x.Prepare(q)
			if err != nil {
				continue
			}
			res, err := x.Search(ctx, pq, 20, Options{})
			if err != nil {
				t.Fatal(err)
			}
			hits, err := x.Hits(ctx, pq, 20, Options{})
			if err != nil || len(hits) != len(res) {
				t.Fatalf("%q: %d hits (%v), Search %d", q, len(hits), err, len(res))
			}
			for i, r := range res {
				if len(r.Passages) == 0 || len(hits[i].Passages) != len(r.Passages) {
					t.Errorf("%q %s: passages %v, Hits %v", q, r.ID, r.Passages, hits[i].Passages)
					continue
				}
				var matched []Passage
				if len(pq.Terms) > 0 {
					matched = browse.Passages(r.Doc.SpaceAfter, r.Doc.Reanalysed().Tokens(), r.Doc.Lens(), r.Doc.Elems, pq.Terms, &pq.stats, browse.Options{})
				}
				if len(matched) == 0 {
					lead := browse.Lead(r.Doc.Elems, r.Doc.Lens(), r.Doc.Len)
					if len(r.Passages) != 1 || r.Passages[0].Span != lead.Span || !r.Passages[0].NoMatch || !hits[i].NoMatch {
						t.Errorf("%q %s: passages %v (NoMatch %v), want the lead %v", q, r.ID, r.Passages, hits[i].NoMatch, lead.Span)
					}
					leads++
				} else if hits[i].NoMatch {
					t.Errorf("%q %s: a hit with matching passages marked NoMatch", q, r.ID)
				}
			}
		}
		t.Logf("%d hits given their lead", leads)
		if leads == 0 {
			t.Error("no hit without a matching element: the rule went untested")
		}
	})
}

// TestAuxiliaryText works out by hand the scores of three articles for
// "history" (docs/search.md, "Auxiliary text"). Analysed (English:
// stop words out, Porter), each article's text holds its title:
//
//	1 "Alpha"  text: alpha tea histori (3)              aux: —
//	2 "Beta"   text: beta tea (2)                       aux: refer histori tea histori leav (5)
//	3 "Gamma"  text: gamma tea leav (3)                 aux: —
//
// (article 2's "References" section, heading included, is auxiliary
// text). N 3; title lengths 1 each, average 1; text 8, average ⌈8/3⌉ =
// 3; auxiliary text 5, average ⌈5/3⌉ = 2. The query histori: title df
// 0, idf ln(1 + 3.5/0.5) = ln 8; text df 1 and auxiliary df 1, idf ln(1
// + 2.5/1.5) = ln(8/3). Query norm (title boost 2, text 1; the auxiliary
// term is outside it) 1/√((2 ln 8)² + ln(8/3)²). Each term scores
// idf·√f·k1/(√f + k1·(1−b+b·dl/avg)) times its weight boost·idf·norm,
// the auxiliary term's boost ½; the coordination factor is ½ (one of
// two clauses: the auxiliary term counts for the text's).
//
//	1: ln(8/3)²·norm · 1.2/(1+1.2·(0.25+0.75·3/3)) / 2
//	2: ½·ln(8/3)²·norm · √2·1.2/(√2+1.2·(0.25+0.75·5/2)) / 2
//
// Before, the reference list was text: article 2 (tf 2) ranked first.
func TestAuxiliaryText(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, filepath.Join(dir, "a"), map[string]string{
		"1.xml": `<article><header><title>Alpha</title></header><bdy><p>Tea history.</p></bdy></article>`,
		"2.xml": `<article><header><title>Beta</title></header><bdy><p>Tea.</p><sec><st>References</st><p><reflist><entry id="1">History tea.</entry><entry id="2">History leaves.</entry></reflist></p></sec></bdy></article>`,
		"3.xml": `<article><header><title>Gamma</title></header><bdy><p>Tea leaves.</p></bdy></article>`,
	})
	if _, err := Build(BuildOptions{Articles: filepath.Join(dir, "a"), Index: filepath.Join(dir, "idx")}); err != nil {
		t.Fatal(err)
	}
	x := openTest(t, filepath.Join(dir, "idx"))
	k1, b := bsearch.BM25_k1, bsearch.BM25_b
	idf := math.Log(8.0 / 3)
	norm := 1 / math.Sqrt(math.Pow(2*math.Log(8), 2)+idf*idf)
	tfn := func(f, dl, avg float64) float64 {
		return math.Sqrt(f) * k1 / (math.Sqrt(f) + k1*(1-b+b*dl/avg))
	}
	want := []struct {
		id    string
		score float64
	}{
		{"1", idf * idf * norm * tfn(1, 3, 3) / 2},
		{"2", 0.5 * idf * idf * norm * tfn(2, 5, 2) / 2},
	}
	res := search(t, x, "history")
	if len(res) != len(want) {
		t.Fatalf("history: %v, want 1 2", hitIDs(res))
	}
	for i, w := range want {
		if res[i].ID != w.id || math.Abs(res[i].Score-w.score) > 1e-6*w.score {
			t.Errorf("history rank %d: %s %.9f, want %s %.9f", i+1, res[i].ID, res[i].Score, w.id, w.score)
		}
	}
	// article 2's passage is its reference list's section, the only
	// element holding the term, scored at records.AuxWeight
	if p := res[1].Passages; len(p) != 1 || p[0].NoMatch || len(p[0].XPaths) != 1 || p[0].XPaths[0] != "/article[1]/bdy[1]/sec[1]/p[1]" {
		t.Errorf("history in 2: passages %+v, want the reference list's paragraph", p)
	}
}

// TestKimchiHistory: on the real articles, for "kimchi history", the
// Chinese articles that hold "history" only in a reference list (五角龙,
// 510121: "New Mexico Museum of Natural History") or a list of external
// links (山葵, 175384: "Wasabi's History"), and the Korean one that holds
// it once in a list of advertisements (이영애, 30765), rank below the
// English article on kimchi and below English articles that speak of
// history in their text: Puzzle (86368, a section "History") and
// Abdominal pain (593703). They ranked 2, 3 and 4, above all of these
// but Kimchi, before the auxiliary text and the variants' idf.
func TestKimchiHistory(t *testing.T) {
	x, _, _ := realIndex(t)
	res, err := x.Search(context.Background(), mustPrepare(t, x, "kimchi history"), 30, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rank := map[string]int{}
	for i, r := range res {
		rank[r.ID] = i + 1
	}
	if len(res) == 0 || res[0].ID != "178952" {
		t.Fatalf("kimchi history: %v, want Kimchi (178952) first", hitIDs(res))
	}
	for _, english := range []string{"86368", "593703"} {
		for _, cjk := range []string{"510121", "175384", "30765"} {
			if rank[english] == 0 || rank[cjk] == 0 || rank[cjk] < rank[english] {
				t.Errorf("kimchi history: %s at %d above %s at %d (%v)", cjk, rank[cjk], english, rank[english], hitIDs(res))
			}
		}
	}
}
