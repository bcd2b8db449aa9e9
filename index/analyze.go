package index

import (
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"
	bindex "github.com/blevesearch/bleve_index_api"
)

// newMapping is the articles index's mapping: the English analyzer
// (Unicode tokenizer, possessive filter, lower case, English stop words,
// Porter stemmer) and BM25 scoring. Documents are built by hand (Batch.
// IndexAdvanced), so the mapping only carries the scoring model and the
// analyzers.
func newMapping() *mapping.IndexMappingImpl {
	im := mapping.NewIndexMapping()
	im.DefaultAnalyzer = en.AnalyzerName
	im.ScoringModel = bindex.BM25Scoring
	im.StoreDynamic = false
	im.IndexDynamic = false
	return im
}

var (
	analyzerOnce sync.Once
	enAnalyzer   analysis.Analyzer
)

// english returns Bleve's English analyzer.
func english() analysis.Analyzer {
	analyzerOnce.Do(func() {
		enAnalyzer = newMapping().AnalyzerNamed(en.AnalyzerName)
		if enAnalyzer == nil {
			panic("index: Bleve's English analyzer is not registered")
		}
	})
	return enAnalyzer
}

// QueryTerms analyzes a query as the indexes analyze text and returns its
// terms with their number of occurrences, in order of first occurrence.
// The query is a bag of words: quotes, +, -, parentheses and the like are
// punctuation to the tokenizer, and AND, OR, NOT are English stop words, so
// a query of only stop words or operators has no terms.
func QueryTerms(q string) []Term {
	an := english()
	var out []Term
	pos := map[string]int{}
	for _, tok := range an.Analyze([]byte(q)) {
		t := string(tok.Term)
		if i, ok := pos[t]; ok {
			out[i].N++
			continue
		}
		pos[t] = len(out)
		out = append(out, Term{Text: t, N: 1})
	}
	return out
}

// Term is an analyzed query term and how often it occurs in the query.
type Term struct {
	Text string
	N    int
}

// token is an analyzed token of an article's text: its term and the
// character offsets of the word it comes from.
type token struct {
	term       string
	start, end int // characters
}

// analyzeText analyzes an article's text with an (English) analyzer, as
// separate segments split at the byte offsets breaks (increasing): the text
// content of "<st>History</st><p>The…" is "HistoryThe…", and a word must not
// run across the boundary of two block elements. Token offsets are bytes of
// text; positions are renumbered across segments. The text is not modified
// (the analyzer lower-cases in place, so it works on a copy).
func analyzeText(an analysis.Analyzer, text string, breaks []int) analysis.TokenStream {
	buf := []byte(text)
	if len(breaks) == 0 {
		return an.Analyze(buf)
	}
	var out analysis.TokenStream
	from := 0
	for k := 0; k <= len(breaks); k++ {
		to := len(buf)
		if k < len(breaks) {
			to = breaks[k]
		}
		if to <= from {
			continue
		}
		for _, t := range an.Analyze(buf[from:to:to]) {
			t.Start += from
			t.End += from
			t.Position = len(out) + 1
			out = append(out, t)
		}
		from = to
	}
	return out
}

// tokenize analyzes text (breaks as for analyzeText, in characters) and
// returns its tokens with character offsets, in text order.
func tokenize(text string, breaks []int) []token {
	ci := newCharIndex(text)
	bb := make([]int, len(breaks))
	for i, c := range breaks {
		bb[i] = ci.byteOf(c)
	}
	en := english()
	ts := analyzeText(en, text, bb)
	out := make([]token, len(ts))
	// byte offsets come in increasing order: convert incrementally
	b, c := 0, 0
	conv := func(to int) int {
		if to < b {
			b, c = 0, 0
		}
		c += utf8.RuneCountInString(text[b:to])
		b = to
		return c
	}
	for i, tok := range ts {
		out[i].term = string(tok.Term)
		out[i].start = conv(tok.Start)
		out[i].end = conv(tok.End)
	}
	if !sort.SliceIsSorted(out, func(i, j int) bool { return out[i].start < out[j].start }) {
		sort.SliceStable(out, func(i, j int) bool { return out[i].start < out[j].start })
	}
	return out
}

// memoAnalyzer is the English analyzer with its token filters memoized.
// Every filter of the chain (possessive, lower case, stop words, Porter)
// maps one token to at most one token by its term alone, so the chain's
// result for a term is computed once and reused: the tokens are those of the
// English analyzer (TestMemoAnalyzer), at a fraction of the cost (Porter
// stemming was a tenth of a build's CPU). A memo serves one goroutine at a
// time (memoPool).
type memoAnalyzer struct {
	chars     []analysis.CharFilter
	tokenizer analysis.Tokenizer
	filters   []analysis.TokenFilter
	memo      map[string]memoTerm
}

// memoTerm is what the filter chain makes of a term: a term, or nothing.
type memoTerm struct {
	term []byte
	keep bool
}

// maxMemo bounds a memo's size (terms); a full memo starts over.
const maxMemo = 1 << 18

var memoPool = sync.Pool{New: func() any {
	an := english()
	d := an.(*analysis.DefaultAnalyzer)
	return &memoAnalyzer{chars: d.CharFilters, tokenizer: d.Tokenizer, filters: d.TokenFilters, memo: map[string]memoTerm{}}
}}

// Analyze analyzes input as the English analyzer does. The returned terms
// may be shared with other calls' tokens: they must not be modified.
func (m *memoAnalyzer) Analyze(input []byte) analysis.TokenStream {
	for _, cf := range m.chars {
		input = cf.Filter(input)
	}
	ts := m.tokenizer.Tokenize(input)
	out := ts[:0]
	for _, t := range ts {
		r, ok := m.memo[string(t.Term)]
		if !ok {
			key := string(t.Term)
			one := analysis.TokenStream{&analysis.Token{Term: []byte(key), Start: t.Start, End: t.End, Position: t.Position, Type: t.Type, KeyWord: t.KeyWord}}
			for _, f := range m.filters {
				one = f.Filter(one)
			}
			if len(one) == 1 {
				r = memoTerm{term: one[0].Term, keep: true}
			}
			if len(m.memo) >= maxMemo {
				clear(m.memo)
			}
			m.memo[key] = r
		}
		if r.keep {
			t.Term = r.term
			out = append(out, t)
		}
	}
	return out
}
