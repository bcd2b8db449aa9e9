package index

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/analysis"
	"github.com/readsim/readsim/index/browse"
	"github.com/readsim/readsim/index/records"
	"github.com/readsim/readsim/index/store"
)

// Browse returns the best passages of the article d for q (see browse).
// The occurrences of q's terms in d are read from the index (index/records);
// an article the index does not have is analysed again.
func (x *Index) Browse(d *StoredArticle, q *Query, opt Options) []Passage {
	if len(q.Terms) > 0 {
		withSnapshot(x, func(s *snapshot) (struct{}, error) {
			return struct{}{}, s.matchesOf(context.Background(), d, q.Terms)
		})
	}
	return browseDoc(d, q, opt)
}

// matchesOf reads the occurrences of terms in the article d from its shard.
func (x *snapshot) matchesOf(ctx context.Context, d *StoredArticle, terms []analysis.Term) error {
	r, err := shardReader(x.Bleve[store.ShardOf(d.ID, len(x.Bleve))])
	if err != nil {
		return err
	}
	defer r.Close()
	id, err := r.InternalID(d.ID)
	if err != nil || id == nil {
		return err
	}
	return records.LoadMatches(ctx, records.NewStoredReader(r), []*StoredArticle{d}, []uint64{binary.BigEndian.Uint64(id)}, terms)
}

// Passages is one article page's retrieval: the best passages of article
// id for the query q (Prepare, Article and Browse in one), all from one
// build of the index, even when Reload switches meanwhile. A query without
// terms is ErrNoTerms (but a title search); an article the index does not
// have has no passages; one in which nothing matches has its lead
// (browse.Lead). A cancelled context stops it.
func (x *Index) Passages(ctx context.Context, q, id string, opt Options) ([]Passage, error) {
	return withSnapshot(x, func(s *snapshot) ([]Passage, error) { return s.passages(ctx, q, id, opt) })
}

// passages is Passages on the snapshot x.
func (x *snapshot) passages(ctx context.Context, q, id string, opt Options) ([]Passage, error) {
	pq, err := x.prepare(q)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r, err := shardReader(x.Bleve[store.ShardOf(id, len(x.Bleve))])
	if err != nil {
		return nil, err
	}
	defer r.Close()
	// the id is looked up once: its number gives both the record and the
	// terms' occurrences
	sd, doc, err := x.articleAt(r, id, records.ReadBrowse)
	if err != nil || sd == nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// a title search has no terms to read: its passage is the lead
	if err := records.LoadMatches(ctx, records.NewStoredReader(r), []*StoredArticle{sd}, []uint64{doc}, pq.Terms); err != nil {
		return nil, err
	}
	return browseDoc(sd, pq, opt), nil
}

// browseDoc is browse.Article for the query q with the options opt.
func browseDoc(d *StoredArticle, q *Query, opt Options) []Passage {
	return browse.Article(d, q.Terms, &q.stats, BrowseOptions{Threshold: opt.Threshold})
}

// SearchResult is a fetched article with its passages and a snippet.
type SearchResult struct {
	Hit
	Doc *StoredArticle
	// Passages are never empty: an article in which no candidate element
	// holds a query term (a title search's hits, an article matching only
	// in its title or categories) has its lead, marked NoMatch
	// (browse.Lead).
	Passages []Passage
	// Snippet is about Options.SnippetWidth characters around the first
	// query term of the first passage.
	Snippet string
}

// Search is one request's retrieval: it fetches the k best articles for q
// and browses each, returning their passages and snippets (the context is
// passed to Bleve: a cancelled request stops the search). The whole
// request uses one build of the index, even when Reload switches meanwhile.
func (x *Index) Search(ctx context.Context, q *Query, k int, opt Options) ([]SearchResult, error) {
	if k <= 0 {
		return nil, nil
	}
	return withSnapshot(x, func(s *snapshot) ([]SearchResult, error) { return s.search(ctx, q, k, opt) })
}

