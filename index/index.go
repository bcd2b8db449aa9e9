package index

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"
	bindex "github.com/blevesearch/bleve_index_api"
	"github.com/blevesearch/vellum"
	vregexp "github.com/blevesearch/vellum/regexp"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/article/wikimarkup"
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
	shards []bleve.Index
	ranks  [][]uint32 // per shard, the rank of each document's id (idRanks)
	// docLangs are, per shard, each document's language as an index of
	// langAvg (docLangsOf); nil when the index has one language
	docLangs [][]uint8
	// langAvg are the title's and the text's average lengths in tokens
	// (rounded up, as Bleve rounds them) of each language's articles,
	// in the order of langNames
	langAvg   [][2]float64
	langNames []string
	elemDF    *vellum.FST
	man       *manifest
	elemN     float64
	elemAvg   float64
	articles  int
	langs     map[string]int // articles by language
	bm25      *bsearch.BM25Stats
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
		if left := completeLeftover(dir); left != "" {
			dir = left
		}
	}
	fi, _ := os.Stat(manifestPath(dir))
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
		return nil, &InputError{fmt.Sprintf("index %s: %v (build it with readsim index)", name, errors.Unwrap(err))}
	} else if !st.IsDir() {
		return nil, &InputError{fmt.Sprintf("index %s: not a folder", name)}
	}
	if b.fi == nil {
		return nil, &InputError{fmt.Sprintf("index %s: not a complete readsim index (no %s): an interrupted build, or not an index; run readsim index again", dir, manifestName)}
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
	m, err := readManifestHead(dir)
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se) || errors.As(err, &te) || errors.Is(err, io.ErrUnexpectedEOF):
		return failed(&DamagedError{Index: name, File: manifestPath(dir), Err: errors.Unwrap(err)})
	case err != nil:
		return failed(&InputError{fmt.Sprintf("index %s: %v", dir, err)})
	}
	if m.Version != manifestVersion {
		return failed(&InputError{fmt.Sprintf("index %s: built by another version of readsim (layout %d, want %d); rebuild with readsim index", dir, m.Version, manifestVersion)})
	}
	if err := m.validate(name, dir); err != nil {
		return failed(err)
	}
	s.man = m
	hook("manifest")
	if err := guard(name, filepath.Join(dir, elemDFName), func() (err error) {
		s.elemDF, err = loadElemDF(dir)
		return err
	}); err != nil {
		var de *DamagedError
		if errors.As(err, &de) {
			return failed(err)
		}
		return failed(&InputError{fmt.Sprintf("index %s: %v; run readsim index again (it rebuilds an index it cannot update)", dir, err)})
	}
	hook("elements")
	if err := checkShards(name, dir, m.Shards); err != nil {
		return failed(err)
	}
	cfg := map[string]interface{}{"read_only": true, "bolt_timeout": "1s"}
	for i := range max(m.Shards, 1) {
		var ai bleve.Index
		sd := shardDir(dir, i)
		err := guard(name, sd, func() (err error) {
			ai, err = bleve.OpenUsing(sd, cfg)
			return err
		})
		if err != nil {
			var de *DamagedError
			if errors.As(err, &de) {
				return failed(err)
			}
			if strings.Contains(err.Error(), "timeout") {
				return failed(fmt.Errorf("index %s: %w (its files are locked); try again when it has finished", dir, ErrLocked))
			}
			return failed(fmt.Errorf("index %s: %w", dir, err))
		}
		s.shards = append(s.shards, ai)
		hook("shard")
	}
	s.ranks = make([][]uint32, len(s.shards))
	s.langNames, s.langAvg = langAverages(s.man.Totals)
	if len(s.langNames) > 1 {
		s.docLangs = make([][]uint8, len(s.shards))
	}
	if err := guard(name, dir, func() error {
		return parallel(len(s.shards), func(i int) error {
			r, err := shardReader(s.shards[i])
			if err != nil {
				return err
			}
			defer r.Close()
			if s.ranks[i], err = idRanks(r); err != nil {
				return err
			}
			if len(s.langNames) > 1 {
				s.docLangs[i], err = docLangsOf(r, s.langNames)
			}
			return err
		})
	}); err != nil {
		var de *DamagedError
		if errors.As(err, &de) {
			return failed(err)
		}
		return failed(fmt.Errorf("index %s: %w", dir, err))
	}
	s.loadStats()
	return s, nil
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
	x.bm25 = &bsearch.BM25Stats{
		DocCount:         float64(x.articles),
		FieldCardinality: map[string]int{"title": t.TitleLen, "text": t.TextLen},
	}
}

