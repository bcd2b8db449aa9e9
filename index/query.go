package index

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/blevesearch/bleve/v2"
	bindex "github.com/blevesearch/bleve_index_api"
	"github.com/blevesearch/vellum"
	vregexp "github.com/blevesearch/vellum/regexp"

	"github.com/readsim/readsim/index/analysis"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/fetch"
	"github.com/readsim/readsim/index/records"
	"github.com/readsim/readsim/index/store"
)

// Options tune fetch and browse.
type Options struct {
	// TitleBoost and TextBoost weight the title and text fields in fetch;
	// zero means the default (2 and 1).
	TitleBoost, TextBoost float64
	// Threshold is browse's relative threshold (BrowseOptions).
	Threshold float64
	// SnippetWidth is the length of Search's snippets in characters (0:
	// DefaultSnippetWidth; half as many for an article in Chinese, Japanese
	// or Korean, whose characters are twice as wide).
	SnippetWidth int
}

// NewOptions returns the Options of boosts and a threshold as a user gives
// them (readsim search and run): a zero boost switches its field off
// (unlike Options', which is the default). The boosts must not be negative
// nor both zero, the threshold must be in (0, 1]; the errors name the
// flags that give them.
func NewOptions(titleBoost, textBoost, threshold float64) (Options, error) {
	for _, v := range []struct {
		flag string
		x    float64
	}{{"--title-boost", titleBoost}, {"--text-boost", textBoost}, {"--threshold", threshold}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) {
			return Options{}, fmt.Errorf("%s %v: want a finite number", v.flag, v.x)
		}
	}
	if threshold <= 0 || threshold > 1 {
		return Options{}, errors.New("--threshold must be in (0, 1]")
	}
	if titleBoost < 0 || textBoost < 0 || titleBoost+textBoost == 0 {
		return Options{}, errors.New("--title-boost and --text-boost must be non-negative, not both zero")
	}
	off := func(b float64) float64 {
		if b == 0 {
			return offBoost
		}
		return b
	}
	return Options{TitleBoost: off(titleBoost), TextBoost: off(textBoost), Threshold: threshold}, nil
}

// offBoost is the boost of a field switched off: Options' zero is the
// default, and a boost this small leaves the field no weight.
const offBoost = 1e-9

// DefaultSnippetWidth is the length of a result's snippet in characters.
const DefaultSnippetWidth = 180

// snippetWidth returns the snippet width for an article in lang.
func (o Options) snippetWidth(lang string) int {
	w := o.SnippetWidth
	if w <= 0 {
		w = DefaultSnippetWidth
	}
	if article.IsCJK(lang) {
		w = (w + 1) / 2
	}
	return w
}

func (o Options) boosts() (float64, float64) {
	tb, xb := o.TitleBoost, o.TextBoost
	if tb == 0 {
		tb = 2
	}
	if xb == 0 {
		xb = 1
	}
	return tb, xb
}

// fetchQuery is what a fetch needs of q (fetch.Query), with the boosts
// of opt: the auxiliary text's is the text's times records.AuxWeight
// (docs/search.md, "Auxiliary text").
func (q *Query) fetchQuery(opt Options) fetch.Query {
	tb, xb := opt.boosts()
	return fetch.Query{Terms: q.Terms, Title: q.Title, TitleBoost: tb, TextBoost: xb, AuxBoost: xb * records.AuxWeight}
}

// Query is an analyzed query with the element statistics of its terms,
// ready for fetch and browse.
type Query struct {
	Text  string
	Terms []analysis.Term
	// Title, for a query without terms (only stop words: "The Who", "It"),
	// is the query as titles are keyed (TitleKey): fetch finds the
	// articles with that title.
	Title string
	stats ElemStats
	gen   uint64 // the snapshot whose statistics stats are
}

// Prepare analyzes a query with the analysis of every language of the
// index (QueryTerms) and looks up its terms' element statistics. A query
// without terms is a title search (Query.Title) when some article's title
// is the query (TitleKey equal), else ErrNoTerms.
func (x *Index) Prepare(q string) (*Query, error) {
	return withSnapshot(x, func(s *snapshot) (*Query, error) { return s.prepare(q) })
}

