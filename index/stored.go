package index

import (
	"encoding/binary"
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
	// quiet are the spans a page does not show as they stand (start, end
	// pairs, characters): the header's metadata, leftover wiki markup and
	// templates (unshown); they are not analysed, and snippets leave them
	// out
	quiet []int
	toks  []analysis.Token
	// elemLens are the lengths of Elems in tokens, and gaps the white
	// space after each, in characters (the article's record)
	elemLens, gaps []int
	// match are the tokens holding a query's terms (setMatches)
	match *matched
	ci    *chars.Index // of Text, made once (chars)
	// blocks is the text read block by block, for an article read
	// without its text (readHit)
	blocks *blockText
}

// textSlicer gives the text of a span of characters: a whole text's
// character index, or a record's blocks.
type textSlicer interface {
	Slice(s, e int) string
}

// chars returns the article's text by characters: its character index,
// or its record's blocks when the text was not read.
func (d *StoredArticle) chars() textSlicer {
	if d.blocks != nil {
		return d.blocks
	}
	if d.ci == nil || d.ci.Text != d.Text {
		d.ci = chars.New(d.Text)
	}
	return d.ci
}

// spaceAfter returns the number of white space characters after the
// article's element k: from its record, or counted on its text.
func (d *StoredArticle) spaceAfter(k int) int {
	if len(d.gaps) == len(d.Elems) {
		return d.gaps[k]
	}
	return chars.SpaceAfter(d.chars().(*chars.Index), d.Elems[k].End)
}

// tokens returns the article's tokens, analysed as the build analysed
// them (computed once).
func (d *StoredArticle) tokens() []analysis.Token {
	if d.toks == nil {
		d.toks = analysis.Tokenize(d.Text, d.breaks, d.quiet, d.Lang)
	}
	return d.toks
}

// Article loads an article from the index.
func (x *Index) Article(id string) (*StoredArticle, error) {
	return withSnapshot(x, func(s *snapshot) (*StoredArticle, error) { return s.article(id, readWhole) })
}

func (x *snapshot) article(id string, how readHow) (*StoredArticle, error) {
	r, err := shardReader(x.shards[store.ShardOf(id, len(x.shards))])
	if err != nil {
		return nil, err
	}
	defer r.Close()
	d, _, err := x.articleAt(r, id, how)
	if err == nil && d == nil {
		err = fmt.Errorf("index: no article %s", id)
	}
	return d, err
}

// articleAt reads article id from its record, found through the shard's
// places (docPlaces) by its internal number in r, the reader of its shard,
// which it returns too; an article the index does not have is nil.
func (x *snapshot) articleAt(r bindex.IndexReader, id string, how readHow) (*StoredArticle, uint64, error) {
	n, err := r.InternalID(id)
	if err != nil || n == nil {
		return nil, 0, err
	}
	doc := binary.BigEndian.Uint64(n)
	sh := store.ShardOf(id, len(x.shards))
	rf := x.recs[sh]
	if doc >= uint64(len(x.places[sh])) {
		return nil, 0, &store.DamagedError{Index: rf.idx, File: rf.path, Err: fmt.Errorf("article %s has no record", id)}
	}
	out := &StoredArticle{ID: id}
	if err := out.readRecord(rf, x.places[sh][doc], how, nil); err != nil {
		return nil, 0, err
	}
	return out, doc, nil
}

// readHow says how much of an article's record to read.
type readHow int

const (
	// readWhole reads the text and the elements' XPaths.
	readWhole readHow = iota
	// readBrowse reads the XPaths, not the text: what browse needs.
	readBrowse
	// readHit reads neither: a search's hit, whose snippet reads the
	// blocks of the text it shows (blockText). Its Elems have no
	// XPaths, and it must not be used once the snapshot is released.
	readHit
	// readTitle reads the title, language and path only (Fetch).
	readTitle
)

// decodeDoc reads an article from its record in rf, whose place is a
// stored field of its Bleve document d.
func decodeDoc(rf *recordFile, id string, d bindex.Document, how readHow) (*StoredArticle, error) {
	out := &StoredArticle{ID: id}
	var place recPlace
	found := false
	d.VisitFields(func(f bindex.Field) {
		if f.Name() == store.RecField {
			place, found = placeOf(f.Value())
		}
	})
	if !found {
		return nil, &store.DamagedError{Index: rf.idx, File: rf.path, Err: fmt.Errorf("article %s has no record", id)}
	}
	return out, out.readRecord(rf, place, how, nil)
}

// readRecord reads the article's record, at place p of rf, as how says;
// a hit's blocks go into arena (readHit).
func (out *StoredArticle) readRecord(rf *recordFile, p recPlace, how readHow, arena *blockArena) error {
	if rf == nil {
		return fmt.Errorf("index: article %s: no records file", out.ID)
	}
	var lists *blockArena
	if how == readHit {
		lists = arena
	}
	r, err := rf.read(p, how == readTitle, lists)
	if err != nil {
		return err
	}
	out.Title, out.Lang, out.Path = r.title, r.lang, r.path
	if how == readTitle {
		return nil
	}
	out.Len, out.Elems, out.elemLens, out.gaps = r.chars, r.elems, r.lens, r.gaps
	out.quiet, out.breaks = r.quiet, r.brk
	if how != readHit {
		xp, err := r.xpaths()
		if err != nil {
			return recordError(rf.idx, rf.path, p.off, err)
		}
		for k := range out.Elems {
			out.Elems[k].XPath = xp[k]
		}
	}
	switch how {
	case readWhole:
		if out.Text, err = r.text(); err != nil {
			return recordError(rf.idx, rf.path, p.off, err)
		}
	case readHit:
		out.blocks = newBlockText(r, arena)
		out.blocks.off = p.off
	}
	return nil
}

// docElementCounts counts the terms of a stored article's candidate elements
// as parseOne counted them when the article was indexed.
func docElementCounts(d *StoredArticle) termCounts {
	toks := d.tokens() // every token: the build's counts
	ids := newInternTerms(len(toks))
	starts := make([]int, len(toks))
	for i, t := range toks {
		ids.addBytes([]byte(t.Term))
		starts[i] = t.Start
	}
	spans := make([][2]int, len(d.Elems))
	for k, el := range d.Elems {
		spans[k] = [2]int{el.Start, el.End}
	}
	df, _ := elementCounts(ids.ids, len(ids.terms), starts, spans)
	return termCounts{ids.terms, df}.nonZero()
}
