// Package index is readsim's retrieval system: a persistent Bleve index of an
// article collection and the fetch-and-browse search of the reading scenario
// (Arvola, Kekäläinen & Junkkari 2010, §2).
//
// The API is this package: Open, Build, and an Index's Prepare, Search,
// Hits, Passages, Article, Fetch and Browse; each concern lives in a
// package of its own below it, which the rest of readsim need not import
// (docs/architecture.md):
//
//   - index/store: the index folder on disk (manifest, element
//     frequencies, shards' folders, swap and recovery, damage checks);
//   - index/records: each article's record and how a search reads it
//     back (the stored article, its snippet, its query terms' occurrences);
//   - index/analysis: text to terms (languages, CJK bigrams, queries);
//   - index/fetch: the k best articles by BM25 over the shards;
//   - index/browse: the best passages of one article;
//   - index/build: a build and an update of an index;
//   - index/chars: character offsets and white space of a text.
//
// One request walks them in order: Index.Hits takes a build of the index
// (a snapshot), prepares the query (analysis, the element statistics),
// fetches (fetch, reading the hits' records from records), browses each
// hit (browse) and makes its snippet (records).
//
// # Reloads
//
// A search fetches from every shard in parallel. The index is built
// beside its folder and renamed into place (index/build, index/store); a
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
// collection's statistics (index/browse), keeps those within a threshold of the
// best, and returns them non-overlapping, merged when adjacent, in document
// order.
//
// # Decisions
//
// Decisions where the specification is silent:
//   - Fetch uses Bleve's BM25 (its tf is √freq, its query terms weighted
//     and normalised as in Bleve's TF-IDF); browse uses textbook BM25 (raw
//     tf, k1 = 1.2, b = 0.75) over the element statistics (N, average length
//     in tokens, df).
//   - Queries are bags of words analyzed like the text; operators and quotes
//     are ignored. A query of only stop words or operators is a title
//     search: it finds the articles whose title is the query, both lower
//     case with white space folded (analysis.TitleKey; "The Who", "It", "This Is
//     It"), or whose title is the query followed by a qualifier in
//     parentheses ("It (novel)"): the exact titles first, scored by the
//     title key field's TF-IDF (idf 1 + ln(N/(df+1)), times 1/√2 for a
//     title matched without its qualifier); when no title is the query, it
//     is ErrNoTerms. Each article's title keys (analysis.TitleKeys) are the terms of
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
// model), index/chars and every package of the index below it; it knows
// no INEX file: internal/app makes runs from its hits (MakeRun).
// internal/app and cmd/readsim import it; scenario does not.
package index
