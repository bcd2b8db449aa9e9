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
// # Languages
//
// # Languages
//
// Each article is analysed in its language, Article.Lang (the Reader's
// Lang: --lang; else the language its folder names, en/ ja/ zh/ ko/…;
// else detected from the scripts of its prose), stored with it
// (StoredArticle.Lang, Hit.Lang) and in the manifest:
//
//   - Chinese, Japanese and Korean characters, in an article of any
//     language, are analysed as Bleve's CJK analyzer does: width folding
//     (full-width Latin to ASCII, half-width katakana to full width) and
//     overlapping bigrams of adjacent characters (意大利 is 意大 大利); a
//     character with no CJK neighbour stays a unigram. So a CJK run in an
//     English article is bigrammed too, and a single character never
//     matches inside a word.
//   - Korean is bigrammed like Chinese and Japanese, as Lucene's
//     CJKAnalyzer does (Bleve's tokenizer takes a Korean word with its
//     particle, 송혜교는, for one word, which a query 송혜교 would never
//     match): a word holding Hangul is split where the script changes
//     (x264는 is x264 and 는) and its Hangul runs are bigrammed (송혜 혜교
//     교는).
//   - Other words: in an article whose language is not zh, ja or ko,
//     Bleve's English analyzer's filters (possessive, lower case, English
//     stop words, Porter stemmer); in a zh, ja or ko article, lower case
//     after width folding and English stop words, without stemming (Bleve's
//     CJK analyzer, with the English stop words of Lucene's CJKAnalyzer).
//     Text without CJK characters is analysed exactly as by Bleve's English
//     analyzer.
//   - A query is analysed with the analysis of every language of the index
//     (English and CJK in a mixed collection) and its terms are the union
//     of theirs ("movies" is movi for the English articles and movies for
//     the Chinese ones; a term both give, such as a CJK bigram, counts
//     once). Its terms are alternatives (a disjunction, as before): an
//     article sharing one bigram with a CJK query (大利 for 意大利) is
//     fetched, ranked below the articles holding more of them, and an
//     article sharing only single characters with it is not.
//   - A CJK character with no CJK neighbour in the query (塔, 東, or 東 in
//     "東 tower") is a character term (Term.Char): it matches every
//     article holding the character, alone or in a bigram, as one BM25
//     term (its postings are the union of the postings of the index's
//     terms holding it, found through the term dictionary, the
//     frequencies summed; browse counts every token holding it, with the
//     element frequencies of those terms summed, at most the number of
//     elements).
//   - Snippets mark matched tokens as [token], merging tokens that overlap
//     or touch: the bigrams 意大 大利 of 意大利 are marked [意大利]; English
//     words are marked one by one ([martial] [arts]); a character term
//     marks its character (电视[塔]).
//   - Han characters are folded from traditional to simplified Chinese
//     (OpenCC's t2s table) after the bigrams, in every language and in
//     queries: 烏龍茶 and 乌龙茶 are the same terms. 々 〆 ヶ and ・ (between
//     two CJK characters) stay in their CJK run, as in Lucene's CJK
//     bigrams: 松嶋菜々子 is 松嶋 嶋菜 菜々 々子 (cjkfold.go).
//   - Fetch normalises a field's length by the average of the article's
//     language (index/fetch, langnorm.go): in a mixed collection a Japanese article,
//     long in bigrams, is not measured against English lengths.
//
// It imports index/article (the article languages) and index/chars of
// readsim, and Bleve's analysis and OpenCC.
package analysis
