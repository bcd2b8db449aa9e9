package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/readsim/readsim/internal/ground/durable"
)

// The manifest (what an index knows of its collection) and the index
// folder's life: written beside, swapped in, recovered after a crash.

// Version changes whenever the index layout changes; an index of
// another version is rebuilt from scratch.
const Version = 13

const (
	// ManifestName is the manifest's file in the index folder, written
	// last by a build.
	ManifestName = "manifest.json"
	// ArticlesDir names the shards' folders, ArticlesDir-0 …
	// ArticlesDir-(N−1) (ShardDir).
	ArticlesDir = "articles"
)

// Manifest is what an index knows of the folder it was built from. Its
// presence in the index folder marks a complete build.
type Manifest struct {
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
	DTDs  []FileStamp `json:"dtds,omitempty"`
	Built time.Time   `json:"built"`
	// Records are the shards' records files (index/records), in shard order.
	Records []RecordsStamp `json:"records"`
	// Segments are, per shard, the segment files of its last snapshot, as
	// the build left them (ShardSegments): opening the index finds a
	// segment that is not one of them (copied from another index, its
	// checksum right) damaged. Empty in an index built before they were
	// recorded (nothing is compared).
	Segments [][]SegmentStamp `json:"segments,omitempty"`
	// ElemDF is the stamp of elements.fst (nil in an index built before it
	// was recorded): a truncated or replaced file is damage, found when
	// the index is opened.
	ElemDF *RecordsStamp `json:"elements_fst,omitempty"`
	// Totals are the collection statistics summed over the articles:
	// what opening the index for searching reads.
	Totals Totals `json:"totals"`
	// Articles are the files indexed, by slash-separated path relative
	// to Source, kept in a file of their own (ArticlesName), which only
	// builds read: at 500k articles it is 94 MB of JSON, 4 s and 2 GB to
	// decode.
	Articles map[string]Entry `json:"-"`
}

// Totals are an index's collection statistics.
type Totals struct {
	Articles int            `json:"articles"`
	TitleLen int            `json:"title_len"` // tokens
	TextLen  int            `json:"text_len"`
	AuxLen   int            `json:"aux_len"`  // the auxiliary text's
	Elems    int            `json:"elems"`    // candidate elements
	ElemLen  int            `json:"elem_len"` // their summed length in tokens
	Langs    map[string]int `json:"langs"`    // articles by language
	// LangLens are the title, text and auxiliary text lengths in tokens
	// summed by language (fetch normalises an article's field length by
	// its language's average)
	LangLens map[string][3]int `json:"lang_lens"`
}

// Sum returns the totals of the articles.
func Sum(articles map[string]Entry) Totals {
	t := Totals{Articles: len(articles), Langs: map[string]int{}, LangLens: map[string][3]int{}}
	for _, e := range articles {
		t.Langs[e.Lang]++
		l := t.LangLens[e.Lang]
		t.LangLens[e.Lang] = [3]int{l[0] + e.TitleLen, l[1] + e.TextLen, l[2] + e.AuxLen}
		t.TitleLen += e.TitleLen
		t.TextLen += e.TextLen
		t.AuxLen += e.AuxLen
		t.Elems += e.Elems
		t.ElemLen += e.ElemLen
	}
	return t
}

// ArticlesName is the file of the manifest's articles.
const ArticlesName = "articles.json"

// FileStamp identifies a version of a file, as make does.
type FileStamp struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"` // Unix nanoseconds
}

// Entry identifies one indexed file. A file whose size or
// modification time changed is indexed again (as make decides; no hashing, so
// that an unchanged re-run reads no article).
type Entry struct {
	ID    string `json:"id"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"` // Unix nanoseconds
	Elems int    `json:"elems"` // number of candidate elements
	Lang  string `json:"lang"`  // the article's language (article.Article.Lang)
	// Field lengths in tokens, as Bleve counts them: the title, the text
	// (its body text), the auxiliary text (AuxField), and the candidate
	// elements' lengths summed (see stats.go).
	TitleLen int `json:"title_len"`
	TextLen  int `json:"text_len"`
	AuxLen   int `json:"aux_len"`
	ElemLen  int `json:"elem_len"`
	// Rec is the length of the article's record in its shard's records
	// file (index/records), in bytes.
	Rec int64 `json:"rec"`
}

