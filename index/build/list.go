package build

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/store"
)

// Listing the articles folder.

type srcFile struct {
	rel  string // slash-separated, relative to the articles folder
	path string
	id   string
	size int64
	mt   int64
}

// listArticles walks the folder (article.WalkCollection) and returns its
// .xml files sorted by path, each with its article id
// (article.CollectionIDs: the file name without .xml, or the path without
// .xml when several files have that name, recorded in res.IDClashes). Two
// files whose paths differ only in the case of ".xml" would have one id:
// the second is recorded in res.Dups and skipped. The collection's DTD
// files (*.dtd) are recorded in res.DTDs and returned with their sizes and
// modification times.
func listArticles(dir string, res *Result) ([]srcFile, []store.FileStamp, error) {
	var files []srcFile
	var dtds []store.FileStamp
	err := article.WalkCollection(dir, func(rel, path string, info fs.FileInfo) {
		switch {
		case strings.EqualFold(filepath.Ext(path), ".dtd"):
			res.DTDs = append(res.DTDs, path)
			dtds = append(dtds, store.FileStamp{Path: rel, Size: info.Size(), MTime: info.ModTime().UnixNano()})
		case !article.IsArticleFile(path):
			res.NotXML = append(res.NotXML, path)
		default:
			files = append(files, srcFile{rel: rel, path: path, size: info.Size(), mt: info.ModTime().UnixNano()})
		}
	}, func(path string, err error) {
		res.Broken = append(res.Broken, Skipped{path, err.Error()})
	})
	if err != nil {
		return nil, nil, &store.InputError{Msg: fmt.Sprintf("articles folder %s: %v", dir, store.Unwrap(err))}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	rels := make([]string, len(files))
	for i, f := range files {
		rels[i] = f.rel
	}
	ids, clashes := article.CollectionIDs(rels)
	res.IDClashes = clashes
	first := map[string]string{}
	out := files[:0]
	for i, f := range files {
		f.id = ids[i]
		if p, dup := first[f.id]; dup {
			res.Dups = append(res.Dups, Skipped{f.path, fmt.Sprintf("article id %s already taken by %s", f.id, p)})
			continue
		}
		first[f.id] = f.path
		out = append(out, f)
	}
	return out, dtds, nil
}
