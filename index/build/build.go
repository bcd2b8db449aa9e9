package build

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"
	"unicode"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/store"
)

// DefaultBatchBytes is the default size of a batch in bytes of XML. Larger
// batches make fewer segments, which are cheaper to build (each has its own
// term dictionary) and to search, at the price of memory while building.
const DefaultBatchBytes = 4 << 20

// Options configure Build.
type Options struct {
	Articles string   // the folder of articles (searched recursively)
	Index    string   // the index folder
	Elements []string // candidate element names; nil means DefaultElements
	Workers  int      // parsing goroutines; 0 means GOMAXPROCS
	// Shards is the number of Bleve indexes the articles are spread over
	// (by a hash of their id, see ShardOf), built concurrently and
	// searched in parallel. 0 means the existing index's number, or
	// DefaultShards for a new index. A change rebuilds the index.
	Shards int
	// A shard's Bleve batch, which becomes a segment of it (scorch's
	// persister may merge segments that wait to be written), ends after
	// Batch articles (0: no limit) or its share of BatchBytes bytes of XML
	// (0 means DefaultBatchBytes), whichever comes first. The shards share
	// BatchBytes (shardBatchBytes), so that a build's memory does not grow
	// with its number of shards: at 10k synthetic articles and 2 shards,
	// shared batches peak at 320–330 MB against 470–480 MB for 4 MB a
	// shard, for 8–14% more CPU (smaller segments cost more to build).
	Batch      int
	BatchBytes int64
	// Rebuild ignores an existing index and builds from scratch.
	Rebuild bool
	// Reader reads the articles: one Reader for the whole build, so that
	// each DTD is read once and a missing one is reported once (its Warn).
	// Its Root should be Articles; its DTD (--dtd) and Lang (--lang) are
	// recorded in the manifest, and a change of either rebuilds the index.
	// nil means a Reader with Root Articles, no DTD file, languages
	// detected and warnings discarded.
	Reader *article.Reader
	// Progress, when set, is called from one goroutine after every article.
	Progress func(Progress)
}

// Progress reports how far a build is.
type Progress struct {
	Done, Total       int   // articles
	Bytes, TotalBytes int64 // XML bytes
	Elapsed           time.Duration
	// Shards are each shard's progress: its articles read so far, of
	// its Total in this run.
	Shards []ShardProgress
}

// ShardProgress is how far a build is in one shard.
type ShardProgress struct{ Done, Total int }

// Skipped is a file that was not indexed, and why.
type Skipped struct {
	Path   string
	Reason string
}

// Result summarises a build.
type Result struct {
	Full bool // built from scratch (not an incremental update)
	// Rebuilt says why an existing index was built from scratch rather
	// than updated ("" when it was updated, absent or --rebuild was asked).
	Rebuilt   string
	Indexed   int // articles indexed in this run
	Unchanged int // articles kept from the previous index
	Removed   int // articles dropped because their file is gone (a changed file that no longer parses is in Broken)
	Articles  int // articles in the index now
	Elements  int // candidate elements in the index now
	Bytes     int64
	Elapsed   time.Duration
	NotXML    []string  // files without the .xml extension (nor .dtd)
	Broken    []Skipped // unreadable or unparsable articles
	Dups      []Skipped // files whose article id an earlier file (in path order) has: only paths that differ in the case of ".xml"
	// IDClashes are the file names several articles of the collection
	// have: each of those articles is indexed under its qualified id, its
	// path without .xml (article.CollectionIDs).
	IDClashes []article.IDClash
	// DTDs are the collection's DTD files: the *.dtd files below the
	// articles folder, in path order.
	DTDs []string
	// IDMismatches are the articles indexed in this run whose
	// <header><id> is not their file name (they are indexed under the
	// file name), in path order.
	IDMismatches []IDMismatch
	// Langs counts the articles of the index (now) by language.
	Langs map[string]int
	// Shards is the number of shards of the index.
	Shards int
}

// IDMismatch is an article whose <header><id> differs from its id, the
// file name without .xml.
type IDMismatch struct {
	Path     string // the article file
	ID       string // the file name's id, under which it is indexed
	HeaderID string // the text of its <header><id>
}

