package index

import (
	"regexp"
	"sort"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	bunicode "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/chars"
)

// Analysis (see the package documentation, "Languages").
//
// Every text is cut into words by Bleve's Unicode tokenizer (UAX #29) with
// one change: a word holding Hangul is split where the script changes, and
// its Hangul runs are typed ideographic, like Han characters and kana (the
// tokenizer makes one word of a Korean word and its particle, 송혜교는, and
// of x264는). Then:
//
//   - CJK tokens (Han, kana, Hangul), whatever the article's language, are
//     width-folded (Bleve's cjk_width) and made into bigrams (Bleve's
//     cjk_bigram: overlapping pairs of adjacent characters; a character with
//     no CJK neighbour stays a unigram);
//   - other words are analysed by the article's analysis kind: "en" (every
//     language but Chinese, Japanese and Korean) applies Bleve's English
//     analyzer's filters (possessive, lower case, English stop words,
//     Porter); "cjk" (zh, ja, ko) applies Bleve's CJK analyzer's filters
//     (width, lower case) and English stop words, without stemming, as
//     Lucene's CJKAnalyzer does.
//
// A text without CJK characters is analysed by the "en" kind exactly as by
// Bleve's English analyzer (TestAnalysisAnchors).

// The analysis kinds.
const (
	kindEN  = "en"
	kindCJK = "cjk"
)

// analysisKind returns the analysis kind of an article language.
func analysisKind(lang string) string {
	if article.IsCJK(lang) {
		return kindCJK
	}
	return kindEN
}

// newMapping is the articles index's mapping: BM25 scoring. Documents are
// built by hand (Batch.IndexAdvanced) with their tokens computed beforehand,
// so the mapping only carries the scoring model (and the English analyzer
// as its default, which no field uses).
func newMapping() *mapping.IndexMappingImpl {
	im := mapping.NewIndexMapping()
	im.DefaultAnalyzer = en.AnalyzerName
	im.ScoringModel = bindex.BM25Scoring
	im.StoreDynamic = false
	im.IndexDynamic = false
	return im
}

// chain is one analysis kind's components, Bleve's.
type chain struct {
	tokenizer analysis.Tokenizer     // hangulTokenizer
	unicode   analysis.Tokenizer     // Bleve's Unicode tokenizer (memoAnalyzer splits Hangul itself)
	words     []analysis.TokenFilter // applied to each non-CJK word
	width     analysis.TokenFilter   // cjk_width, for CJK tokens
	bigram    analysis.TokenFilter   // cjk_bigram
}

var chains = sync.OnceValue(func() map[string]*chain {
	cache := registry.NewCache()
	filter := func(name string) analysis.TokenFilter {
		f, err := cache.TokenFilterNamed(name)
		if err != nil {
			panic("index: Bleve's token filter " + name + " is not registered: " + err.Error())
		}
		return f
	}
	tok, err := cache.TokenizerNamed(bunicode.Name)
	if err != nil {
		panic("index: Bleve's Unicode tokenizer is not registered: " + err.Error())
	}
	t := hangulTokenizer{tok}
	width, bigram := filter(cjk.WidthName), filter(cjk.BigramName)
	return map[string]*chain{
		kindEN: {tokenizer: t, unicode: tok, width: width, bigram: bigram,
			words: []analysis.TokenFilter{filter(en.PossessiveName), filter(lowercase.Name), filter(en.StopName), filter(porter.Name)}},
		kindCJK: {tokenizer: t, unicode: tok, width: width, bigram: bigram,
			words: []analysis.TokenFilter{width, filter(lowercase.Name), filter(en.StopName)}},
	}
})

// chainOf returns the chain of an analysis kind.
func chainOf(kind string) *chain {
	if c, ok := chains()[kind]; ok {
		return c
	}
	return chains()[kindEN]
}

// langAnalyzer is the analysis of one kind, each word's filters applied
// to it alone. One-off analysis (queries, titles, an article's tokens at
// search time) uses it; builds use memoAnalyzer.
type langAnalyzer struct{ c *chain }

