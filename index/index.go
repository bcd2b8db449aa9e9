package index

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/vellum"

	"github.com/readsim/readsim/index/fetch"
	"github.com/readsim/readsim/index/records"
	"github.com/readsim/readsim/index/store"
)

// Index is an open index, safe for concurrent searches. It can switch to
// a rebuilt index in its folder without a pause (Reload): each
// request uses the index as it was when the request began.
type Index struct {
	dir string
	cur atomic.Pointer[snapshot]
	mu  sync.Mutex // serialises Reload and Close
}

// snapshot is one build of the index, open: its shards, element
// frequencies and manifest, and the statistics summed from it.
type snapshot struct {
	// refs counts the index's own reference and the requests using the
	// snapshot; the last one out closes it.
	refs   atomic.Int64
	closed atomic.Bool // its shards are closed
	gen    uint64
	stamp  buildStamp // the folder and manifest file it was opened from
	// the shards, what a fetch reads of them
	fetch.Shards
	// langNames are the languages of LangAvg, in order
	langNames []string
	elemDF    *vellum.FST
	man       *store.Manifest
	elemN     float64
	elemAvg   float64
	articles  int
	langs     map[string]int // articles by language
}

// generations numbers snapshots (Query remembers the one it was prepared
// with).
var generations atomic.Uint64

// ErrNoTerms means that a query has no term left after analysis: only stop
// words, operators or punctuation.
var ErrNoTerms = errors.New("the query has no searchable word: only stop words, operators or punctuation")

// Open opens the index in dir for searching. It takes no lock: an index
// is searched while a build runs, which writes the next index beside it
// and swaps it in (Reload and Reopen switch to it). It fails with
// ErrLocked only when Bleve's own files of the index are locked by a
// process writing them. When dir is missing but a build killed between
// its final renames left a complete index beside it, that index is opened
// (the next build puts it in place).
func Open(dir string) (*Index, error) {
	s, err := openSnapshot(dir)
	if err != nil {
		return nil, err
	}
	x := &Index{dir: dir}
	x.cur.Store(s)
	return x, nil
}

// buildStamp identifies the build of an index: the folder holding it and
// its manifest file (nil when there is none).
type buildStamp struct {
	dir string
	fi  os.FileInfo
}

// currentBuild is the build of the index in dir that Open uses now: dir,
// or, when dir is missing, the complete index a build killed between its
// final renames left beside it.
func currentBuild(dir string) buildStamp {
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		if left := store.CompleteLeftover(dir); left != "" {
			dir = left
		}
	}
	fi, _ := os.Stat(store.ManifestPath(dir))
	return buildStamp{dir: dir, fi: fi}
}

// sameFile reports whether two stamps name one manifest file (in any
// folder: renaming a finished build into place keeps its manifest).
func (b buildStamp) sameFile(o buildStamp) bool {
	return b.fi != nil && o.fi != nil && os.SameFile(b.fi, o.fi) && b.fi.ModTime().Equal(o.fi.ModTime())
}

// openHook, when set (tests), is called between the steps of opening a
// build: after reading its manifest ("manifest"), after its element
// frequencies ("elements") and after each shard ("shard").
var openHook func(step string)

// openAttempts bounds how many times openSnapshot starts again when a
// build is swapped in while it opens one.
const openAttempts = 5

// openSnapshot opens the build of the index that is now in dir. It opens
// the manifest, the element frequencies and each shard one after another
// by path, so a build swapped in meanwhile could mix two builds: after
// opening, it checks that the build it opened is still the one in place
// (the same folder and manifest file) and starts again if not.
func openSnapshot(dir string) (*snapshot, error) {
	for range openAttempts {
		b := currentBuild(dir)
		s, err := openBuild(b, dir)
		if now := currentBuild(dir); b.fi == nil || now.dir == b.dir && now.sameFile(b) {
			return s, err // nothing to open, or nothing swapped meanwhile
		}
		if s != nil {
			s.closeShards()
		}
	}
	return nil, fmt.Errorf("index %s: rebuilt %d times while it was being opened; try again", dir, openAttempts)
}

