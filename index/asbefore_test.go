package index

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/analysis"
	"github.com/readsim/readsim/index/browse"
	"github.com/readsim/readsim/index/chars"
	"github.com/readsim/readsim/index/records"
)

// The record store changed how browse merges adjacent passages (on each
// element's white space after it, stored in the record, instead of
// scanning the text between them) and how snippets are written (shows,
// chars.SpaceWriter). TestBrowseStoredSame's reference keeps the record's gaps
// and calls the same Snippet, so it cannot see a change in either: the
// test below compares them with the code as it was before (ba44707), on
// the article's text.

// mergedOnText merges the passages ps (in document order, none merged
// yet) as browse did before the record store: two in a row become one
// when nothing but white space (unicode.IsSpace) lies between them in
// the text, counted here on its runes.
func mergedOnText(text string, ps []Passage) []Passage {
	runes := []rune(text)
	var out []Passage
	for _, p := range ps {
		if n := len(out); n > 0 {
			between := runes[min(out[n-1].End, len(runes)):min(max(p.Start, out[n-1].End), len(runes))]
			if strings.TrimFunc(string(between), unicode.IsSpace) == "" {
				q := &out[n-1]
				q.End = p.End
				q.XPaths = append(q.XPaths, p.XPaths...)
				q.Score = math.Max(q.Score, p.Score)
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// snippetBefore is Snippet as it was before the record store (ba44707):
// the text shown tested with strings.TrimSpace, the snippet's white
// space collapsed with strings.Fields.
func snippetBefore(d *StoredArticle, p Passage, q *Query, width int) string {
	toks := d.QueryTokens(q.Terms)
	mark := records.Marker(q.Terms)
	lo := sort.Search(len(toks), func(i int) bool { return toks[i].Start >= p.Start })
	first := -1
	for i := lo; i < len(toks) && toks[i].Start < p.End; i++ {
		if at, _, ok := mark(toks[i]); ok {
			first = at
			break
		}
	}
	s := p.Start
	if first >= 0 && first-width/4 > s {
		s = first - width/4
	}
	e := min(s+width, p.End)
	if e-s < width {
		s = max(p.Start, e-width)
	}
	ci := chars.New(d.Text)
	for {
		k := sort.Search(len(d.Quiet)/2, func(k int) bool { return d.Quiet[2*k+1] > s })
		if k == len(d.Quiet)/2 || d.Quiet[2*k] > s || d.Quiet[2*k+1] >= p.End {
			break
		}
		e = min(e+d.Quiet[2*k+1]-s, p.End)
		s = d.Quiet[2*k+1]
		for s < e && strings.TrimSpace(ci.Slice(s, s+1)) == "" {
			s++
		}
	}
	cut := s > p.Start && strings.TrimSpace(records.ShownText(ci, d.Quiet, p.Start, s)) != ""
	var marks [][2]int
	for i := sort.Search(len(toks), func(i int) bool { return toks[i].Start >= s }); i < len(toks) && toks[i].Start < e; i++ {
		ms, me, ok := mark(toks[i])
		if !ok || me > e {
			continue
		}
		if n := len(marks); n > 0 && ms <= marks[n-1][1] {
			marks[n-1][1] = max(marks[n-1][1], me)
			continue
		}
		marks = append(marks, [2]int{ms, me})
	}
	var b strings.Builder
	if cut {
		b.WriteString("…")
	}
	at := s
	for _, m := range marks {
		b.WriteString(records.ShownText(ci, d.Quiet, at, m[0]))
		b.WriteString("[" + records.ShownText(ci, d.Quiet, m[0], m[1]) + "]")
		at = m[1]
	}
	b.WriteString(records.ShownText(ci, d.Quiet, at, e))
	if e < p.End && strings.TrimSpace(records.ShownText(ci, d.Quiet, e, p.End)) != "" {
		b.WriteString("…")
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// unseparated is a snippet without its separators (records.Separator,
// which the code before the record store did not write: they stand
// between blocks, where the text had white space or a word break) and
// without white space, as the snippets before and now are compared.
func unseparated(s string) string {
	s = strings.ReplaceAll(s, records.Separator, "")
	return strings.Join(strings.Fields(s), "")
}

// TestPassagesSnippetsAsBefore checks, on every sample and real article,
// for its title and the shared queries, that the passages of Passages
// (merged on the record's gaps) are browse's merged on the text's white
// space, and that the snippets of Search and Hits, and of every passage
// at three widths, are the snippets made as before the record store
// (but for the separators between blocks, which came later: unseparated).
func TestPassagesSnippetsAsBefore(t *testing.T) {
	eachCollection(t, func(t *testing.T, dir string, x *Index, files []string) {
		ctx := context.Background()
		opt := Options{}
		merged, snippets := 0, 0
		titles := articleQueries(t, x, files, func(id string, d *StoredArticle, q string, pq *Query, got []Passage) {
			ref := d.WithoutMatches()
			// browse's passages, none merged (no gap is that small),
			// then merged on the text
			never := func(int) int { return -1 }
			want := mergedOnText(d.Text, browse.Passages(never, ref.QueryTokens(pq.Terms), ref.Lens(), d.Elems, pq.Terms, &pq.stats, browse.Options{}))
			if len(want) == 0 { // no element holds a term: the lead
				want = []Passage{browse.Lead(d.Elems, ref.Lens(), d.Len)}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %q: passages %v, merged on the text %v", id, q, got, want)
				return
			}
			for _, p := range want {
				if len(p.XPaths) > 1 {
					merged++
				}
				for _, w := range []int{40, 160, 1000} {
					if g, wn := Snippet(ref, p, pq, w), snippetBefore(ref, p, pq, w); unseparated(g) != unseparated(wn) {
						t.Errorf("%s %q %v width %d: snippet %q, before %q", id, q, p.Span, w, g, wn)
					}
					snippets++
				}
			}
		})
		for _, q := range append(sharedQueries, titles...) {
			pq, err := x.Prepare(q)
			if err != nil {
				continue
			}
			res, err := x.Search(ctx, pq, 50, opt)
			if err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			hits, err := x.Hits(ctx, pq, 50, opt)
			if err != nil || len(hits) != len(res) {
				t.Fatalf("%q: %d hits (%v), Search %d", q, len(hits), err, len(res))
			}
			for i, r := range res {
				if len(r.Passages) == 0 {
					t.Errorf("%q %s: no passage", q, r.ID)
					continue
				}
				want := snippetBefore(r.Doc, r.Passages[0], pq, opt.snippetWidth(r.Lang))
				if unseparated(r.Snippet) != unseparated(want) || hits[i].Snippet != r.Snippet {
					t.Errorf("%q %s: Search's snippet %q, Hits' %q, before %q", q, r.ID, r.Snippet, hits[i].Snippet, want)
				}
				snippets++
			}
		}
		t.Logf("%d snippets compared, %d passages merged from two elements or more", snippets, merged)
		if merged == 0 {
			t.Error("no passage merged: the gaps went untested")
		}
	})
}

// TestSnippetOddPassages: Snippet, exported, is given passages no
// browse makes — inverted, empty, outside the text — and gives what it
// gave before the record store (worked by hand on "Fresnel lens", the
// token fresnel at 0–7): never a panic.
func TestSnippetOddPassages(t *testing.T) {
	d := &StoredArticle{ID: "1", Text: "Fresnel lens", Len: 12}
	q := &Query{Terms: []analysis.Term{{Text: "fresnel", N: 1}}}
	d.SetMatches(q.Terms, []analysis.Token{{Term: "fresnel", Start: 0, End: 7}})
	for _, tc := range []struct {
		name       string
		start, end int
		want       string
	}{
		{"whole", 0, 12, "[Fresnel] lens"},
		{"inverted", 5, 2, ""},
		{"inverted by far", 12, 0, ""},
		{"empty", 3, 3, ""},
		{"past the end", 15, 22, ""},
		{"from before the start", -4, 3, "Fre"},
	} {
		p := Passage{Span: effort.Span{Start: tc.start, End: tc.end}}
		got := func() (s string) {
			defer func() {
				if r := recover(); r != nil {
					s = fmt.Sprintf("panic: %v", r)
				}
			}()
			return Snippet(d, p, q, 40)
		}()
		if got != tc.want {
			t.Errorf("%s %v: %q, want %q", tc.name, p.Span, got, tc.want)
		}
		if before := snippetBefore(d, p, q, 40); before != tc.want {
			t.Errorf("%s %v: before the record store %q, want %q", tc.name, p.Span, before, tc.want)
		}
	}
}

// TestTitleSearchHits: a title search (a query of stop words, no term)
// through Hits, which reads no text but the blocks its snippets show,
// gives Search's hits and snippets, the snippets those made before the
// record store, from the body (the beginnings by hand, as
// TestTitleSearch has them).
func TestTitleSearchHits(t *testing.T) {
	articles := copyCollection(t, multilang)
	idx := filepath.Join(filepath.Dir(articles), "idx")
	if _, err := Build(BuildOptions{Articles: articles, Index: idx}); err != nil {
		t.Fatal(err)
	}
	x := openTest(t, idx)
	ctx := context.Background()
	for _, tc := range []struct {
		q, id, snippet string
	}{
		{"The Who", "4001", "The Who are an English rock band"},
		{"it", "4002", "It is a horror novel"},
	} {
		pq, err := x.Prepare(tc.q)
		if err != nil || len(pq.Terms) != 0 {
			t.Fatalf("%q: %v terms, %v; want a title search", tc.q, pq, err)
		}
		res, err := x.Search(ctx, pq, 10, Options{})
		if err != nil || len(res) != 1 || res[0].ID != tc.id {
			t.Fatalf("%q: Search %d results, %v; want %s", tc.q, len(res), err, tc.id)
		}
		hits, err := x.Hits(ctx, pq, 10, Options{})
		if err != nil || len(hits) != 1 {
			t.Fatalf("%q: Hits %d results, %v; want %s", tc.q, len(hits), err, tc.id)
		}
		// the passage is the lead (browse.Lead), the body's first text
		d := res[0].Doc
		p := Passage{Span: d.Elems[0].Span}
		before := snippetBefore(d, p, pq, Options{}.snippetWidth(d.Lang))
		if h := hits[0]; h.ID != tc.id || h.Snippet != res[0].Snippet || h.Snippet != before || !strings.HasPrefix(h.Snippet, tc.snippet) ||
			!reflect.DeepEqual(h.Passages, []effort.Span{p.Span}) || !h.NoMatch {
			t.Errorf("%q: Hits %s %q %v %v, Search %q, before %q; want from %q, the lead %v", tc.q, h.ID, h.Snippet, h.Passages, h.NoMatch, res[0].Snippet, before, tc.snippet, p.Span)
		}
	}
}
