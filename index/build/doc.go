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
// It imports effort, index/article (the article model and its
// collection), index/article/wikimarkup, index/analysis, index/chars,
// index/records (the records written) and index/store (the folder) of
// readsim, and Bleve and vellum.
package build