// analyzerOf returns the analyzer of an article language.
func analyzerOf(lang string) analysis.Analyzer {
	return langAnalyzer{chainOf(analysisKind(lang))}
}

// Analyze analyzes input; it may modify input (lower case in place).
func (a langAnalyzer) Analyze(input []byte) analysis.TokenStream {
	ts := a.c.tokenizer.Tokenize(input)
	out := ts[:0]
	cjkToks := false
	one := make(analysis.TokenStream, 1)
	for _, t := range ts {
		if t.Type == analysis.Ideographic {
			cjkToks = true
			out = append(out, t)
			continue
		}
		one = append(one[:0], t)
		for _, f := range a.c.words {
			one = f.Filter(one)
		}
		if len(one) == 1 {
			out = append(out, one[0])
		}
	}
	if cjkToks {
		out = a.c.bigrams(out)
	}
	return out
}

// bigrams width-folds the CJK tokens of ts and makes them into bigrams.
func (c *chain) bigrams(ts analysis.TokenStream) analysis.TokenStream {
	one := make(analysis.TokenStream, 1)
	for _, t := range ts {
		if t.Type == analysis.Ideographic {
			one[0] = t
			c.width.Filter(one)
		}
	}
	out := c.bigram.Filter(ts)
	foldChinese(out)
	return out
}

// hangulTokenizer is Bleve's Unicode tokenizer with every token holding
// Hangul split where the script changes, its Hangul runs typed
// ideographic.
type hangulTokenizer struct{ inner analysis.Tokenizer }

// Tokenize tokenizes input.
func (h hangulTokenizer) Tokenize(input []byte) analysis.TokenStream {
	ts := cjkMarks(input, h.inner.Tokenize(input))
	for i, t := range ts {
		if t.Type != analysis.Ideographic && hasHangul(t.Term) {
			return splitHangul(ts, i)
		}
	}
	return ts
}

// hasHangul reports whether a UTF-8 term holds a Hangul character. Every
// Hangul character is encoded from byte 0xE1 on: an ASCII or Latin-1 term
// costs one comparison per byte.
func hasHangul(b []byte) bool {
	for i := 0; i < len(b); i++ {
		if b[i] >= 0xE1 {
			for _, r := range string(b[i:]) {
				if isHangul(r) {
					return true
				}
			}
			return false
		}
	}
	return false
}

func isHangul(r rune) bool { return r >= 0x1100 && unicode.Is(unicode.Hangul, r) }

// splitHangul splits the tokens of ts from the i-th on (the first that holds
// Hangul) into runs of Hangul and of other characters; positions are
// renumbered.
func splitHangul(ts analysis.TokenStream, i int) analysis.TokenStream {
	out := make(analysis.TokenStream, i, len(ts)+8)
	copy(out, ts[:i])
	for _, t := range ts[i:] {
		if t.Type == analysis.Ideographic || !hasHangul(t.Term) {
			out = append(out, t)
			continue
		}
		out = appendSplit(out, t)
	}
	for k, t := range out {
		t.Position = k + 1
	}
	return out
}

// appendSplit appends to ts the runs of Hangul and of other characters of
// the token t, the Hangul ones typed ideographic.
func appendSplit(ts analysis.TokenStream, t *analysis.Token) analysis.TokenStream {
	from := 0
	inHangul := false
	emit := func(to int) {
		if to > from {
			typ := t.Type
			if inHangul {
				typ = analysis.Ideographic
			}
			ts = append(ts, &analysis.Token{Term: t.Term[from:to:to], Start: t.Start + from, End: t.Start + to, Position: t.Position, Type: typ, KeyWord: t.KeyWord})
		}
		from = to
	}
	for b, r := range string(t.Term) {
		if h := isHangul(r); h != inHangul {
			emit(b)
			inHangul = h
		}
	}
	emit(len(t.Term))
	return ts
}

