package fetch

import (
	"fmt"

	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/readsim/readsim/index/records"
	"github.com/readsim/readsim/index/store"
)

// DocPlaces returns, for each internal document number of a scorch
// index's reader r, the place of its record (index/records), from each
// segment's dictionary of RecField (walkTerms): a place is a term held by
// one document. A number without a place (none in an index this layout
// builds) has the zero place, which reading refuses as damage.
func DocPlaces(r bindex.IndexReader) ([]records.Place, error) {
	type docPlace struct {
		doc uint64
		p   records.Place
	}
	var all []docPlace
	n, err := walkTerms(r, store.RecField, func(term string, doc uint64) error {
		p, ok := records.PlaceOf([]byte(term))
		if !ok {
			return fmt.Errorf("a record place of %d bytes, want 12", len(term))
		}
		all = append(all, docPlace{doc, p})
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]records.Place, n)
	for _, d := range all {
		out[d.doc] = d.p
	}
	return out, nil
}
