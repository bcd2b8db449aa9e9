package fetch

import (
	"fmt"
	"math"
	"sort"

	"github.com/blevesearch/bleve/v2/index/scorch"
	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/readsim/readsim/index/store"
)

// Length normalisation by language.
//
// BM25 divides a field's length by the average length of the field. In a
// collection of several languages one average would compare a Japanese
// article, long in CJK bigrams, with the English ones: an English article
// mentioning 利蒼 once outranked the Japanese one with fourteen. Fetch
// divides an article's field length by the average of its own language's
// articles instead (the manifest's totals by language); idf stays the
// collection's. An index of one language scores exactly as before.

// fieldSlot is a field's place in LangAverages' pairs, or -1.
func fieldSlot(field string) int {
	switch field {
	case "title":
		return 0
	case "text":
		return 1
	case store.AuxField:
		return 2
	}
	return -1
}

// LangAverages returns the languages of an index's totals (sorted) and
// the average title, text and auxiliary text length of each, rounded up.
func LangAverages(t store.Totals) ([]string, [][3]float64) {
	var names []string
	for l, n := range t.Langs {
		if n > 0 {
			names = append(names, l)
		}
	}
	sort.Strings(names)
	if len(names) > 255 {
		names = names[:0] // more than DocLangs can number: one average
	}
	avg := make([][3]float64, len(names))
	for i, l := range names {
		n, lens := float64(t.Langs[l]), t.LangLens[l]
		for f := range avg[i] {
			avg[i][f] = math.Ceil(float64(lens[f]) / n)
		}
	}
	return names, avg
}

// DocLangs returns the language of each internal document number of a
// scorch shard's reader, as an index of names (a document with none, a
// deleted one, is 0), from each segment's dictionary of LangField.
func DocLangs(r bindex.IndexReader, names []string) ([]uint8, error) {
	is, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return nil, fmt.Errorf("index: a shard is not a scorch index (%T)", r)
	}
	index := map[string]uint8{}
	for i, l := range names {
		index[l] = uint8(i)
	}
	var out []uint8
	var off uint64
	for _, seg := range is.Segments() {
		n := seg.Segment().Count()
		out = append(out, make([]uint8, n)...)
		dict, err := seg.Segment().Dictionary(store.LangField)
		if err != nil {
			return nil, err
		}
		for l, li := range index {
			pl, err := dict.PostingsList([]byte(l), nil, nil)
			if err != nil {
				return nil, err
			}
			it := pl.Iterator(false, false, false, nil)
			for {
				p, err := it.Next()
				if err != nil {
					return nil, err
				}
				if p == nil {
					break
				}
				out[off+p.Number()] = li
			}
		}
		off += n
	}
	return out, nil
}