// openBuild opens the build b of the index named name.
func openBuild(b buildStamp, name string) (*snapshot, error) {
	dir := b.dir
	if st, err := os.Stat(dir); err != nil {
		return nil, &InputError{Msg: fmt.Sprintf("index %s: %v (build it with readsim index)", name, errors.Unwrap(err))}
	} else if !st.IsDir() {
		return nil, &InputError{Msg: fmt.Sprintf("index %s: not a folder", name)}
	}
	if b.fi == nil {
		return nil, &InputError{Msg: fmt.Sprintf("index %s: not a complete readsim index (no %s): an interrupted build, or not an index; run readsim index again", dir, store.ManifestName)}
	}
	hook := func(step string) {
		if openHook != nil {
			openHook(step)
		}
	}
	s := &snapshot{stamp: b, gen: generations.Add(1)}
	s.refs.Store(1)
	failed := func(err error) (*snapshot, error) {
		s.closeShards()
		return nil, err
	}
	m, err := store.ReadManifestHead(dir)
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se) || errors.As(err, &te) || errors.Is(err, io.ErrUnexpectedEOF):
		return failed(&DamagedError{Index: name, File: store.ManifestPath(dir), Err: errors.Unwrap(err)})
	case err != nil:
		return failed(&InputError{Msg: fmt.Sprintf("index %s: %v", dir, err)})
	}
	if m.Version != store.Version {
		return failed(&InputError{Msg: fmt.Sprintf("index %s: built by another version of readsim (layout %d, want %d); rebuild with readsim index", dir, m.Version, store.Version)})
	}
	if err := m.Validate(name, dir); err != nil {
		return failed(err)
	}
	s.man = m
	hook("manifest")
	if err := store.CheckElemDFStamp(name, dir, m.ElemDF); err != nil {
		return failed(err)
	}
	if err := store.Guard(name, filepath.Join(dir, store.ElemDFName), func() (err error) {
		s.elemDF, err = store.LoadElemDF(dir)
		return err
	}); err != nil {
		var de *DamagedError
		if errors.As(err, &de) {
			return failed(err)
		}
		return failed(&InputError{Msg: fmt.Sprintf("index %s: %v; run readsim index again (it rebuilds an index it cannot update)", dir, err)})
	}
	hook("elements")
	if err := store.CheckShards(name, dir, m); err != nil {
		return failed(err)
	}
	if err := s.openShards(name, dir, hook); err != nil {
		return failed(err)
	}
	if err := s.readColumns(name, dir); err != nil {
		return failed(err)
	}
	s.loadStats()
	return s, nil
}

// openShards opens the shards of the build in dir of the index named
// name, checked already (store.CheckShards): each one's Bleve index and
// records file. hook is called after each.
func (s *snapshot) openShards(name, dir string, hook func(step string)) error {
	m := s.man
	cfg := map[string]interface{}{"read_only": true, "bolt_timeout": "1s"}
	for i := range max(m.Shards, 1) {
		var ai bleve.Index
		sd := store.ShardDir(dir, i)
		err := store.Guard(name, sd, func() (err error) {
			ai, err = bleve.OpenUsing(sd, cfg)
			return err
		})
		if err != nil {
			var de *DamagedError
			if errors.As(err, &de) {
				return err
			}
			if strings.Contains(err.Error(), "timeout") {
				return fmt.Errorf("index %s: %w (its files are locked); try again when it has finished", dir, ErrLocked)
			}
			return fmt.Errorf("index %s: %w", dir, err)
		}
		s.Bleve = append(s.Bleve, ai)
		rf, err := records.Open(name, records.Path(sd), m.Records[i])
		if err != nil {
			return err
		}
		s.Recs = append(s.Recs, rf)
		hook("shard")
	}
	return nil
}

// readColumns reads, on every shard at once, the columns a fetch reads
// of its documents (fetch.Shards): the record places, the ranks of the
// ids and, in an index of several languages, the languages.
func (s *snapshot) readColumns(name, dir string) error {
	s.Ranks = make([][]uint32, len(s.Bleve))
	s.Places = make([][]records.Place, len(s.Bleve))
	s.langNames, s.LangAvg = fetch.LangAverages(s.man.Totals)
	if len(s.langNames) > 1 {
		s.DocLangs = make([][]uint8, len(s.Bleve))
	}
	if err := store.Guard(name, dir, func() error {
		return store.Parallel(len(s.Bleve), func(i int) error {
			r, err := shardReader(s.Bleve[i])
			if err != nil {
				return err
			}
			defer r.Close()
			if s.Ranks[i], err = fetch.IDRanks(r); err != nil {
				return err
			}
			if s.Places[i], err = fetch.DocPlaces(r); err != nil {
				return &DamagedError{Index: name, File: store.ShardDir(dir, i), Err: err}
			}
			if len(s.langNames) > 1 {
				s.DocLangs[i], err = fetch.DocLangs(r, s.langNames)
			}
			return err
		})
	}); err != nil {
		var de *DamagedError
		if errors.As(err, &de) {
			return err
		}
		return fmt.Errorf("index %s: %w", dir, err)
	}
	return nil
}

// loadStats takes the collection statistics from the manifest's totals.
func (x *snapshot) loadStats() {
	t := x.man.Totals
	x.langs = t.Langs
	if x.langs == nil {
		x.langs = map[string]int{}
	}
	x.articles = t.Articles
	x.elemN = float64(t.Elems)
	if t.Elems > 0 {
		x.elemAvg = float64(t.ElemLen) / float64(t.Elems)
	}
	x.BM25 = &bsearch.BM25Stats{
		DocCount:         float64(x.articles),
		FieldCardinality: map[string]int{"title": t.TitleLen, "text": t.TextLen, store.AuxField: t.AuxLen},
	}
}

