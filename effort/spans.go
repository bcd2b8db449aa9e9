package effort

import (
	"encoding/json"
	"errors"
	"iter"
	"sort"
	"strconv"
)

// Span is the half-open character interval [Start, End) of a document:
// readsim's one type for a character range of an article (a judged or
// retrieved passage, an element's text, a passage to render). INEX writes
// it as offset:length, [Start, Start+length).
type Span struct {
	Start, End int
}

// MarshalJSON writes the span as INEX writes a passage:
// {"offset":Start,"length":End−Start}.
func (s Span) MarshalJSON() ([]byte, error) {
	b := append([]byte(`{"offset":`), strconv.Itoa(s.Start)...)
	b = append(b, `,"length":`...)
	b = append(b, strconv.Itoa(s.Len())...)
	return append(b, '}'), nil
}

// UnmarshalJSON reads {"offset":O,"length":L}.
func (s *Span) UnmarshalJSON(b []byte) error {
	var v struct {
		Offset *int `json:"offset"`
		Length *int `json:"length"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if v.Offset == nil || v.Length == nil || *v.Offset < 0 || *v.Length < 0 {
		return errors.New(`a span is {"offset":O,"length":L}, both non-negative integers`)
	}
	*s = Span{Start: *v.Offset, End: *v.Offset + *v.Length}
	return nil
}

// Len returns the number of characters of s (0 if s is empty or reversed).
func (s Span) Len() int {
	if s.End <= s.Start {
		return 0
	}
	return s.End - s.Start
}

// Spans is a set of characters stored as sorted, disjoint, non-adjacent,
// non-empty spans. The functions of this package that take Spans expect that
// form; Normalize produces it from any list of spans.
type Spans []Span

// Normalize sorts ps, drops empty spans and merges overlapping or adjacent
// ones, in place, and returns the result (which shares ps's storage): the
// set of characters ps covers. render.ShownPassages differs: it keeps
// adjacent passages apart, each a result with its own anchor.
func Normalize(ps []Span) Spans {
	sorted := true
	for i := 1; i < len(ps); i++ {
		if ps[i].Start < ps[i-1].Start {
			sorted = false
			break
		}
	}
	if !sorted {
		sort.Slice(ps, func(i, j int) bool { return ps[i].Start < ps[j].Start })
	}
	out := ps[:0]
	for _, p := range ps {
		if p.End <= p.Start {
			continue
		}
		if n := len(out); n > 0 && p.Start <= out[n-1].End {
			if p.End > out[n-1].End {
				out[n-1].End = p.End
			}
			continue
		}
		out = append(out, p)
	}
	return out
}

// Len returns the number of characters in s.
func (s Spans) Len() int {
	n := 0
	for _, p := range s {
		n += p.End - p.Start
	}
	return n
}

// Clip returns the part of s inside [lo, hi), in place (sharing s's storage).
func (s Spans) Clip(lo, hi int) Spans {
	out := s[:0]
	for _, p := range s {
		if p.Start < lo {
			p.Start = lo
		}
		if p.End > hi {
			p.End = hi
		}
		if p.End > p.Start {
			out = append(out, p)
		}
	}
	return out
}

// Union returns a ∪ b as a new set.
func Union(a, b Spans) Spans {
	return AppendUnion(nil, a, b)
}

// AppendUnion appends a ∪ b to dst and returns the extended slice.
func AppendUnion(dst Spans, a, b Spans) Spans {
	base := len(dst)
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var p Span
		if j >= len(b) || (i < len(a) && a[i].Start <= b[j].Start) {
			p = a[i]
			i++
		} else {
			p = b[j]
			j++
		}
		if n := len(dst); n > base && p.Start <= dst[n-1].End {
			if p.End > dst[n-1].End {
				dst[n-1].End = p.End
			}
			continue
		}
		dst = append(dst, p)
	}
	return dst
}

// IntersectLen returns |a ∩ b| without allocating.
func IntersectLen(a, b Spans) int {
	n := 0
	for p := range overlaps(a, b) {
		n += p.End - p.Start
	}
	return n
}

// SpanIntersectLen returns |[p.Start,p.End) ∩ s|.
func SpanIntersectLen(p Span, s Spans) int {
	// Binary search for the first span of s ending after p.Start.
	k := sort.Search(len(s), func(i int) bool { return s[i].End > p.Start })
	n := 0
	for ; k < len(s) && s[k].Start < p.End; k++ {
		lo, hi := s[k].Start, s[k].End
		if lo < p.Start {
			lo = p.Start
		}
		if hi > p.End {
			hi = p.End
		}
		n += hi - lo
	}
	return n
}

// Intersect returns a ∩ b as a new set.
func Intersect(a, b Spans) Spans {
	return AppendIntersect(nil, a, b)
}

// AppendIntersect appends a ∩ b to dst and returns the extended slice.
func AppendIntersect(dst Spans, a, b Spans) Spans {
	for p := range overlaps(a, b) {
		dst = append(dst, p)
	}
	return dst
}

// overlaps yields the non-empty pieces of a ∩ b in order: the one merge
// walk of two sets of sorted, disjoint spans.
func overlaps(a, b Spans) iter.Seq[Span] {
	return func(yield func(Span) bool) {
		i, j := 0, 0
		for i < len(a) && j < len(b) {
			lo, hi := max(a[i].Start, b[j].Start), min(a[i].End, b[j].End)
			if hi > lo && !yield(Span{lo, hi}) {
				return
			}
			if a[i].End < b[j].End {
				i++
			} else {
				j++
			}
		}
	}
}

// Complement returns [lo,hi) \ s as a new set.
func (s Spans) Complement(lo, hi int) Spans {
	return AppendComplement(nil, s, lo, hi)
}

// AppendComplement appends [lo,hi) \ s to dst and returns the extended slice.
func AppendComplement(dst Spans, s Spans, lo, hi int) Spans {
	pos := lo
	for _, p := range s {
		if p.End <= pos {
			continue
		}
		if p.Start >= hi {
			break
		}
		if p.Start > pos {
			dst = append(dst, Span{pos, p.Start})
		}
		pos = p.End
	}
	if pos < hi {
		dst = append(dst, Span{pos, hi})
	}
	return dst
}

// AppendDifference appends a \ b to dst and returns the extended slice.
func AppendDifference(dst Spans, a, b Spans) Spans {
	j := 0
	for _, p := range a {
		pos := p.Start
		for j < len(b) && b[j].End <= pos {
			j++
		}
		for k := j; k < len(b) && b[k].Start < p.End; k++ {
			if b[k].Start > pos {
				dst = append(dst, Span{pos, b[k].Start})
			}
			if b[k].End > pos {
				pos = b[k].End
			}
		}
		if pos < p.End {
			dst = append(dst, Span{pos, p.End})
		}
	}
	return dst
}
