package index

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/vellum"

	"github.com/readsim/readsim/internal/ground/durable"
)

// The manifest (what an index knows of its collection) and the index
// folder's life: written beside, swapped in, recovered after a crash.

// manifestVersion changes whenever the index layout changes; an index of
// another version is rebuilt from scratch.
const manifestVersion = 12

const (
	manifestName = "manifest.json"
	articlesDir  = "articles"
)

// manifest is what an index knows of the folder it was built from. Its
// presence in the index folder marks a complete build.
type manifest struct {
	Version  int      `json:"version"`
	Elements []string `json:"elements"`
	// Source is the articles folder, an absolute path (serve reads the
	// articles from it, from whatever folder it runs in).
	Source string `json:"source"`
	// Shards is the number of shards (articles-0 … articles-(N−1)).
	Shards int `json:"shards"`
	// Lang is the language every article was read in (--lang), "" when
	// each article's was detected.
	Lang string `json:"lang,omitempty"`
	// DTDs are the DTD files the articles were read with that the build
	// knows of: the collection's (*.dtd below Source, their paths relative
	// to it) and the --dtd file (its absolute path).
	DTDs  []fileStamp `json:"dtds,omitempty"`
	Built time.Time   `json:"built"`
	// Records are the shards' records files (records.go), in shard order.
	Records []recordsStamp `json:"records"`
	// Totals are the collection statistics summed over the articles:
	// what opening the index for searching reads.
	Totals totals `json:"totals"`
	// Articles are the files indexed, by slash-separated path relative
	// to Source, kept in a file of their own (articlesName), which only
	// builds read: at 500k articles it is 94 MB of JSON, 4 s and 2 GB to
	// decode.
	Articles map[string]manifestEntry `json:"-"`
}

// totals are an index's collection statistics.
type totals struct {
	Articles int            `json:"articles"`
	TitleLen int            `json:"title_len"` // tokens
	TextLen  int            `json:"text_len"`
	Elems    int            `json:"elems"`    // candidate elements
	ElemLen  int            `json:"elem_len"` // their summed length in tokens
	Langs    map[string]int `json:"langs"`    // articles by language
	// LangLens are the title and text lengths in tokens summed by
	// language (fetch normalises an article's field length by its
	// language's average)
	LangLens map[string][2]int `json:"lang_lens"`
}

// sum returns the totals of the articles.
func sum(articles map[string]manifestEntry) totals {
	t := totals{Articles: len(articles), Langs: map[string]int{}, LangLens: map[string][2]int{}}
	for _, e := range articles {
		t.Langs[e.Lang]++
		l := t.LangLens[e.Lang]
		t.LangLens[e.Lang] = [2]int{l[0] + e.TitleLen, l[1] + e.TextLen}
		t.TitleLen += e.TitleLen
		t.TextLen += e.TextLen
		t.Elems += e.Elems
		t.ElemLen += e.ElemLen
	}
	return t
}

// articlesName is the file of the manifest's articles.
const articlesName = "articles.json"

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
	// Rec is the length of the article's record in its shard's records
	// file (records.go), in bytes.
	Rec int64 `json:"rec"`
}

