package index

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/blevesearch/vellum"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/analysis"
	"github.com/readsim/readsim/index/opensearch"
	"github.com/readsim/readsim/index/records"
)

// An index on an OpenSearch cluster (docs/cluster.md): the cluster ranks
// the articles (readsim's terms, the whole index's statistics, each
// language's length norm: index/opensearch), and readsim browses each hit
// on the record the build stored as its document's payload, with the
// element statistics the build stored beside (the blob "elemdf" and the
// extra strings "elements" and "elemlen"). A clusterIndex is pinned to
// the build its alias named when it opened (opensearch.Reader): every
// request of it sees that build whole.
type clusterIndex struct {
	url      *ClusterURL
	c        *opensearch.Client
	r        *opensearch.Reader
	elemDF   *vellum.FST
	elemN    float64
	elemAvg  float64
	langs    map[string]int
	langList []string
	gen      uint64
}

// Blob and extra keys of a build (clusterbuild.go writes them).
const (
	blobElemDF    = "elemdf"
	extraSource   = "source"
	extraElements = "elements"
	extraElemLen  = "elemlen"
	extraPrint    = "fingerprint"
)

// ErrCharTerm is wrapped by the error of a query holding a character term
// (a lone CJK character: analysis.Term.Char) on an index on a cluster,
// which does not search them (docs/cluster.md).
var ErrCharTerm = errors.New("a lone Chinese, Japanese or Korean character is not searched on an index on a cluster")

// openCluster opens the index u names on its cluster.
func openCluster(u *ClusterURL) (*clusterIndex, error) {
	c, err := opensearch.New(opensearch.Config{URLs: u.Nodes, Timeout: u.Timeout})
	if err != nil {
		return nil, &InputError{Msg: fmt.Sprintf("--index %s: %v", u, err)}
	}
	x, err := openClusterWith(u, c)
	if err != nil {
		c.Close()
		return nil, err
	}
	return x, nil
}

// openClusterWith opens the index u names through the client c.
func openClusterWith(u *ClusterURL, c *opensearch.Client) (*clusterIndex, error) {
	ctx := context.Background()
	r, err := c.Open(ctx, u.Name)
	if err != nil {
		return nil, clusterError(u, err)
	}
	x := &clusterIndex{url: u, c: c, r: r, langs: map[string]int{}, gen: generations.Add(1)}
	for l, s := range r.Langs() {
		if s.Docs > 0 {
			x.langs[l] = int(s.Docs)
			x.langList = append(x.langList, l)
		}
	}
	elems, err1 := strconv.ParseFloat(r.Extra(extraElements), 64)
	elemLen, err2 := strconv.ParseFloat(r.Extra(extraElemLen), 64)
	if err1 != nil || err2 != nil || elems < 0 || elemLen < 0 {
		return nil, &InputError{Msg: fmt.Sprintf("index %s (%s): no element statistics: not built by readsim index; rebuild with readsim index", u, r.Build())}
	}
	x.elemN = elems
	if elems > 0 {
		x.elemAvg = elemLen / elems
	}
	b, err := r.Blob(ctx, blobElemDF)
	if err != nil {
		return nil, clusterError(u, err)
	}
	if x.elemDF, err = vellum.Load(b); err != nil {
		return nil, &DamagedError{Index: u.String(), File: r.Build() + " blob " + blobElemDF, Err: err}
	}
	return x, nil
}

// clusterError says what an error of the cluster means for a command: an
// index that is not readsim's, of another layout, or missing is bad input
// (exit status 2); a cluster that does not answer is a failure, naming
// its URLs.
func clusterError(u *ClusterURL, err error) error {
	switch {
	case errors.Is(err, opensearch.ErrUnreachable):
		return err
	case errors.Is(err, opensearch.ErrForeign), errors.Is(err, opensearch.ErrLayout),
		strings.Contains(err.Error(), "build it with readsim index"),
		strings.Contains(err.Error(), "rebuild with readsim index"):
		return badInputf("index %s: %w", u, err)
	}
	return err
}

