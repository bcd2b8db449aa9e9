package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Listing the articles folder.

type srcFile struct {
	rel  string // slash-separated, relative to the articles folder
	path string
	id   string
	size int64
	mt   int64
}

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