// summarise sets the counts of the index described by m.
func (r *BuildResult) summarise(m *manifest) {
	t := sum(m.Articles)
	r.Articles, r.Elements, r.Langs = t.Articles, t.Elems, t.Langs
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
	if old.Shards != next.Shards {
		return fmt.Sprintf("the number of shards changed from %d to %d", old.Shards, next.Shards)
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
	if why := recordsWaste(old); why != "" {
		return why
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

// recordsWaste says, when the records files of the index described by old
// are more than half the records of articles deleted or changed since it
// was built in full (an update appends records and never takes any out),
// that it must be built again; or "".
func recordsWaste(old *manifest) string {
	var live, size int64
	for _, e := range old.Articles {
		live += e.Rec
	}
	for _, r := range old.Records {
		size += r.Size - int64(len(recordsMagic))
	}
	if size > 2*live+recordsSlack {
		return fmt.Sprintf("its records files hold %d MB, of which %d MB are of articles deleted or changed since", size>>20, (size-live)>>20)
	}
	return ""
}

// recordsSlack is how many bytes of old records an index may hold
// whatever its size.
const recordsSlack = 1 << 20

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

// checkIndex checks that the complete index in dir, described by m, can be
// updated exactly: its element frequencies are readable, its records files
// are those of the manifest and hold its articles' records, and its Bleve
// index holds every article of the manifest.
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
	// a damaged segment would make the update panic in Bleve's own
	// goroutines (its merger), where it cannot be recovered: the segments
	// are checked first, and a damaged index is built again
	if err := checkShards(dir, dir, m.Shards); err != nil {
		return err
	}
	want := make([]uint64, m.Shards)
	live := make([]int64, m.Shards) // the bytes of each shard's articles' records
	for _, e := range m.Articles {
		want[shardOf(e.ID, m.Shards)]++
		live[shardOf(e.ID, m.Shards)] += e.Rec
	}
	for i := range m.Shards {
		if i >= len(m.Records) {
			return fmt.Errorf("%s: %d records files for %d shards", manifestPath(dir), len(m.Records), m.Shards)
		}
		p := recordsPath(shardDir(dir, i))
		rf, err := openRecords(dir, p, m.Records[i])
		if err != nil {
			return err
		}
		rf.close()
		// a file cut short, its stamp made again, passes openRecords:
		// an update would keep records lying past its end
		if size := m.Records[i].Size - int64(len(recordsMagic)); live[i] > size {
			return &DamagedError{Index: dir, File: p, Err: fmt.Errorf("its articles' records are %d bytes, more than its %d", live[i], size)}
		}
	}
	for i := range m.Shards {
		sd := shardDir(dir, i)
		var n uint64
		err := guard(dir, sd, func() error {
			ai, err := bleve.OpenUsing(sd, map[string]interface{}{"read_only": true, "bolt_timeout": "1s"})
			if err != nil {
				return err
			}
			defer ai.Close()
			n, err = ai.DocCount()
			return err
		})
		var de *DamagedError
		if errors.As(err, &de) {
			return err
		} else if err != nil {
			return fmt.Errorf("%s: %w", sd, err)
		}
		if n != want[i] {
			return fmt.Errorf("%s holds %d articles, its manifest %d", sd, n, want[i])
		}
	}
	return nil
}

// validate checks the fields of a manifest of this layout read from the
// folder dir of the index idx, as far as they can be checked without the index: a
// manifest that passes leaves nothing for Open to trust blindly but the
// totals' consistency with the shards (the shards' segments are checked
// by checkShard).
func (m *manifest) validate(idx, dir string) error {
	bad := func(f string, args ...any) error {
		return &DamagedError{Index: idx, File: manifestPath(dir), Err: fmt.Errorf(f, args...)}
	}
	t := m.Totals
	switch {
	case m.Shards < 1 || m.Shards > MaxShards:
		return bad("%d shards, want 1 to %d", m.Shards, MaxShards)
	case len(m.Elements) == 0:
		return bad("no candidate element")
	case !filepath.IsAbs(m.Source):
		return bad("articles folder %q is not an absolute path", m.Source)
	case m.Built.IsZero():
		return bad("no build time")
	case t.Articles < 0 || t.TitleLen < 0 || t.TextLen < 0 || t.Elems < 0 || t.ElemLen < 0:
		return bad("negative totals %+v", t)
	case len(m.Records) != m.Shards:
		return bad("%d records files for %d shards", len(m.Records), m.Shards)
	}
	n := 0
	for lang, c := range t.Langs {
		if c < 0 {
			return bad("%d articles in %q", c, lang)
		}
		n += c
	}
	if t.Langs != nil && n != t.Articles {
		return bad("%d articles, %d by language", t.Articles, n)
	}
	for _, e := range m.Elements {
		if e == "" {
			return bad("an empty candidate element name")
		}
	}
	return nil
}

func readManifest(dir string) (*manifest, error) {
	m, err := readManifestHead(dir)
	if err != nil {
		return nil, err
	}
	p := filepath.Join(dir, articlesName)
	b, err := readSmall(p, maxArticlesJSON)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &m.Articles); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return m, nil
}

// readManifestHead reads the manifest without its articles (Articles is
// nil): what searching needs.
func readManifestHead(dir string) (*manifest, error) {
	b, err := readSmall(filepath.Join(dir, manifestName), maxManifest)
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
	b, err := json.Marshal(m.Articles)
	if err != nil {
		return err
	}
	if err := durable.WriteFile(dir, articlesName, b); err != nil {
		return err
	}
	m.Totals = sum(m.Articles)
	if b, err = json.MarshalIndent(m, "", " "); err != nil {
		return err
	}
	return durable.WriteFile(dir, manifestName, b)
}

// afterFirstRename, when set (tests), is called between swapIn's two
// renames.
var afterFirstRename func()

// swapIn replaces the index folder idx by the complete folder tmp: idx is
// renamed to idx.old-PID, then tmp to idx. A process killed between the two
// renames leaves no idx but two complete indexes beside it, which the next
// build's recoverSwap finds. tmp's entries are synced before the renames
// and the parent folder after them, so that a power loss keeps either the
// old index or the new one whole, never an index without its manifest.
func swapIn(tmp, idx string) error {
	if err := syncTree(tmp); err != nil {
		return err
	}
	oldDir := fmt.Sprintf("%s.old-%d", idx, os.Getpid())
	hadOld := false
	if _, err := os.Stat(idx); err == nil {
		if err := os.Rename(idx, oldDir); err != nil {
			return err
		}
		hadOld = true
	}
	if afterFirstRename != nil {
		afterFirstRename()
	}
	if err := os.Rename(tmp, idx); err != nil {
		if hadOld {
			os.Rename(oldDir, idx)
		}
		return err
	}
	if err := durable.SyncDir(filepath.Dir(idx)); err != nil {
		return err
	}
	if hadOld {
		return os.RemoveAll(oldDir)
	}
	return nil
}

// syncTree syncs every folder of the tree at root, the deepest first, so
// that the entries of the shards' segment files are on disk before the
// swap makes the tree the index (Bleve syncs the files, not the folders
// that list them).
func syncTree(root string) error {
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, p)
		}
		return err
	})
	if err != nil {
		return err
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := syncFolder(dirs[i]); err != nil {
			return err
		}
	}
	return nil
}