// closeShards closes the snapshot's Bleve indexes. The slice itself is
// left as it is: Shards and the other counts read it without a reference.
func (x *snapshot) closeShards() error {
	var errs []error
	for _, s := range x.Bleve {
		errs = append(errs, s.Close())
	}
	for _, r := range x.Recs {
		errs = append(errs, r.Close())
	}
	x.closed.Store(true)
	return errors.Join(errs...)
}

// release drops a reference; the last closes the snapshot.
func (x *snapshot) release() {
	if x.refs.Add(-1) == 0 {
		x.closeShards()
	}
}

// acquire returns the current snapshot with a reference taken (release
// it), or nil when the index is closed.
func (x *Index) acquire() *snapshot {
	for {
		s := x.cur.Load()
		if s == nil {
			return nil
		}
		n := s.refs.Load()
		if n > 0 && s.refs.CompareAndSwap(n, n+1) {
			return s
		}
		// s is being replaced and released: load its successor
	}
}

// withSnapshot runs f on the current snapshot, holding a reference to it
// for f's duration (a Reload meanwhile closes it only after f), or returns
// errClosed when the index is closed. A panic of Bleve reading a damaged
// segment is a DamagedError (guard).
func withSnapshot[T any](x *Index, f func(s *snapshot) (T, error)) (T, error) {
	s := x.acquire()
	if s == nil {
		var zero T
		return zero, errClosed
	}
	defer s.release()
	var out T
	err := store.Guard(x.dir, s.stamp.dir, func() (err error) {
		out, err = f(s)
		return err
	})
	return out, err
}

// snap returns the current snapshot, without a reference (for what stays
// valid after closing: statistics).
func (x *Index) snap() *snapshot { return x.cur.Load() }

// errClosed is the error of a request to a closed index.
var errClosed = errors.New("index: closed")

// stale reports whether the index in dir is now another build than the
// snapshot (rebuilt or updated since, or a complete build left beside a
// missing folder, which Open would use). A folder missing or incomplete
// for now (a build swapping it in) is not another build.
func (x *snapshot) stale(dir string) bool {
	now := currentBuild(dir)
	return now.fi != nil && !now.sameFile(x.stamp)
}

// Reload opens the index in its folder again if it is another build than
// the one open (see Reopen) and switches to it: requests that began
// before go on with the previous build, which is closed when the last of
// them ends. It reports whether it switched. An index folder that is
// missing or incomplete for now (a build swapping it in) is not an error:
// the index goes on as it is.
func (x *Index) Reload() (bool, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	old := x.cur.Load()
	if old == nil {
		return false, errClosed
	}
	if !old.stale(x.dir) {
		return false, nil
	}
	s, err := openSnapshot(x.dir)
	if err != nil {
		return false, err
	}
	x.cur.Store(s)
	old.release()
	return true, nil
}

// Reopen opens the index in x's folder again, as a new Index, when the
// folder holds another build than x: rebuilt or updated since x was
// opened, or, with the folder missing, a complete build left beside it by
// a build killed between its final renames (the one Open would use). It
// returns nil when the build is the same, or when the folder is missing or
// incomplete for now (a build swapping it in). x is left as it is; the
// caller closes whichever it no longer needs. readsim serve switches its
// index, article pages and live run together this way.
func (x *Index) Reopen() (*Index, error) {
	s := x.snap()
	if s == nil {
		return nil, errClosed
	}
	if !s.stale(x.dir) {
		return nil, nil
	}
	return Open(x.dir)
}

// Close closes the index (the build in use is closed when its last
// request ends). Closing it again does nothing.
func (x *Index) Close() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if s := x.cur.Swap(nil); s != nil {
		if s.refs.Add(-1) == 0 {
			return s.closeShards()
		}
	}
	return nil
}

// Articles is the number of articles in the index.
func (x *Index) Articles() int {
	if s := x.snap(); s != nil {
		return s.articles
	}
	return 0
}

// Elements is the number of candidate elements in the index.
func (x *Index) Elements() int {
	if s := x.snap(); s != nil {
		return int(s.elemN)
	}
	return 0
}

// Source is the articles folder the index was built from, an absolute
// path ("" when the manifest names none).
func (x *Index) Source() string {
	if s := x.snap(); s != nil && s.man != nil {
		return s.man.Source
	}
	return ""
}

// Shards is the number of shards of the index.
func (x *Index) Shards() int {
	if s := x.snap(); s != nil {
		return len(s.Bleve)
	}
	return 0
}

// Langs returns the number of articles of each language in the index.
func (x *Index) Langs() map[string]int {
	out := map[string]int{}
	if s := x.snap(); s != nil {
		for l, n := range s.langs {
			out[l] = n
		}
	}
	return out
}
