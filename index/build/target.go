package build

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/readsim/readsim/index/store"
)

// What a build may write into (docs/safety.md): a build replaces
// the index folder as a whole (SwapIn), so it must never be given a
// folder that holds anything else than a readsim index.

// indexEntry matches the names a readsim index folder holds, in any
// layout it has had: the manifest and its articles, the element
// frequencies, the shards (articles-N), and the folders of layout 1
// (articles, elements).
var indexEntry = regexp.MustCompile(`^(manifest\.json|articles\.json|elements\.fst|articles|elements|articles-[0-9]+)$`)

// checkTarget checks, before a build does any work, that idx may be
// written: a path that does not exist, an empty folder, or a folder that
// holds a readsim index (IsIndexManifest; or, its manifest damaged or
// lost, only the names of an index and a first shard that is a Bleve
// index: isShard) and nothing else; and that idx neither is, holds nor
// lies inside the articles folder. Anything else is an InputError naming
// the path and what is in it; no option overrides it.
func checkTarget(idx, articles string) error {
	ri, err := resolve(idx)
	if err != nil {
		return &store.InputError{Msg: fmt.Sprintf("index folder %s: %v", idx, err)}
	}
	ra, err := resolve(articles)
	if err != nil {
		return &store.InputError{Msg: fmt.Sprintf("articles folder %s: %v", articles, err)}
	}
	switch {
	case ri == ra:
		return &store.InputError{Msg: fmt.Sprintf("index folder %s is the articles folder: building would replace the articles by the index; give another --index", idx)}
	case within(ra, ri):
		return &store.InputError{Msg: fmt.Sprintf("index folder %s holds the articles folder %s: building would replace the articles by the index; give another --index", idx, articles)}
	case within(ri, ra):
		return &store.InputError{Msg: fmt.Sprintf("index folder %s is inside the articles folder %s: give an --index outside it", idx, articles)}
	}
	st, err := os.Lstat(idx)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return &store.InputError{Msg: fmt.Sprintf("index folder %s: %v", idx, store.Unwrap(err))}
	case st.Mode()&fs.ModeSymlink != 0:
		return &store.InputError{Msg: fmt.Sprintf("index folder %s is a symbolic link (to %s): give the folder itself", idx, ri)}
	case st.Mode().IsRegular():
		return &store.InputError{Msg: fmt.Sprintf("index folder %s is a file (%d bytes), not a readsim index: give another --index", idx, st.Size())}
	case !st.IsDir():
		return &store.InputError{Msg: fmt.Sprintf("index folder %s is not a folder (%s), not a readsim index: give another --index", idx, st.Mode().Type())}
	}
	ents, err := os.ReadDir(idx)
	if err != nil {
		return &store.InputError{Msg: fmt.Sprintf("index folder %s: %v", idx, store.Unwrap(err))}
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
	b, err := store.ReadSmall(store.ManifestPath(idx), store.MaxManifest)
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return &store.InputError{Msg: fmt.Sprintf("index folder %s: %v", idx, err)}
	case err == nil && store.IsIndexManifest(b):
	case len(foreign) == 0 && isShard(store.ShardDir(idx, 0)):
		// a readsim index whose manifest is damaged (or was lost): its
		// names are all an index's and its first shard is a Bleve index
	case errors.Is(err, fs.ErrNotExist):
		return &store.InputError{Msg: fmt.Sprintf("index folder %s holds %s and is not a readsim index (no %s): give an empty or new folder", idx, held, store.ManifestName)}
	default:
		return &store.InputError{Msg: fmt.Sprintf("index folder %s holds %s and is not a readsim index (its %s is not a readsim index's manifest): give an empty or new folder", idx, held, store.ManifestName)}
	}
	if len(foreign) > 0 {
		sort.Strings(foreign)
		more := ""
		if len(foreign) > 5 {
			more = fmt.Sprintf(" and %d more", len(foreign)-5)
			foreign = foreign[:5]
		}
		return &store.InputError{Msg: fmt.Sprintf("index folder %s is a readsim index but also holds %s%s, which readsim did not write: move them out first", idx, strings.Join(foreign, ", "), more)}
	}
	return nil
}

// isShard reports whether dir looks like a shard of a readsim index: a
// scorch index's index_meta.json.
func isShard(dir string) bool {
	b, err := store.ReadSmall(filepath.Join(dir, "index_meta.json"), store.MaxManifest)
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
			return "", store.Unwrap(err)
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
