package index

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	bindex "github.com/blevesearch/bleve_index_api"
	"github.com/blevesearch/vellum"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article"
)

// DefaultElements are the names of the candidate elements browse may return:
// sections and sub-sections, paragraphs, list items, table rows and image
// captions of both INEX collections (2009: sec, ss1–ss3, p, entry, row,
// caption; 2006: section, ss, ss1–ss3, p, item, row, caption). An entry of
// a reference list (reflist) is never a candidate, whatever the names (see
// candidates).
var DefaultElements = []string{"sec", "section", "ss", "ss1", "ss2", "ss3", "p", "item", "entry", "row", "caption"}

// maxCandidateDepth is the deepest an element may be (the root is at depth
// 0, semantic wrappers count) to be a candidate element. Each candidate's
// XPath costs its depth to build and to store: the bound keeps a hostile
// article nesting thousands of sections from making a build quadratic. The
// deepest candidate of the 77 real Wikipedia articles of the shared data is
// far above it (TestRealCollection).
const maxCandidateDepth = 64

// manifestVersion changes whenever the index layout changes; an index of
// another version is rebuilt from scratch.
const manifestVersion = 4

const (
	manifestName = "manifest.json"
	articlesDir  = "articles"
)

// manifest is what an index knows of the folder it was built from. Its
// presence in the index folder marks a complete build.
type manifest struct {
	Version  int      `json:"version"`
	Elements []string `json:"elements"`
	Source   string   `json:"source"`
	// Lang is the language every article was read in (--lang), "" when
	// each article's was detected.
	Lang string `json:"lang,omitempty"`
	// DTDs are the DTD files the articles were read with that the build
	// knows of: the collection's (*.dtd below Source, their paths relative
	// to it) and the --dtd file (its absolute path).
	DTDs     []fileStamp              `json:"dtds,omitempty"`
	Built    time.Time                `json:"built"`
	Articles map[string]manifestEntry `json:"articles"` // by slash-separated path relative to Source
}

// fileStamp identifies a version of a file, as make does.
type fileStamp struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"` // Unix nanoseconds
}

// manifestEntry identifies one indexed file. A file whose size or
// modification time changed is indexed again (as make decides; no hashing, so
// that an unchanged re-run reads no article).
type manifestEntry struct {
	ID    string `json:"id"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"` // Unix nanoseconds
	Elems int    `json:"elems"` // number of candidate elements
	Lang  string `json:"lang"`  // the article's language (article.Article.Lang)
	// Field lengths in tokens, as Bleve counts them: the title, the text,
	// and the candidate elements' lengths summed (see stats.go).
	TitleLen int `json:"title_len"`
	TextLen  int `json:"text_len"`
	ElemLen  int `json:"elem_len"`
}

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

type srcFile struct {
	rel  string // slash-separated, relative to the articles folder
	path string
	id   string
	size int64
	mt   int64
}

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

// summarise sets the counts of the index described by m.
func (r *BuildResult) summarise(m *manifest) {
	r.Articles = len(m.Articles)
	r.Langs = map[string]int{}
	for _, e := range m.Articles {
		r.Elements += e.Elems
		r.Langs[e.Lang]++
	}
}

// rebuildReason says why the index described by old must be built again
// rather than updated to next, or "".
func rebuildReason(old, next *manifest) string {
	if old.Version != next.Version {
		return fmt.Sprintf("built by another version of readsim (layout %d, now %d)", old.Version, next.Version)
	}
	if o, n := strings.Join(old.Elements, ","), strings.Join(next.Elements, ","); o != n {
		return fmt.Sprintf("the candidate elements changed from %s to %s", o, n)
	}
	if old.Lang != next.Lang {
		lang := func(l string) string {
			if l == "" {
				return "detected per article"
			}
			return l
		}
		return fmt.Sprintf("the articles' language changed from %s to %s", lang(old.Lang), lang(next.Lang))
	}
	was := map[string]fileStamp{}
	for _, d := range old.DTDs {
		was[d.Path] = d
	}
	for _, d := range next.DTDs {
		o, ok := was[d.Path]
		switch {
		case !ok:
			return fmt.Sprintf("the DTD %s is new: the articles' text may change", d.Path)
		case o != d:
			return fmt.Sprintf("the DTD %s changed: the articles' text may change", d.Path)
		}
		delete(was, d.Path)
	}
	for _, d := range old.DTDs {
		if _, gone := was[d.Path]; gone {
			return fmt.Sprintf("the DTD %s is gone: the articles' text may change", d.Path)
		}
	}
	return ""
}

