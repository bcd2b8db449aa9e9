package index

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/readsim/readsim/index/article"
)

// DefaultElements are the names of the candidate elements browse may return:
// sections, paragraphs, list items and table rows of both INEX collections
// (2009: sec, p, entry, row; 2006: section, ss1–ss3, p, item, row).
var DefaultElements = []string{"sec", "section", "ss", "ss1", "ss2", "ss3", "p", "item", "entry", "row"}

// manifestVersion changes whenever the index layout changes; an index of
// another version is rebuilt from scratch.
const manifestVersion = 2

const (
	manifestName = "manifest.json"
	articlesDir  = "articles"
	elementsDir  = "elements"
)

// manifest is what an index knows of the folder it was built from. Its
// presence in the index folder marks a complete build.
type manifest struct {
	Version  int                      `json:"version"`
	Elements []string                 `json:"elements"`
	Source   string                   `json:"source"`
	Built    time.Time                `json:"built"`
	Articles map[string]manifestEntry `json:"articles"` // by slash-separated path relative to Source
}

// manifestEntry identifies one indexed file. A file whose size or
// modification time changed is indexed again (as make decides; no hashing, so
// that an unchanged re-run reads no article).
type manifestEntry struct {
	ID    string `json:"id"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"` // Unix nanoseconds
	Elems int    `json:"elems"` // number of element documents
}

// buildGCPercent is the garbage collector's GOGC while Build runs.
const buildGCPercent = 200

