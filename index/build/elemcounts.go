package build

import (
	"slices"

	"github.com/readsim/readsim/index/records"
)

// elementCounts returns, for the tokens of one article, in how many of the
// candidate elements each term occurs, and each element's length in
// tokens (the number of tokens that start inside it). ids[i] is the i-th token's term as an index into terms; starts[i] is
// its start offset (increasing); spans are the elements' [start, end) in the
// same unit as starts. The result is parallel to terms.
func elementCounts(ids []int32, nterms int, starts []int, spans [][2]int) (df []int32, lens []int) {
	df = make([]int32, nterms)
	lens = make([]int, len(spans))
	last := make([]int32, nterms) // 1 + the last element that counted the term
	for k, sp := range spans {
		lo, _ := slices.BinarySearch(starts, sp[0])
		hi, _ := slices.BinarySearch(starts, sp[1])
		lens[k] = hi - lo
		for _, id := range ids[lo:hi] {
			if last[id] != int32(k+1) {
				last[id] = int32(k + 1)
				df[id]++
			}
		}
	}
	return df, lens
}

// internTerms numbers the distinct terms of a token sequence in order of
// first occurrence.
type internTerms struct {
	pos   map[string]int32
	terms []string
	ids   []int32
}

func newInternTerms(n int) *internTerms {
	return &internTerms{pos: make(map[string]int32), ids: make([]int32, 0, n)}
}

func (t *internTerms) addBytes(term []byte) {
	id, ok := t.pos[string(term)] // no allocation for the lookup
	if !ok {
		id = int32(len(t.terms))
		s := string(term)
		t.pos[s] = id
		t.terms = append(t.terms, s)
	}
	t.ids = append(t.ids, id)
}

// termCounts are the element frequencies of some terms, parallel slices.
type termCounts struct {
	terms []string
	df    []int32
}

// nonZero drops the terms with no count.
func (c termCounts) nonZero() termCounts {
	var out termCounts
	for i, n := range c.df {
		if n != 0 {
			out.terms = append(out.terms, c.terms[i])
			out.df = append(out.df, n)
		}
	}
	return out
}

// docElementCounts counts the terms of a stored article's candidate elements
// as parseOne counted them when the article was indexed.
func docElementCounts(d *records.StoredArticle) termCounts {
	toks := d.Tokens() // every token: the build's counts
	ids := newInternTerms(len(toks))
	starts := make([]int, len(toks))
	for i, t := range toks {
		ids.addBytes([]byte(t.Term))
		starts[i] = t.Start
	}
	spans := make([][2]int, len(d.Elems))
	for k, el := range d.Elems {
		spans[k] = [2]int{el.Start, el.End}
	}
	df, _ := elementCounts(ids.ids, len(ids.terms), starts, spans)
	return termCounts{ids.terms, df}.nonZero()
}
