package browse

import (
	"reflect"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/analysis"
	"github.com/readsim/readsim/index/chars"
	"github.com/readsim/readsim/index/records"
)

// TestBrowseOverlaps checks that browse keeps the best winners that do not
// overlap one taken before, whatever the order they come in. Text: four
// 10-character slots, "x" at 0, "y" at 10, "x" at 20, "x x" at 30 and 32.
// Elements: sec [0,30), p1 [0,10), p2 [10,20), p3 [20,30), p4 [30,40).
// BM25 (k1 1.2, b 0.75, average length 1, the same idf for all): p4 (tf 2,
// length 2) scores 4.4/4.1 = 1.073 idf, p1 and p3 (tf 1, length 1) 1 idf,
// sec (tf 2, length 3) 4.4/5 = 0.88 idf, p2 nothing. Taken in that order:
// p4, p1 before it, p3 between them; sec overlaps p1 and is dropped
// (though above half the best). p3 and p4 are adjacent: one passage.
func TestBrowseOverlaps(t *testing.T) {
	text := "x" + strings.Repeat(" ", 9) + "y" + strings.Repeat(" ", 9) + "x" + strings.Repeat(" ", 9) + "x x" + strings.Repeat(" ", 7)
	toks := []analysis.Token{{Term: "x", Start: 0, End: 1}, {Term: "y", Start: 10, End: 11}, {Term: "x", Start: 20, End: 21}, {Term: "x", Start: 30, End: 31}, {Term: "x", Start: 32, End: 33}}
	el := func(x string, s, e int) records.Elem {
		return records.Elem{XPath: x, Span: effort.Span{Start: s, End: e}}
	}
	elems := []records.Elem{el("sec", 0, 30), el("p1", 0, 10), el("p2", 10, 20), el("p3", 20, 30), el("p4", 30, 40)}
	st := &Stats{N: 5, AvgLen: 1, DF: map[string]float64{"x": 4}}
	got := passageSpans(Passages(textGaps(text, elems), toks, []int{3, 1, 1, 1, 2}, elems, []analysis.Term{{Text: "x", N: 1}}, st, Options{}))
	want := []pspan{{0, 10, "p1"}, {20, 40, "p3 p4"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("passages %v, want %v", got, want)
	}
}

// TestBrowseRules checks the lead and caption rules of browse on a text of
// three 10-character slots: [0,10) "x y y y" or "y y y y" (an element of
// four tokens), [10,20) a word outside every element, [20,30) "x" (an
// element of one token). BM25 with k1 1.2, b 0.75, average length 1 and
// the same idf for every element: the one-token element scores
// 2.2/(1+1.2·1) = 1 idf, the four-token one holding x 2.2/(1+1.2·3.25) =
// 0.449 idf, under half the first.
func TestBrowseRules(t *testing.T) {
	const (
		lead    = "/article[1]/bdy[1]/text()"
		p       = "/article[1]/bdy[1]/sec[1]/p[1]"
		caption = "/article[1]/bdy[1]/sec[1]/image[1]/caption[1]"
		para    = "/article[1]/bdy[1]/sec[2]/p[1]"
	)
	text := "x y y y   zzzzzzzzz x         "
	withX := []analysis.Token{{Term: "x", Start: 0, End: 1}, {Term: "y", Start: 2, End: 3}, {Term: "y", Start: 4, End: 5}, {Term: "y", Start: 6, End: 7}, {Term: "zzzzzzzzz", Start: 10, End: 19}, {Term: "x", Start: 20, End: 21}}
	noX := []analysis.Token{{Term: "y", Start: 0, End: 1}, {Term: "y", Start: 2, End: 3}, {Term: "y", Start: 4, End: 5}, {Term: "y", Start: 6, End: 7}, {Term: "zzzzzzzzz", Start: 10, End: 19}, {Term: "x", Start: 20, End: 21}}
	el := func(x string, s, e int) records.Elem {
		return records.Elem{XPath: x, Span: effort.Span{Start: s, End: e}}
	}
	for _, tc := range []struct {
		name         string
		toks         []analysis.Token
		first, other string
		want         []pspan
	}{
		// the lead holds x: a passage, though under half the best
		{"lead with the term", withX, lead, p, []pspan{{0, 10, lead}, {20, 30, p}}},
		// the lead holds x but not z, the other query term: the threshold
		// alone (z, in p only, makes p's score 2 idf — its length stays 1 —
		// and the lead's 0.449 is under half of it)
		{"lead without every term", withX, lead, p, []pspan{{20, 30, p}}},
		// without the term it is no passage
		{"lead without the term", noX, lead, p, []pspan{{20, 30, p}}},
		// a first paragraph inside a section is no lead: the threshold alone
		{"not a lead", withX, para, p, []pspan{{20, 30, p}}},
		// the caption holds only x, which the paragraph holds too: its
		// score is cut to the paragraph's, and both are passages
		{"caption and paragraph", withX, para, caption, []pspan{{0, 10, para}, {20, 30, caption}}},
		// no other element holds x: the caption keeps its score
		{"caption alone", noX, para, caption, []pspan{{20, 30, caption}}},
	} {
		elems := []records.Elem{el(tc.first, 0, 10), el(tc.other, 20, 30)}
		st := &Stats{N: 2, AvgLen: 1, DF: map[string]float64{"x": 1, "z": 1}}
		terms := []analysis.Term{{Text: "x", N: 1}}
		toks := tc.toks
		if tc.name == "lead without every term" {
			terms = append(terms, analysis.Term{Text: "z", N: 1})
			toks = append(append([]analysis.Token{}, toks...), analysis.Token{Term: "z", Start: 22, End: 23})
		}
		got := passageSpans(Passages(textGaps(text, elems), toks, []int{4, 1}, elems, terms, st, Options{}))
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: passages %v, want %v", tc.name, got, tc.want)
		}
	}
}

// pspan is a passage's span and its XPaths, space-separated.
type pspan struct {
	start, end int
	xpaths     string
}

// passageSpans returns the pspans of ps.
func passageSpans(ps []Passage) []pspan {
	out := make([]pspan, len(ps))
	for i, p := range ps {
		out[i] = pspan{p.Start, p.End, strings.Join(p.XPaths, " ")}
	}
	return out
}

// textGaps returns, for browse, the number of white space characters
// after each of the elements in text (made when first asked).
func textGaps(text string, elems []records.Elem) func(k int) int {
	var ci *chars.Index
	return func(k int) int {
		if ci == nil {
			ci = chars.New(text)
		}
		return chars.SpaceAfter(ci, elems[k].End)
	}
}
