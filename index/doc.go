// Package index is readsim's retrieval system: a persistent Bleve index of an
// article collection and the fetch-and-browse search of the reading scenario
// (Arvola, Kekäläinen & Junkkari 2010, §2).
//
// An index is a folder holding Bleve (scorch) indexes of the articles (its
// shards), the statistics of their candidate elements, and a manifest:
//
//   - articles-0 … articles-(N−1): N Bleve indexes, the shards, each
//     article in exactly one (FNV-1a of its id modulo N, see shard.go):
//     one Bleve document per article, id = article id, with the title and
//     the text content (analysed in the article's language, stored; the
//     text with a location per token, which browse and snippets read:
//     vectors.go), the title keys (titleKeys, each indexed as one term),
//     the language as one term (langnorm.go) and,
//     stored with them, the article's language, its candidate elements
//     (sections, paragraphs, list items, table rows, captions and the
//     body's own text by default: each one's [start,end) character span
//     and XPath, so that their article id is the document's) and the
//     file's path;
//   - elements.fst: for each term, the number of candidate elements of the
//     collection that contain it (see stats.go);
//   - articles.json: the files indexed (path, size, modification time),
//     each article's language, number of candidate elements and field
//     lengths in tokens (what a build needs to update the index);
//   - manifest.json: the collection statistics summed over the articles
//     (what a search needs), the articles folder (an absolute path), the
//     number of shards, the candidate element names, the DTD files the
//     articles were read with, the forced language if any, and the build
//     time. It is written last: a folder without it is not a complete
//     index.
//
// Browse reads only statistics of the element collection (the number of
// elements, their average length, each term's element frequency), so the
// elements are not Bleve documents of their own: at 10k articles their 166k
// documents cost as much to build as the articles.
//
// Both scorings take the collection's size and average lengths from the
// manifest, and browse its element frequencies from elements.fst (fetch's
// document frequencies come from Bleve's postings, summed over the shards,
// which count no deleted article and do not depend on segments). Bleve's
// BM25 would take a field's average length to be its number of distinct
// terms per document, summed over the index's segments (terms of deleted
// articles included), and each shard's own document frequencies: scores
// would depend on how a build was batched, updated and sharded. Fetch
// scores with the fields' true total lengths and the global document
// frequencies instead (fetch.go), so it is BM25 with the average field
// length in tokens (rounded up, as Bleve rounds it), and a build scores the
// same however it is split into segments and shards.
//
// # Shards, builds and reloads
//
// A build is planned (which files are new, changed or gone; whether and why
// the index must be built from scratch: another layout, candidate elements,
// language, DTD or number of shards) and then applied: the articles are
// parsed on every core and each shard batches and indexes its own on its own
// goroutines, so no single goroutine bounds a build (its stages carry
// profiler labels, see apply.go). A search fetches from every shard in
// parallel. The index is built beside its folder and renamed into place; a
// build killed between the two renames leaves the new index complete
// beside the folder, which Open uses and the next build puts in place. An
// open Index switches to a rebuilt one (Reload) without a pause: requests
// in flight finish on the build they began with, which is closed after
// them; Reopen opens the rebuilt one beside it instead. Opening checks
// that it opened one build whole (a build swapped in while it opened the
// manifest, the element frequencies and the shards one after another
// makes it start again), and a build killed between its renames is found
// by Open, Reload and Reopen alike.
//
// Fetch ranks articles with Bleve's BM25 over title and text. Browse scores
// the candidate elements of one article with BM25 against the element
// collection's statistics (see browse), keeps those within a threshold of the
// best, and returns them non-overlapping, merged when adjacent, in document
// order.
//
// # Collections
//
// A build reads the whole collection with one article.Reader
// (BuildOptions.Reader; readsim index --dtd, --lang): the DTD an article's
// DOCTYPE names (the INEX 2009 collection's article.dtd beside the article
// folders, which declares &nbsp; and the other XHTML entities) is read
// once, and a missing one is one warning for the collection. The *.dtd
// files below the articles folder are the collection's (BuildResult.DTDs),
// not skipped files. An article's id is its file name without .xml
// (formats.md), even when its <header><id> says otherwise: such articles
// are reported (BuildResult.IDMismatches). A file name several files have
// (en/3951.xml and ja/3951.xml: page ids are numbered per language) is no
// id: each of those articles is indexed under its path without .xml,
// en/3951 and ja/3951 (article.CollectionIDs, BuildResult.IDClashes, one
// warning line), and a file added later that makes a name clash has the
// article that had it re-indexed under its new id. One bad article (unparsable,
// nested deeper than article.MaxDepth, UTF-16) never stops a build: it is
// skipped and named (BuildResult.Broken).
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
//     language (langnorm.go): in a mixed collection a Japanese article,
//     long in bigrams, is not measured against English lengths.
//
// # Candidate elements
//
// DefaultElements fit the INEX 2009 markup (p, sec, ss1–ss3, entry, row,
// caption; 2006: section, ss, item) — see candidates — with these
// decisions:
//   - Semantic wrappers (YAGO's <person wordnetid=…>) are transparent:
//     never candidates, not word breaks, their text kept.
//   - entry is both a list item and a reference-list entry: list items are
//     candidates, reference-list entries (citations) are not.
//   - The body's own text runs are candidates, named by the body's XPath
//     followed by /text(): the INEX 2009 converter leaves each article's
//     lead paragraphs bare in bdy (with the remains of its infobox).
//   - Browse keeps the lead (the first candidate, the body's own text or
//     a body paragraph before any section) when it holds every query
//     term, and caps a caption's score at the best other candidate's that
//     holds the same terms (see browse; docs/search.md).
//   - Elements deeper than 64 levels (wrappers count) are never candidates:
//     each candidate's XPath costs its depth, and the bound keeps a hostile
//     article of thousands of nested sections linear to index. The deepest
//     candidate of the real articles is at depth 15.
//   - indent (the "Main article: …" notes), math, st, list and table are
//     not candidates: their entries, rows and the sections around them are.
//
// Decisions where the specification is silent:
//   - Fetch uses Bleve's BM25 (its tf is √freq, its query terms weighted
//     and normalised as in Bleve's TF-IDF); browse uses textbook BM25 (raw
//     tf, k1 = 1.2, b = 0.75) over the element statistics (N, average length
//     in tokens, df).
//   - Queries are bags of words analyzed like the text; operators and quotes
//     are ignored. A query of only stop words or operators is a title
//     search: it finds the articles whose title is the query, both lower
//     case with white space folded (TitleKey; "The Who", "It", "This Is
//     It"), or whose title is the query followed by a qualifier in
//     parentheses ("It (novel)"): the exact titles first, scored by the
//     title key field's TF-IDF (idf 1 + ln(N/(df+1)), times 1/√2 for a
//     title matched without its qualifier); when no title is the query, it
//     is ErrNoTerms. Each article's title keys (titleKeys) are the terms of
//     a field of their own (indexed, not stored), which changes no
//     statistics of the title and text fields.
//   - The header's fields but the title and the categories (its ids,
//     revision, timestamp and contributor: metadata) are not analysed:
//     their text keeps its offsets in the article's text, but no query
//     matches a contributor's name or a revision number, and they count
//     nothing in the field lengths.
//   - The text content joins adjacent block elements without a space
//     ("<st>History</st><p>The" is "HistoryThe"): the analyzer splits the text
//     at such boundaries (the "breaks" stored with each article), so no word
//     (nor CJK bigram) runs across them. Emphasis, links and YAGO wrappers
//     (wordnetid) are inline and do not split words.
//   - A file is re-indexed when its size or modification time changed, or
//     its id (another file took its name); of two files whose paths differ
//     only in the case of ".xml" (one id), the first in path order is
//     indexed and the other is reported as a duplicate; symbolic links to
//     folders are not followed, and hidden folders are skipped.
//   - The index is rebuilt from scratch, the reason given
//     (BuildResult.Rebuilt), when its layout, candidate elements or forced
//     language changed, or a DTD it knows of (the collection's *.dtd, the
//     --dtd file) is new, gone or changed in size or modification time: a
//     DTD changes the text of the articles that use it. A DTD elsewhere
//     (named by a DOCTYPE outside the folder) is not watched: use
//     --rebuild after changing one.
//   - An article whose title is missing from /article/header because a
//     wrapper holds the header (<article><sport wordnetid=…><header>) takes
//     its title and header id through the wrapper.
//   - In runs, an article none of whose elements matches gets the whole
//     article as its passage (ric, bic); bic writes the best passage's start
//     and length.
//
// It imports effort (the character span), index/article (the article
// model) and internal/durable (files written whole) of readsim, and knows
// no INEX file: internal/app makes runs from its hits (MakeRun).
// internal/app and cmd/readsim import it; scenario does not.
package index
