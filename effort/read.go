package effort

import (
	"fmt"
	"sort"
)

// Order is what the reader of a retrieved document reads after the retrieved
// passages (measures.md §2).
type Order int

const (
	// Natural goes back to the beginning and reads the unread characters in
	// document order (the default).
	Natural Order = iota
	// Best reads the unread relevant characters, then the unread rest.
	Best
	// Worst reads the unread non-relevant characters, then the unread relevant ones.
	Worst
)

// String returns the order's command-line name.
func (o Order) String() string {
	switch o {
	case Natural:
		return "natural"
	case Best:
		return "best"
	case Worst:
		return "worst"
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

// ParseOrder parses "natural", "best" or "worst".
func ParseOrder(s string) (Order, error) {
	switch s {
	case "natural":
		return Natural, nil
	case "best":
		return Best, nil
	case "worst":
		return Worst, nil
	}
	return 0, fmt.Errorf("unknown reading order %q (known: natural, best, worst)", s)
}

// Segment is a stretch [From,To) of a document read in one go: every character
// of it is relevant (Rel) or none is. Retrieved tells whether it belongs to the
// retrieved passages (read first) or to what is read after them. Consecutive
// segments with To == next From are read without a jump; otherwise the reader
// jumps (follows a link) to the next segment's From.
type Segment struct {
	From, To  int
	Rel       bool
	Retrieved bool
}

// Len returns the number of characters of the segment.
func (s Segment) Len() int { return s.To - s.From }

// Orderer computes reading orders with reusable buffers, so that evaluating many
// documents does not allocate. The zero value is ready to use. The slices it
// returns are valid until its next call.
type Orderer struct {
	segs       []Segment
	tmp1, tmp2 Spans
}

// Read returns the segments of reading, in order o, a document of length L
// whose retrieved text is ret and relevant text is rel (both normalised Spans
// inside [0,L)). The retrieved passages are read first, in document order; an
// empty ret with o == Natural reads the whole document in order. An unknown
// Order is read as Natural.
func (r *Orderer) Read(o Order, L int, ret, rel Spans) []Segment {
	r.segs = appendSplit(r.segs[:0], ret, rel, true)
	switch o {
	case Best:
		r.tmp1 = AppendDifference(r.tmp1[:0], rel, ret)
		r.segs = appendSplit(r.segs, r.tmp1, rel, false)
		r.tmp1 = AppendUnion(r.tmp1[:0], ret, rel)
		r.tmp2 = AppendComplement(r.tmp2[:0], r.tmp1, 0, L)
		r.segs = appendSplit(r.segs, r.tmp2, rel, false)
	case Worst:
		r.tmp1 = AppendUnion(r.tmp1[:0], ret, rel)
		r.tmp2 = AppendComplement(r.tmp2[:0], r.tmp1, 0, L)
		r.segs = appendSplit(r.segs, r.tmp2, rel, false)
		r.tmp1 = AppendDifference(r.tmp1[:0], rel, ret)
		r.segs = appendSplit(r.segs, r.tmp1, rel, false)
	default: // Natural, and any unknown Order
		r.tmp1 = AppendComplement(r.tmp1[:0], ret, 0, L)
		r.segs = appendSplit(r.segs, r.tmp1, rel, false)
	}
	return r.segs
}

// Baseline returns the segments of the document baseline: the whole document
// read from 0 to L-1 (full document retrieval).
func (r *Orderer) Baseline(L int, rel Spans) []Segment {
	r.tmp1 = append(r.tmp1[:0], Span{0, L})
	if L <= 0 {
		r.tmp1 = r.tmp1[:0]
	}
	r.segs = appendSplit(r.segs[:0], r.tmp1, rel, true)
	return r.segs
}

// EntryPoint returns the segments of an entry-point reading (best in
// context): from entry to the end of the document, then 0 … entry-1. The first
// part is marked Retrieved.
func (r *Orderer) EntryPoint(L, entry int, rel Spans) []Segment {
	if entry < 0 {
		entry = 0
	}
	if entry > L {
		entry = L
	}
	r.tmp1 = r.tmp1[:0]
	if entry < L {
		r.tmp1 = append(r.tmp1, Span{entry, L})
	}
	r.segs = appendSplit(r.segs[:0], r.tmp1, rel, true)
	r.tmp1 = r.tmp1[:0]
	if entry > 0 {
		r.tmp1 = append(r.tmp1, Span{0, entry})
	}
	r.segs = appendSplit(r.segs, r.tmp1, rel, false)
	return r.segs
}

// Recorded returns the segments of a recorded reading: order lists the spans
// of characters in the order they were first read (each span read from its
// start to its end; spans disjoint, in any order), cut at the borders of rel
// (the document's relevant text). Nothing is retrieved: the reading is what a
// person read, not a system's passages.
func (r *Orderer) Recorded(order []Span, rel Spans) []Segment {
	r.segs = r.segs[:0]
	for _, p := range order {
		if p.End <= p.Start {
			continue
		}
		// the first relevant span that ends after p's start
		j := sort.Search(len(rel), func(i int) bool { return rel[i].End > p.Start })
		r.segs = appendSplit(r.segs, Spans{p}, rel[j:], false)
	}
	return r.segs
}

// appendSplit appends the pieces (sorted, disjoint) cut at the borders of rel.
func appendSplit(dst []Segment, pieces, rel Spans, retrieved bool) []Segment {
	j := 0
	for _, p := range pieces {
		pos := p.Start
		for j < len(rel) && rel[j].End <= pos {
			j++
		}
		for k := j; pos < p.End; k++ {
			if k >= len(rel) || rel[k].Start >= p.End {
				dst = append(dst, Segment{pos, p.End, false, retrieved})
				break
			}
			if rel[k].Start > pos {
				dst = append(dst, Segment{pos, rel[k].Start, false, retrieved})
				pos = rel[k].Start
			}
			end := rel[k].End
			if end > p.End {
				end = p.End
			}
			dst = append(dst, Segment{pos, end, true, retrieved})
			pos = end
		}
	}
	return dst
}

// Tally summarises a reading, possibly stopped early.
type Tally struct {
	// Read is the number of characters read; RelRead how many of them are relevant.
	Read, RelRead int
	// FirstRel is the number of characters read before the first relevant
	// character, or -1 if no relevant character was read.
	FirstRel int
	// Stopped tells whether the reader stopped before the end of the reading
	// (tolerance to irrelevance reached while text remained).
	Stopped bool
	// End and EndAt locate the stop: the reading consists of segs[:End], the
	// last of which is read only up to EndAt (exclusive offset). With no
	// segments End is 0.
	End, EndAt int
}

// T2I returns the tally of the reading segs for a reader with tolerance to
// irrelevance x (measures.md §3): the reader stops right after the x-th
// non-relevant character read, counted cumulatively over the whole document,
// or at the end. x <= 0 means no tolerance limit (the whole reading).
func T2I(segs []Segment, x int) Tally {
	t := Tally{FirstRel: -1}
	nonrel := 0
	for i, s := range segs {
		n := s.To - s.From
		if s.Rel {
			if t.FirstRel < 0 {
				t.FirstRel = t.Read
			}
			t.Read += n
			t.RelRead += n
			t.End, t.EndAt = i+1, s.To
			continue
		}
		if x > 0 && nonrel+n >= x {
			k := x - nonrel
			t.Read += k
			t.End, t.EndAt = i+1, s.From+k
			t.Stopped = k < n || i+1 < len(segs)
			return t
		}
		nonrel += n
		t.Read += n
		t.End, t.EndAt = i+1, s.To
	}
	return t
}
