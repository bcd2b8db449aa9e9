package index

import (
	"fmt"

	"github.com/blevesearch/bleve/v2/index/scorch"
	bindex "github.com/blevesearch/bleve_index_api"
)

// docPlaces returns, for each internal document number of a scorch
// index's reader r, the place of its record (records.go), from each
// segment's dictionary of recField: a place is a term held by one
// document. A number without a place (none in an index this layout
// builds) has the zero place, which reading refuses as damage.
func docPlaces(r bindex.IndexReader) ([]recPlace, error) {
	is, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return nil, fmt.Errorf("index: a shard is not a scorch index (%T)", r)
	}
	var out []recPlace
	var off uint64
	for _, seg := range is.Segments() {
		n := seg.Segment().Count()
		out = append(out, make([]recPlace, n)...)
		dict, err := seg.Segment().Dictionary(recField)
		if err != nil {
			return nil, err
		}
		it := dict.AutomatonIterator(matchAll{}, nil, nil)
		for {
			e, err := it.Next()
			if err != nil {
				return nil, err
			}
			if e == nil {
				break
			}
			place, ok := placeOf([]byte(e.Term))
			if !ok {
				return nil, fmt.Errorf("a record place of %d bytes, want 12", len(e.Term))
			}
			pl, err := dict.PostingsList([]byte(e.Term), nil, nil)
			if err != nil {
				return nil, err
			}
			pi := pl.Iterator(false, false, false, nil)
			for {
				p, err := pi.Next()
				if err != nil {
					return nil, err
				}
				if p == nil {
					break
				}
				if p.Number() >= n {
					return nil, fmt.Errorf("a record place of document %d, in a segment of %d", p.Number(), n)
				}
				out[off+p.Number()] = place
			}
		}
		off += n
	}
	return out, nil
}