// prepare analyzes q with the analysis of every language of the
// snapshot's articles and looks up its terms' element statistics.
func (x *snapshot) prepare(q string) (*Query, error) {
	langs := make([]string, 0, len(x.langs))
	for l := range x.langs {
		langs = append(langs, l)
	}
	terms := analysis.QueryTerms(q, langs...)
	if len(terms) == 0 {
		key := analysis.TitleKey(q)
		if key == "" {
			return nil, ErrNoTerms
		}
		n, err := x.titleCount(key)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, ErrNoTerms
		}
		return x.prepared(&Query{Text: q, Title: key})
	}
	return x.prepared(&Query{Text: q, Terms: terms})
}

// shardReader opens a reader of a shard's Bleve index; close it.
func shardReader(sh bleve.Index) (bindex.IndexReader, error) {
	adv, err := sh.Advanced()
	if err != nil {
		return nil, err
	}
	return adv.Reader()
}

// titleCount is the number of articles whose TitleKey is key.
func (x *snapshot) titleCount(key string) (uint64, error) {
	var n uint64
	for _, sh := range x.Bleve {
		r, err := shardReader(sh)
		if err != nil {
			return 0, err
		}
		tfr, err := r.TermFieldReader(context.Background(), []byte(key), store.TitleKeyField, false, false, false)
		if err == nil {
			n += tfr.Count()
			tfr.Close()
		}
		r.Close()
		if err != nil {
			return 0, err
		}
	}
	return n, nil
}

// prepared returns q with the snapshot's element statistics: q itself when
// it has them, else a copy.
func (x *snapshot) prepared(q *Query) (*Query, error) {
	return withElemStats(q, x.gen, x.elemDF, x.elemN, x.elemAvg)
}

// withElemStats returns q with the element statistics of the build gen
// (the element frequencies df, n elements of average length avg): q
// itself when it has them, else a copy. Both backends keep the element
// frequencies as an FST (store.ElemDFName).
func withElemStats(q *Query, gen uint64, df *vellum.FST, n, avg float64) (*Query, error) {
	if q.gen == gen {
		return q, nil
	}
	pq := &Query{Text: q.Text, Terms: q.Terms, Title: q.Title, gen: gen, stats: ElemStats{N: n, AvgLen: avg, DF: map[string]float64{}}}
	for _, t := range q.Terms {
		f, err := elemDFOf(df, n, t)
		if err != nil {
			return nil, fmt.Errorf("index: %s: %w; run readsim index --rebuild", store.ElemDFName, err)
		}
		pq.stats.DF[t.Text] = f
	}
	return pq, nil
}

// elemDFOf returns the element frequency of a query term in df: the
// number of candidate elements holding it. A character term's is the sum
// of its terms' (charTermRegexp), at most the number of elements n: an
// upper bound, since an element holding two of its bigrams counts twice.
func elemDFOf(df *vellum.FST, n float64, t analysis.Term) (float64, error) {
	if !t.Char {
		v, _, err := df.Get([]byte(t.Text))
		return float64(v), err
	}
	re, err := vregexp.New(analysis.CharTermRegexp(t.Text))
	if err != nil {
		return 0, err
	}
	it, err := df.Search(re, nil, nil)
	var sum float64
	for err == nil {
		_, v := it.Current()
		sum += float64(v)
		err = it.Next()
	}
	if err != vellum.ErrIteratorDone {
		return 0, err
	}
	return math.Min(sum, n), nil
}

// Fetch returns the k best articles for q by BM25 over title and text,
// searching the shards in parallel with the collection's statistics (see
// index/fetch). Ties are broken by article id, so rankings are reproducible.
// A cancelled context stops the search.
func (x *Index) Fetch(ctx context.Context, q *Query, k int, opt Options) ([]Hit, error) {
	if k <= 0 {
		return nil, nil
	}
	return withSnapshot(x, func(s *snapshot) ([]Hit, error) {
		f, err := s.Fetch(ctx, q.fetchQuery(opt), k, records.ReadTitle, nil)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return f.Hits, nil
	})
}
