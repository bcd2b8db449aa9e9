package article

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/readsim/readsim/internal/ground/durable"
)

// Collections: the files of an articles folder and their article ids.
//
// An article's id is its file name without ".xml" (formats.md), which the
// INEX collections keep unique. A collection of several Wikipedias is not:
// page ids are numbered per language, so en/3951.xml and ja/3951.xml may
// both exist. Decision where formats.md is silent: an id that more than one
// file of the collection has is qualified, for every file having it, by the
// file's path relative to the collection root without ".xml" ("en/3951",
// "ja/3951"); an id that one file alone has stays its file name. The plain
// id of a clash names no article (readsim render --articles DIR 3951 is an
// error listing en/3951 and ja/3951). Adding a file may so change the id of
// another one: an index update re-indexes it under its new id.

// WalkCollection walks a collection folder as readsim reads one: every
// folder below root, recursively, except hidden ones (a name starting with
// "."), never following a symbolic link to a folder; fn gets each regular
// file (a symbolic link to a file counts as the file) with its path relative
// to root, slash-separated, and its information; bad gets each entry that
// cannot be read (the walk goes on), and, as a *SkippedFile, each entry
// named like an article (*.xml) that is not one: a FIFO, a socket, a
// device, or a file named ".xml" alone. An unreadable root is the error
// returned.
func WalkCollection(root string, fn func(rel, path string, info fs.FileInfo), bad func(path string, err error)) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			bad(p, unwrapPath(err))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p != root && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		info, err := statFile(p) // follows symbolic links
		if err != nil {
			bad(p, unwrapPath(err))
			return nil
		}
		switch {
		case info.IsDir():
			return nil // a symbolic link to a folder: not followed
		case !info.Mode().IsRegular():
			if IsArticleFile(p) {
				bad(p, &SkippedFile{Why: "named like an article but " + durable.Kind(info.Mode()) + ", not a regular file (opening it could wait forever)"})
			}
			return nil
		case IsArticleFile(p) && IDFromPath(p) == "":
			bad(p, &SkippedFile{Why: "an article file needs a name before .xml (its id would be empty)"})
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		fn(filepath.ToSlash(rel), p, info)
		return nil
	})
}

// statFile is os.Stat; a test makes it tell of a device.
var statFile = os.Stat

// SkippedFile is an entry of a collection that is named like an article
// but is none readsim reads: a FIFO, a socket or a device (opening one
// could wait forever), or a file named ".xml" alone (its id would be
// empty). WalkCollection gives it to bad; a build names it among the
// files it skipped, OpenDir in Dir.Skipped.
type SkippedFile struct{ Why string }

// Error says why the file is skipped.
func (e *SkippedFile) Error() string { return e.Why }

// IsArticleFile reports whether a file name has the extension of an article
// file, ".xml" in any case.
func IsArticleFile(name string) bool { return strings.EqualFold(filepath.Ext(name), ".xml") }

// IDClash is a file name that several article files of a collection have:
// each of them is known by its qualified id (see the collection ids above).
type IDClash struct {
	// ID is the file name without ".xml", which names none of them.
	ID string
	// IDs are the files' qualified ids, in path order.
	IDs []string
}

// CollectionIDs returns the article id of each file of a collection, given
// the files' paths relative to the collection root (slash-separated, sorted):
// its file name without ".xml", or, when other files have that name too,
// its path without ".xml" (see the collection ids above); and the clashes,
// sorted by id.
func CollectionIDs(rels []string) ([]string, []IDClash) {
	ids := make([]string, len(rels))
	byID := map[string][]int{}
	for i, r := range rels {
		ids[i] = IDFromPath(r)
		byID[ids[i]] = append(byID[ids[i]], i)
	}
	var clashes []IDClash
	for id, files := range byID {
		if len(files) < 2 {
			continue
		}
		c := IDClash{ID: id}
		for _, i := range files {
			ids[i] = qualifiedID(rels[i])
			c.IDs = append(c.IDs, ids[i])
		}
		clashes = append(clashes, c)
	}
	sort.Slice(clashes, func(i, j int) bool { return clashes[i].ID < clashes[j].ID })
	return ids, clashes
}