// stampDTD identifies the DTD file p (the Reader's DTD) by its absolute path,
// size and modification time.
func stampDTD(p string) (fileStamp, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return fileStamp{}, &InputError{fmt.Sprintf("DTD file %s: %v", p, err)}
	}
	st, err := os.Stat(abs)
	if err != nil {
		return fileStamp{}, &InputError{fmt.Sprintf("DTD file %s: %v", p, errors.Unwrap(err))}
	}
	if !st.Mode().IsRegular() {
		return fileStamp{}, &InputError{fmt.Sprintf("DTD file %s: not a regular file", p)}
	}
	return fileStamp{Path: abs, Size: st.Size(), MTime: st.ModTime().UnixNano()}, nil
}

// buildConfig is the scorch configuration of a build: no segment merging
// while documents are added (merges would rewrite the same postings several
// times over); an update merges once at the end (mergeTiers).
func buildConfig() map[string]interface{} {
	return map[string]interface{}{
		"scorchMergePlanOptions": map[string]interface{}{"MaxSegmentsPerTier": 1 << 20},
		"asyncErrorCallbackName": asyncErrorCallback,
	}
}

// mergeTiers merges the index in dir by Bleve's default (tiered) merge plan
// and waits until the result is persisted and the merged segments' files
// are gone.
func mergeTiers(dir string, idx bleve.Index) error {
	adv, err := idx.Advanced()
	if err != nil {
		return err
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return fmt.Errorf("index %s is not a scorch index", dir)
	}
	// ForceMerge waits for the merger, which retries a failed merge (a full
	// disk, say) without end and reports the failure only through the
	// index's asynchronous error callback: wait for whichever comes first.
	failed := watchAsync(dir)
	defer unwatchAsync(dir)
	merged := make(chan error, 1)
	go func() {
		mo := mergeplan.DefaultMergePlanOptions
		merged <- s.ForceMerge(context.Background(), &mo)
	}()
	select {
	case err := <-merged:
		if err != nil {
			return err
		}
	case err := <-failed:
		return fmt.Errorf("index %s: merging segments: %w", dir, err)
	case <-time.After(mergeTimeout):
		return fmt.Errorf("index %s: merging segments took more than %v", dir, mergeTimeout)
	}
	stat := func(k string) uint64 {
		n, _ := s.StatsMap()[k].(uint64)
		return n
	}
	for t0 := time.Now(); stat("LastPersistedEpoch") < stat("CurRootEpoch"); time.Sleep(5 * time.Millisecond) {
		select {
		case err := <-failed:
			return fmt.Errorf("index %s: writing the merged segments: %w", dir, err)
		default:
		}
		if time.Since(t0) > mergeTimeout {
			return fmt.Errorf("index %s: the merged segments were not written in %v", dir, mergeTimeout)
		}
	}
	// The files of merged segments are removed once no snapshot uses them,
	// when the persister has nothing else to do; a new snapshot (an
	// internal no-op) retires the snapshots from before the merge. Files
	// left behind are only wasted space: give up soon.
	zaps := func() int {
		m, _ := filepath.Glob(filepath.Join(dir, "store", "*.zap"))
		return len(m)
	}
	for t0 := time.Now(); uint64(zaps()) > stat("num_root_filesegments") && time.Since(t0) < 500*time.Millisecond; time.Sleep(10 * time.Millisecond) {
		if err := idx.DeleteInternal([]byte("readsim-merged")); err != nil {
			return err
		}
	}
	return nil
}

