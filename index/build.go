package index

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/vellum"
	"github.com/readsim/readsim/index/article"
)

// DefaultBatchBytes is the default size of a batch in bytes of XML. Larger
// batches make fewer segments, which are cheaper to build (each has its own
// term dictionary) and to search, at the price of memory while building.
const DefaultBatchBytes = 4 << 20

// buildGCPercent is the garbage collector's GOGC while Build runs.
const buildGCPercent = 200

// BuildOptions configure Build.
type BuildOptions struct {
	Articles string   // the folder of articles (searched recursively)
	Index    string   // the index folder
	Elements []string // candidate element names; nil means DefaultElements
	Workers  int      // parsing goroutines; 0 means GOMAXPROCS
	// A Bleve batch, which becomes a segment of the index (scorch may merge
	// segments that wait to be written), ends after
	// Batch articles (0: no limit) or BatchBytes bytes of XML (0 means
	// DefaultBatchBytes), whichever comes first.
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
}

// Skipped is a file that was not indexed, and why.
type Skipped struct {
	Path   string
	Reason string
}

// BuildResult summarises a build.
type BuildResult struct {
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
	Dups      []Skipped // files whose article id an earlier file (in path order) has
	// DTDs are the collection's DTD files: the *.dtd files below the
	// articles folder, in path order.
	DTDs []string
	// IDMismatches are the articles indexed in this run whose
	// <header><id> is not their file name (they are indexed under the
	// file name), in path order.
	IDMismatches []IDMismatch
	// Langs counts the articles of the index (now) by language.
	Langs map[string]int
}

// IDMismatch is an article whose <header><id> differs from its id, the
// file name without .xml.
type IDMismatch struct {
	Path     string // the article file
	ID       string // the file name's id, under which it is indexed
	HeaderID string // the text of its <header><id>
}

// InputError is bad input: a missing or unreadable folder, or a folder with
// no article. Commands map it to exit status 2.
type InputError struct{ Msg string }

// Error returns the message, which names the file and the problem.
func (e *InputError) Error() string { return e.Msg }

// ErrLocked means that another process is writing the index.
var ErrLocked = errors.New("another process is writing the index")

