package index

import (
	"strings"

	"github.com/readsim/readsim/index/analysis"
	"github.com/readsim/readsim/index/browse"
	"github.com/readsim/readsim/index/build"
	"github.com/readsim/readsim/index/fetch"
	"github.com/readsim/readsim/index/records"
	"github.com/readsim/readsim/index/store"
)

// The names of the index's packages that the rest of readsim uses, here
// so that it needs index alone.

// Term is an analyzed query term (analysis.Term).
type Term = analysis.Term

// InputError is bad input: a missing or unreadable folder, or a folder
// with no article (store.InputError). Commands map it to exit status 2.
type InputError = store.InputError

// DamagedError means that a file of an index is damaged
// (store.DamagedError). Commands report it with exit status 2.
type DamagedError = store.DamagedError

// ErrLocked means that another process is writing the index.
var ErrLocked = store.ErrLocked

// MaxShards is the largest number of shards an index may have.
const MaxShards = store.MaxShards

// StoredArticle is an article as the index stores it
// (records.StoredArticle).
type StoredArticle = records.StoredArticle

// Elem is a candidate element of an article: its span and XPath
// (records.Elem).
type Elem = records.Elem

// Passage is a best-matching passage of an article (browse.Passage).
type Passage = browse.Passage

// BrowseOptions tune browse (browse.Options).
type BrowseOptions = browse.Options

// ElemStats are the collection statistics browse scores elements with
// (browse.Stats).
type ElemStats = browse.Stats

// DefaultThreshold is the default relative threshold of browse.
const DefaultThreshold = browse.DefaultThreshold

// Hit is a fetched article (fetch.Hit).
type Hit = fetch.Hit

// BuildOptions configure Build (build.Options).
type BuildOptions = build.Options

// BuildResult summarises a build (build.Result).
type BuildResult = build.Result

// Progress reports how far a build is (build.Progress).
type Progress = build.Progress

// ShardProgress is how far a build is in one shard.
type ShardProgress = build.ShardProgress

// Skipped is a file that was not indexed, and why.
type Skipped = build.Skipped

// IDMismatch is an article whose <header><id> differs from its id.
type IDMismatch = build.IDMismatch

// DefaultBatchBytes is the default size of a build's batch in bytes of
// XML (build.DefaultBatchBytes).
const DefaultBatchBytes = build.DefaultBatchBytes

// DefaultElements are the names of the candidate elements browse may
// return (build.DefaultElements).
var DefaultElements = build.DefaultElements

// Build indexes the articles of opt.Articles into opt.Index
// (build.Build): a new index built beside and renamed into place, or an
// update of the new and changed articles. An opt.Index that is a URL
// (IsURL) is an index on an OpenSearch cluster, built whole and published
// (buildCluster).
func Build(opt BuildOptions) (*BuildResult, error) {
	if IsURL(opt.Index) {
		return buildCluster(opt)
	}
	return build.Build(opt)
}

// ElementNames splits a list of element names as --elements gives it, on
// commas, keeping an empty name between two commas for the build to
// refuse by its place; nil when s names nothing.
func ElementNames(s string) []string {
	if strings.TrimSpace(s) == "" || strings.Trim(s, ", \t") == "" {
		return nil
	}
	names := strings.Split(strings.TrimRight(strings.TrimSpace(s), ","), ",")
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
	}
	return names
}