// mergeTimeout bounds how long an update waits for its merge.
const mergeTimeout = 10 * time.Minute

// Scorch reports the failures of its background merger and persister only
// through a callback registered by name: asyncError forwards them to the
// build that watches the index.
const asyncErrorCallback = "readsim-index"

var asyncWatchers sync.Map // index store path → chan error

func init() {
	scorch.RegistryAsyncErrorCallbacks[asyncErrorCallback] = func(err error, path string) {
		if ch, ok := asyncWatchers.Load(filepath.Clean(path)); ok {
			select {
			case ch.(chan error) <- err:
			default: // one error is enough
			}
		}
	}
}

// watchAsync returns a channel that receives the first asynchronous error
// of the scorch index in dir (opened with buildConfig).
func watchAsync(dir string) chan error {
	ch := make(chan error, 1)
	asyncWatchers.Store(filepath.Join(dir, "store"), ch)
	return ch
}

func unwatchAsync(dir string) { asyncWatchers.Delete(filepath.Join(dir, "store")) }

// listArticles walks the folder and returns its .xml files sorted by path,
// with duplicate ids removed (the first in path order is kept); the others
// are recorded in res. The collection's DTD files (*.dtd) are recorded in
// res.DTDs and returned with their sizes and modification times.
func listArticles(dir string, res *BuildResult) ([]srcFile, []fileStamp, error) {
	var files []srcFile
	var dtds []fileStamp
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir {
				return &InputError{fmt.Sprintf("articles folder %s: %v", dir, errors.Unwrap(err))}
			}
			res.Broken = append(res.Broken, Skipped{path, fmt.Sprint(errors.Unwrap(err))})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if path != dir && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		info, err := os.Stat(path) // follows symbolic links
		if err != nil {
			res.Broken = append(res.Broken, Skipped{path, fmt.Sprint(errors.Unwrap(err))})
			return nil
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		if strings.EqualFold(filepath.Ext(path), ".dtd") {
			res.DTDs = append(res.DTDs, path)
			dtds = append(dtds, fileStamp{Path: filepath.ToSlash(rel), Size: info.Size(), MTime: info.ModTime().UnixNano()})
			return nil
		}
		if !strings.EqualFold(filepath.Ext(path), ".xml") {
			res.NotXML = append(res.NotXML, path)
			return nil
		}
		files = append(files, srcFile{
			rel: filepath.ToSlash(rel), path: path,
			id:   strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)),
			size: info.Size(), mt: info.ModTime().UnixNano(),
		})
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	first := map[string]string{}
	out := files[:0]
	for _, f := range files {
		if p, dup := first[f.id]; dup {
			res.Dups = append(res.Dups, Skipped{f.path, fmt.Sprintf("article id %s already taken by %s", f.id, p)})
			continue
		}
		first[f.id] = f.path
		out = append(out, f)
	}
	return out, dtds, nil
}

