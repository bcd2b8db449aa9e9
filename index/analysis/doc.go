// Package analysis is the index's text analysis: how an article's text,
// its title and a query become terms (docs/search.md, "Analysis").
//
// Every text is cut into words by Bleve's Unicode tokenizer; CJK runs
// (Han, kana, Hangul, in an article of any language) become width-folded
// bigrams with their Han characters folded to simplified Chinese; other
// words go through the filters of the article's analysis kind (Kind:
// Bleve's English analyzer's, or the CJK analyzer's without stemming).
// A query is analysed with the analysis of every language of the index
// (QueryTerms); a lone CJK character of a query is a character term
// (Term.Char, CharTermRegexp). Tokenize gives an article's tokens with
// character offsets, as a build analysed them; a build analyses through
// Memo, the same analysis with its word filters memoized. TitleKey and
// TitleKeys are how a title search compares titles.
//
// It imports index/article (the article languages) and index/chars of
// readsim, and Bleve's analysis and OpenCC.
package analysis
