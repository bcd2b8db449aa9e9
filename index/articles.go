package index

import (
	"encoding/binary"
	"fmt"

	bindex "github.com/blevesearch/bleve_index_api"
	"github.com/readsim/readsim/index/records"
	"github.com/readsim/readsim/index/store"
)

// Article loads an article from the index.
func (x *Index) Article(id string) (*StoredArticle, error) {
	return withSnapshot(x, func(s *snapshot) (*StoredArticle, error) { return s.article(id, records.ReadWhole) })
}

func (x *snapshot) article(id string, how records.ReadHow) (*StoredArticle, error) {
	r, err := shardReader(x.Bleve[store.ShardOf(id, len(x.Bleve))])
	if err != nil {
		return nil, err
	}
	defer r.Close()
	d, _, err := x.articleAt(r, id, how)
	if err == nil && d == nil {
		err = fmt.Errorf("index: no article %s", id)
	}
	return d, err
}

// articleAt reads article id from its record, found through the shard's
// places (DocPlaces) by its internal number in r, the reader of its shard,
// which it returns too; an article the index does not have is nil.
func (x *snapshot) articleAt(r bindex.IndexReader, id string, how records.ReadHow) (*StoredArticle, uint64, error) {
	n, err := r.InternalID(id)
	if err != nil || n == nil {
		return nil, 0, err
	}
	doc := binary.BigEndian.Uint64(n)
	sh := store.ShardOf(id, len(x.Bleve))
	rf := x.Recs[sh]
	if doc >= uint64(len(x.Places[sh])) {
		return nil, 0, &DamagedError{Index: rf.Index, File: rf.Path, Err: fmt.Errorf("article %s has no record", id)}
	}
	out := &StoredArticle{ID: id}
	if err := out.ReadRecord(rf, x.Places[sh][doc], how, nil); err != nil {
		return nil, 0, err
	}
	return out, doc, nil
}