// parsed is an article ready for indexing: its Bleve document, its manifest
// entry and its candidate elements' term counts.
type parsed struct {
	f        srcFile
	doc      *document.Document
	entry    manifestEntry
	elemDF   termCounts
	headerID string // the article's <header><id> when it is not its id
	err      error
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

// fixedAnalyzer returns tokens computed beforehand: an article's title and
// text are analyzed once, for Bleve and for the statistics alike.
type fixedAnalyzer analysis.TokenStream

func (f fixedAnalyzer) Analyze([]byte) analysis.TokenStream { return analysis.TokenStream(f) }

// parseOne parses an article file with rd and builds its Bleve document,
// its manifest entry and its candidate elements' term counts. The article
// is analysed in its language (Article.Lang: rd's Lang, or detected).
func parseOne(rd *article.Reader, f srcFile, names map[string]bool) parsed {
	a, err := rd.ParseFile(f.path)
	if err != nil {
		var ae *article.Error
		if errors.As(err, &ae) {
			// Skipped.Path names the file already
			msg := ae.Msg
			if ae.Line > 0 {
				msg = fmt.Sprintf("line %d: %s", ae.Line, ae.Msg)
			}
			return parsed{f: f, err: errors.New(msg)}
		}
		return parsed{f: f, err: err}
	}
	a.ID = f.id
	title, headerID := a.Title, a.HeaderID
	kind := analysisKind(a.Lang)
	text := []byte(a.Text)
	brk := breaks(a)
	bb := make([]int, len(brk))
	for i, c := range brk {
		bb[i] = a.ByteOffset(c)
	}
	// a build analyzes much text: memoize the word filters (memoAnalyzer)
	memo := memoPools[kind].Get().(*memoAnalyzer)
	toks := analyzeText(memo, a.Text, bb)
	memoPools[kind].Put(memo)
	elems := candidates(a, names)

	doc := document.NewDocument(a.ID)
	titleToks := analyzerOf(a.Lang).Analyze([]byte(title)) // on a copy: the analyzer lower-cases in place
	doc.AddField(document.NewTextFieldCustom("title", nil, []byte(title), bindex.IndexField|bindex.StoreField, fixedAnalyzer(titleToks)))
	doc.AddField(document.NewTextFieldCustom("text", nil, text, bindex.IndexField|bindex.StoreField, fixedAnalyzer(toks)))
	doc.AddField(document.NewTextFieldWithIndexingOptions("elems", nil, []byte(encodeElems(elems)), bindex.StoreField))
	doc.AddField(document.NewTextFieldWithIndexingOptions("breaks", nil, []byte(encodeInts(brk)), bindex.StoreField))
	doc.AddField(document.NewTextFieldWithIndexingOptions("path", nil, []byte(f.rel), bindex.StoreField))
	doc.AddField(document.NewTextFieldWithIndexingOptions("lang", nil, []byte(a.Lang), bindex.StoreField))

	ids := newInternTerms(len(toks))
	starts := make([]int, len(toks))
	for i, t := range toks {
		ids.addBytes(t.Term)
		starts[i] = t.Start
	}
	spans := make([][2]int, len(elems))
	for k, el := range elems {
		spans[k] = [2]int{a.ByteOffset(el.Start), a.ByteOffset(el.End)}
	}
	df, elemLen := elementCounts(ids.ids, len(ids.terms), starts, spans)
	p := parsed{f: f, doc: doc,
		entry: manifestEntry{ID: f.id, Size: f.size, MTime: f.mt, Elems: len(elems), Lang: a.Lang,
			TitleLen: len(titleToks), TextLen: len(toks), ElemLen: elemLen},
		elemDF: termCounts{ids.terms, df}.nonZero(),
	}
	if headerID != "" && headerID != f.id {
		p.headerID = headerID
	}
	return p
}

// inline are the elements whose boundaries are not word boundaries (emphasis
// and links of both collections); an element with a wordnetid attribute (a
// YAGO wrapper such as <person>) or a link target is inline too. Every other
// element boundary separates words.
var inline = map[string]bool{
	"b": true, "i": true, "it": true, "u": true, "em": true, "emph": true, "emph2": true, "emph3": true, "emph4": true, "emph5": true,
	"sub": true, "sup": true, "font": true, "span": true, "tt": true, "small": true, "big": true, "strike": true, "s": true,
	"link": true, "collectionlink": true, "unknownlink": true, "outsidelink": true, "wikipedialink": true, "weblink": true, "languagelink": true,
}

// breaks returns the character offsets at which the text of two block
// elements touch with no white space between them: the analyzer must not
// join words across them.
func breaks(a *article.Article) []int {
	seen := map[int]bool{}
	isSpace := func(c int) bool {
		s := a.Slice(c, c+1)
		return s == "" || blank(s)
	}
	for i := range a.Elements {
		e := &a.Elements[i]
		if isInline(e) {
			continue
		}
		for _, c := range [2]int{e.Start, e.End} {
			if c > 0 && c < a.Len && !seen[c] && !isSpace(c-1) && !isSpace(c) {
				seen[c] = true
			}
		}
	}
	out := make([]int, 0, len(seen))
	for c := range seen {
		out = append(out, c)
	}
	sort.Ints(out)
	return out
}

// isInline reports whether an element's boundaries are not word
// boundaries: emphasis, links and semantic wrappers.
func isInline(e *article.Element) bool {
	if inline[e.Name] || e.IsWrapper() {
		return true
	}
	if _, ok := e.Attr("wordnetid"); ok {
		return true
	}
	_, ok := e.Attr("href")
	return ok
}

func encodeInts(v []int) string {
	var b strings.Builder
	for i, n := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}

func decodeInts(s string) []int {
	if s == "" {
		return nil
	}
	f := strings.Split(s, ",")
	out := make([]int, 0, len(f))
	for _, x := range f {
		if n, err := strconv.Atoi(x); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// bodies are the names of the body elements of both INEX collections,
// whose own text runs are candidates (see candidates).
var bodies = map[string]bool{"bdy": true, "body": true}

// candidates returns the article's candidate elements, in document order
// (by start, the longer first): elements with one of the names that contain
// some non-blank text, except
//   - semantic wrappers (Element.IsWrapper: a YAGO <country> is no
//     candidate, whatever its name);
//   - elements deeper than maxCandidateDepth;
//   - the entries of a reference list (an entry whose nearest ancestor that
//     is not a wrapper is a reflist): citations, not text to read; the entries
//     of other lists are candidates;
//
// plus the body's own text runs: the text of a bdy (or body) that no block
// element inside it holds, cut at each block element (inline elements and
// wrappers are part of a run), white space trimmed. The INEX 2009
// converter leaves an article's lead paragraphs — its definition, often
// what a query asks — bare in bdy before the first section, with the
// remains of its infobox. A run is named by the body's XPath followed by
// /text().
func candidates(a *article.Article, names map[string]bool) []Elem {
	var out []Elem
	runs := false
	for i := range a.Elements {
		e := &a.Elements[i]
		if e.Depth > maxCandidateDepth || e.IsWrapper() {
			continue
		}
		if bodies[e.Name] {
			n := len(out)
			out = appendRuns(out, a, i)
			runs = runs || len(out) > n
		}
		if !names[e.Name] || e.End <= e.Start || blank(a.Slice(e.Start, e.End)) {
			continue
		}
		if e.Name == "entry" && inReflist(a, i) {
			continue
		}
		out = append(out, Elem{XPath: a.XPath(i), Span: effort.Span{Start: e.Start, End: e.End}})
	}
	if runs {
		sort.SliceStable(out, func(i, j int) bool {
			if out[i].Start != out[j].Start {
				return out[i].Start < out[j].Start
			}
			return out[i].End > out[j].End
		})
	}
	return out
}

// appendRuns appends to out the own text runs of element b (see
// candidates). It visits each element of b's subtree at most once.
func appendRuns(out []Elem, a *article.Article, b int) []Elem {
	els := a.Elements
	var xpath string
	emit := func(s, e int) {
		text := a.Slice(s, e)
		trimmed := strings.TrimLeftFunc(text, unicode.IsSpace)
		s += utf8.RuneCountInString(text) - utf8.RuneCountInString(trimmed)
		trimmed = strings.TrimRightFunc(trimmed, unicode.IsSpace)
		if trimmed == "" {
			return
		}
		if xpath == "" {
			xpath = a.XPath(b) + "/text()"
		}
		out = append(out, Elem{XPath: xpath, Span: effort.Span{Start: s, End: s + utf8.RuneCountInString(trimmed)}})
	}
	cur := els[b].Start
	for c := b + 1; c < els[b].Next; {
		if isInline(&els[c]) {
			c++ // part of the run: into it
			continue
		}
		emit(cur, els[c].Start)
		cur = els[c].End
		c = els[c].Next
	}
	emit(cur, els[b].End)
	return out
}

// inReflist reports whether the nearest ancestor of element i that is not
// a semantic wrapper is a reflist. (i is at most maxCandidateDepth deep.)
func inReflist(a *article.Article, i int) bool {
	for p := a.Elements[i].Parent; p >= 0; p = a.Elements[p].Parent {
		if !a.Elements[p].IsWrapper() {
			return a.Elements[p].Name == "reflist"
		}
	}
	return false
}

// encodeElems writes elements one per line: start TAB end TAB xpath.
func encodeElems(els []Elem) string {
	var b strings.Builder
	for _, e := range els {
		b.WriteString(strconv.Itoa(e.Start))
		b.WriteByte('\t')
		b.WriteString(strconv.Itoa(e.End))
		b.WriteByte('\t')
		b.WriteString(e.XPath)
		b.WriteByte('\n')
	}
	return b.String()
}

func decodeElems(s string) []Elem {
	var out []Elem
	for len(s) > 0 {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 {
			continue
		}
		st, _ := strconv.Atoi(f[0])
		en, _ := strconv.Atoi(f[1])
		out = append(out, Elem{XPath: f[2], Span: effort.Span{Start: st, End: en}})
	}
	return out
}

// checkIndex checks that the complete index in dir, described by m, can be
// updated exactly: its element frequencies are readable and its Bleve index
// holds every article of the manifest.
func checkIndex(dir string, m *manifest) error {
	df, err := loadElemDF(dir)
	if err != nil {
		return err
	}
	it, err := df.Iterator(nil, nil)
	for err == nil {
		it, err = advance(it)
		if it == nil {
			break
		}
	}
	if err != nil && !errors.Is(err, vellum.ErrIteratorDone) {
		return fmt.Errorf("%s: %w", filepath.Join(dir, elemDFName), err)
	}
	ai, err := bleve.OpenUsing(filepath.Join(dir, articlesDir), map[string]interface{}{"read_only": true, "bolt_timeout": "1s"})
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir, articlesDir), err)
	}
	defer ai.Close()
	n, err := ai.DocCount()
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir, articlesDir), err)
	}
	if n != uint64(len(m.Articles)) {
		return fmt.Errorf("%s holds %d articles, its manifest %d", filepath.Join(dir, articlesDir), n, len(m.Articles))
	}
	return nil
}

