package article

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"sync"
)

// Dir is a collection folder: every article file below Root (*.xml, nested
// folders included, hidden folders skipped: WalkCollection), known by its
// article id (CollectionIDs: the file name without ".xml", or its path
// without ".xml" when several files have that name). Ids are only ever
// looked up in this table, never joined into a path, so an id from a URL
// cannot reach a file outside the folder.
type Dir struct {
	Root string
	// Reader reads the articles: OpenDir makes one with Root as the
	// collection root; set its DTD, Lang and Warn before the first Parse.
	Reader  *Reader
	paths   map[string]string   // id → file
	rels    map[string]string   // id → path relative to Root
	byPath  map[string]string   // path relative to Root without .xml → id
	clashed map[string][]string // a file name several articles have → their ids
	clashes []IDClash
	ids     []string
	skipped []string // "PATH: why" of each entry named like an article that is none
}

// OpenDir lists the articles below root. A missing or unreadable folder is
// an error naming it; so is an unreadable entry below it.
func OpenDir(root string) (*Dir, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, &Error{File: root, Msg: "cannot read the articles folder: " + unwrapPath(err).Error()}
	}
	if !st.IsDir() {
		return nil, &Error{File: root, Msg: "not a folder"}
	}
	d := &Dir{Root: root, Reader: &Reader{Root: root}, paths: map[string]string{}, rels: map[string]string{},
		byPath: map[string]string{}, clashed: map[string][]string{}}
	var rels, files []string
	var bad error
	err = WalkCollection(root, func(rel, path string, _ fs.FileInfo) {
		if IsArticleFile(rel) {
			rels = append(rels, rel)
			files = append(files, path)
		}
	}, func(path string, err error) {
		var sk *SkippedFile
		switch {
		case errors.As(err, &sk):
			d.skipped = append(d.skipped, path+": "+sk.Why)
		case bad == nil:
			bad = &Error{File: path, Msg: err.Error()}
		}
	})
	if err != nil {
		return nil, &Error{File: root, Msg: "cannot read the articles folder: " + unwrapPath(err).Error()}
	}
	if bad != nil {
		return nil, bad
	}
	sort.Sort(byRel{rels, files})
	ids, clashes := CollectionIDs(rels)
	for i, id := range ids {
		if prev, dup := d.paths[id]; dup {
			// only files whose names differ in the case of ".xml"
			return nil, &Error{File: files[i], Msg: fmt.Sprintf("duplicate article id %s: %s has it too", id, prev)}
		}
		d.paths[id], d.rels[id], d.byPath[qualifiedID(rels[i])] = files[i], rels[i], id
		d.ids = append(d.ids, id)
	}
	d.clashes = clashes
	for _, c := range clashes {
		d.clashed[c.ID] = c.IDs
	}
	sort.Strings(d.ids)
	return d, nil
}

// byRel sorts files by their relative paths.
type byRel struct{ rels, files []string }

func (b byRel) Len() int           { return len(b.rels) }
func (b byRel) Less(i, j int) bool { return b.rels[i] < b.rels[j] }
func (b byRel) Swap(i, j int) {
	b.rels[i], b.rels[j] = b.rels[j], b.rels[i]
	b.files[i], b.files[j] = b.files[j], b.files[i]
}

func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// Skipped says, one line each ("PATH: why"), which entries of the folder
// are named like articles but are none (SkippedFile): the caller warns.
func (d *Dir) Skipped() []string { return d.skipped }

// IDs returns the article ids in sorted order.
func (d *Dir) IDs() []string { return d.ids }

// Clashes returns the file names that several articles have (see
// CollectionIDs), sorted; ClashWarning says them in one line.
func (d *Dir) Clashes() []IDClash { return d.clashes }

// ID returns the id of the article that id names: id itself, or the id
// of the article whose path without .xml is id (en/3951 names article
// 3951 when no other file is named 3951.xml), and whether there is one.
func (d *Dir) ID(id string) (string, bool) {
	if _, ok := d.paths[id]; ok {
		return id, true
	}
	to, ok := d.byPath[id]
	return to, ok
}

// Path returns the file of article id (or of the article id names: ID).
func (d *Dir) Path(id string) (string, bool) {
	if to, ok := d.ID(id); ok {
		id = to
	}
	p, ok := d.paths[id]
	return p, ok
}

// Parse reads article id (or the article id names: ID). Its ID is its id,
// and its links' targets are the ids
// of this collection they point to (a link to a file name several articles
// have is resolved relative to the linking file: resolveLink). A plain id
// that several articles have is an *AmbiguousError listing theirs.
func (d *Dir) Parse(id string) (*Article, error) {
	if to, ok := d.ID(id); ok {
		id = to
	}
	p, ok := d.paths[id]
	if !ok {
		if ids, clash := d.clashed[id]; clash {
			return nil, &AmbiguousError{Root: d.Root, IDClash: IDClash{ID: id, IDs: ids}}
		}
		return nil, &Error{File: d.Root, Msg: fmt.Sprintf("no article %q in the folder", id)}
	}
	a, err := d.Reader.ParseFile(p)
	if err != nil {
		return nil, err
	}
	a.ID = id
	for i := range a.Links {
		l := &a.Links[i]
		href, _ := a.Elements[l.Elem].Attr("href")
		if to := resolveLink(d.rels[id], href, l.Target, d.paths, d.clashed); to != "" {
			l.Target = to
		}
	}
	return a, nil
}

// PathResolver resolves element paths of the articles of a Dir into character spans
// (the INEX XML submission's <path> results). Each article is parsed once; only
// its elements are kept. It is safe for concurrent use.
type PathResolver struct {
	dir   *Dir
	mu    sync.Mutex
	cache map[string]*Article
}

// PathResolver returns a resolver of element paths over d.
func (d *Dir) PathResolver() *PathResolver {
	return &PathResolver{dir: d, cache: map[string]*Article{}}
}

// Span returns the [start,end) span of the element at xpath in article id.
func (s *PathResolver) Span(id, xpath string) (start, end int, err error) {
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