// QueryTerms analyzes a query with the analysis of each of the languages
// langs (article languages, "en", "zh"…; none means English) and returns
// the union of their terms, each with its number of occurrences (the
// largest of the analyses'), in order of first occurrence. A CJK character
// with no CJK neighbour in the query is a character term (Term.Char). The query is a
// bag of words: quotes, +, -, parentheses and the like are punctuation to
// the tokenizer, and AND, OR, NOT are English stop words in every analysis,
// so a query of only stop words or operators has no terms.
func QueryTerms(q string, langs ...string) []Term {
	kinds := map[string]bool{}
	for _, l := range langs {
		kinds[analysisKind(l)] = true
	}
	if len(kinds) == 0 {
		kinds[kindEN] = true
	}
	var out []Term
	pos := map[string]int{}
	for _, kind := range []string{kindEN, kindCJK} {
		if !kinds[kind] {
			continue
		}
		toks := langAnalyzer{chainOf(kind)}.Analyze([]byte(q))
		n := map[string]int{}
		for _, tok := range toks {
			n[string(tok.Term)]++
		}
		for _, tok := range toks {
			t := string(tok.Term)
			if i, ok := pos[t]; ok {
				out[i].N = max(out[i].N, n[t])
				continue
			}
			pos[t] = len(out)
			out = append(out, Term{Text: t, N: n[t], Char: isCJKChar(t)})
		}
	}
	return out
}

// Term is an analyzed query term and how often it occurs in the query.
type Term struct {
	Text string
	N    int
	// Char marks a character term: one Chinese, Japanese or Korean
	// character with no CJK neighbour in the query (塔, 東 …). The index
	// holds CJK text as bigrams, so it stands for every indexed term
	// holding the character: the character alone and the bigrams it is
	// the first or the second character of (see charTermRegexp).
	Char bool
}

