package index

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// What a build may write into (docs/safety.md): a build replaces
// the index folder as a whole (swapIn), so it must never be given a
// folder that holds anything else than a readsim index.

// indexEntry matches the names a readsim index folder holds, in any
// layout it has had: the manifest and its articles, the element
// frequencies, the shards (articles-N), and the folders of layout 1
// (articles, elements).
var indexEntry = regexp.MustCompile(`^(manifest\.json|articles\.json|elements\.fst|articles|elements|articles-[0-9]+)$`)

// buildEntry matches the names a build of this layout writes into its
// folder (leftovers: a folder holding a layout-1 "articles" folder is no
// build of this readsim's, and may be someone's articles).
var buildEntry = regexp.MustCompile(`^(manifest\.json|articles\.json|elements\.fst|articles-[0-9]+)$`)

// checkTarget checks, before a build does any work, that idx may be
// written: a path that does not exist, an empty folder, or a folder that
// holds a readsim index (isIndexManifest; or, its manifest damaged or
// lost, only the names of an index and a first shard that is a Bleve
// index: isShard) and nothing else; and that idx neither is, holds nor
// lies inside the articles folder. Anything else is an InputError naming
// the path and what is in it; no option overrides it.
func checkTarget(idx, articles string) error {
	ri, err := resolve(idx)
	if err != nil {
		return &InputError{fmt.Sprintf("index folder %s: %v", idx, err)}
	}
	ra, err := resolve(articles)
	if err != nil {
		return &InputError{fmt.Sprintf("articles folder %s: %v", articles, err)}
	}
	switch {
	case ri == ra:
		return &InputError{fmt.Sprintf("index folder %s is the articles folder: building would replace the articles by the index; give another --index", idx)}
	case within(ra, ri):
		return &InputError{fmt.Sprintf("index folder %s holds the articles folder %s: building would replace the articles by the index; give another --index", idx, articles)}
	case within(ri, ra):
		return &InputError{fmt.Sprintf("index folder %s is inside the articles folder %s: give an --index outside it", idx, articles)}
	}
	st, err := os.Lstat(idx)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return &InputError{fmt.Sprintf("index folder %s: %v", idx, unwrap(err))}
	case st.Mode()&fs.ModeSymlink != 0:
		return &InputError{fmt.Sprintf("index folder %s is a symbolic link (to %s): give the folder itself", idx, ri)}
	case st.Mode().IsRegular():
		return &InputError{fmt.Sprintf("index folder %s is a file (%d bytes), not a readsim index: give another --index", idx, st.Size())}
	case !st.IsDir():
		return &InputError{fmt.Sprintf("index folder %s is not a folder (%s), not a readsim index: give another --index", idx, st.Mode().Type())}
	}
	ents, err := os.ReadDir(idx)
	if err != nil {
		return &InputError{fmt.Sprintf("index folder %s: %v", idx, unwrap(err))}
	}
	if len(ents) == 0 {
		return nil
	}
	held := describeEntries(ents)
	var foreign []string
	for _, e := range ents {
		if !indexEntry.MatchString(e.Name()) {
			foreign = append(foreign, e.Name())
		}
	}
	b, err := readSmall(manifestPath(idx), maxManifest)
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return &InputError{fmt.Sprintf("index folder %s: %v", idx, err)}
	case err == nil && isIndexManifest(b):
	case len(foreign) == 0 && isShard(shardDir(idx, 0)):
		// a readsim index whose manifest is damaged (or was lost): its
		// names are all an index's and its first shard is a Bleve index
	case errors.Is(err, fs.ErrNotExist):
		return &InputError{fmt.Sprintf("index folder %s holds %s and is not a readsim index (no %s): give an empty or new folder", idx, held, manifestName)}
	default:
		return &InputError{fmt.Sprintf("index folder %s holds %s and is not a readsim index (its %s is not a readsim index's manifest): give an empty or new folder", idx, held, manifestName)}
	}
	if len(foreign) > 0 {
		sort.Strings(foreign)
		more := ""
		if len(foreign) > 5 {
			more = fmt.Sprintf(" and %d more", len(foreign)-5)
			foreign = foreign[:5]
		}
		return &InputError{fmt.Sprintf("index folder %s is a readsim index but also holds %s%s, which readsim did not write: move them out first", idx, strings.Join(foreign, ", "), more)}
	}
	return nil
}

