package article

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Dir is a collection folder: every *.xml file below Root, nested folders
// included, known by its article id (the file name without ".xml"). Ids are
// only ever looked up in this table, never joined into a path, so an id from
// a URL cannot reach a file outside the folder.
type Dir struct {
	Root string
	// Reader reads the articles: OpenDir makes one with Root as the
	// collection root; set its DTD, Lang and Warn before the first Parse.
	Reader *Reader
	paths  map[string]string
	ids    []string
}

// OpenDir lists the articles below root. Two files with the same id are an
// error naming both; a missing or unreadable folder is an error naming it.
func OpenDir(root string) (*Dir, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, &Error{File: root, Msg: "cannot read the articles folder: " + unwrapPath(err).Error()}
	}
	if !st.IsDir() {
		return nil, &Error{File: root, Msg: "not a folder"}
	}
	d := &Dir{Root: root, Reader: &Reader{Root: root}, paths: map[string]string{}}
	err = filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return &Error{File: path, Msg: unwrapPath(err).Error()}
		}
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".xml") {
			return nil
		}
		id := IDFromPath(path)
		if prev, dup := d.paths[id]; dup {
			return &Error{File: path, Msg: fmt.Sprintf("duplicate article id %s: %s has it too", id, prev)}
		}
		d.paths[id] = path
		d.ids = append(d.ids, id)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(d.ids)
	return d, nil
}

func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// IDs returns the article ids in sorted order.
func (d *Dir) IDs() []string { return d.ids }

// Path returns the file of article id.
func (d *Dir) Path(id string) (string, bool) {
	p, ok := d.paths[id]
	return p, ok
}

// Parse reads article id.
func (d *Dir) Parse(id string) (*Article, error) {
	p, ok := d.paths[id]
	if !ok {
		return nil, &Error{File: d.Root, Msg: fmt.Sprintf("no article %q in the folder", id)}
	}
	return d.Reader.ParseFile(p)
}

// Spans resolves element paths of the articles of a Dir into character spans
// (the INEX XML submission's <path> results). Each article is parsed once; only
// its elements are kept. It is safe for concurrent use.
type Spans struct {
	dir   *Dir
	mu    sync.Mutex
	cache map[string]*Article
}

// Spans returns a resolver of element paths over d.
func (d *Dir) Spans() *Spans { return &Spans{dir: d, cache: map[string]*Article{}} }

// Span returns the [start,end) span of the element at xpath in article id.
func (s *Spans) Span(id, xpath string) (start, end int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	els, ok := s.cache[id]
	if !ok {
		a, err := s.dir.Parse(id)
		if err != nil {
			return 0, 0, err
		}
		els = &Article{ID: a.ID, Elements: a.Elements} // the text is not needed
		s.cache[id] = els
	}
	i, ok := els.Lookup(xpath)
	if !ok {
		return 0, 0, fmt.Errorf("article %s has no element %s", id, xpath)
	}
	return els.Elements[i].Start, els.Elements[i].End, nil
}
