package opensearch

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"
)

// Reader searches one published build: the one the index's alias named
// when it was opened.
type Reader struct {
	c     *Client
	name  string
	index string
	m     meta
	langs []string                    // the build's languages, sorted
	avg   map[string][nFields]float64 // each language's average title, text and auxiliary text length, rounded up
}

// Open opens the build the alias name points to. A name that is no alias
// of readsim's builds is ErrForeign; a build of another layout, ErrLayout;
// an index never published, an error saying so.
func (c *Client) Open(ctx context.Context, name string) (*Reader, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	bs, err := c.builds(ctx, name)
	if err != nil {
		return nil, err
	}
	var cur *builtIndex
	for i := range bs {
		if bs[i].aliased {
			cur = &bs[i]
		}
	}
	if cur == nil {
		return nil, fmt.Errorf("opensearch %s: no index %s: build it with readsim index", c.where(), name)
	}
	m := cur.meta
	if m.Layout != Layout {
		return nil, fmt.Errorf("opensearch %s: %s (%s) has layout %d, this readsim reads %d: rebuild with readsim index: %w", c.where(), name, cur.name, m.Layout, Layout, ErrLayout)
	}
	if !m.Complete || (m.Norms != NormsScript && m.Norms != NormsFields) {
		return nil, fmt.Errorf("opensearch %s: %s (%s) is not a complete build: rebuild with readsim index", c.where(), name, cur.name)
	}
	r := &Reader{c: c, name: name, index: cur.name, m: *m, avg: map[string][nFields]float64{}}
	for l, s := range m.Langs {
		if s.Docs <= 0 {
			continue
		}
		r.langs = append(r.langs, l)
		n := float64(s.Docs)
		r.avg[l] = [nFields]float64{math.Ceil(float64(s.TitleLen) / n), math.Ceil(float64(s.TextLen) / n), math.Ceil(float64(s.AuxLen) / n)}
	}
	sort.Strings(r.langs)
	return r, nil
}

// Build returns the concrete index the reader searches.
func (r *Reader) Build() string { return r.index }

// Docs returns the number of documents of the reader's build.
func (r *Reader) Docs() int64 { return r.m.Docs }

// Langs returns the documents and lengths of each language of the build.
func (r *Reader) Langs() map[string]Lang {
	out := map[string]Lang{}
	for l, s := range r.m.Langs {
		out[l] = *s
	}
	return out
}

// Norms returns the build's length-norm scheme.
func (r *Reader) Norms() Norms { return r.m.Norms }

// Current returns the build the alias names now: a server compares it
// with Build to know when to open the index again.
func (r *Reader) Current(ctx context.Context) (string, error) {
	var got map[string]any
	if err := r.c.call(ctx, "GET", "/_alias/"+r.name, nil, &got); err != nil {
		return "", err
	}
	if len(got) != 1 {
		return "", fmt.Errorf("opensearch %s: alias %s names %d indexes", r.c.where(), r.name, len(got))
	}
	for k := range got {
		return k, nil
	}
	return "", nil
}

// Hit is a document a search found.
type Hit struct {
	ID    string
	Score float64
	Lang  string
}

// Search returns the k best documents for q (k at most MaxK), by score,
// ties by id. A search that failed on some shards (a node died under it)
// or found no node is tried again within the client's timeout.
//
// A search of terms (NormsScript) is two requests: the first counts the
// documents holding each term in each field over the whole build (so a
// word's variants can share one idf, and the query norm is known), the
// second scores with the idfs computed from them (docs/cluster.md). Both
// together, their retries included, are bounded by the client's timeout.
func (r *Reader) Search(ctx context.Context, q Query, k int) ([]Hit, error) {
	if k <= 0 || k > MaxK {
		return nil, fmt.Errorf("opensearch: %d hits asked: 1 to %d", k, MaxK)
	}
	if err := r.check(q); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, r.c.timeout)
	defer cancel()
	body := searchBody(k)
	path := "/" + r.index + "/_search?allow_partial_search_results=false"
	factor := 1.0
	switch {
	case len(q.Terms) == 0:
		// the title key's idf is the similarity's, over the whole build
		body["query"] = map[string]any{"term": map[string]any{"titlekey": q.TitleKey}}
		path += "&search_type=dfs_query_then_fetch"
	case r.m.Norms == NormsFields:
		body["query"] = r.fieldsQuery(q)
		path += "&search_type=dfs_query_then_fetch"
	default:
		p := planOf(q)
		dfs, err := r.docFreqs(ctx, p)
		if err != nil {
			return nil, err
		}
		factor = p.weigh(dfs, float64(r.m.Docs))
		query := r.scriptQuery(p)
		if query == nil {
			return nil, nil // no document holds any term
		}
		body["query"] = query
	}
	var hits []Hit
	err := r.c.retry(ctx, "searching "+r.index, func(ctx context.Context) error {
		var err error
		hits, err = r.searchOnce(ctx, path, body, factor)
		return err
	})
	return hits, r.gone(err)
}