// closeShards closes the snapshot's Bleve indexes. The slice itself is
// left as it is: Shards and the other counts read it without a reference.
func (x *snapshot) closeShards() error {
	var errs []error
	for _, s := range x.shards {
		errs = append(errs, s.Close())
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
	err := guard(x.dir, s.stamp.dir, func() (err error) {
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
		return len(s.shards)
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

// Options tune fetch and browse.
type Options struct {
	// TitleBoost and TextBoost weight the title and text fields in fetch;
	// zero means the default (2 and 1).
	TitleBoost, TextBoost float64
	// Threshold is browse's relative threshold (BrowseOptions).
	Threshold float64
	// SnippetWidth is the length of Search's snippets in characters (0:
	// DefaultSnippetWidth; half as many for an article in Chinese, Japanese
	// or Korean, whose characters are twice as wide).
	SnippetWidth int
}

// NewOptions returns the Options of boosts and a threshold as a user gives
// them (readsim search and run): a zero boost switches its field off
// (unlike Options', which is the default). The boosts must not be negative
// nor both zero, the threshold must be in (0, 1]; the errors name the
// flags that give them.
func NewOptions(titleBoost, textBoost, threshold float64) (Options, error) {
	if threshold <= 0 || threshold > 1 {
		return Options{}, errors.New("--threshold must be in (0, 1]")
	}
	if titleBoost < 0 || textBoost < 0 || titleBoost+textBoost == 0 {
		return Options{}, errors.New("--title-boost and --text-boost must be non-negative, not both zero")
	}
	off := func(b float64) float64 {
		if b == 0 {
			return offBoost
		}
		return b
	}
	return Options{TitleBoost: off(titleBoost), TextBoost: off(textBoost), Threshold: threshold}, nil
}

// offBoost is the boost of a field switched off: Options' zero is the
// default, and a boost this small leaves the field no weight.
const offBoost = 1e-9

// DefaultSnippetWidth is the length of a result's snippet in characters.
const DefaultSnippetWidth = 180

// snippetWidth returns the snippet width for an article in lang.
func (o Options) snippetWidth(lang string) int {
	w := o.SnippetWidth
	if w <= 0 {
		w = DefaultSnippetWidth
	}
	if article.IsCJK(lang) {
		w = (w + 1) / 2
	}
	return w
}

func (o Options) boosts() (float64, float64) {
	tb, xb := o.TitleBoost, o.TextBoost
	if tb == 0 {
		tb = 2
	}
	if xb == 0 {
		xb = 1
	}
	return tb, xb
}

// Hit is a fetched article.
type Hit struct {
	ID    string
	Title string
	Lang  string // the article's language: "en", "zh", "ja", "ko"…
	Score float64
}

// Query is an analyzed query with the element statistics of its terms,
// ready for fetch and browse.
type Query struct {
	Text  string
	Terms []Term
	// Title, for a query without terms (only stop words: "The Who", "It"),
	// is the query as titles are keyed (TitleKey): fetch finds the
	// articles with that title.
	Title string
	stats ElemStats
	gen   uint64 // the snapshot whose statistics stats are
}

// Prepare analyzes a query with the analysis of every language of the
// index (QueryTerms) and looks up its terms' element statistics. A query
// without terms is a title search (Query.Title) when some article's title
// is the query (TitleKey equal), else ErrNoTerms.
func (x *Index) Prepare(q string) (*Query, error) {
	return withSnapshot(x, func(s *snapshot) (*Query, error) { return s.prepare(q) })
}

// prepare analyzes q with the analysis of every language of the
// snapshot's articles and looks up its terms' element statistics.
func (x *snapshot) prepare(q string) (*Query, error) {
	langs := make([]string, 0, len(x.langs))
	for l := range x.langs {
		langs = append(langs, l)
	}
	terms := QueryTerms(q, langs...)
	if len(terms) == 0 {
		key := TitleKey(q)
		if key == "" {
			return nil, ErrNoTerms
		}
		n, err := x.titleCount(key)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, ErrNoTerms
		}
		return x.prepared(&Query{Text: q, Title: key})
	}
	return x.prepared(&Query{Text: q, Terms: terms})
}

// titleField is the field that holds each article's title keys
// (titleKeys), each one term (indexed, not stored).
const titleField = "titlekey"

// TitleKey is how titles and term-less queries are compared: lower case,
// runs of white space one space, no white space at either end. A query
// of only stop words ("The Who", "It", "This Is It") finds the articles
// whose title has its key (titleKeys).
func TitleKey(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// titleKeys are the keys a title search finds an article by: its title's
// TitleKey and, for a title ending in a Wikipedia qualifier in
// parentheses ("It (novel)", "This Is It (song)"), the key without it
// ("it"). An article whose title is the query exactly has one key, its
// field one term long; one found without its qualifier has two: BM25's
// length normalisation ranks the exact title first.
func titleKeys(title string) []string {
	key := TitleKey(title)
	if key == "" {
		return nil
	}
	keys := []string{key}
	if i := strings.LastIndex(key, " ("); i > 0 && strings.HasSuffix(key, ")") {
		keys = append(keys, key[:i])
	}
	return keys
}

// shardReader opens a reader of a shard's Bleve index; close it.
func shardReader(sh bleve.Index) (bindex.IndexReader, error) {
	adv, err := sh.Advanced()
	if err != nil {
		return nil, err
	}
	return adv.Reader()
}

// titleCount is the number of articles whose TitleKey is key.
func (x *snapshot) titleCount(key string) (uint64, error) {
	var n uint64
	for _, sh := range x.shards {
		r, err := shardReader(sh)
		if err != nil {
			return 0, err
		}
		tfr, err := r.TermFieldReader(context.Background(), []byte(key), titleField, false, false, false)
		if err == nil {
			n += tfr.Count()
			tfr.Close()
		}
		r.Close()
		if err != nil {
			return 0, err
		}
	}
	return n, nil
}

// prepared returns q with the snapshot's element statistics: q itself when
// it has them, else a copy.
func (x *snapshot) prepared(q *Query) (*Query, error) {
	if q.gen == x.gen {
		return q, nil
	}
	pq := &Query{Text: q.Text, Terms: q.Terms, Title: q.Title, gen: x.gen, stats: ElemStats{N: x.elemN, AvgLen: x.elemAvg, DF: map[string]float64{}}}
	for _, t := range q.Terms {
		df, err := x.elemDFOf(t)
		if err != nil {
			return nil, fmt.Errorf("index: %s: %w; run readsim index --rebuild", elemDFName, err)
		}
		pq.stats.DF[t.Text] = df
	}
	return pq, nil
}

// elemDFOf returns the element frequency of a query term: the number of
// candidate elements holding it. A character term's is the sum of its
// terms' (charTermRegexp), at most the number of elements: an upper bound,
// since an element holding two of its bigrams counts twice.
func (x *snapshot) elemDFOf(t Term) (float64, error) {
	if !t.Char {
		df, _, err := x.elemDF.Get([]byte(t.Text))
		return float64(df), err
	}
	re, err := vregexp.New(charTermRegexp(t.Text))
	if err != nil {
		return 0, err
	}
	it, err := x.elemDF.Search(re, nil, nil)
	var sum float64
	for err == nil {
		_, df := it.Current()
		sum += float64(df)
		err = it.Next()
	}
	if err != vellum.ErrIteratorDone {
		return 0, err
	}
	return math.Min(sum, x.elemN), nil
}

// marker returns the characters of an article's token that match a term
// of q: the whole token when it equals a term, the character of a
// character term it holds (the first, when it holds two), or ok false.
func (q *Query) marker() func(t token) (start, end int, ok bool) {
	want := map[string]bool{}
	var chars []string
	for _, t := range q.Terms {
		want[t.Text] = true
		if t.Char {
			chars = append(chars, t.Text)
		}
	}
	return func(t token) (int, int, bool) {
		if want[t.term] {
			return t.start, t.end, true
		}
		for _, c := range chars {
			if i := strings.Index(t.term, c); i >= 0 {
				at := t.start + utf8.RuneCountInString(t.term[:i])
				return at, at + 1, true
			}
		}
		return 0, 0, false
	}
}

// Fetch returns the k best articles for q by BM25 over title and text,
// searching the shards in parallel with the collection's statistics (see
// fetch.go). Ties are broken by article id, so rankings are reproducible.
// A cancelled context stops the search.
func (x *Index) Fetch(ctx context.Context, q *Query, k int, opt Options) ([]Hit, error) {
	if k <= 0 {
		return nil, nil
	}
	return withSnapshot(x, func(s *snapshot) ([]Hit, error) {
		f, err := s.fetch(ctx, q, k, opt, false)
		if err != nil {
			return nil, err
		}
		defer f.close()
		return f.hits, nil
	})
}

// StoredArticle is an article as the index stores it.
type StoredArticle struct {
	ID, Title, Path string
	// Lang is the article's language ("en", "zh", "ja", "ko"…), which
	// decides how its text is analysed.
	Lang  string
	Text  string
	Len   int // characters
	Elems []Elem
	// breaks are the word breaks between block elements, characters,
	// as stored: decoded only when the text is analysed again (tokens)
	breaks string
	// quiet are the spans a page does not show as they stand (start, end
	// pairs, characters): the header's metadata, leftover wiki markup and
	// templates (unshown); they are not analysed, and snippets leave them
	// out
	quiet []int
	toks  []token
	// elemLens are the lengths of Elems in tokens (elemLensField)
	elemLens []int
	// match are the tokens holding a query's terms (setMatches)
	match *matched
	ci    *charIndex // of Text, made once (chars)
}

// chars returns the character index of the article's text.
func (d *StoredArticle) chars() *charIndex {
	if d.ci == nil || d.ci.text != d.Text {
		d.ci = newCharIndex(d.Text)
	}
	return d.ci
}

// tokens returns the article's tokens, analysed as the build analysed
// them (computed once).
func (d *StoredArticle) tokens() []token {
	if d.toks == nil {
		d.toks = tokenize(d.Text, decodeInts(d.breaks), d.quiet, d.Lang)
	}
	return d.toks
}

// Article loads an article from the index.
func (x *Index) Article(id string) (*StoredArticle, error) {
	return withSnapshot(x, func(s *snapshot) (*StoredArticle, error) { return s.article(id) })
}

func (x *snapshot) article(id string) (*StoredArticle, error) {
	d, err := x.shards[shardOf(id, len(x.shards))].Document(id)
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, fmt.Errorf("index: no article %s", id)
	}
	return decodeDoc(id, d), nil
}

// decodeDoc reads an article from its stored Bleve document.
func decodeDoc(id string, d bindex.Document) *StoredArticle {
	out := &StoredArticle{ID: id}
	d.VisitFields(func(f bindex.Field) { out.setField(f.Name(), f.Value()) })
	out.Len = utf8.RuneCountInString(out.Text)
	return out
}

// setField sets the article's field of a stored field (name, value).
func (out *StoredArticle) setField(name string, val []byte) {
	// each field copied as it is kept (val is valid during the call only):
	// fields the article does not keep are not copied
	switch name {
	case "title":
		out.Title = string(val)
	case "text":
		out.Text = string(val)
	case "elems":
		out.Elems = decodeElems(string(val))
	case "breaks":
		out.breaks = string(val)
	case "quiet":
		out.quiet = decodeInts(string(val))
	case elemLensField:
		out.elemLens = decodeInts(string(val))
	case "path":
		out.Path = string(val)
	case "lang":
		out.Lang = string(val)
	}
}

// docElementCounts counts the terms of a stored article's candidate elements
// as parseOne counted them when the article was indexed.
func docElementCounts(d *StoredArticle) termCounts {
	toks := d.tokens() // every token: the build's counts
	ids := newInternTerms(len(toks))
	starts := make([]int, len(toks))
	for i, t := range toks {
		ids.addBytes([]byte(t.term))
		starts[i] = t.start
	}
	spans := make([][2]int, len(d.Elems))
	for k, el := range d.Elems {
		spans[k] = [2]int{el.Start, el.End}
	}
	df, _ := elementCounts(ids.ids, len(ids.terms), starts, spans)
	return termCounts{ids.terms, df}.nonZero()
}

// Browse returns the best passages of the article d for q (see browse).
// The occurrences of q's terms in d are read from the index (vectors.go);
// an article the index does not have is analysed again.
func (x *Index) Browse(d *StoredArticle, q *Query, opt Options) []Passage {
	if len(q.Terms) > 0 {
		withSnapshot(x, func(s *snapshot) (struct{}, error) {
			return struct{}{}, s.matchesOf(context.Background(), d, q.Terms)
		})
	}
	return browseDoc(d, q, opt)
}

// matchesOf reads the occurrences of terms in the article d from its shard.
func (x *snapshot) matchesOf(ctx context.Context, d *StoredArticle, terms []Term) error {
	r, err := shardReader(x.shards[shardOf(d.ID, len(x.shards))])
	if err != nil {
		return err
	}
	defer r.Close()
	id, err := r.InternalID(d.ID)
	if err != nil || id == nil {
		return err
	}
	return loadMatches(ctx, newStoredReader(r), []*StoredArticle{d}, []uint64{binary.BigEndian.Uint64(id)}, terms)
}

// Passages is one article page's retrieval: the best passages of article
// id for the query q (Prepare, Article and Browse in one), all from one
// build of the index, even when Reload switches meanwhile. A query without
// terms is ErrNoTerms; an article the index does not have has no passages.
// A cancelled context stops it.
func (x *Index) Passages(ctx context.Context, q, id string, opt Options) ([]Passage, error) {
	return withSnapshot(x, func(s *snapshot) ([]Passage, error) { return s.passages(ctx, q, id, opt) })
}

// passages is Passages on the snapshot x.
func (x *snapshot) passages(ctx context.Context, q, id string, opt Options) ([]Passage, error) {
	pq, err := x.prepare(q)
	if err != nil {
		return nil, err
	}
	if len(pq.Terms) == 0 {
		return nil, nil // a title search: nothing in the text to browse
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d, err := x.shards[shardOf(id, len(x.shards))].Document(id)
	if err != nil || d == nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sd := decodeDoc(id, d)
	if err := x.matchesOf(ctx, sd, pq.Terms); err != nil {
		return nil, err
	}
	return browseDoc(sd, pq, opt), nil
}

func browseDoc(d *StoredArticle, q *Query, opt Options) []Passage {
	if len(q.Terms) == 0 {
		return nil // no term to analyse the article for
	}
	return browse(d.Text, d.queryTokens(q.Terms), d.lens(), d.Elems, q.Terms, &q.stats, BrowseOptions{Threshold: opt.Threshold})
}

// SearchResult is a fetched article with its passages and a snippet.
type SearchResult struct {
	Hit
	Doc      *StoredArticle
	Passages []Passage
	// Snippet is about Options.SnippetWidth characters around the first
	// query term of the first passage (when it has none, of the article
	// from its first candidate element on: a title search's hits, an
	// article matching only in its title or categories).
	Snippet string
}

// Search is one request's retrieval: it fetches the k best articles for q
// and browses each, returning their passages and snippets (the context is
// passed to Bleve: a cancelled request stops the search). The whole
// request uses one build of the index, even when Reload switches meanwhile.
func (x *Index) Search(ctx context.Context, q *Query, k int, opt Options) ([]SearchResult, error) {
	if k <= 0 {
		return nil, nil
	}
	return withSnapshot(x, func(s *snapshot) ([]SearchResult, error) { return s.search(ctx, q, k, opt) })
}

// search is Search on the snapshot x.
func (x *snapshot) search(ctx context.Context, q *Query, k int, opt Options) ([]SearchResult, error) {
	q, err := x.prepared(q)
	if err != nil {
		return nil, err
	}
	f, err := x.fetch(ctx, q, k, opt, true)
	if err != nil {
		return nil, err
	}
	defer f.close()
	docs := f.docs
	out := make([]SearchResult, len(f.hits))
	for i, h := range f.hits {
		d := docs[i]
		r := SearchResult{Hit: h, Doc: d, Passages: browseDoc(d, q, opt)}
		p := Passage{Span: effort.Span{Start: 0, End: d.Len}}
		if len(d.Elems) > 0 {
			// from the first candidate element on: not the header's
			// title, ids and categories again
			p.Start = d.Elems[0].Start
		}
		if len(r.Passages) > 0 {
			p = r.Passages[0]
		}
		r.Snippet = Snippet(d, p, q, opt.snippetWidth(d.Lang))
		out[i] = r
	}
	return out, nil
}

// Snippet returns about width characters of the passage around its first
// query term, with the words matching a query term written as [word]:
// matched tokens that overlap or touch are marked as one, so the bigrams
// 意大 and 大利 of 意大利 mark [意大利]; a character term marks its
// character alone (塔 in 电视塔 is 电视[塔]). An ellipsis marks a cut. The cuts fall
// between characters, never inside one; runs of white space become one
// space.
func Snippet(d *StoredArticle, p Passage, q *Query, width int) string {
	toks := d.queryTokens(q.Terms)
	mark := q.marker()
	lo := sort.Search(len(toks), func(i int) bool { return toks[i].start >= p.Start })
	first := -1
	for i := lo; i < len(toks) && toks[i].start < p.End; i++ {
		if at, _, ok := mark(toks[i]); ok {
			first = at
			break
		}
	}
	s := p.Start
	if first >= 0 && first-width/4 > s {
		s = first - width/4
	}
	e := min(s+width, p.End)
	if e-s < width {
		s = max(p.Start, e-width)
	}
	// what a page does not show (metadata, leftover wiki markup,
	// infoboxes: quiet) is left out; a window that starts in it starts
	// after it
	ci := d.chars()
	for {
		k := sort.Search(len(d.quiet)/2, func(k int) bool { return d.quiet[2*k+1] > s })
		if k == len(d.quiet)/2 || d.quiet[2*k] > s || d.quiet[2*k+1] >= p.End {
			break
		}
		e = min(e+d.quiet[2*k+1]-s, p.End)
		s = d.quiet[2*k+1]
		for s < e && strings.TrimSpace(ci.slice(s, s+1)) == "" {
			s++
		}
	}
	cut := s > p.Start && strings.TrimSpace(shownText(ci, d.quiet, p.Start, s)) != ""
	// the marked ranges, merged
	var marks [][2]int
	for i := sort.Search(len(toks), func(i int) bool { return toks[i].start >= s }); i < len(toks) && toks[i].start < e; i++ {
		ms, me, ok := mark(toks[i])
		if !ok || me > e {
			continue
		}
		if n := len(marks); n > 0 && ms <= marks[n-1][1] {
			marks[n-1][1] = max(marks[n-1][1], me)
			continue
		}
		marks = append(marks, [2]int{ms, me})
	}
	var b strings.Builder
	if cut {
		b.WriteString("…")
	}
	at := s
	for _, m := range marks {
		b.WriteString(shownText(ci, d.quiet, at, m[0]))
		b.WriteString("[" + shownText(ci, d.quiet, m[0], m[1]) + "]")
		at = m[1]
	}
	b.WriteString(shownText(ci, d.quiet, at, e))
	if e < p.End && strings.TrimSpace(shownText(ci, d.quiet, e, p.End)) != "" {
		b.WriteString("…")
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// shownText returns the characters [from, to) of ci's text as a page
// shows them: the quiet spans left out, but for a doubly escaped entity
// ("&gt;"), which is its character (wikimarkup.Entity).
func shownText(ci *charIndex, quiet []int, from, to int) string {
	k := sort.Search(len(quiet)/2, func(k int) bool { return quiet[2*k+1] > from })
	if k == len(quiet)/2 || quiet[2*k] >= to {
		return ci.slice(from, to)
	}
	var b strings.Builder
	for at := from; at < to; {
		if k < len(quiet)/2 && quiet[2*k] <= at {
			qe := min(quiet[2*k+1], to)
			if ch, ok := wikimarkup.Entity(ci.slice(quiet[2*k], quiet[2*k+1])); ok && at == quiet[2*k] && qe == quiet[2*k+1] {
				b.WriteString(ch)
			}
			at = qe
			k++
			continue
		}
		next := to
		if k < len(quiet)/2 {
			next = min(next, quiet[2*k])
		}
		b.WriteString(ci.slice(at, next))
		at = next
	}
	return b.String()
}