// search is Search on the snapshot x.
func (x *snapshot) search(ctx context.Context, q *Query, k int, opt Options) ([]SearchResult, error) {
	var out []SearchResult
	err := x.browseHits(ctx, q, k, opt, records.ReadWhole, func(r SearchResult) error {
		out = append(out, r)
		return nil
	})
	return out, err
}

// HitResult is a search result as a result list shows it: the article's
// rank, score, title and language, its length, its passages and a snippet,
// without the article.
type HitResult struct {
	Hit
	Len      int // the article's length in characters
	Passages []effort.Span
	// NoMatch is true when no candidate element holds a query term: the
	// one passage is the article's lead (browse.Lead), not a match.
	NoMatch bool
	Snippet string
}

// Hits is Search for a result list: the same hits, passages (as spans)
// and snippets, without reading the hits' articles whole. Of each hit's
// text it decompresses the blocks its snippet shows (docs/performance.md,
// "The record store").
func (x *Index) Hits(ctx context.Context, q *Query, k int, opt Options) ([]HitResult, error) {
	if k <= 0 {
		return nil, nil
	}
	return withSnapshot(x, func(s *snapshot) ([]HitResult, error) {
		var out []HitResult
		err := s.browseHits(ctx, q, k, opt, records.ReadHit, func(r SearchResult) error {
			h := HitResult{Hit: r.Hit, Len: r.Doc.Len, Snippet: r.Snippet, Passages: make([]effort.Span, len(r.Passages))}
			for i, p := range r.Passages {
				h.Passages[i] = p.Span
				h.NoMatch = p.NoMatch
			}
			if off, err := r.Doc.BlocksErr(); err != nil {
				f := s.Recs[store.ShardOf(r.ID, len(s.Recs))]
				return records.Damaged(f.Index, f.Path, off, fmt.Errorf("article %s: %w", r.ID, err))
			}
			out = append(out, h)
			return nil
		})
		return out, err
	})
}

// browseHits fetches the k best articles for q, reading each as how says,
// browses each and makes its snippet, and calls add with each result in
// rank order.
func (x *snapshot) browseHits(ctx context.Context, q *Query, k int, opt Options, how records.ReadHow, add func(SearchResult) error) error {
	q, err := x.prepared(q)
	if err != nil {
		return err
	}
	// each hit is browsed and its snippet made on its shard's goroutine;
	// a hit's rank is below k, the manifest's articles and the shards'
	// documents (the manifest's count is not checked against the shards
	// when the index is opened: a damaged one must not size this)
	docs := 0
	for _, p := range x.Places {
		docs += len(p)
	}
	rs := make([]SearchResult, min(k, x.articles, docs))
	f, err := x.Fetch(ctx, q.fetchQuery(opt), k, how, func(i int, d *StoredArticle) error {
		r := SearchResult{Doc: d, Passages: browseDoc(d, q, opt)}
		r.Snippet = Snippet(d, r.Passages[0], q, opt.snippetWidth(d.Lang))
		if i >= len(rs) {
			// the manifest lies: damage, naming it
			return &DamagedError{Index: x.Recs[0].Index, File: store.ManifestPath(x.stamp.dir), Err: fmt.Errorf("more hits than its %d articles", x.articles)}
		}
		rs[i] = r
		return nil
	})
	if err != nil {
		return err
	}
	defer f.Close()
	rs = rs[:len(f.Hits)]
	for i, h := range f.Hits {
		rs[i].Hit = h
		if err := add(rs[i]); err != nil {
			return err
		}
	}
	return nil
}

// Snippet returns about width characters of the passage around its first
// query term, the words matching a query term marked
// (StoredArticle.Snippet).
func Snippet(d *StoredArticle, p Passage, q *Query, width int) string {
	return d.Snippet(p.Span, q.Terms, width)
}