// Build indexes the articles of opt.Articles into opt.Index. It builds the new
// index in a folder beside opt.Index and renames it into place only when it is
// complete (an interrupted build leaves the previous index, or none, plus a
// leftover folder that the next build removes; a build killed between its
// two final renames leaves the new index beside, which the next build puts in
// place: see RecoverSwap). When opt.Index holds a complete index built the
// same way (candidate elements, language, DTDs, shards), only new and changed
// articles are indexed and removed ones are dropped (the previous index is
// copied beside and updated there).
//
// A build is planned (planBuild: which files are new, changed or gone, and
// whether the index must be built from scratch, and why), then applied
// (plan.apply: the articles parsed in parallel and indexed into every shard
// at once).
func Build(opt Options) (*Result, error) {
	start := time.Now()
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	// nothing is read or written before the index folder is known to be
	// one a build may replace
	if err := checkTarget(opt.Index, opt.Articles); err != nil {
		return nil, err
	}
	// The garbage collector keeps its own pace (GOGC): a build used to
	// collect less often (GOGC 200) while its batches held every token;
	// they hold token frequencies now (analyzedField), and GOGC 100 costs
	// no measurable CPU for a third less memory (the notes).
	res := &Result{}
	files, dtds, err := listArticles(opt.Articles, res)
	if err != nil {
		return nil, err
	}
	if opt.Reader.DTD != "" {
		s, err := stampDTD(opt.Reader.DTD)
		if err != nil {
			return nil, err
		}
		dtds = append(dtds, s)
	}
	if len(files) == 0 {
		return nil, &store.InputError{Msg: fmt.Sprintf("articles folder %s: no .xml article in it", opt.Articles)}
	}
	idx := filepath.Clean(opt.Index)
	unlock, err := store.Lock(idx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := store.RecoverSwap(idx); err != nil {
		return nil, err
	}
	store.RemoveLeftovers(idx)
	p, err := planBuild(opt, idx, files, dtds, res)
	if err != nil {
		return nil, err
	}
	if p.old == nil || len(p.todo) > 0 || len(p.del) > 0 {
		if err := p.apply(); err != nil {
			return nil, diskFull(idx, err)
		}
	}
	res.summarise(p.next)
	res.Elapsed = time.Since(start)
	return res, nil
}

// withDefaults fills in the options' defaults and checks the articles
// folder.
func (opt Options) withDefaults() (Options, error) {
	if opt.Elements == nil {
		opt.Elements = DefaultElements
	}
	if err := checkElementNames(opt.Elements); err != nil {
		return opt, err
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.Batch <= 0 {
		opt.Batch = math.MaxInt
	}
	if opt.BatchBytes <= 0 {
		opt.BatchBytes = DefaultBatchBytes
	}
	if opt.Shards < 0 || opt.Shards > store.MaxShards {
		return opt, &store.InputError{Msg: fmt.Sprintf("%d shards: want 1 to %d (0: the default)", opt.Shards, store.MaxShards)}
	}
	st, err := os.Stat(opt.Articles)
	switch {
	case err != nil:
		return opt, &store.InputError{Msg: fmt.Sprintf("articles folder %s: %v", opt.Articles, errors.Unwrap(err))}
	case !st.IsDir():
		return opt, &store.InputError{Msg: fmt.Sprintf("articles folder %s: not a folder", opt.Articles)}
	}
	if _, err := os.ReadDir(opt.Articles); err != nil {
		return opt, &store.InputError{Msg: fmt.Sprintf("articles folder %s: %v", opt.Articles, errors.Unwrap(err))}
	}
	if opt.Reader == nil {
		opt.Reader = &article.Reader{Root: opt.Articles}
	}
	return opt, nil
}

// plan is what a build will do: the index it updates (none: a build from
// scratch), the manifest it will write, the files to index and the
// articles to delete.
type plan struct {
	opt  Options
	idx  string
	res  *Result
	old  *store.Manifest // the index to update; nil: build from scratch
	next *store.Manifest // the manifest of the index being built
	todo []srcFile       // files to index, in path order
	del  []store.Entry   // articles to delete (gone or changed), by id
}

// planBuild decides what the build does: from scratch (and why, when an
// index is there) or an update, and which files to index and articles to
// delete. Unchanged articles go into the next manifest as they are.
func planBuild(opt Options, idx string, files []srcFile, dtds []store.FileStamp, res *Result) (*plan, error) {
	src, err := filepath.Abs(opt.Articles)
	if err != nil {
		return nil, &store.InputError{Msg: fmt.Sprintf("articles folder %s: %v", opt.Articles, err)}
	}
	p := &plan{opt: opt, idx: idx, res: res, todo: files, next: &store.Manifest{Version: store.Version, Elements: opt.Elements,
		Source: src, Lang: opt.Reader.Lang, DTDs: dtds, Shards: opt.Shards, Articles: map[string]store.Entry{}}}
	old, err := store.ReadManifest(idx)
	if _, herr := store.ReadManifestHead(idx); herr == nil && err != nil && !opt.Rebuild {
		res.Rebuilt = err.Error() // a manifest without its articles
	}
	if old != nil && old.Version == store.Version {
		if err := old.Validate(idx, idx); err != nil {
			res.Rebuilt, old = damageReason(err), nil
		}
	}
	if old != nil && p.next.Shards == 0 && old.Version == store.Version {
		p.next.Shards = old.Shards // keep the index's shards
	}
	if p.next.Shards == 0 {
		var bytes int64
		for _, f := range files {
			bytes += f.size
		}
		p.next.Shards = DefaultShards(runtime.GOMAXPROCS(0), bytes)
	}
	if opt.Rebuild {
		old = nil
	}
	if old != nil {
		// an index built otherwise, or that cannot be updated exactly, is
		// built again
		if why := rebuildReason(old, p.next); why != "" {
			res.Rebuilt = why
			old = nil
		} else if err := checkIndex(idx, old); err != nil {
			res.Rebuilt = damageReason(err)
			old = nil
		}
	}
	res.Full = old == nil
	res.Shards = p.next.Shards
	if old == nil {
		return p, nil
	}
	p.old, p.todo = old, nil
	for _, f := range files {
		if e, ok := old.Articles[f.rel]; ok && e.Size == f.size && e.MTime == f.mt && e.ID == f.id {
			p.next.Articles[f.rel] = e
			res.Unchanged++
			continue
		}
		p.todo = append(p.todo, f)
	}
	changed := map[string]bool{}
	for _, f := range p.todo {
		changed[f.rel] = true
	}
	for rel, e := range old.Articles {
		if _, kept := p.next.Articles[rel]; !kept {
			p.del = append(p.del, e)
			// an article deleted only because its file changed (or its
			// id: another file took its name) is counted as indexed or
			// broken
			if !changed[rel] {
				res.Removed++
			}
		}
	}
	sort.Slice(p.del, func(i, j int) bool { return p.del[i].ID < p.del[j].ID })
	return p, nil
}

// checkElementNames refuses candidate element names that no element can
// have: none at all, an empty one (two commas in a row) or one that is not
// an XML name ("<p>", "sec p", "1p"), naming it. Such a name used to build
// an index without a word, its elements never found.
func checkElementNames(names []string) error {
	if len(names) == 0 {
		return &store.InputError{Msg: "--elements names no element"}
	}
	for i, n := range names {
		if n == "" {
			return &store.InputError{Msg: fmt.Sprintf("--elements: name %d of %d is empty (two commas in a row?)", i+1, len(names))}
		}
		if !xmlName(n) {
			return &store.InputError{Msg: fmt.Sprintf("--elements: %q is not an element name (a letter or _ first, then letters, digits, _, - or .)", n)}
		}
	}
	return nil
}

// xmlName tells whether s is an XML name without a colon: a letter or _
// first, then letters, digits, _, - and . (XML 1.0, section 2.3).
func xmlName(s string) bool {
	for i, r := range s {
		switch {
		case r == '_' || unicode.IsLetter(r):
		case i > 0 && (r == '-' || r == '.' || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)):
		default:
			return false
		}
	}
	return s != ""
}

// diskFull turns an error of a full disk (or an exhausted quota) while
// building idx into bad input (exit status 2) saying so: the build is
// removed and the index left as it was. Other errors are returned as
// they are.
func diskFull(idx string, err error) error {
	// Bleve's persister reports a segment it cannot write as text (%v), so
	// its error is known by its message
	msg := err.Error()
	if !errors.Is(err, syscall.ENOSPC) && !errors.Is(err, syscall.EDQUOT) &&
		!strings.Contains(msg, syscall.ENOSPC.Error()) && !strings.Contains(msg, syscall.EDQUOT.Error()) {
		return err
	}
	return &store.InputError{Msg: fmt.Sprintf("index %s: the disk is full (%v); nothing was replaced: %s is as it was before this build; free some space and build again", idx, err, idx)}
}