// isCJKChar reports whether a term is one CJK character (Han, kana or
// Hangul): a character of the query that the bigram filter left alone.
func isCJKChar(term string) bool {
	r, size := utf8.DecodeRuneInString(term)
	if size != len(term) || r < 0x1100 {
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// charTermRegexp is the regular expression of the indexed terms a
// character term stands for, over a term dictionary (which matches whole
// terms): the character alone, or a bigram holding it first or second.
func charTermRegexp(c string) string {
	q := regexp.QuoteMeta(c)
	return q + ".?|." + q
}

// token is an analyzed token of an article's text: its term and the
// character offsets of the word (or the CJK characters) it comes from.
type token struct {
	term       string
	start, end int // characters
}

// analyzeText analyzes an article's text with an analyzer, as separate
// segments split at the byte offsets breaks (increasing): the text content
// of "<st>History</st><p>The…" is "HistoryThe…", and a word (or a CJK
// bigram) must not run across the boundary of two block elements. The
// byte spans quiet (start, end pairs, increasing and disjoint: the header's
// metadata, see metadata) are left out: they give no token. Token offsets
// are bytes of text; positions are renumbered across segments. The text is
// not modified (the analyzers lower-case in place, so they work on a
// copy).
func analyzeText(an analysis.Analyzer, text string, breaks, quiet []int) analysis.TokenStream {
	buf := []byte(text)
	if len(breaks) == 0 && len(quiet) == 0 {
		return an.Analyze(buf)
	}
	cuts := make([]int, 0, len(breaks)+len(quiet)+1)
	cuts = append(append(cuts, breaks...), quiet...)
	sort.Ints(cuts)
	cuts = append(cuts, len(buf))
	var out analysis.TokenStream
	from, q := 0, 0
	for _, to := range cuts {
		if to <= from {
			continue
		}
		for q+1 < len(quiet) && quiet[q+1] <= from {
			q += 2
		}
		if q+1 < len(quiet) && quiet[q] <= from && to <= quiet[q+1] {
			from = to // a quiet segment
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

// tokenize analyzes the text of an article in language lang (breaks and
// quiet as for analyzeText, in characters) and returns its tokens with
// character offsets, in text order.
func tokenize(text string, breaks, quiet []int, lang string) []token {
	ci := chars.New(text)
	bytesOf := func(cs []int) []int {
		out := make([]int, len(cs))
		for i, c := range cs {
			out[i] = ci.ByteOf(c)
		}
		return out
	}
	ts := analyzeText(analyzerOf(lang), text, bytesOf(breaks), bytesOf(quiet))
	out := make([]token, len(ts))
	// Token starts come in increasing byte order, and so do their ends, but
	// CJK bigrams overlap (an end comes after the next start): convert
	// starts and ends with a cursor each.
	var starts, ends chars.Cursor
	for i, tok := range ts {
		out[i].term = string(tok.Term)
		out[i].start = starts.Char(text, tok.Start)
		out[i].end = ends.Char(text, tok.End)
	}
	if !sort.SliceIsSorted(out, func(i, j int) bool { return out[i].start < out[j].start }) {
		sort.SliceStable(out, func(i, j int) bool { return out[i].start < out[j].start })
	}
	return out
}

// memoAnalyzer is an analysis kind with its word filters memoized. Every
// word filter of both kinds maps one token to at most one token by its term
// alone, so the filters' result for a term is computed once and reused: the
// tokens are those of the kind's langAnalyzer (TestMemoAnalyzer), at a
// fraction of the cost (Porter stemming was a tenth of a build's CPU). CJK
// tokens skip the memo (their bigrams depend on their neighbours). A memo
// serves one goroutine at a time (memoPools).
type memoAnalyzer struct {
	c    *chain
	memo map[string]memoTerm
}

// memoTerm is what the filters make of a term: a term, or nothing; or,
// for a term holding Hangul, that it must be split first.
type memoTerm struct {
	term   []byte
	keep   bool
	hangul bool
}

// maxMemo bounds a memo's size (terms); a full memo starts over.
const maxMemo = 1 << 18

// memoPools hold the memo analyzers of each analysis kind.
var memoPools = map[string]*sync.Pool{
	kindEN:  {New: func() any { return &memoAnalyzer{c: chainOf(kindEN), memo: map[string]memoTerm{}} }},
	kindCJK: {New: func() any { return &memoAnalyzer{c: chainOf(kindCJK), memo: map[string]memoTerm{}} }},
}

// Analyze analyzes input as the kind's langAnalyzer does. The returned
// terms may be shared with other calls' tokens: they must not be modified.
// It tokenizes with Bleve's Unicode tokenizer and splits the terms holding
// Hangul itself, so that whether a term holds Hangul is memoized too (an
// English word costs one map look-up).
func (m *memoAnalyzer) Analyze(input []byte) analysis.TokenStream {
	ts := cjkMarks(input, m.c.unicode.Tokenize(input))
	out := ts[:0]
	cjkToks, own := false, false
	for _, t := range ts {
		if t.Type == analysis.Ideographic {
			cjkToks = true
			out = append(out, t)
			continue
		}
		r, ok := m.memo[string(t.Term)]
		if !ok {
			r = m.miss(t)
		}
		if r.hangul {
			if !own {
				// a token may become several: stop writing over ts
				out = append(make(analysis.TokenStream, 0, len(ts)+8), out...)
				own = true
			}
			cjkToks = true
			from := len(out)
			out = appendSplit(out, t)
			parts := out[from:]
			out = out[:from]
			for _, p := range parts {
				if p.Type != analysis.Ideographic {
					pr, ok := m.memo[string(p.Term)]
					if !ok {
						pr = m.miss(p)
					}
					if !pr.keep {
						continue
					}
					p.Term = pr.term
				}
				out = append(out, p)
			}
			continue
		}
		if r.keep {
			t.Term = r.term
			out = append(out, t)
		}
	}
	if cjkToks {
		out = m.c.bigrams(out)
	}
	return out
}

// miss computes and memoizes what the word filters make of t's term.
func (m *memoAnalyzer) miss(t *analysis.Token) memoTerm {
	key := string(t.Term)
	var r memoTerm
	if hasHangul(t.Term) {
		r.hangul = true
	} else {
		one := analysis.TokenStream{&analysis.Token{Term: []byte(key), Start: t.Start, End: t.End, Position: t.Position, Type: t.Type, KeyWord: t.KeyWord}}
		for _, f := range m.c.words {
			one = f.Filter(one)
		}
		if len(one) == 1 {
			r = memoTerm{term: one[0].Term, keep: true}
		}
	}
	if len(m.memo) >= maxMemo {
		clear(m.memo)
	}
	m.memo[key] = r
	return r
}
