package fetch

import (
	"container/heap"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"sort"

	"github.com/blevesearch/bleve/v2/index/scorch"
	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/readsim/readsim/index/records"
)

// candidate is a fetched document of a shard.
type candidate struct {
	score float64
	doc   uint64 // the shard's internal document number
	id    string // read when needed
	shard int
}

// better orders candidates as fetch ranks them: by score, then by id.
func (c *candidate) better(o *candidate) bool {
	if c.score != o.score {
		return c.score > o.score
	}
	return c.id < o.id
}

// best is a shard's k best documents so far, a heap with the worst on top,
// by score and then by id (the rank of the document's id in the shard:
// IDRanks).
type best struct {
	k     int
	c     []candidate
	ranks []uint32
}

func (h *best) worse(a, b *candidate) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	return h.ranks[a.doc] > h.ranks[b.doc]
}

func (h *best) Len() int           { return len(h.c) }
func (h *best) Less(i, j int) bool { return h.worse(&h.c[i], &h.c[j]) }
func (h *best) Swap(i, j int)      { h.c[i], h.c[j] = h.c[j], h.c[i] }
func (h *best) Push(x any)         { h.c = append(h.c, x.(candidate)) }
func (h *best) Pop() any {
	c := h.c[len(h.c)-1]
	h.c = h.c[:len(h.c)-1]
	return c
}

// offer adds a document if it is among the k best so far.
func (h *best) offer(c candidate) {
	if len(h.c) < h.k {
		heap.Push(h, c)
		return
	}
	if h.worse(&h.c[0], &c) {
		h.c[0] = c
		heap.Fix(h, 0)
	}
}

// sorted returns the k best in fetch's order (by score, then by id), their
// ids not read yet (withIDs).
func (h *best) sorted() ([]candidate, error) {
	sort.Slice(h.c, func(i, j int) bool {
		a, b := &h.c[i], &h.c[j]
		if a.score != b.score {
			return a.score > b.score
		}
		return h.ranks[a.doc] < h.ranks[b.doc]
	})
	return h.c, nil
}

// topOf returns the k best of the shards' candidates cs in fetch's order,
// with their ids. Only the candidates scoring at least as well as the k-th
// best need them (the hits, and those tying with the k-th); the others,
// about half of them, are dropped without reading theirs.
func topOf(cs []candidate, k int, ss []*shardSearch) ([]candidate, error) {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].score > cs[j].score })
	if len(cs) > k && k > 0 {
		n := k
		for n < len(cs) && cs[n].score == cs[k-1].score {
			n++
		}
		cs = cs[:n]
	}
	for i := range cs {
		id, err := ss[cs[i].shard].r.ExternalID(records.InternalID(cs[i].doc))
		if err != nil {
			return nil, err
		}
		cs[i].id = id
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].better(&cs[j]) })
	return cs[:min(k, len(cs))], nil
}

// IDRanks returns, for each internal document number of a scorch index's
// reader r (deleted documents included, with no rank), the rank of its id
// among the shard's ids: fetch breaks ties by id, and scores tie often
// (Bleve quantises field lengths: at 500k articles a fetch met some 25,000
// ties, and reading their ids was 40% of its time). The ids come from each
// segment's dictionary of ids, whose document numbers are in the
// dictionary itself (no stored field is read: reading the stored ids
// touched the whole index, 1.4 GB at 500k). 4 bytes per document.
func IDRanks(r bindex.IndexReader) ([]uint32, error) {
	type idDoc struct {
		id  string
		doc uint64
	}
	var all []idDoc
	off, err := walkTerms(r, "_id", func(term string, doc uint64) error {
		all = append(all, idDoc{term, doc})
		return nil
	})
	if err != nil {
		return nil, err
	}
	// a deleted document's id may be in an older segment too: the live one
	// is the one a search meets, and ranks only order them
	sort.Slice(all, func(i, j int) bool {
		if all[i].id != all[j].id {
			return all[i].id < all[j].id
		}
		return all[i].doc < all[j].doc
	})
	ranks := make([]uint32, off)
	for rank, d := range all {
		ranks[d.doc] = uint32(rank)
	}
	return ranks, nil
}

