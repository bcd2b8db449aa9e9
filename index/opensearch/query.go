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
	// readsim's fetch); AuxBoost weighs the auxiliary text (the text's
	// boost times AuxWeight when 0).
	TitleBoost, TextBoost, AuxBoost float64
}

// AuxWeight is the auxiliary text's boost relative to the text's when
// Query.AuxBoost is 0 (readsim's records.AuxWeight, docs/search.md).
const AuxWeight = 0.5

// Term is a query term and its number of occurrences in the query.
type Term struct {
	Text string
	N    int
	// Word numbers, from 1, the word of the query the term is made of:
	// the terms of one word (its variants, one per analysis kind) share
	// one document frequency per field, the sum of theirs ("one word,
	// one idf", docs/search.md). 0 is a word of the term's own.
	Word int
}

// maxClauses is the cluster's bound on a query's leaf clauses
// (indices.query.bool.max_clause_count).
const maxClauses = 1024

// The fields of a term, in readsim's order (fetch.FieldTerms).
const (
	fTitle = iota
	fText
	fAux
	nFields
)

// fieldNames are the fields' names in the mapping (NormsScript), and the
// prefixes of each language's (NormsFields).
var fieldNames = [nFields]string{"title", "text", "aux"}

// clause is one term of one field of a search (NormsScript): its boost
// (the field's times the term's occurrences), its word's document
// frequency in the field over the whole build, and its BM25 idf.
type clause struct {
	text  string
	field int
	word  int // the term's word: Term.Word, or -(its place + 1)
	boost float64
	own   float64 // the documents holding the term in the field
	df    float64 // own, summed over the word's variants
	idf   float64
}

// plan is a search of terms (NormsScript): its clauses, term by term,
// title, text then auxiliary text.
type plan struct {
	clauses []clause
	terms   int
}

// boosts returns the fields' boosts of q (the defaults for 0).
func (q Query) boosts() [nFields]float64 {
	tb, xb, ab := q.TitleBoost, q.TextBoost, q.AuxBoost
	if tb == 0 {
		tb = 2
	}
	if xb == 0 {
		xb = 1
	}
	if ab == 0 {
		ab = xb * AuxWeight
	}
	return [nFields]float64{tb, xb, ab}
}

// check refuses a query the cluster cannot answer as readsim would.
func (r *Reader) check(q Query) error {
	if len(q.Terms) == 0 {
		if q.TitleKey == "" {
			return fmt.Errorf("opensearch: an empty query")
		}
		return nil
	}
	if len(q.Terms) > MaxTerms {
		return fmt.Errorf("opensearch: a query of %d terms: at most %d", len(q.Terms), MaxTerms)
	}
	if n := len(q.Terms) * nFields * (len(r.langs) + 1); n > maxClauses {
		return fmt.Errorf("opensearch: a query of %d terms on %d languages makes %d clauses: at most %d", len(q.Terms), len(r.langs), n, maxClauses)
	}
	for _, t := range q.Terms {
		if t.Text == "" || t.N <= 0 || t.Word < 0 {
			return fmt.Errorf("opensearch: query term %q with %d occurrences, word %d", t.Text, t.N, t.Word)
		}
	}
	return nil
}

// planOf returns the clauses of q's terms.
func planOf(q Query) *plan {
	bo := q.boosts()
	p := &plan{terms: len(q.Terms)}
	for i, t := range q.Terms {
		w := -(i + 1)
		if t.Word > 0 {
			w = t.Word
		}
		for f := range nFields {
			p.clauses = append(p.clauses, clause{text: t.Text, field: f, word: w, boost: bo[f] * float64(t.N)})
		}
	}
	return p
}

// dfFilters are the filters of the aggregation that counts each clause's
// documents (c0, c1, …).
func (p *plan) dfFilters() map[string]any {
	out := make(map[string]any, len(p.clauses))
	for i, c := range p.clauses {
		out[fmt.Sprintf("c%d", i)] = map[string]any{"term": map[string]any{fieldNames[c.field]: c.text}}
	}
	return out
}

