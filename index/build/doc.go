// Package build makes an index from a folder of articles, and keeps it
// up to date (Build).
//
// A build checks first that its index folder may be written (target.go,
// docs/safety.md), lists the articles (list.go), then plans (plan.go:
// which files are new, changed or gone; whether the index must be built
// from scratch, and why) and applies the plan (apply.go): the articles
// are parsed on every core (parse.go: the text analysed in its language,
// the candidate elements, the record, the Bleve document), each sent to
// its shard, every shard batching and indexing its own on goroutines of
// its own, its segments merged at the end by Bleve's tiered policy
// (merge.go); then the element frequencies, the manifest and the swap
// into place. Progress and Result.Summary say how it went.
//
// # Builds
//
// A build is planned (which files are new, changed or gone; whether and why
// the index must be built from scratch: another layout, candidate elements,
// language, DTD or number of shards) and then applied: the articles are
// parsed on every core and each shard batches and indexes its own on its own
// goroutines, so no single goroutine bounds a build (its stages carry
// profiler labels, see apply.go).
//
// # Collections
//
// A build reads the whole collection with one article.Reader
// (Options.Reader; readsim index --dtd, --lang): the DTD an article's
// DOCTYPE names (the INEX 2009 collection's article.dtd beside the article
// folders, which declares &nbsp; and the other XHTML entities) is read
// once, and a missing one is one warning for the collection. The *.dtd
// files below the articles folder are the collection's (Result.DTDs),
// not skipped files. An article's id is its file name without .xml
// (formats.md), even when its <header><id> says otherwise: such articles
// are reported (Result.IDMismatches). A file name several files have
// (en/3951.xml and ja/3951.xml: page ids are numbered per language) is no
// id: each of those articles is indexed under its path without .xml,
// en/3951 and ja/3951 (article.CollectionIDs, Result.IDClashes, one
// warning line), and a file added later that makes a name clash has the
// article that had it re-indexed under its new id. One bad article (unparsable,
// nested deeper than article.MaxDepth, UTF-16) never stops a build: it is
// skipped and named (Result.Broken).
//
// # Candidate elements
//
// DefaultElements fit the INEX 2009 markup (p, sec, ss1–ss3, entry, row,
// caption; 2006: section, ss, item) — see Candidates — with these
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
//     holds the same terms (index/browse; docs/search.md).
//   - Elements deeper than 64 levels (wrappers count) are never candidates:
//     each candidate's XPath costs its depth, and the bound keeps a hostile
//     article of thousands of nested sections linear to index. The deepest
//     candidate of the real articles is at depth 15.
//   - indent (the "Main article: …" notes), math, st, list and table are
//     not candidates: their entries, rows and the sections around them are.
//
// It imports effort, index/article (the article model and its
// collection), index/article/wikimarkup, index/analysis, index/chars,
// index/records (the records written) and index/store (the folder) of
// readsim, and Bleve and vellum.
package build