// walkTerms calls f with every term of field in every segment of a scorch
// index's reader r and each document holding it (its internal number: the
// segment's first number plus its number in the segment), deleted
// documents included, and returns the number of documents.
func walkTerms(r bindex.IndexReader, field string, f func(term string, doc uint64) error) (uint64, error) {
	is, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return 0, fmt.Errorf("index: a shard is not a scorch index (%T)", r)
	}
	var off uint64
	for _, seg := range is.Segments() {
		n := seg.Segment().Count()
		dict, err := seg.Segment().Dictionary(field)
		if err != nil {
			return 0, err
		}
		it := dict.AutomatonIterator(matchAll{}, nil, nil)
		for {
			e, err := it.Next()
			if err != nil {
				return 0, err
			}
			if e == nil {
				break
			}
			pl, err := dict.PostingsList([]byte(e.Term), nil, nil)
			if err != nil {
				return 0, err
			}
			pi := pl.Iterator(false, false, false, nil)
			for {
				p, err := pi.Next()
				if err != nil {
					return 0, err
				}
				if p == nil {
					break
				}
				if p.Number() >= n {
					return 0, fmt.Errorf("document %d of %q in a segment of %d", p.Number(), field, n)
				}
				if err := f(e.Term, off+p.Number()); err != nil {
					return 0, err
				}
			}
		}
		off += n
	}
	return off, nil
}

// matchAll is the automaton that accepts every key (a whole dictionary).
type matchAll struct{}

func (matchAll) Start() int               { return 0 }
func (matchAll) IsMatch(int) bool         { return true }
func (matchAll) CanMatch(int) bool        { return true }
func (matchAll) WillAlwaysMatch(int) bool { return true }
func (matchAll) Accept(int, byte) int     { return 0 }

// postingCursor is topK's place in one term's postings: the posting it
// is on and its document number, or done past the last.
type postingCursor struct {
	tfd  *bindex.TermFieldDoc
	doc  uint64
	done bool
}

// next moves cursor i of cur, on the postings of s.tfrs[i], to the next
// posting.
func (s *shardSearch) next(cur []postingCursor, i int) error {
	c := &cur[i]
	d, err := s.tfrs[i].Next(c.tfd.Reset())
	if err != nil {
		return err
	}
	if d == nil {
		c.done = true
		return nil
	}
	c.tfd = d
	c.doc = binary.BigEndian.Uint64(d.ID)
	return nil
}

// fieldAvg is the average length of t's field that doc's score divides
// by: that of the document's language when the shard keeps one per
// language, else t's.
func (s *shardSearch) fieldAvg(t *FieldTerm, doc uint64) float64 {
	avg := t.avgLen
	if s.langs != nil && avg > 0 {
		if f := fieldSlot(t.Field); f >= 0 && doc < uint64(len(s.langs)) {
			if a := s.avg[s.langs[doc]][f]; a > 0 {
				avg = a
			}
		}
	}
	return avg
}

// topK walks the shard's postings of every term document by document and
// returns its k best documents, their ids read.
func (s *shardSearch) topK(ctx context.Context, ts []FieldTerm, k int) ([]candidate, error) {
	cur := make([]postingCursor, len(ts))
	for i := range cur {
		cur[i].tfd = &bindex.TermFieldDoc{}
		if err := s.next(cur, i); err != nil {
			return nil, err
		}
	}
	h := &best{k: k, ranks: s.ranks}
	// the coordination factor: the clauses a document matches (an
	// auxiliary text term counts for its word's text term: FieldTerms)
	// over the clauses of title and text
	total := 0.0
	seen := make([]int, len(ts)) // by clause, the last document (n+1) matching it
	for _, t := range ts {
		if !t.aux {
			total++
		}
	}
	for n := 0; ; n++ {
		if n&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		doc, any := uint64(math.MaxUint64), false
		for i := range cur {
			if !cur[i].done && (!any || cur[i].doc < doc) {
				doc, any = cur[i].doc, true
			}
		}
		if !any {
			break
		}
		var sum float64
		matched := 0
		for i := range cur {
			c := &cur[i]
			if c.done || c.doc != doc {
				continue
			}
			sum += ts[i].scoreAvg(c.tfd.Freq, c.tfd.Norm, s.fieldAvg(&ts[i], doc))
			if cl := ts[i].clause; seen[cl] != n+1 {
				seen[cl] = n + 1
				matched++
			}
			if err := s.next(cur, i); err != nil {
				return nil, err
			}
		}
		h.offer(candidate{score: sum * (float64(matched) / total), doc: doc, shard: s.shard})
	}
	return h.sorted()
}