// Build indexes the articles of opt.Articles into opt.Index. It builds the new
// index in a folder beside opt.Index and renames it into place only when it is
// complete (an interrupted build leaves the previous index, or none, plus a
// leftover folder that the next build removes). When opt.Index holds a
// complete index built with the same candidate elements, only new and changed
// articles are indexed and removed ones are dropped (the previous index is
// copied beside and updated there).
func Build(opt BuildOptions) (*BuildResult, error) {
	start := time.Now()
	if opt.Elements == nil {
		opt.Elements = DefaultElements
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
	// Building is allocation-heavy and its live heap small next to the
	// garbage: collect less often while building (less CPU for more memory).
	defer debug.SetGCPercent(debug.SetGCPercent(buildGCPercent))
	st, err := os.Stat(opt.Articles)
	switch {
	case err != nil:
		return nil, &InputError{fmt.Sprintf("articles folder %s: %v", opt.Articles, errors.Unwrap(err))}
	case !st.IsDir():
		return nil, &InputError{fmt.Sprintf("articles folder %s: not a folder", opt.Articles)}
	}
	if _, err := os.ReadDir(opt.Articles); err != nil {
		return nil, &InputError{fmt.Sprintf("articles folder %s: %v", opt.Articles, errors.Unwrap(err))}
	}
	if opt.Reader == nil {
		opt.Reader = &article.Reader{Root: opt.Articles}
	}
	res := &BuildResult{}
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
		return nil, &InputError{fmt.Sprintf("articles folder %s: no .xml article in it", opt.Articles)}
	}

	idx := filepath.Clean(opt.Index)
	if err := os.MkdirAll(filepath.Dir(idx), 0o755); err != nil {
		return nil, err
	}
	lf, err := os.OpenFile(idx+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	defer lf.Close()
	if ok, err := lockFile(lf); err != nil {
		return nil, fmt.Errorf("locking %s.lock: %w", idx, err)
	} else if !ok {
		return nil, fmt.Errorf("%s: %w (%s.lock is held); wait for it to finish", idx, ErrLocked, idx)
	}
	removeLeftovers(idx)

	next := &manifest{Version: manifestVersion, Elements: opt.Elements, Source: opt.Articles, Lang: opt.Reader.Lang, DTDs: dtds, Articles: map[string]manifestEntry{}}
	old, _ := readManifest(idx)
	if opt.Rebuild {
		old = nil
	}
	if old != nil {
		// an index built otherwise, or that cannot be updated exactly, is
		// built again
		if why := rebuildReason(old, next); why != "" {
			res.Rebuilt = why
			old = nil
		} else if err := checkIndex(idx, old); err != nil {
			res.Rebuilt = err.Error()
			old = nil
		}
	}
	res.Full = old == nil

	// what to delete and what to index
	todo := files
	var del []manifestEntry
	if old != nil {
		todo = nil
		cur := map[string]bool{}
		for _, f := range files {
			cur[f.rel] = true
			if e, ok := old.Articles[f.rel]; ok && e.Size == f.size && e.MTime == f.mt && e.ID == f.id {
				next.Articles[f.rel] = e
				res.Unchanged++
				continue
			}
			todo = append(todo, f)
		}
		for rel, e := range old.Articles {
			if _, kept := next.Articles[rel]; !kept {
				del = append(del, e)
			}
		}
		sort.Slice(del, func(i, j int) bool { return del[i].ID < del[j].ID })
		if len(todo) == 0 && len(del) == 0 {
			res.summarise(next)
			res.Elapsed = time.Since(start)
			return res, nil
		}
	}

	tmp := fmt.Sprintf("%s.building-%d", idx, os.Getpid())
	if err := os.RemoveAll(tmp); err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	var ai bleve.Index
	var oldDF *vellum.FST
	if old == nil {
		if err := os.MkdirAll(tmp, 0o755); err != nil {
			return nil, err
		}
		if ai, err = bleve.NewUsing(filepath.Join(tmp, articlesDir), newMapping(), bleve.Config.DefaultIndexType, bleve.Config.DefaultKVStore, buildConfig()); err != nil {
			return nil, err
		}
	} else {
		if err := copyDir(idx, tmp); err != nil {
			return nil, fmt.Errorf("copying the index to update it: %w", err)
		}
		os.Remove(filepath.Join(tmp, manifestName))
		if oldDF, err = loadElemDF(tmp); err != nil {
			return nil, fmt.Errorf("index %s: %w; build it again with --rebuild", idx, err)
		}
		if ai, err = bleve.OpenUsing(filepath.Join(tmp, articlesDir), buildConfig()); err != nil {
			return nil, err
		}
	}
	// the change to the element frequencies
	delta := map[string]int64{}

	// deletions first: an id deleted and re-added must end up added
	if len(del) > 0 {
		ab := ai.NewBatch()
		for _, e := range del {
			d, err := ai.Document(e.ID)
			if err != nil {
				ai.Close()
				return nil, err
			}
			if d == nil {
				ai.Close()
				return nil, fmt.Errorf("index %s: article %s is in the manifest but not in the index; rebuild it with --rebuild", idx, e.ID)
			}
			c := docElementCounts(decodeDoc(e.ID, d))
			for i, t := range c.terms {
				delta[t] -= int64(c.df[i])
			}
			ab.Delete(e.ID)
		}
		if err := ai.Batch(ab); err != nil {
			ai.Close()
			return nil, err
		}
		// an article deleted only because it changed is counted as indexed or broken below
		changed := map[string]bool{}
		for _, f := range todo {
			changed[f.id] = true
		}
		for _, e := range del {
			if !changed[e.ID] {
				res.Removed++
			}
		}
	}

	if err := indexFiles(ai, todo, opt, res, next, delta); err != nil {
		ai.Close()
		return nil, err
	}
	// A full build keeps its batches' segments: merging them into one
	// would rewrite every posting on one core for little faster searches
	// (scores do not depend on the segments, see stats.go). An update adds
	// segments and merges small ones by Bleve's own tiered policy, as a live
	// scorch index does in the background.
	if old != nil {
		if err := mergeTiers(filepath.Join(tmp, articlesDir), ai); err != nil {
			ai.Close()
			return nil, err
		}
	}
	if err := ai.Close(); err != nil {
		return nil, err
	}
	if err := writeElemDF(tmp, idx, oldDF, delta); err != nil {
		return nil, err
	}
	next.Built = time.Now().UTC()
	if err := writeManifest(tmp, next); err != nil {
		return nil, err
	}
	if err := swapIn(tmp, idx); err != nil {
		return nil, err
	}
	ok = true
	res.summarise(next)
	res.Elapsed = time.Since(start)
	return res, nil
}

// indexFiles parses files in parallel and indexes them in batches.
// The element frequencies of the indexed articles are added to delta.
func indexFiles(ai bleve.Index, files []srcFile, opt BuildOptions, res *BuildResult, next *manifest, delta map[string]int64) error {
	var total int64
	for _, f := range files {
		total += f.size
	}
	start := time.Now()
	jobs := make(chan int)
	out := make([]chan parsed, len(files)) // per file, to keep path order
	for i := range out {
		out[i] = make(chan parsed, 1)
	}
	names := map[string]bool{}
	for _, n := range opt.Elements {
		names[n] = true
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	// articles parsed ahead of indexing: enough to keep the workers busy
	ahead := make(chan struct{}, 16*opt.Workers)
	for w := 0; w < opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				out[i] <- parseOne(opt.Reader, files[i], names)
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range files {
			select {
			case ahead <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case jobs <- i:
			case <-stop:
				return
			}
		}
	}()
	defer func() {
		close(stop) // out channels are buffered: workers never block on them
		wg.Wait()
	}()

	// Bleve builds each batch's segment in its own goroutine while the
	// workers parse the next articles.
	in, indexed := make(chan *bleve.Batch, 1), make(chan error, 1)
	go func() {
		var err error
		for b := range in {
			if err == nil {
				err = ai.Batch(b)
			}
		}
		indexed <- err
	}()
	finish := func() error {
		close(in)
		return <-indexed
	}
	ab := ai.NewBatch()
	inBatch, batchBytes := 0, int64(0)
	var done int
	var bytes int64
	flush := func() {
		if inBatch == 0 {
			return
		}
		in <- ab
		ab = ai.NewBatch()
		inBatch, batchBytes = 0, 0
	}
	for i := range files {
		p := <-out[i]
		out[i] = nil
		<-ahead
		done++
		bytes += p.f.size
		res.Bytes += p.f.size
		if opt.Progress != nil {
			opt.Progress(Progress{Done: done, Total: len(files), Bytes: bytes, TotalBytes: total, Elapsed: time.Since(start)})
		}
		if p.err != nil {
			res.Broken = append(res.Broken, Skipped{p.f.path, p.err.Error()})
			continue
		}
		if err := ab.IndexAdvanced(p.doc); err != nil {
			finish()
			return err
		}
		for k, t := range p.elemDF.terms {
			delta[t] += int64(p.elemDF.df[k])
		}
		next.Articles[p.f.rel] = p.entry
		if p.headerID != "" {
			res.IDMismatches = append(res.IDMismatches, IDMismatch{Path: p.f.path, ID: p.f.id, HeaderID: p.headerID})
		}
		res.Indexed++
		inBatch++
		batchBytes += p.f.size
		if inBatch >= opt.Batch || batchBytes >= opt.BatchBytes {
			flush()
		}
	}
	flush()
	return finish()
}