// qualifiedID is a file's path relative to the collection root without
// ".xml" (in any case).
func qualifiedID(rel string) string {
	rel = strings.TrimPrefix(path.Clean(strings.ReplaceAll(rel, "\\", "/")), "./")
	if IsArticleFile(rel) {
		rel = rel[:len(rel)-len(".xml")]
	}
	return rel
}

// BaseID returns the file name part of an article id: the id itself, or
// the file name of a qualified id ("ja/3951" → "3951").
func BaseID(id string) string { return path.Base(id) }

// WellFormedID reports whether id can be an article id as a user gives it
// (readsim render): not empty, no back-slash, no empty, "." or ".." step,
// not absolute. Ids are looked up in a collection's table, never joined
// into a path: this only turns away what cannot be an id.
func WellFormedID(id string) bool {
	if id == "" || strings.ContainsRune(id, '\\') {
		return false
	}
	for _, step := range strings.Split(id, "/") {
		if step == "" || step == "." || step == ".." {
			return false
		}
	}
	return true
}

// ClashWarning says in one line that some file names are the names of
// several articles and how those articles are known; "" when there is no
// clash.
func ClashWarning(clashes []IDClash) string {
	if len(clashes) == 0 {
		return ""
	}
	const shown = 3
	var ex []string
	for _, c := range clashes[:min(len(clashes), shown)] {
		ex = append(ex, fmt.Sprintf("%s is %s", c.ID, strings.Join(c.IDs, " and ")))
	}
	more := ""
	if len(clashes) > shown {
		more = fmt.Sprintf("; and %d more", len(clashes)-shown)
	}
	what := "an article id is the file name"
	if len(clashes) > 1 {
		what = fmt.Sprintf("%d article ids are each the file name", len(clashes))
	}
	return fmt.Sprintf("%s of several articles (page ids are numbered per language): such articles are known by their path without .xml: %s%s",
		what, strings.Join(ex, "; "), more)
}

// AmbiguousError is a plain article id that several articles of a
// collection have as their file name: it names none of them.
type AmbiguousError struct {
	Root string
	IDClash
}

// BadInput reports that the error is bad input: readsim exits with
// status 2 (docs/cli.md, "Exit status").
func (e *AmbiguousError) BadInput() bool { return true }

// Error says which ids to use instead.
func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%s: article id %s is the file name of %d articles: name one of %s", e.Root, e.ID, len(e.IDs), strings.Join(e.IDs, ", "))
}

// resolveLink returns the id of the article an internal link of the
// article file at rel (relative to the collection root) points to, given
// the link target's file name id: that id itself when one file has it; when
// several do, the one the link's href leads to relative to the linking
// file, or else the one whose folder shares the most leading folders with
// the linking file's (a link of ja/3951 to ../929/17054929.xml, with
// en/17054929 and ja/17054929 in the collection, is ja/17054929); "" when
// that leaves a tie or no file has the id.
func resolveLink(rel, href, target string, ids map[string]string, clashes map[string][]string) string {
	if _, ok := ids[target]; ok {
		return target
	}
	cands := clashes[target]
	if len(cands) == 0 {
		return ""
	}
	want := qualifiedID(path.Join(path.Dir(rel), strings.ReplaceAll(href, "\\", "/")))
	for _, c := range cands {
		if c == want {
			return c
		}
	}
	from := strings.Split(path.Dir(rel), "/")
	best, bestN, tie := "", -1, false
	for _, c := range cands {
		dir := strings.Split(path.Dir(c), "/")
		n := 0
		for n < len(dir) && n < len(from) && dir[n] == from[n] && dir[n] != "." {
			n++
		}
		switch {
		case n > bestN:
			best, bestN, tie = c, n, false
		case n == bestN:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}