// isShard reports whether dir looks like a shard of a readsim index: a
// scorch index's index_meta.json.
func isShard(dir string) bool {
	b, err := readSmall(filepath.Join(dir, "index_meta.json"), maxManifest)
	return err == nil && strings.Contains(string(b), `"index_type":"scorch"`)
}

// describeEntries says what a folder's entries are: "12 files", "1 file
// and 2 folders".
func describeEntries(ents []fs.DirEntry) string {
	files, dirs := 0, 0
	for _, e := range ents {
		if e.IsDir() {
			dirs++
		} else {
			files++
		}
	}
	plural := func(n int, what string) string {
		if n == 1 {
			return "1 " + what
		}
		return fmt.Sprintf("%d %ss", n, what)
	}
	switch {
	case dirs == 0:
		return plural(files, "file")
	case files == 0:
		return plural(dirs, "folder")
	}
	return plural(files, "file") + " and " + plural(dirs, "folder")
}

// isIndexManifest reports whether b is the manifest of a readsim index,
// of any layout: a JSON object with a positive version, the articles
// folder it was built from (an absolute path), its candidate elements and
// when it was built. A manifest.json of anything else (a web app's, say)
// is not one.
func isIndexManifest(b []byte) bool {
	var m struct {
		Version  *int       `json:"version"`
		Source   *string    `json:"source"`
		Elements []string   `json:"elements"`
		Built    *time.Time `json:"built"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return false
	}
	return m.Version != nil && *m.Version > 0 && m.Source != nil && filepath.IsAbs(*m.Source) &&
		len(m.Elements) > 0 && m.Built != nil && !m.Built.IsZero()
}

// resolve returns p as an absolute path with its symbolic links resolved,
// as far as it exists (a path that does not exist yet is resolved through
// its nearest existing parent).
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	for {
		r, err := filepath.EvalSymlinks(abs)
		if err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", unwrap(err)
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return filepath.Join(append([]string{abs}, rest...)...), nil
		}
		rest = append([]string{filepath.Base(abs)}, rest...)
		abs = parent
	}
}

// within reports whether the clean absolute path p lies strictly inside
// the folder dir.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// leftovers returns the folders beside idx that a build of idx left
// (pat is ".building-*" or ".old-*"): a process id after the dash, and
// only the names a build writes inside (buildEntry; a folder of the
// user's that happens to be called idx.old-photos, or idx.old-1 holding
// other files, is not readsim's to remove).
func leftovers(idx, pat string) []string {
	ms, _ := filepath.Glob(idx + pat)
	out := ms[:0]
	for _, m := range ms {
		pid := m[len(idx)+len(pat)-1:]
		if pid == "" || strings.Trim(pid, "0123456789") != "" {
			continue
		}
		if st, err := os.Lstat(m); err != nil || !st.IsDir() {
			continue
		}
		ents, err := os.ReadDir(m)
		if err != nil {
			continue
		}
		ours := true
		for _, e := range ents {
			ours = ours && buildEntry.MatchString(e.Name())
		}
		if ours {
			out = append(out, m)
		}
	}
	return out
}

// readSmall reads the file p, which must be a regular file (a FIFO would
// block the read, a device never end) of at most limit bytes.
func readSmall(p string, limit int64) ([]byte, error) {
	st, err := os.Stat(p)
	switch {
	case err != nil:
		return nil, err
	case !st.Mode().IsRegular():
		return nil, &fs.PathError{Op: "read", Path: p, Err: errors.New("not a regular file")}
	case st.Size() > limit:
		return nil, &fs.PathError{Op: "read", Path: p, Err: fmt.Errorf("%d bytes, more than the %d a readsim index's file of its kind holds", st.Size(), limit)}
	}
	return os.ReadFile(p)
}

// maxManifest bounds a manifest.json and an index_meta.json: a
// manifest without its articles (articles.json) is a few kilobytes.
const maxManifest = 16 << 20

// maxArticlesJSON bounds the index's larger files, articles.json and
// elements.fst (94 MB and less at 500k articles).
const maxArticlesJSON = 8 << 30
