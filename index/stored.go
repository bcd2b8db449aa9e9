package index

import (
	"fmt"
	"unicode/utf8"

	bindex "github.com/blevesearch/bleve_index_api"
)

// StoredArticle is an article as the index stores it.
type StoredArticle struct {
	ID, Title, Path string
	// Lang is the article's language ("en", "zh", "ja", "ko"…), which
	// decides how its text is analysed.
	Lang  string
	Text  string
	Len   int // characters
	Elems []Elem
	// breaks are the word breaks between block elements, characters,
	// as stored: decoded only when the text is analysed again (tokens)
	breaks string
	// quiet are the spans a page does not show as they stand (start, end
	// pairs, characters): the header's metadata, leftover wiki markup and
	// templates (unshown); they are not analysed, and snippets leave them
	// out
	quiet []int
	toks  []token
	// elemLens are the lengths of Elems in tokens (elemLensField)
	elemLens []int
	// match are the tokens holding a query's terms (setMatches)
	match *matched
	ci    *charIndex // of Text, made once (chars)
}

// chars returns the character index of the article's text.
func (d *StoredArticle) chars() *charIndex {
	if d.ci == nil || d.ci.text != d.Text {
		d.ci = newCharIndex(d.Text)
	}
	return d.ci
}

// tokens returns the article's tokens, analysed as the build analysed
// them (computed once).
func (d *StoredArticle) tokens() []token {
	if d.toks == nil {
		d.toks = tokenize(d.Text, decodeInts(d.breaks), d.quiet, d.Lang)
	}
	return d.toks
}

// Article loads an article from the index.
func (x *Index) Article(id string) (*StoredArticle, error) {
	return withSnapshot(x, func(s *snapshot) (*StoredArticle, error) { return s.article(id) })
}

func (x *snapshot) article(id string) (*StoredArticle, error) {
	d, err := x.shards[shardOf(id, len(x.shards))].Document(id)
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, fmt.Errorf("index: no article %s", id)
	}
	return decodeDoc(id, d), nil
}

// decodeDoc reads an article from its stored Bleve document.
func decodeDoc(id string, d bindex.Document) *StoredArticle {
	out := &StoredArticle{ID: id}
	d.VisitFields(func(f bindex.Field) { out.setField(f.Name(), f.Value()) })
	out.Len = utf8.RuneCountInString(out.Text)
	return out
}

// setField sets the article's field of a stored field (name, value).
func (out *StoredArticle) setField(name string, val []byte) {
	// each field copied as it is kept (val is valid during the call only):
	// fields the article does not keep are not copied
	switch name {
	case "title":
		out.Title = string(val)
	case "text":
		out.Text = string(val)
	case "elems":
		out.Elems = decodeElems(string(val))
	case "breaks":
		out.breaks = string(val)
	case "quiet":
		out.quiet = decodeInts(string(val))
	case elemLensField:
		out.elemLens = decodeInts(string(val))
	case "path":
		out.Path = string(val)
	case "lang":
		out.Lang = string(val)
	}
}

// docElementCounts counts the terms of a stored article's candidate elements
// as parseOne counted them when the article was indexed.
func docElementCounts(d *StoredArticle) termCounts {
	toks := d.tokens() // every token: the build's counts
	ids := newInternTerms(len(toks))
	starts := make([]int, len(toks))
	for i, t := range toks {
		ids.addBytes([]byte(t.term))
		starts[i] = t.start
	}
	spans := make([][2]int, len(d.Elems))
	for k, el := range d.Elems {
		spans[k] = [2]int{el.Start, el.End}
	}
	df, _ := elementCounts(ids.ids, len(ids.terms), starts, spans)
	return termCounts{ids.terms, df}.nonZero()
}