// inputErr is bad input that wraps an error (InputError holds a message
// only): commands exit with status 2.
type inputErr struct{ err error }

// badInputf is an inputErr formatted as fmt.Errorf.
func badInputf(format string, a ...any) error { return &inputErr{fmt.Errorf(format, a...)} }

// BadInput reports that the error is bad input.
func (e *inputErr) BadInput() bool { return true }

// Error returns the message.
func (e *inputErr) Error() string { return e.err.Error() }

// Unwrap returns the error it wraps.
func (e *inputErr) Unwrap() error { return e.err }

// Prepare analyses q with the analysis of every language of the index and
// the element statistics of its build, as Index.Prepare does; a query
// holding a character term is ErrCharTerm, naming the character.
func (x *clusterIndex) Prepare(q string) (*Query, error) {
	terms := analysis.QueryTerms(q, x.langList...)
	for _, t := range terms {
		if t.Char {
			return nil, badInputf("query %q: %q: %w; write a word of two characters or more", q, t.Text, ErrCharTerm)
		}
	}
	if len(terms) == 0 {
		key := analysis.TitleKey(q)
		if key == "" {
			return nil, ErrNoTerms
		}
		hits, err := x.r.Search(context.Background(), opensearch.Query{TitleKey: key}, 1)
		if err != nil {
			return nil, err
		}
		if len(hits) == 0 {
			return nil, ErrNoTerms
		}
		return x.prepared(&Query{Text: q, Title: key})
	}
	return x.prepared(&Query{Text: q, Terms: terms})
}

// prepared returns q with the build's element statistics.
func (x *clusterIndex) prepared(q *Query) (*Query, error) {
	for _, t := range q.Terms {
		if t.Char {
			return nil, badInputf("query %q: %q: %w", q.Text, t.Text, ErrCharTerm)
		}
	}
	return withElemStats(q, x.gen, x.elemDF, x.elemN, x.elemAvg)
}

// fetch returns the cluster's k best hits for q.
func (x *clusterIndex) fetch(ctx context.Context, q *Query, k int, opt Options) ([]opensearch.Hit, error) {
	if k > opensearch.MaxK {
		return nil, &InputError{Msg: fmt.Sprintf("index %s: %d articles asked: an index on a cluster returns at most %d", x.url, k, opensearch.MaxK)}
	}
	tb, xb := opt.boosts()
	oq := opensearch.Query{TitleKey: q.Title, TitleBoost: tb, TextBoost: xb, AuxBoost: xb * records.AuxWeight}
	for _, t := range q.Terms {
		oq.Terms = append(oq.Terms, opensearch.Term{Text: t.Text, N: t.N, Word: t.Word + 1})
	}
	return x.r.Search(ctx, oq, k)
}

// read reads the articles ids from their payloads, as how says; an id
// the build does not hold is nil when missing is true, else an error.
func (x *clusterIndex) read(ctx context.Context, ids []string, how records.ReadHow) ([]*StoredArticle, error) {
	out := make([]*StoredArticle, 0, len(ids))
	for len(ids) > 0 {
		n := min(len(ids), opensearch.MaxIDs)
		ps, err := x.r.Payloads(ctx, ids[:n])
		if err != nil {
			return nil, err
		}
		for i, p := range ps {
			f, place := records.Held(x.url.String(), "the payload of document "+ids[i], p)
			d := &StoredArticle{ID: ids[i]}
			if err := d.ReadRecord(f, place, how, nil); err != nil {
				return nil, err
			}
			out = append(out, d)
		}
		ids = ids[n:]
	}
	return out, nil
}

// results fetches the k best articles for q and reads each as how says.
func (x *clusterIndex) results(ctx context.Context, q *Query, k int, opt Options, how records.ReadHow) ([]Hit, []*StoredArticle, error) {
	if k <= 0 {
		return nil, nil, nil
	}
	q, err := x.prepared(q)
	if err != nil {
		return nil, nil, err
	}
	hs, err := x.fetch(ctx, q, k, opt)
	if err != nil {
		return nil, nil, err
	}
	ids := make([]string, len(hs))
	for i, h := range hs {
		ids[i] = h.ID
	}
	ds, err := x.read(ctx, ids, how)
	if err != nil {
		return nil, nil, err
	}
	hits := make([]Hit, len(hs))
	for i, h := range hs {
		hits[i] = Hit{ID: h.ID, Title: ds[i].Title, Lang: ds[i].Lang, Score: h.Score}
	}
	return hits, ds, nil
}