// BuildOptions configure Build.
type BuildOptions struct {
	Articles string   // the folder of articles (searched recursively)
	Index    string   // the index folder
	Elements []string // candidate element names; nil means DefaultElements
	Workers  int      // parsing goroutines; 0 means GOMAXPROCS
	Batch    int      // articles per Bleve batch; 0 means 500
	// Rebuild ignores an existing index and builds from scratch.
	Rebuild bool
	// Progress, when set, is called from one goroutine after every batch.
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
	Full      bool // built from scratch (not an incremental update)
	Indexed   int  // articles indexed in this run
	Unchanged int  // articles kept from the previous index
	Removed   int  // articles dropped (file gone or changed into a broken one)
	Articles  int  // articles in the index now
	Elements  int  // element documents in the index now
	Bytes     int64
	Elapsed   time.Duration
	NotXML    []string  // files without the .xml extension
	Broken    []Skipped // unreadable or unparsable articles
	Dups      []Skipped // files whose article id an earlier file (in path order) has
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
		opt.Batch = 500
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
	res := &BuildResult{}
	files, err := listArticles(opt.Articles, res)
	if err != nil {
		return nil, err
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

	old, _ := readManifest(idx)
	if opt.Rebuild || old == nil || old.Version != manifestVersion || strings.Join(old.Elements, ",") != strings.Join(opt.Elements, ",") {
		old = nil
	}
	res.Full = old == nil

	// what to delete and what to index
	todo := files
	var del []manifestEntry
	next := &manifest{Version: manifestVersion, Elements: opt.Elements, Source: opt.Articles, Articles: map[string]manifestEntry{}}
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
			res.Articles = len(next.Articles)
			for _, e := range next.Articles {
				res.Elements += e.Elems
			}
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
	var ai, ei bleve.Index
	if old == nil {
		if err := os.MkdirAll(tmp, 0o755); err != nil {
			return nil, err
		}
		if ai, err = bleve.NewUsing(filepath.Join(tmp, articlesDir), newMapping(), bleve.Config.DefaultIndexType, bleve.Config.DefaultKVStore, buildConfig()); err != nil {
			return nil, err
		}
		if ei, err = bleve.NewUsing(filepath.Join(tmp, elementsDir), newMapping(), bleve.Config.DefaultIndexType, bleve.Config.DefaultKVStore, buildConfig()); err != nil {
			ai.Close()
			return nil, err
		}
	} else {
		if err := copyDir(idx, tmp); err != nil {
			return nil, fmt.Errorf("copying the index to update it: %w", err)
		}
		os.Remove(filepath.Join(tmp, manifestName))
		if ai, err = bleve.OpenUsing(filepath.Join(tmp, articlesDir), buildConfig()); err != nil {
			return nil, err
		}
		if ei, err = bleve.OpenUsing(filepath.Join(tmp, elementsDir), buildConfig()); err != nil {
			ai.Close()
			return nil, err
		}
	}
	closeAll := func() error {
		return errors.Join(ai.Close(), ei.Close())
	}

	// deletions first: an id deleted and re-added must end up added
	if len(del) > 0 {
		ab, eb := ai.NewBatch(), ei.NewBatch()
		for _, e := range del {
			ab.Delete(e.ID)
			for k := 0; k < e.Elems; k++ {
				eb.Delete(elemDocID(e.ID, k))
			}
		}
		if err := errors.Join(ai.Batch(ab), ei.Batch(eb)); err != nil {
			closeAll()
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

	if err := indexFiles(ai, ei, todo, opt, res, next); err != nil {
		closeAll()
		return nil, err
	}
	if err := mergeAll([]string{filepath.Join(tmp, articlesDir), filepath.Join(tmp, elementsDir)}, ai, ei); err != nil {
		closeAll()
		return nil, err
	}
	if err := closeAll(); err != nil {
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
	res.Articles = len(next.Articles)
	for _, e := range next.Articles {
		res.Elements += e.Elems
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// buildConfig is the scorch configuration of a build: no segment merging
// while documents are added (merges would rewrite the same postings several
// times over); mergeAll merges once at the end.
func buildConfig() map[string]interface{} {
	return map[string]interface{}{
		"scorchMergePlanOptions": map[string]interface{}{"MaxSegmentsPerTier": 1 << 20},
	}
}

// mergeAll merges each index into a single segment, both at once. Besides
// being the layout searches are fastest on, one segment makes the collection
// statistics independent of how the build was batched: Bleve's BM25 (and
// browse's element statistics) take a field's average length from the sum of
// the segments' dictionary sizes, which depends on the segmentation.
func mergeAll(dirs []string, idxs ...bleve.Index) error {
	errs := make([]error, len(idxs))
	var wg sync.WaitGroup
	for i, idx := range idxs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = mergeToOne(dirs[i], idx)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// mergeToOne merges the index in dir into one segment and waits until the
// merged segment is persisted (closing an index does not persist it) and the
// files of the merged segments are removed.
func mergeToOne(dir string, idx bleve.Index) error {
	adv, err := idx.Advanced()
	if err != nil {
		return err
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return fmt.Errorf("index %s is not a scorch index", dir)
	}
	stat := func(k string) uint64 {
		n, _ := s.StatsMap()[k].(uint64)
		return n
	}
	mo := mergeplan.SingleSegmentMergePlanOptions
	mo.SegmentsPerMergeTask = 1 << 20 // all in one merge
	for prev := uint64(0); ; {
		n := stat("num_root_filesegments")
		if n <= 1 || n == prev {
			break
		}
		if err := s.ForceMerge(context.Background(), &mo); err != nil {
			return err
		}
		prev = n
	}
	for t0 := time.Now(); stat("LastPersistedEpoch") < stat("CurRootEpoch"); time.Sleep(5 * time.Millisecond) {
		if time.Since(t0) > 5*time.Minute {
			return fmt.Errorf("index %s: the merged segment was not persisted in 5 minutes", dir)
		}
	}
	// The files of the merged segments are removed once no snapshot uses
	// them, when the persister has nothing else to do; a new snapshot (an
	// internal no-op) retires the snapshots from before the merge. Files
	// left behind are only wasted space (an updated index keeps those that
	// the snapshots it was copied with use): give up soon.
	zaps := func() int {
		m, _ := filepath.Glob(filepath.Join(dir, "store", "*.zap"))
		return len(m)
	}
	for t0 := time.Now(); zaps() > 1 && time.Since(t0) < 500*time.Millisecond; time.Sleep(10 * time.Millisecond) {
		if err := idx.DeleteInternal([]byte("readsim-merged")); err != nil {
			return err
		}
	}
	return nil
}

func elemDocID(id string, k int) string { return id + "#" + strconv.Itoa(k) }

// listArticles walks the folder and returns its .xml files sorted by path,
// with duplicate ids removed (the first in path order is kept); the others
// are recorded in res.
func listArticles(dir string, res *BuildResult) ([]srcFile, error) {
	var files []srcFile
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
		if !strings.EqualFold(filepath.Ext(path), ".xml") {
			res.NotXML = append(res.NotXML, path)
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		files = append(files, srcFile{
			rel: filepath.ToSlash(rel), path: path,
			id:   strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)),
			size: info.Size(), mt: info.ModTime().UnixNano(),
		})
		return nil
	})
	if err != nil {
		return nil, err
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
	return out, nil
}

// parsed is an article ready for Bleve: its document, its element documents.
type parsed struct {
	f     srcFile
	doc   *document.Document
	elems []*document.Document
	err   error
}

// indexFiles parses files in parallel and indexes them in batches.
func indexFiles(ai, ei bleve.Index, files []srcFile, opt BuildOptions, res *BuildResult, next *manifest) error {
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
	// at most a few batches parsed ahead of indexing
	ahead := make(chan struct{}, 2*opt.Batch+opt.Workers)
	for w := 0; w < opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				out[i] <- parseOne(files[i], names)
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

	// The two indexes build their segments concurrently, each in its own
	// goroutine, while the workers parse the next articles.
	type indexer struct {
		in   chan *bleve.Batch
		done chan error
	}
	run := func(idx bleve.Index) *indexer {
		ix := &indexer{in: make(chan *bleve.Batch, 1), done: make(chan error, 1)}
		go func() {
			var err error
			for b := range ix.in {
				if err == nil {
					err = idx.Batch(b)
				}
			}
			ix.done <- err
		}()
		return ix
	}
	ia, ie := run(ai), run(ei)
	finish := func() error {
		close(ia.in)
		close(ie.in)
		return errors.Join(<-ia.done, <-ie.done)
	}
	ab, eb := ai.NewBatch(), ei.NewBatch()
	inBatch := 0
	var done int
	var bytes int64
	flush := func() {
		if inBatch == 0 {
			return
		}
		ia.in <- ab
		ie.in <- eb
		ab, eb = ai.NewBatch(), ei.NewBatch()
		inBatch = 0
		if opt.Progress != nil {
			opt.Progress(Progress{Done: done, Total: len(files), Bytes: bytes, TotalBytes: total, Elapsed: time.Since(start)})
		}
	}
	for i := range files {
		p := <-out[i]
		out[i] = nil
		<-ahead
		done++
		bytes += p.f.size
		res.Bytes += p.f.size
		if p.err != nil {
			res.Broken = append(res.Broken, Skipped{p.f.path, p.err.Error()})
			continue
		}
		if err := ab.IndexAdvanced(p.doc); err != nil {
			finish()
			return err
		}
		for _, d := range p.elems {
			if err := eb.IndexAdvanced(d); err != nil {
				finish()
				return err
			}
		}
		next.Articles[p.f.rel] = manifestEntry{ID: p.f.id, Size: p.f.size, MTime: p.f.mt, Elems: len(p.elems)}
		res.Indexed++
		inBatch++
		if inBatch >= opt.Batch || eb.Size() > 20*opt.Batch {
			flush()
		}
	}
	flush()
	return finish()
}

// fixedAnalyzer returns tokens computed beforehand: an article's text is
// analyzed once and its elements' fields reuse slices of its tokens.
type fixedAnalyzer analysis.TokenStream

func (f fixedAnalyzer) Analyze([]byte) analysis.TokenStream { return analysis.TokenStream(f) }

// parseOne parses an article file and builds its Bleve documents.
func parseOne(f srcFile, names map[string]bool) parsed {
	a, err := article.ParseFile(f.path)
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
	en, _ := analyzers()
	text := []byte(a.Text)
	brk := breaks(a)
	bb := make([]int, len(brk))
	for i, c := range brk {
		bb[i] = a.ByteOffset(c)
	}
	toks := analyzeText(a.Text, bb)
	elems := candidates(a, names)

	doc := document.NewDocument(a.ID)
	doc.AddField(document.NewTextFieldCustom("title", nil, []byte(a.Title), bindex.IndexField|bindex.StoreField, en))
	doc.AddField(document.NewTextFieldCustom("text", nil, text, bindex.IndexField|bindex.StoreField, fixedAnalyzer(toks)))
	doc.AddField(document.NewTextFieldWithIndexingOptions("elems", nil, []byte(encodeElems(elems)), bindex.StoreField))
	doc.AddField(document.NewTextFieldWithIndexingOptions("breaks", nil, []byte(encodeInts(brk)), bindex.StoreField))
	doc.AddField(document.NewTextFieldWithIndexingOptions("path", nil, []byte(f.rel), bindex.StoreField))

	p := parsed{f: f, doc: doc}
	for k, el := range elems {
		bs, be := a.ByteOffset(el.Start), a.ByteOffset(el.End)
		lo := sort.Search(len(toks), func(i int) bool { return toks[i].Start >= bs })
		hi := sort.Search(len(toks), func(i int) bool { return toks[i].Start >= be })
		// Only the element statistics are read from the elements index
		// (document count, the text field's dictionary, each term's
		// document frequency): no stored field and no frequencies or norms.
		// The element's article is its id's prefix; its XPath and span are
		// stored with the article (elems).
		d := document.NewDocument(elemDocID(a.ID, k))
		d.AddField(document.NewTextFieldCustom("text", nil, text[bs:be], bindex.IndexField|bindex.SkipFreqNorm, fixedAnalyzer(toks[lo:hi])))
		p.elems = append(p.elems, d)
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
		if inline[e.Name] {
			continue
		}
		if _, ok := e.Attr("wordnetid"); ok {
			continue
		}
		if _, ok := e.Attr("href"); ok {
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

// candidates returns the article's candidate elements: elements with one of
// the names that contain some non-blank text, in document order.
func candidates(a *article.Article, names map[string]bool) []Elem {
	var out []Elem
	for i := range a.Elements {
		e := &a.Elements[i]
		if !names[e.Name] || e.End <= e.Start || blank(a.Slice(e.Start, e.End)) {
			continue
		}
		out = append(out, Elem{XPath: e.XPath, Start: e.Start, End: e.End})
	}
	return out
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
		out = append(out, Elem{XPath: f[2], Start: st, End: en})
	}
	return out
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
	p := filepath.Join(dir, manifestName)
	f, err := os.Create(p + ".tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err = errors.Join(err, f.Sync(), f.Close()); err == nil {
		err = os.Rename(p+".tmp", p)
	}
	if err != nil {
		os.Remove(p + ".tmp") // a failed write leaves nothing behind
	}
	return err
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