// syncFolder is durable.SyncDir (tests watch it).
var syncFolder = durable.SyncDir

// recoverSwap puts back in place the index of a build killed between the
// two renames of swapIn: when idx is missing, the newest complete folder
// beside it (one with a manifest, which a build writes last) becomes idx,
// a finished build (idx.building-PID) before the index it replaced
// (idx.old-PID). The caller holds the lock.
func recoverSwap(idx string) error {
	if _, err := os.Lstat(idx); !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if best := completeLeftover(idx); best != "" {
		if err := os.Rename(best, idx); err != nil {
			return err
		}
		return durable.SyncDir(filepath.Dir(idx))
	}
	return nil
}

// completeLeftover returns the newest complete index folder left beside
// idx by a build killed between its renames, or "": a finished build
// (idx.building-PID with its manifest) before a replaced index
// (idx.old-PID).
func completeLeftover(idx string) string {
	for _, pat := range []string{".building-*", ".old-*"} {
		ms := leftovers(idx, pat)
		best, built := "", time.Time{}
		for _, m := range ms {
			if man, err := readManifestHead(m); err == nil && man.Version == manifestVersion && (best == "" || man.Built.After(built)) {
				best, built = m, man.Built
			}
		}
		if best != "" {
			return best
		}
	}
	return ""
}

// removeLeftovers removes the folders of interrupted builds beside idx. The
// caller holds the lock, so no other build is using them.
func removeLeftovers(idx string) {
	for _, pat := range []string{".building-*", ".old-*"} {
		for _, m := range leftovers(idx, pat) {
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

// manifestPath is the manifest's path in the index folder dir.
func manifestPath(dir string) string { return filepath.Join(dir, manifestName) }
