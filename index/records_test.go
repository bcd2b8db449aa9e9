package index

import (
	"context"
	"fmt"
	"slices"
	"testing"

	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article"
)

// hitsCover counts what the comparisons of Hits with Search went
// through: the cases of the record store that a snippet or a passage
// read by blocks must get right.
type hitsCover struct {
	hits       int // hits compared
	twoBlocks  int // snippets that read two blocks or more
	longPass   int // passages holding a whole block (longer than one)
	cjk        int // hits in Chinese, Japanese or Korean
	quietSnips int // snippets whose passage holds a quiet span
}

func (c hitsCover) String() string {
	return fmt.Sprintf("%d hits: %d snippets read two blocks or more, %d passages hold a whole block, %d hits in CJK, %d snippets' passages hold a quiet span",
		c.hits, c.twoBlocks, c.longPass, c.cjk, c.quietSnips)
}

// recordOf reads the record of article id from the snapshot's records
// file, at the place stored in its Bleve document, as a search does.
func recordOf(s *snapshot, id string) (*record, error) {
	sh := shardOf(id, len(s.shards))
	d, err := s.shards[sh].Document(id)
	if err != nil || d == nil {
		return nil, fmt.Errorf("article %s: %v", id, err)
	}
	var place recPlace
	found := false
	d.VisitFields(func(f bindex.Field) {
		if f.Name() == recField {
			place, found = placeOf(f.Value())
		}
	})
	if !found {
		return nil, fmt.Errorf("article %s: no record place", id)
	}
	return s.recs[sh].read(place, false, nil)
}

// compareHits checks that x.Hits gives for pq what x.Search (the
// reference: every hit's article read whole) gives: the same hits in
// the same order with the same scores, titles, languages and lengths,
// the same passages' spans and the same snippets. It counts in c what
// the hits went through, making each hit's snippet again from a
// blockText of its record to see which blocks it reads.
func compareHits(t *testing.T, x *Index, q string, pq *Query, c *hitsCover) {
	t.Helper()
	ctx := context.Background()
	opt := Options{}
	want, err := x.Search(ctx, pq, 50, opt)
	if err != nil {
		t.Fatalf("Search %q: %v", q, err)
	}
	got, err := x.Hits(ctx, pq, 50, opt)
	if err != nil {
		t.Fatalf("Hits %q: %v", q, err)
	}
	if len(got) != len(want) {
		t.Errorf("%q: Hits gives %d hits, Search %d", q, len(got), len(want))
		return
	}
	for i, w := range want {
		g := got[i]
		var spans []effort.Span
		for _, p := range w.Passages {
			spans = append(spans, p.Span)
		}
		if g.Hit != w.Hit || g.Len != w.Doc.Len || !slices.Equal(g.Passages, spans) || g.Snippet != w.Snippet {
			t.Errorf("%q hit %d: Hits %+v len %d %v %q; Search %+v len %d %v %q", q, i, g.Hit, g.Len, g.Passages, g.Snippet, w.Hit, w.Doc.Len, spans, w.Snippet)
			continue
		}
		c.hits++
		if article.IsCJK(w.Lang) {
			c.cjk++
		}
		// the snippet's passage, as browseHits chooses it
		d := w.Doc
		p := Passage{Span: effort.Span{Start: 0, End: d.Len}}
		if len(d.Elems) > 0 {
			p.Start = d.Elems[0].Start
		}
		if len(w.Passages) > 0 {
			p = w.Passages[0]
		}
		for k := 0; k+1 < len(d.quiet); k += 2 {
			if d.quiet[k] < p.End && d.quiet[k+1] > p.Start {
				c.quietSnips++
				break
			}
		}
		_, err := withSnapshot(x, func(s *snapshot) (struct{}, error) {
			r, err := recordOf(s, w.ID)
			if err != nil {
				return struct{}{}, err
			}
			for _, p := range w.Passages {
				for _, bl := range r.blocks {
					if bl.char >= p.Start && bl.char+bl.chars <= p.End {
						c.longPass++
						break
					}
				}
			}
			b := *d
			b.Text, b.ci, b.blocks = "", nil, newBlockText(r, &blockArena{})
			if s := Snippet(&b, p, pq, opt.snippetWidth(d.Lang)); s != w.Snippet || b.blocks.err != nil {
				t.Errorf("%q %s: snippet from blocks %q (%v), Search's %q", q, w.ID, s, b.blocks.err, w.Snippet)
			}
			read := 0
			for _, blk := range b.blocks.done {
				if blk != nil {
					read++
				}
			}
			if read >= 2 {
				c.twoBlocks++
			}
			return struct{}{}, nil
		})
		if err != nil {
			t.Fatalf("%q %s: %v", q, w.ID, err)
		}
	}
}
