package opensearch

import (
	"fmt"
	"math"
)

// Query is a search: readsim's query terms, or a title key.
type Query struct {
	// Terms are the query's distinct terms as readsim's analysis makes
	// them, each with its number of occurrences in the query.
	Terms []Term
	// TitleKey, when Terms is empty, is a title search: the documents
	// having it among their title keys, scored by TF-IDF (idf 1 +
	// ln(N/(df+1)) over √ of the document's number of keys).
	TitleKey string
	// TitleBoost and TextBoost weigh the fields (2 and 1 when 0, as
	// readsim's fetch).
	TitleBoost, TextBoost float64
}

// Term is a query term and its number of occurrences in the query.
type Term struct {
	Text string
	N    int
}

// maxClauses is the cluster's bound on a query's leaf clauses
// (indices.query.bool.max_clause_count).
const maxClauses = 1024

// scaling is what a search's scores are multiplied by once the answer is
// in: 1/total (the coordination factor's total) and, for NormsScript, the
// query norm of readsim's fetch, 1/√Σ(boost·idf)², from the clauses'
// boosts and document frequencies (the aggregation "df").
type scaling struct {
	total  float64
	boosts []float64 // per clause; nil: no query norm
	n      float64   // documents, for idf
}

// factor returns the scores' factor given each clause's document
// frequency.
func (s scaling) factor(dfs []float64) float64 {
	f := 1 / s.total
	if s.boosts == nil {
		return f
	}
	var sumSq float64
	for i, bo := range s.boosts {
		idf := math.Log(1 + (s.n-dfs[i]+0.5)/(dfs[i]+0.5))
		sumSq += bo * idf * bo * idf
	}
	return f / math.Sqrt(sumSq)
}

// searchBody returns a search's body and how its scores are scaled.
func (r *Reader) searchBody(q Query, k int) (map[string]any, scaling, error) {
	body := map[string]any{
		"size":            k,
		"track_scores":    true,
		"_source":         false,
		"docvalue_fields": []string{"lang"},
		"sort":            []any{map[string]any{"_score": "desc"}, map[string]any{"id": "asc"}},
	}
	if len(q.Terms) == 0 {
		if q.TitleKey == "" {
			return nil, scaling{}, fmt.Errorf("opensearch: an empty query")
		}
		body["query"] = map[string]any{"term": map[string]any{"titlekey": q.TitleKey}}
		return body, scaling{total: 1}, nil
	}
	if len(q.Terms) > MaxTerms {
		return nil, scaling{}, fmt.Errorf("opensearch: a query of %d terms: at most %d", len(q.Terms), MaxTerms)
	}
	if n := len(q.Terms) * 2 * (len(r.langs) + 1); n > maxClauses {
		return nil, scaling{}, fmt.Errorf("opensearch: a query of %d terms on %d languages makes %d clauses: at most %d", len(q.Terms), len(r.langs), n, maxClauses)
	}
	tb, xb := q.TitleBoost, q.TextBoost
	if tb == 0 {
		tb = 2
	}
	if xb == 0 {
		xb = 1
	}
	for _, t := range q.Terms {
		if t.Text == "" || t.N <= 0 {
			return nil, scaling{}, fmt.Errorf("opensearch: query term %q with %d occurrences", t.Text, t.N)
		}
	}
	if r.m.Norms == NormsFields {
		body["query"] = r.fieldsQuery(q.Terms, tb, xb)
		return body, scaling{total: 1}, nil
	}
	query, dfs, sc := r.scriptQuery(q.Terms, tb, xb)
	body["query"] = query
	body["aggs"] = map[string]any{"df": map[string]any{"filters": map[string]any{"filters": dfs}}}
	sc.n = float64(r.m.Docs)
	return body, sc, nil
}

// scriptQuery is a query of NormsScript: a clause per term and field (title
// then text, term by term, as readsim's fetch), each a disjunction over
// the languages whose term query's boost is the language's average length
// (the similarity reads it), weighed by the field's boost times the term's
// occurrences; around them the coordination factor, as the number of
// clauses matched (the caller divides by their total). dfs are the
// filters counting each clause's documents (c0, c1, …), of which the
// query norm is computed.
func (r *Reader) scriptQuery(terms []Term, tb, xb float64) (map[string]any, map[string]any, scaling) {
	var clauses, coord []any
	dfs := map[string]any{}
	var sc scaling
	for _, t := range terms {
		for fi, f := range [2]struct {
			name  string
			boost float64
		}{{"title", tb}, {"text", xb}} {
			var perLang []any
			for _, l := range r.langs {
				avg := math.Max(r.avg[l][fi], 1)
				perLang = append(perLang, map[string]any{"bool": map[string]any{
					"filter": []any{map[string]any{"term": map[string]any{"lang": l}}},
					"must": []any{map[string]any{"term": map[string]any{
						f.name: map[string]any{"value": t.Text, "boost": avg}}}},
				}})
			}
			clauses = append(clauses, map[string]any{"function_score": map[string]any{
				"query":     map[string]any{"bool": map[string]any{"should": perLang}},
				"functions": []any{map[string]any{"weight": f.boost * float64(t.N)}},
			}})
			match := map[string]any{"term": map[string]any{f.name: t.Text}}
			coord = append(coord, map[string]any{"filter": match, "weight": 1})
			dfs[fmt.Sprintf("c%d", len(sc.boosts))] = match
			sc.boosts = append(sc.boosts, f.boost*float64(t.N))
		}
	}
	return map[string]any{"function_score": map[string]any{
		"query":      map[string]any{"bool": map[string]any{"should": clauses}},
		"functions":  coord,
		"score_mode": "sum",
		"boost_mode": "multiply",
	}}, dfs, scaling{total: float64(len(clauses)), boosts: sc.boosts}
}

// fieldsQuery is a query of NormsFields: a term query per term, field and
// language, boosted by the field's boost times the term's occurrences,
// scored by Lucene's BM25.
func (r *Reader) fieldsQuery(terms []Term, tb, xb float64) map[string]any {
	var clauses []any
	for _, t := range terms {
		for _, l := range r.langs {
			for _, f := range [2]struct {
				name  string
				boost float64
			}{{"title_", tb}, {"text_", xb}} {
				clauses = append(clauses, map[string]any{"term": map[string]any{
					f.name + l: map[string]any{"value": t.Text, "boost": f.boost * float64(t.N)}}})
			}
		}
	}
	return map[string]any{"bool": map[string]any{"should": clauses}}
}