// docFreqs counts the documents of the build holding each clause's term
// in its field.
func (r *Reader) docFreqs(ctx context.Context, p *plan) ([]float64, error) {
	body := map[string]any{"size": 0, "track_total_hits": false,
		"aggs": map[string]any{"df": map[string]any{"filters": map[string]any{"filters": p.dfFilters()}}}}
	path := "/" + r.index + "/_search?allow_partial_search_results=false"
	var dfs []float64
	err := r.c.retry(ctx, "counting terms in "+r.index, func(ctx context.Context) error {
		var raw json.RawMessage
		if err := r.c.call(ctx, "POST", path, body, &raw); err != nil {
			return err
		}
		var err error
		if dfs, err = parseDocFreqs(raw, len(p.clauses), float64(r.m.Docs)); err != nil {
			return fmt.Errorf("opensearch %s: counting terms in %s: %w", r.c.where(), r.index, err)
		}
		return nil
	})
	return dfs, r.gone(err)
}

// retry calls fn until it succeeds, fails in a way another try cannot
// mend (retryable), or the client's timeout is over.
func (c *Client) retry(ctx context.Context, what string, fn func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var last error
	for attempt := 0; ctx.Err() == nil; attempt++ {
		err := fn(ctx)
		if err == nil || !retryable(err) {
			return err
		}
		last = err
		select {
		case <-ctx.Done():
		case <-time.After(time.Duration(min(attempt+1, 5)) * 100 * time.Millisecond):
		}
	}
	if last == nil { // no time was left for a first try
		return fmt.Errorf("opensearch %s: %s: %w", c.where(), what, ctx.Err())
	}
	return fmt.Errorf("opensearch %s: %s: no complete answer within %v: %w", c.where(), what, c.timeout, last)
}

// errPartial is a search answered by some shards only.
var errPartial = errors.New("some shards failed")

// retryable reports whether a failed call may succeed on another try: no
// node answered, a shard failed, or the cluster was busy or unavailable.
func retryable(err error) bool {
	var e *apiError
	if errors.As(err, &e) {
		// a query the cluster refuses (400) fails at once
		return e.Status == 429 || e.Status >= 500 || (e.Type == "search_phase_execution_exception" && e.Status != 400)
	}
	return errors.Is(err, ErrUnreachable) || errors.Is(err, errPartial)
}

// gone turns the error of a build that was deleted into ErrGone.
func (r *Reader) gone(err error) error {
	if err != nil && isType(err, "index_not_found_exception") {
		return fmt.Errorf("opensearch %s: %s: %w: open %s again", r.c.where(), r.index, ErrGone, r.name)
	}
	return err
}

// searchOnce sends a search once and reads its hits (parseSearch).
func (r *Reader) searchOnce(ctx context.Context, path string, body map[string]any, factor float64) ([]Hit, error) {
	var raw json.RawMessage
	if err := r.c.call(ctx, "POST", path, body, &raw); err != nil {
		return nil, err
	}
	hits, err := parseSearch(raw, factor)
	if err != nil {
		return nil, fmt.Errorf("opensearch %s: searching %s: %w", r.c.where(), r.index, err)
	}
	return hits, nil
}

// shardsAnswer is the part of a search's answer that says whether every
// shard answered.
type shardsAnswer struct {
	TimedOut bool `json:"timed_out"`
	Shards   struct {
		Failed int `json:"failed"`
	} `json:"_shards"`
}

// partial is errPartial when some shards failed or the search timed out.
func (a *shardsAnswer) partial() error {
	if a.Shards.Failed > 0 || a.TimedOut {
		return fmt.Errorf("%d shard(s) failed: %w", a.Shards.Failed, errPartial)
	}
	return nil
}

