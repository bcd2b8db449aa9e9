package index

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"

	"github.com/blevesearch/vellum"

	"github.com/readsim/readsim/internal/ground/durable"
)

// Collection statistics kept beside the Bleve index.
//
// Browse scores candidate elements with BM25 against the collection of all
// candidate elements: it needs their number, their average length and, for
// each query term, the number of elements that contain it. Those statistics
// are all browse reads of the elements, so they are kept in a file of their
// own rather than in a Bleve index of one document per element: a finite
// state transducer (elements.fst, built with vellum, Bleve's own FST library)
// maps each term to its element frequency, and the manifest records each
// article's number of elements and their summed length. Building 166k element
// documents took about as much CPU as the articles index itself; counting
// terms takes a few percent of it.
//
// Fetch passes Bleve the articles' field lengths from the manifest (see
// Index.loadStats), so neither score depends on how the index is split into
// segments.

const elemDFName = "elements.fst"

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

// elemLens returns the lengths in tokens of elements with spans, given
// their article's token starts (increasing): the number of tokens that
// start inside each.
func elemLens(starts []int, spans [][2]int) []int {
	out := make([]int, len(spans))
	for k, sp := range spans {
		lo, _ := slices.BinarySearch(starts, sp[0])
		hi, _ := slices.BinarySearch(starts, sp[1])
		out[k] = hi - lo
	}
	return out
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

// writeElemDF writes dir/elements.fst: the element frequencies of old (nil
// for none) plus delta. A term whose frequency drops to zero is left out; a
// negative frequency means that delta removes what old does not hold, an
// inconsistent index. Errors name the index idx that dir will become.
func writeElemDF(dir, idx string, old *vellum.FST, delta map[string]int64) error {
	keys := make([]string, 0, len(delta))
	for k, v := range delta {
		if v != 0 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	b, err := vellum.New(&buf, nil)
	if err != nil {
		return err
	}
	insert := func(k []byte, v int64) error {
		switch {
		case v < 0:
			return fmt.Errorf("index %s: element frequency of %q below zero: the index is inconsistent; build it again with --rebuild", idx, k)
		case v == 0:
			return nil
		}
		return b.Insert(k, uint64(v))
	}
	var it *vellum.FSTIterator
	if old != nil {
		it, err = old.Iterator(nil, nil)
		if errors.Is(err, vellum.ErrIteratorDone) {
			it, err = nil, nil
		}
		if err != nil {
			return fmt.Errorf("index %s: %s: %w; build it again with --rebuild", idx, elemDFName, err)
		}
	}
	for i := 0; it != nil || i < len(keys); {
		var k []byte
		var v uint64
		if it != nil {
			k, v = it.Current()
		}
		if it == nil || (i < len(keys) && keys[i] < string(k)) {
			err = insert([]byte(keys[i]), delta[keys[i]])
			i++
		} else {
			n := int64(v)
			if i < len(keys) && keys[i] == string(k) {
				n += delta[keys[i]]
				i++
			}
			if err = insert(k, n); err == nil {
				it, err = advance(it)
			}
		}
		if err != nil {
			return fmt.Errorf("index %s: %s: %w; build it again with --rebuild", idx, elemDFName, err)
		}
	}
	if err := b.Close(); err != nil {
		return err
	}
	return durable.WriteFile(dir, elemDFName, buf.Bytes())
}

// advance moves an FST iterator on; it returns nil at the end.
func advance(it *vellum.FSTIterator) (*vellum.FSTIterator, error) {
	if err := it.Next(); err != nil {
		if errors.Is(err, vellum.ErrIteratorDone) {
			return nil, nil
		}
		return it, err
	}
	return it, nil
}

// loadElemDF reads dir/elements.fst.
func loadElemDF(dir string) (*vellum.FST, error) {
	p := filepath.Join(dir, elemDFName)
	b, err := readSmall(p, maxArticlesJSON)
	if err != nil {
		return nil, err
	}
	f, err := vellum.Load(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return f, nil
}
