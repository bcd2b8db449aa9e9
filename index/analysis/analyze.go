package analysis

import (
	"regexp"
	"sort"
	"sync"
	"unicode"
	"unicode/utf8"

	banalysis "github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	bunicode "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"

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

// Kind returns the analysis kind of an article language.
func Kind(lang string) string {
	if article.IsCJK(lang) {
		return kindCJK
	}
	return kindEN
}

// chain is one analysis kind's components, Bleve's.
type chain struct {
	tokenizer banalysis.Tokenizer     // hangulTokenizer
	unicode   banalysis.Tokenizer     // Bleve's Unicode tokenizer (memoAnalyzer splits Hangul itself)
	words     []banalysis.TokenFilter // applied to each non-CJK word
	width     banalysis.TokenFilter   // cjk_width, for CJK tokens
	bigram    banalysis.TokenFilter   // cjk_bigram
}

var chains = sync.OnceValue(func() map[string]*chain {
	cache := registry.NewCache()
	filter := func(name string) banalysis.TokenFilter {
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
			words: []banalysis.TokenFilter{filter(en.PossessiveName), filter(lowercase.Name), filter(en.StopName), filter(porter.Name)}},
		kindCJK: {tokenizer: t, unicode: tok, width: width, bigram: bigram,
			words: []banalysis.TokenFilter{width, filter(lowercase.Name), filter(en.StopName)}},
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

// AnalyzerOf returns the analyzer of an article language.
func AnalyzerOf(lang string) banalysis.Analyzer {
	return langAnalyzer{chainOf(Kind(lang))}
}

// Analyze analyzes input; it may modify input (lower case in place).
func (a langAnalyzer) Analyze(input []byte) banalysis.TokenStream {
	ts := a.c.tokenizer.Tokenize(input)
	out := ts[:0]
	cjkToks := false
	one := make(banalysis.TokenStream, 1)
	for _, t := range ts {
		if t.Type == banalysis.Ideographic {
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
func (c *chain) bigrams(ts banalysis.TokenStream) banalysis.TokenStream {
	one := make(banalysis.TokenStream, 1)
	for _, t := range ts {
		if t.Type == banalysis.Ideographic {
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
type hangulTokenizer struct{ inner banalysis.Tokenizer }

// Tokenize tokenizes input.
func (h hangulTokenizer) Tokenize(input []byte) banalysis.TokenStream {
	ts := cjkMarks(input, h.inner.Tokenize(input))
	for i, t := range ts {
		if t.Type != banalysis.Ideographic && hasHangul(t.Term) {
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
func splitHangul(ts banalysis.TokenStream, i int) banalysis.TokenStream {
	out := make(banalysis.TokenStream, i, len(ts)+8)
	copy(out, ts[:i])
	for _, t := range ts[i:] {
		if t.Type == banalysis.Ideographic || !hasHangul(t.Term) {
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
func appendSplit(ts banalysis.TokenStream, t *banalysis.Token) banalysis.TokenStream {
	from := 0
	inHangul := false
	emit := func(to int) {
		if to > from {
			typ := t.Type
			if inHangul {
				typ = banalysis.Ideographic
			}
			ts = append(ts, &banalysis.Token{Term: t.Term[from:to:to], Start: t.Start + from, End: t.Start + to, Position: t.Position, Type: typ, KeyWord: t.KeyWord})
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
		kinds[Kind(l)] = true
	}
	if len(kinds) == 0 {
		kinds[kindEN] = true
	}
	var out []Term
	pos := map[string]int{}
	// the words of the query, by their bytes in it: the terms two kinds
	// make of one word are its variants (Term.Word)
	words := map[[2]int]int{}
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
			w, ok := words[[2]int{tok.Start, tok.End}]
			if !ok {
				w = len(out)
				words[[2]int{tok.Start, tok.End}] = w
			}
			pos[t] = len(out)
			out = append(out, Term{Text: t, N: n[t], Char: isCJKChar(t), Word: w})
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
	// the first or the second character of (see CharTermRegexp).
	Char bool
	// Word is the index among the query's terms of the first term made
	// of the same word of the query: the terms two analysis kinds make
	// of one word (history: histori in English, history in Chinese,
	// Japanese and Korean articles) are its variants, and have the same
	// Word; any other term's Word is its own index. Fetch counts the
	// variants' document frequencies as one term's (docs/search.md,
	// "One word, one idf").
	Word int
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

// CharTermRegexp is the regular expression of the indexed terms a
// character term stands for, over a term dictionary (which matches whole
// terms): the character alone, or a bigram holding it first or second.
func CharTermRegexp(c string) string {
	q := regexp.QuoteMeta(c)
	return q + ".?|." + q
}

// Token is an analyzed token of an article's text: its term and the
// character offsets of the word (or the CJK characters) it comes from.
type Token struct {
	Term       string
	Start, End int // characters
}

// AnalyzeText analyzes an article's text with an analyzer, as separate
// segments split at the byte offsets breaks (increasing): the text content
// of "<st>History</st><p>The…" is "HistoryThe…", and a word (or a CJK
// bigram) must not run across the boundary of two block elements. The
// byte spans quiet (start, end pairs, increasing and disjoint: the header's
// metadata, see metadata) are left out: they give no token. Token offsets
// are bytes of text; positions are renumbered across segments. The text is
// not modified (the analyzers lower-case in place, so they work on a
// copy).
func AnalyzeText(an banalysis.Analyzer, text string, breaks, quiet []int) banalysis.TokenStream {
	buf := []byte(text)
	if len(breaks) == 0 && len(quiet) == 0 {
		return an.Analyze(buf)
	}
	cuts := make([]int, 0, len(breaks)+len(quiet)+1)
	cuts = append(append(cuts, breaks...), quiet...)
	sort.Ints(cuts)
	cuts = append(cuts, len(buf))
	var out banalysis.TokenStream
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

// Tokenize analyzes the text of an article in language lang (breaks and
// quiet as for AnalyzeText, in characters) and returns its tokens with
// character offsets, in text order.
func Tokenize(text string, breaks, quiet []int, lang string) []Token {
	ci := chars.New(text)
	bytesOf := func(cs []int) []int {
		out := make([]int, len(cs))
		for i, c := range cs {
			out[i] = ci.ByteOf(c)
		}
		return out
	}
	ts := AnalyzeText(AnalyzerOf(lang), text, bytesOf(breaks), bytesOf(quiet))
	out := make([]Token, len(ts))
	// Token starts come in increasing byte order, and so do their ends, but
	// CJK bigrams overlap (an end comes after the next start): convert
	// starts and ends with a cursor each.
	var starts, ends chars.Cursor
	for i, tok := range ts {
		out[i].Term = string(tok.Term)
		out[i].Start = starts.Char(text, tok.Start)
		out[i].End = ends.Char(text, tok.End)
	}
	if !sort.SliceIsSorted(out, func(i, j int) bool { return out[i].Start < out[j].Start }) {
		sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
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

// Memo returns a memo analyzer of the analysis kind from its pool, and
// the function that gives it back: it serves the caller alone until
// then.
func Memo(kind string) (banalysis.Analyzer, func()) {
	m := memoPools[kind].Get().(*memoAnalyzer)
	return m, func() { memoPools[kind].Put(m) }
}

// Analyze analyzes input as the kind's langAnalyzer does. The returned
// terms may be shared with other calls' tokens: they must not be modified.
// It tokenizes with Bleve's Unicode tokenizer and splits the terms holding
// Hangul itself, so that whether a term holds Hangul is memoized too (an
// English word costs one map look-up).
func (m *memoAnalyzer) Analyze(input []byte) banalysis.TokenStream {
	ts := cjkMarks(input, m.c.unicode.Tokenize(input))
	out := ts[:0]
	cjkToks, own := false, false
	for _, t := range ts {
		if t.Type == banalysis.Ideographic {
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
				out = append(make(banalysis.TokenStream, 0, len(ts)+8), out...)
				own = true
			}
			cjkToks = true
			from := len(out)
			out = appendSplit(out, t)
			parts := out[from:]
			out = out[:from]
			for _, p := range parts {
				if p.Type != banalysis.Ideographic {
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
func (m *memoAnalyzer) miss(t *banalysis.Token) memoTerm {
	key := string(t.Term)
	var r memoTerm
	if hasHangul(t.Term) {
		r.hangul = true
	} else {
		one := banalysis.TokenStream{&banalysis.Token{Term: []byte(key), Start: t.Start, End: t.End, Position: t.Position, Type: t.Type, KeyWord: t.KeyWord}}
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