// parseDocFreqs reads the document frequencies of an answer's
// aggregation "df" (buckets c0 … c(clauses-1)), each in [0, n]. An answer
// from only some shards is errPartial.
func parseDocFreqs(raw []byte, clauses int, n float64) ([]float64, error) {
	var res struct {
		shardsAnswer
		Aggs struct {
			DF struct {
				Buckets map[string]struct {
					Count float64 `json:"doc_count"`
				} `json:"buckets"`
			} `json:"df"`
		} `json:"aggregations"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, err
	}
	if err := res.partial(); err != nil {
		return nil, err
	}
	dfs := make([]float64, clauses)
	for i := range dfs {
		bk, ok := res.Aggs.DF.Buckets[fmt.Sprintf("c%d", i)]
		if !ok || !(bk.Count >= 0 && bk.Count <= n) {
			return nil, fmt.Errorf("the answer has no document frequency for clause %d, or one out of [0, %g]", i, n)
		}
		dfs[i] = bk.Count
	}
	return dfs, nil
}

// parseSearch reads a search's answer: its hits, their scores multiplied
// by factor. An answer from only some shards is errPartial.
func parseSearch(raw []byte, factor float64) ([]Hit, error) {
	var res struct {
		shardsAnswer
		Hits struct {
			Hits []struct {
				ID     string  `json:"_id"`
				Score  float64 `json:"_score"`
				Fields struct {
					Lang []string `json:"lang"`
				} `json:"fields"`
			} `json:"hits"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, err
	}
	if err := res.partial(); err != nil {
		return nil, err
	}
	hits := make([]Hit, len(res.Hits.Hits))
	for i, h := range res.Hits.Hits {
		hits[i] = Hit{ID: h.ID, Score: h.Score * factor}
		if math.IsNaN(hits[i].Score) || math.IsInf(hits[i].Score, 0) || h.ID == "" {
			return nil, fmt.Errorf("hit %d: id %q, score %g", i, h.ID, h.Score)
		}
		if len(h.Fields.Lang) > 0 {
			hits[i].Lang = h.Fields.Lang[0]
		}
	}
	return hits, nil
}

// Payloads returns the payloads of the documents ids, in their order (at
// most MaxIDs). An id the build does not hold is an error naming it.
func (r *Reader) Payloads(ctx context.Context, ids []string) ([][]byte, error) {
	if len(ids) > MaxIDs {
		return nil, fmt.Errorf("opensearch: %d ids asked: at most %d", len(ids), MaxIDs)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	var docs []mgetDoc
	err := r.c.retry(ctx, "reading "+r.index, func(ctx context.Context) error {
		var err error
		docs, err = r.mget(ctx, ids)
		return err
	})
	if err != nil {
		return nil, r.gone(err)
	}
	out := make([][]byte, len(ids))
	for i, d := range docs {
		if !d.Found {
			return nil, fmt.Errorf("opensearch %s: %s holds no document %s: %w", r.c.where(), r.index, ids[i], ErrNoDoc)
		}
		if len(d.Fields.Payload) == 1 {
			p, err := base64.StdEncoding.DecodeString(d.Fields.Payload[0])
			if err != nil {
				return nil, fmt.Errorf("opensearch %s: %s: document %s: payload: %v", r.c.where(), r.index, ids[i], err)
			}
			out[i] = p
		} else {
			out[i] = []byte{}
		}
	}
	return out, nil
}

// mgetDoc is one document of a multi-get's answer.
type mgetDoc struct {
	ID     string `json:"_id"`
	Found  bool   `json:"found"`
	Fields struct {
		Payload []string `json:"payload"`
	} `json:"fields"`
	Error any `json:"error"`
}

// mget reads the payloads of ids once; a document the cluster could not
// read (its shard's node died) fails the call with errPartial.
func (r *Reader) mget(ctx context.Context, ids []string) ([]mgetDoc, error) {
	var res struct {
		Docs []mgetDoc `json:"docs"`
	}
	body := map[string]any{"ids": ids}
	if err := r.c.call(ctx, "POST", "/"+r.index+"/_mget?stored_fields=payload", body, &res); err != nil {
		return nil, err
	}
	if len(res.Docs) != len(ids) {
		return nil, fmt.Errorf("opensearch %s: %s: %d documents asked, %d returned", r.c.where(), r.index, len(ids), len(res.Docs))
	}
	for i, d := range res.Docs {
		if d.Error != nil {
			if m, ok := d.Error.(map[string]any); ok && m["type"] == "index_not_found_exception" {
				return nil, &apiError{Status: 404, Type: "index_not_found_exception"}
			}
			return nil, fmt.Errorf("opensearch %s: %s: document %s: %v: %w", r.c.where(), r.index, ids[i], d.Error, errPartial)
		}
	}
	return res.Docs, nil
}
