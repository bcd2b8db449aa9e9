package index

import (
	"context"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/analysis"
	"github.com/readsim/readsim/index/article/wikimarkup"
	"github.com/readsim/readsim/index/chars"
	"github.com/readsim/readsim/index/store"
)

// Browse returns the best passages of the article d for q (see browse).
// The occurrences of q's terms in d are read from the index (vectors.go);
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
	r, err := shardReader(x.shards[store.ShardOf(d.ID, len(x.shards))])
	if err != nil {
		return err
	}
	defer r.Close()
	id, err := r.InternalID(d.ID)
	if err != nil || id == nil {
		return err
	}
	return loadMatches(ctx, newStoredReader(r), []*StoredArticle{d}, []uint64{binary.BigEndian.Uint64(id)}, terms)
}

// Passages is one article page's retrieval: the best passages of article
// id for the query q (Prepare, Article and Browse in one), all from one
// build of the index, even when Reload switches meanwhile. A query without
// terms is ErrNoTerms; an article the index does not have has no passages.
// A cancelled context stops it.
func (x *Index) Passages(ctx context.Context, q, id string, opt Options) ([]Passage, error) {
	return withSnapshot(x, func(s *snapshot) ([]Passage, error) { return s.passages(ctx, q, id, opt) })
}

// passages is Passages on the snapshot x.
func (x *snapshot) passages(ctx context.Context, q, id string, opt Options) ([]Passage, error) {
	pq, err := x.prepare(q)
	if err != nil {
		return nil, err
	}
	if len(pq.Terms) == 0 {
		return nil, nil // a title search: nothing in the text to browse
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r, err := shardReader(x.shards[store.ShardOf(id, len(x.shards))])
	if err != nil {
		return nil, err
	}
	defer r.Close()
	// the id is looked up once: its number gives both the record and the
	// terms' occurrences
	sd, doc, err := x.articleAt(r, id, readBrowse)
	if err != nil || sd == nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := loadMatches(ctx, newStoredReader(r), []*StoredArticle{sd}, []uint64{doc}, pq.Terms); err != nil {
		return nil, err
	}
	return browseDoc(sd, pq, opt), nil
}

func browseDoc(d *StoredArticle, q *Query, opt Options) []Passage {
	if len(q.Terms) == 0 {
		return nil // no term to analyse the article for
	}
	return browse(d.spaceAfter, d.queryTokens(q.Terms), d.lens(), d.Elems, q.Terms, &q.stats, BrowseOptions{Threshold: opt.Threshold})
}

// SearchResult is a fetched article with its passages and a snippet.
type SearchResult struct {
	Hit
	Doc      *StoredArticle
	Passages []Passage
	// Snippet is about Options.SnippetWidth characters around the first
	// query term of the first passage (when it has none, of the article
	// from its first candidate element on: a title search's hits, an
	// article matching only in its title or categories).
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
	err := x.browseHits(ctx, q, k, opt, readWhole, func(r SearchResult) error {
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
	Snippet  string
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
		err := s.browseHits(ctx, q, k, opt, readHit, func(r SearchResult) error {
			h := HitResult{Hit: r.Hit, Len: r.Doc.Len, Snippet: r.Snippet, Passages: make([]effort.Span, len(r.Passages))}
			for i, p := range r.Passages {
				h.Passages[i] = p.Span
			}
			if err := r.Doc.blocks.err; err != nil {
				f := s.recs[store.ShardOf(r.ID, len(s.recs))]
				return recordError(f.idx, f.path, r.Doc.blocks.off, fmt.Errorf("article %s: %w", r.ID, err))
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
func (x *snapshot) browseHits(ctx context.Context, q *Query, k int, opt Options, how readHow, add func(SearchResult) error) error {
	q, err := x.prepared(q)
	if err != nil {
		return err
	}
	// each hit is browsed and its snippet made on its shard's goroutine;
	// a hit's rank is below k, the manifest's articles and the shards'
	// documents (the manifest's count is not checked against the shards
	// when the index is opened: a damaged one must not size this)
	docs := 0
	for _, p := range x.places {
		docs += len(p)
	}
	rs := make([]SearchResult, min(k, x.articles, docs))
	f, err := x.fetch(ctx, q, k, opt, how, func(i int, d *StoredArticle) error {
		r := SearchResult{Doc: d, Passages: browseDoc(d, q, opt)}
		p := Passage{Span: effort.Span{Start: 0, End: d.Len}}
		if len(d.Elems) > 0 {
			// from the first candidate element on: not the header's
			// title, ids and categories again
			p.Start = d.Elems[0].Start
		}
		if len(r.Passages) > 0 {
			p = r.Passages[0]
		}
		r.Snippet = Snippet(d, p, q, opt.snippetWidth(d.Lang))
		if i >= len(rs) {
			// the manifest lies: damage, naming it
			return &store.DamagedError{Index: x.recs[0].idx, File: store.ManifestPath(x.stamp.dir), Err: fmt.Errorf("more hits than its %d articles", x.articles)}
		}
		rs[i] = r
		return nil
	})
	if err != nil {
		return err
	}
	defer f.close()
	rs = rs[:len(f.hits)]
	for i, h := range f.hits {
		rs[i].Hit = h
		if err := add(rs[i]); err != nil {
			return err
		}
	}
	return nil
}

// Snippet returns about width characters of the passage around its first
// query term, with the words matching a query term written as [word]:
// matched tokens that overlap or touch are marked as one, so the bigrams
// 意大 and 大利 of 意大利 mark [意大利]; a character term marks its
// character alone (塔 in 电视塔 is 电视[塔]). An ellipsis marks a cut. The cuts fall
// between characters, never inside one; runs of white space become one
// space.
func Snippet(d *StoredArticle, p Passage, q *Query, width int) string {
	toks := d.queryTokens(q.Terms)
	mark := q.marker()
	lo := sort.Search(len(toks), func(i int) bool { return toks[i].Start >= p.Start })
	first := -1
	for i := lo; i < len(toks) && toks[i].Start < p.End; i++ {
		if at, _, ok := mark(toks[i]); ok {
			first = at
			break
		}
	}
	s := p.Start
	if first >= 0 && first-width/4 > s {
		s = first - width/4
	}
	e := min(s+width, p.End)
	if e-s < width {
		s = max(p.Start, e-width)
	}
	// what a page does not show (metadata, leftover wiki markup,
	// infoboxes: quiet) is left out; a window that starts in it starts
	// after it
	ci := d.chars()
	for {
		k := sort.Search(len(d.quiet)/2, func(k int) bool { return d.quiet[2*k+1] > s })
		if k == len(d.quiet)/2 || d.quiet[2*k] > s || d.quiet[2*k+1] >= p.End {
			break
		}
		e = min(e+d.quiet[2*k+1]-s, p.End)
		s = d.quiet[2*k+1]
		for s < e && strings.TrimSpace(ci.Slice(s, s+1)) == "" {
			s++
		}
	}
	cut := s > p.Start && shows(ci, d.quiet, p.Start, s)
	// the marked ranges, merged
	var marks [][2]int
	for i := sort.Search(len(toks), func(i int) bool { return toks[i].Start >= s }); i < len(toks) && toks[i].Start < e; i++ {
		ms, me, ok := mark(toks[i])
		if !ok || me > e {
			continue
		}
		if n := len(marks); n > 0 && ms <= marks[n-1][1] {
			marks[n-1][1] = max(marks[n-1][1], me)
			continue
		}
		marks = append(marks, [2]int{ms, me})
	}
	// runs of white space become one space as the snippet is written
	// (chars.SpaceWriter: chars.OneSpace of the whole)
	b := chars.NewSpaceWriter(3*max(e-s, 0)/2 + 16) // e < s: an inverted passage
	if cut {
		b.WriteString("…")
	}
	at := s
	for _, m := range marks {
		b.WriteString(shownText(ci, d.quiet, at, m[0]))
		b.WriteString("[")
		b.WriteString(shownText(ci, d.quiet, m[0], m[1]))
		b.WriteString("]")
		at = m[1]
	}
	b.WriteString(shownText(ci, d.quiet, at, e))
	if e < p.End && shows(ci, d.quiet, e, p.End) {
		b.WriteString("…")
	}
	return b.String()
}

// shows reports whether the characters [from, to) of ci's text show
// anything but white space (shownText), reading them a piece at a time
// from the start: a hit read by blocks (readHit) decompresses the blocks
// up to the first character shown, not those of a whole section. A piece
// never ends inside a quiet span, which shownText shows whole or not at
// all.
func shows(ci textSlicer, quiet []int, from, to int) bool {
	const piece = 256
	for at := from; at < to; {
		end := min(at+piece, to)
		k := sort.Search(len(quiet)/2, func(k int) bool { return quiet[2*k+1] > end })
		if k < len(quiet)/2 && quiet[2*k] < end {
			end = min(quiet[2*k+1], to) // the quiet span holding end, whole
		}
		if strings.TrimSpace(shownText(ci, quiet, at, end)) != "" {
			return true
		}
		at = end
	}
	return false
}

// shownText returns the characters [from, to) of ci's text as a page
// shows them: the quiet spans left out, but for a doubly escaped entity
// ("&gt;"), which is its character (wikimarkup.Entity).
func shownText(ci textSlicer, quiet []int, from, to int) string {
	k := sort.Search(len(quiet)/2, func(k int) bool { return quiet[2*k+1] > from })
	if k == len(quiet)/2 || quiet[2*k] >= to {
		return ci.Slice(from, to)
	}
	var b strings.Builder
	for at := from; at < to; {
		if k < len(quiet)/2 && quiet[2*k] <= at {
			qe := min(quiet[2*k+1], to)
			if ch, ok := wikimarkup.Entity(ci.Slice(quiet[2*k], quiet[2*k+1])); ok && at == quiet[2*k] && qe == quiet[2*k+1] {
				b.WriteString(ch)
			}
			at = qe
			k++
			continue
		}
		next := to
		if k < len(quiet)/2 {
			next = min(next, quiet[2*k])
		}
		b.WriteString(ci.Slice(at, next))
		at = next
	}
	return b.String()
}
