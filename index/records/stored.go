package records

import (
	"fmt"

	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/readsim/readsim/index/analysis"
	"github.com/readsim/readsim/index/chars"
	"github.com/readsim/readsim/index/store"
)

// StoredArticle is an article as the index stores it.
type StoredArticle struct {
	ID, Title, Path string
	// Lang is the article's language ("en", "zh", "ja", "ko"…), which
	// decides how its text is analysed.
	Lang string
	// Text is the article's text; empty in a search's hits (Index.Hits),
	// which read only the blocks their snippets show (blockText)
	Text  string
	Len   int // characters
	Elems []Elem
	// breaks are the word breaks between block elements, characters
	breaks []int
	// seps are where a snippet separates two blocks (Spans.Seps)
	seps []int
	// quiet are the spans a page does not show as they stand (start, end
	// pairs, characters): the header's metadata, leftover wiki markup and
	// templates (unshown); they are not analysed, and snippets leave them
	// out
	Quiet []int
	toks  []analysis.Token
	// ElemLens are the lengths of Elems in tokens, and gaps the white
	// space after each, in characters (the article's record)
	elemLens, gaps []int
	// match are the tokens holding a query's terms (SetMatches)
	match *matched
	ci    *chars.Index // of Text, made once (chars)
	// blocks is the text read block by block, for an article read
	// without its text (ReadHit)
	blocks *blockText
}

// TextSlicer gives the text of a span of characters: a whole text's
// character index, or a record's blocks.
type TextSlicer interface {
	Slice(s, e int) string
}

// Chars returns the article's text by characters: its character index,
// or its record's blocks when the text was not read.
func (d *StoredArticle) Chars() TextSlicer {
	if d.blocks != nil {
		return d.blocks
	}
	if d.ci == nil || d.ci.Text != d.Text {
		d.ci = chars.New(d.Text)
	}
	return d.ci
}

// SpaceAfter returns the number of white space characters after the
// article's element k: from its record, or counted on its text.
func (d *StoredArticle) SpaceAfter(k int) int {
	if len(d.gaps) == len(d.Elems) {
		return d.gaps[k]
	}
	return chars.SpaceAfter(d.Chars().(*chars.Index), d.Elems[k].End)
}

// WithBlocks returns a copy of d whose text is read from its record r by
// blocks into the arena a, as a search's hit reads it (ReadHit).
func (d *StoredArticle) WithBlocks(r *Record, a *Arena) *StoredArticle {
	c := *d
	c.Text, c.ci, c.blocks = "", nil, newBlockText(r, a)
	return &c
}

// BlocksRead is how many blocks of its text an article read by blocks
// (ReadHit, WithBlocks) has decompressed so far.
func (d *StoredArticle) BlocksRead() int {
	if d.blocks == nil {
		return 0
	}
	n := 0
	for _, b := range d.blocks.done {
		if b != nil {
			n++
		}
	}
	return n
}

// WithoutMatches returns a copy of d without the occurrences of a
// query's terms read from the index (SetMatches) and without its tokens:
// browse and snippets analyse its text again.
func (d *StoredArticle) WithoutMatches() *StoredArticle {
	c := *d
	c.match, c.toks = nil, nil
	return &c
}

// Reanalysed is WithoutMatches without its elements' lengths in tokens
// either: browse as it was before a build kept them in the record.
func (d *StoredArticle) Reanalysed() *StoredArticle {
	c := d.WithoutMatches()
	c.elemLens = nil
	return c
}

// HasMatches reports whether the occurrences of a query's terms were read
// from the index (SetMatches).
func (d *StoredArticle) HasMatches() bool { return d.match != nil }

// BlocksErr returns the first error of reading the blocks of a hit's
// text (ReadHit: a damaged record), with the record's place in its
// file; nil when none.
func (d *StoredArticle) BlocksErr() (int64, error) {
	if d.blocks == nil {
		return 0, nil
	}
	return d.blocks.off, d.blocks.err
}

// Tokens returns the article's tokens, analysed as the build analysed
// them (computed once).
func (d *StoredArticle) Tokens() []analysis.Token {
	if d.toks == nil {
		d.toks = analysis.Tokenize(d.Text, d.breaks, d.Quiet, d.Lang)
	}
	return d.toks
}

// ReadHow says how much of an article's record to read.
type ReadHow int

const (
	// ReadWhole reads the text and the elements' XPaths.
	ReadWhole ReadHow = iota
	// ReadBrowse reads the XPaths, not the text: what browse needs.
	ReadBrowse
	// ReadHit reads neither: a search's hit, whose snippet reads the
	// blocks of the text it shows (blockText). Its Elems have no
	// XPaths, and it must not be used once the snapshot is released.
	ReadHit
	// ReadTitle reads the title, language and path only (Fetch).
	ReadTitle
)

// DecodeDoc reads an article from its record in rf, whose place is a
// stored field of its Bleve document d.
func DecodeDoc(rf *File, id string, d bindex.Document, how ReadHow) (*StoredArticle, error) {
	out := &StoredArticle{ID: id}
	var place Place
	found := false
	d.VisitFields(func(f bindex.Field) {
		if f.Name() == store.RecField {
			place, found = PlaceOf(f.Value())
		}
	})
	if !found {
		return nil, &store.DamagedError{Index: rf.Index, File: rf.Path, Err: fmt.Errorf("article %s has no record", id)}
	}
	return out, out.ReadRecord(rf, place, how, nil)
}

// ReadRecord reads the article's record, at place p of rf, as how says;
// a hit's blocks go into arena (ReadHit).
func (out *StoredArticle) ReadRecord(rf *File, p Place, how ReadHow, arena *Arena) error {
	if rf == nil {
		return fmt.Errorf("index: article %s: no records file", out.ID)
	}
	var lists *Arena
	if how == ReadHit {
		lists = arena
	}
	r, err := rf.Read(p, how == ReadTitle, lists)
	if err != nil {
		return err
	}
	out.Title, out.Lang, out.Path = r.title, r.lang, r.path
	if how == ReadTitle {
		return nil
	}
	out.Len, out.Elems, out.elemLens, out.gaps = r.chars, r.Elems, r.lens, r.gaps
	out.Quiet, out.breaks, out.seps = r.quiet, r.brk, r.seps
	if how != ReadHit {
		xp, err := r.xpaths()
		if err != nil {
			return Damaged(rf.Index, rf.Path, p.Off, err)
		}
		for k := range out.Elems {
			out.Elems[k].XPath = xp[k]
		}
	}
	switch how {
	case ReadWhole:
		if out.Text, err = r.text(); err != nil {
			return Damaged(rf.Index, rf.Path, p.Off, err)
		}
	case ReadHit:
		out.blocks = newBlockText(r, arena)
		out.blocks.off = p.Off
	}
	return nil
}