// weigh takes each clause's document frequency in dfs (as counted, per
// term), sums those of a word's variants per field, and computes each
// clause's idf over n documents (Bleve's BM25 idf, as readsim's fetch);
// it returns the factor of the scores: the query norm 1/√Σ(boost·idf)²
// over the title and text clauses, over the coordination's total (two
// clauses per term: the auxiliary text counts with the text).
func (p *plan) weigh(dfs []float64, n float64) float64 {
	type key struct{ word, field int }
	sum := map[key]float64{}
	for i := range p.clauses {
		p.clauses[i].own = dfs[i]
		sum[key{p.clauses[i].word, p.clauses[i].field}] += dfs[i]
	}
	var sumSq float64
	for i := range p.clauses {
		c := &p.clauses[i]
		c.df = math.Min(sum[key{c.word, c.field}], n)
		c.idf = math.Log(1 + (n-c.df+0.5)/(c.df+0.5))
		if c.field != fAux {
			sumSq += c.boost * c.idf * c.boost * c.idf
		}
	}
	return 1 / float64(2*p.terms) / math.Sqrt(sumSq)
}

// searchBody returns a search's body without its query.
func searchBody(k int) map[string]any {
	return map[string]any{
		"size":            k,
		"track_scores":    true,
		"_source":         false,
		"docvalue_fields": []string{"lang"},
		"sort":            []any{map[string]any{"_score": "desc"}, map[string]any{"id": "asc"}},
	}
}

// scriptQuery is the query of a weighed plan (NormsScript): a clause per
// term and field (title, text, auxiliary text, term by term, as readsim's
// fetch), each a disjunction over the languages whose term query's boost
// is the language's average length of the field (the similarity reads
// it, and returns the BM25 term frequency part), weighed by boost·idf²;
// around them the coordination factor, as the number of clauses matched
// (the title, and the text or the auxiliary text, per term; the caller
// divides by their total). A clause no document matches is left out; nil
// when none is left.
func (r *Reader) scriptQuery(p *plan) map[string]any {
	var clauses, coord []any
	for _, c := range p.clauses {
		if c.own == 0 {
			continue
		}
		var perLang []any
		for _, l := range r.langs {
			avg := r.avg[l][c.field]
			if avg <= 0 {
				continue // no document of l has text in the field
			}
			perLang = append(perLang, map[string]any{"bool": map[string]any{
				"filter": []any{map[string]any{"term": map[string]any{"lang": l}}},
				"must": []any{map[string]any{"term": map[string]any{
					fieldNames[c.field]: map[string]any{"value": c.text, "boost": avg}}}},
			}})
		}
		clauses = append(clauses, map[string]any{"function_score": map[string]any{
			"query":     map[string]any{"bool": map[string]any{"should": perLang}},
			"functions": []any{map[string]any{"weight": c.boost * c.idf * c.idf}},
		}})
	}
	for i := range p.clauses {
		if f := p.coordFilter(i); f != nil {
			coord = append(coord, map[string]any{"filter": f, "weight": 1})
		}
	}
	if len(clauses) == 0 {
		return nil
	}
	return map[string]any{"function_score": map[string]any{
		"query":      map[string]any{"bool": map[string]any{"should": clauses}},
		"functions":  coord,
		"score_mode": "sum",
		"boost_mode": "multiply",
	}}
}

// coordFilter is the filter of clause i in the coordination factor: the
// title's term for a title clause; the text's or the auxiliary text's for
// a text clause (matched once when in both); nil for an auxiliary text
// clause (counted with its text clause), or when no document has the term
// in the fields the filter would look at.
func (p *plan) coordFilter(i int) map[string]any {
	var should []any
	for j := i; j < len(p.clauses) && j <= i+1; j++ {
		c := p.clauses[j]
		if c.own > 0 && (j == i || c.field == fAux) {
			should = append(should, map[string]any{"term": map[string]any{fieldNames[c.field]: c.text}})
		}
	}
	switch {
	case p.clauses[i].field == fAux || len(should) == 0:
		return nil
	case p.clauses[i].field == fTitle:
		return should[0].(map[string]any)
	}
	return map[string]any{"bool": map[string]any{"should": should}}
}

// fieldsQuery is a query of NormsFields: a term query per term, field and
// language, boosted by the field's boost times the term's occurrences,
// scored by Lucene's BM25.
func (r *Reader) fieldsQuery(q Query) map[string]any {
	bo := q.boosts()
	var clauses []any
	for _, t := range q.Terms {
		for _, l := range r.langs {
			for f := range nFields {
				clauses = append(clauses, map[string]any{"term": map[string]any{
					fieldNames[f] + "_" + l: map[string]any{"value": t.Text, "boost": bo[f] * float64(t.N)}}})
			}
		}
	}
	return map[string]any{"bool": map[string]any{"should": clauses}}
}