// Fetch returns the k best articles for q (Index.Fetch), ranked by the
// cluster.
func (x *clusterIndex) Fetch(ctx context.Context, q *Query, k int, opt Options) ([]Hit, error) {
	hits, _, err := x.results(ctx, q, k, opt, records.ReadTitle)
	return hits, err
}

// Search fetches the k best articles for q and browses each
// (Index.Search).
func (x *clusterIndex) Search(ctx context.Context, q *Query, k int, opt Options) ([]SearchResult, error) {
	q, err := x.prepared(q)
	if err != nil {
		return nil, err
	}
	hits, ds, err := x.results(ctx, q, k, opt, records.ReadWhole)
	if err != nil {
		return nil, err
	}
	out := make([]SearchResult, len(hits))
	for i, h := range hits {
		out[i] = browseHit(h, ds[i], q, opt)
	}
	return out, nil
}

// browseHit is a fetched article's result: its passages and snippet, as
// Index.Search makes them.
func browseHit(h Hit, d *StoredArticle, q *Query, opt Options) SearchResult {
	r := SearchResult{Hit: h, Doc: d, Passages: browseDoc(d, q, opt)}
	p := Passage{Span: effort.Span{Start: 0, End: d.Len}}
	if len(d.Elems) > 0 {
		p.Start = d.Elems[0].Start
	}
	if len(r.Passages) > 0 {
		p = r.Passages[0]
	}
	r.Snippet = Snippet(d, p, q, opt.snippetWidth(d.Lang))
	return r
}

// Hits is Search for a result list (Index.Hits).
func (x *clusterIndex) Hits(ctx context.Context, q *Query, k int, opt Options) ([]HitResult, error) {
	rs, err := x.Search(ctx, q, k, opt)
	if err != nil {
		return nil, err
	}
	out := make([]HitResult, len(rs))
	for i, r := range rs {
		out[i] = HitResult{Hit: r.Hit, Len: r.Doc.Len, Snippet: r.Snippet, Passages: make([]effort.Span, len(r.Passages))}
		for j, p := range r.Passages {
			out[i].Passages[j] = p.Span
		}
	}
	return out, nil
}

// Passages browses article id for q (Index.Passages); an article the
// index does not have has none.
func (x *clusterIndex) Passages(ctx context.Context, q, id string, opt Options) ([]Passage, error) {
	pq, err := x.Prepare(q)
	if err != nil {
		return nil, err
	}
	if len(pq.Terms) == 0 {
		return nil, nil
	}
	ds, err := x.read(ctx, []string{id}, records.ReadWhole) // browse analyses its text again
	if errors.Is(err, opensearch.ErrNoDoc) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return browseDoc(ds[0], pq, opt), nil
}

// Articles is the number of articles of the build.
func (x *clusterIndex) Articles() int { return int(x.r.Docs()) }

// Langs returns the number of articles of each language.
func (x *clusterIndex) Langs() map[string]int {
	out := make(map[string]int, len(x.langs))
	for l, n := range x.langs {
		out[l] = n
	}
	return out
}

// Source is the articles folder the build was made from.
func (x *clusterIndex) Source() string { return x.r.Extra(extraSource) }

// Rebuilt opens the index again when its alias names another build than
// this one's.
func (x *clusterIndex) Rebuilt() (Searcher, error) {
	cur, err := x.r.Current(context.Background())
	if err != nil {
		return nil, err
	}
	if cur == x.r.Build() {
		return nil, nil
	}
	y, err := openCluster(x.url)
	if err != nil {
		return nil, err
	}
	return y, nil
}

// Close ends the client's idle connections.
func (x *clusterIndex) Close() error { return x.c.Close() }