// Validate checks the fields of a manifest of this layout read from the
// folder dir of the index idx, as far as they can be checked without the index: a
// manifest that passes leaves nothing for Open to trust blindly but the
// totals' consistency with the shards (the shards' segments are checked
// by checkShard).
func (m *Manifest) Validate(idx, dir string) error {
	bad := func(f string, args ...any) error {
		return &DamagedError{Index: idx, File: ManifestPath(dir), Err: fmt.Errorf(f, args...)}
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
	case t.Articles < 0 || t.TitleLen < 0 || t.TextLen < 0 || t.AuxLen < 0 || t.Elems < 0 || t.ElemLen < 0:
		return bad("negative totals %+v", t)
	case len(m.Records) != m.Shards:
		return bad("%d records files for %d shards", len(m.Records), m.Shards)
	case m.Segments != nil && len(m.Segments) != m.Shards:
		return bad("segments of %d shards for %d shards", len(m.Segments), m.Shards)
	case m.ElemDF != nil && m.ElemDF.Size < 0:
		return bad("elements.fst of %d bytes", m.ElemDF.Size)
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

// ReadManifest reads the manifest of the index in dir with its articles
// (ArticlesName): what a build needs.
func ReadManifest(dir string) (*Manifest, error) {
	m, err := ReadManifestHead(dir)
	if err != nil {
		return nil, err
	}
	p := filepath.Join(dir, ArticlesName)
	b, err := ReadSmall(p, MaxArticlesJSON)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &m.Articles); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return m, nil
}

// ReadManifestHead reads the manifest without its articles (Articles is
// nil): what searching needs.
func ReadManifestHead(dir string) (*Manifest, error) {
	b, err := ReadSmall(filepath.Join(dir, ManifestName), MaxManifest)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestName), err)
	}
	return &m, nil
}

// WriteManifest writes m into dir whole or not at all: its articles
// (ArticlesName), then the manifest with its totals summed from them.
func WriteManifest(dir string, m *Manifest) error {
	b, err := json.Marshal(m.Articles)
	if err != nil {
		return err
	}
	if err := durable.WriteFile(dir, ArticlesName, b); err != nil {
		return err
	}
	m.Totals = Sum(m.Articles)
	if b, err = json.MarshalIndent(m, "", " "); err != nil {
		return err
	}
	return durable.WriteFile(dir, ManifestName, b)
}

// AfterFirstRename is nil but in tests, which set it to a function that
// SwapIn calls between its two renames.
var AfterFirstRename func()

// SwapIn replaces the index folder idx by the complete folder tmp: idx is
// renamed to idx.old-PID, then tmp to idx. A process killed between the two
// renames leaves no idx but two complete indexes beside it, which the next
// build's RecoverSwap finds. tmp's entries are synced before the renames
// and the parent folder after them, so that a power loss keeps either the
// old index or the new one whole, never an index without its manifest.
func SwapIn(tmp, idx string) error {
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
	if AfterFirstRename != nil {
		AfterFirstRename()
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

// RecoverSwap puts back in place the index of a build killed between the
// two renames of SwapIn: when idx is missing, the newest complete folder
// beside it (one with a manifest, which a build writes last) becomes idx,
// a finished build (idx.building-PID) before the index it replaced
// (idx.old-PID). The caller holds the lock.
func RecoverSwap(idx string) error {
	if _, err := os.Lstat(idx); !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if best := CompleteLeftover(idx); best != "" {
		if err := os.Rename(best, idx); err != nil {
			return err
		}
		return durable.SyncDir(filepath.Dir(idx))
	}
	return nil
}

// CompleteLeftover returns the newest complete index folder left beside
// idx by a build killed between its renames, or "": a finished build
// (idx.building-PID with its manifest) before a replaced index
// (idx.old-PID).
func CompleteLeftover(idx string) string {
	for _, pat := range []string{".building-*", ".old-*"} {
		ms := leftovers(idx, pat)
		best, built := "", time.Time{}
		for _, m := range ms {
			if man, err := ReadManifestHead(m); err == nil && man.Version == Version && (best == "" || man.Built.After(built)) {
				best, built = m, man.Built
			}
		}
		if best != "" {
			return best
		}
	}
	return ""
}

// RemoveLeftovers removes the folders of interrupted builds beside idx. The
// caller holds the lock, so no other build is using them.
func RemoveLeftovers(idx string) {
	for _, pat := range []string{".building-*", ".old-*"} {
		for _, m := range leftovers(idx, pat) {
			os.RemoveAll(m)
		}
	}
}

// CopyDir copies the folder src to dst. Segment files (.zap), which scorch
// writes once and never changes, are hard-linked when the file system allows
// it: updating one article of a large index does not copy the index.
func CopyDir(src, dst string) error {
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

// ManifestPath is the manifest's path in the index folder dir.
func ManifestPath(dir string) string { return filepath.Join(dir, ManifestName) }

// RecordsStamp is what the manifest says of a shard's records file: its
// size and the CRC-32 (IEEE) of all its bytes.
type RecordsStamp struct {
	Size int64  `json:"size"`
	CRC  uint32 `json:"crc32"`
}

// SegmentStamp is what the manifest says of one segment file of a shard:
// its name in the shard's store folder, its size and the CRC-32 its zap
// footer ends with (that of every byte before it).
type SegmentStamp struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
	CRC  uint32 `json:"crc32"`
}