func readManifest(dir string) (*manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return nil, err
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, manifestName), err)
	}
	return &m, nil
}

func writeManifest(dir string, m *manifest) error {
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return err
	}
	return writeFileSync(filepath.Join(dir, manifestName), b)
}

// swapIn replaces the index folder idx by the complete folder tmp.
func swapIn(tmp, idx string) error {
	oldDir := fmt.Sprintf("%s.old-%d", idx, os.Getpid())
	hadOld := false
	if _, err := os.Stat(idx); err == nil {
		if err := os.Rename(idx, oldDir); err != nil {
			return err
		}
		hadOld = true
	}
	if err := os.Rename(tmp, idx); err != nil {
		if hadOld {
			os.Rename(oldDir, idx)
		}
		return err
	}
	if hadOld {
		return os.RemoveAll(oldDir)
	}
	return nil
}

// removeLeftovers removes the folders of interrupted builds beside idx. The
// caller holds the lock, so no other build is using them.
func removeLeftovers(idx string) {
	for _, pat := range []string{".building-*", ".old-*"} {
		ms, _ := filepath.Glob(idx + pat)
		for _, m := range ms {
			os.RemoveAll(m)
		}
	}
}

// copyDir copies the folder src to dst. Segment files (.zap), which scorch
// writes once and never changes, are hard-linked when the file system allows
// it: updating one article of a large index does not copy the index.
func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if filepath.Ext(path) == ".zap" && os.Link(path, target) == nil {
			return nil
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(target)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}
