package build

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	bindex "github.com/blevesearch/bleve_index_api"

	banalysis "github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/analysis"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/article/wikimarkup"
	"github.com/readsim/readsim/index/chars"
	"github.com/readsim/readsim/index/records"
	"github.com/readsim/readsim/index/store"
)

// Parsing an article into what the index stores of it: its Bleve
// document, its candidate elements and its manifest entry.

// DefaultElements are the names of the candidate elements browse may return:
// sections and sub-sections, paragraphs, list items, table rows and image
// captions of both INEX collections (2009: sec, ss1–ss3, p, entry, row,
// caption; 2006: section, ss, ss1–ss3, p, item, row, caption). An entry of
// a reference list (reflist) is never a candidate, whatever the names (see
// candidates).
var DefaultElements = []string{"sec", "section", "ss", "ss1", "ss2", "ss3", "p", "item", "entry", "row", "caption"}

// MaxCandidateDepth is the deepest an element may be (the root is at depth
// 0, semantic wrappers count) to be a candidate element. Each candidate's
// XPath costs its depth to build and to store: the bound keeps a hostile
// article nesting thousands of sections from making a build quadratic. The
// deepest candidate of the 77 real Wikipedia articles of the shared data is
// far above it (TestRealCollection).
const MaxCandidateDepth = 64

// parsed is an article ready for indexing: its Bleve document, its manifest
// entry and its candidate elements' term counts.
type parsed struct {
	f        srcFile
	doc      *document.Document
	rec      []byte // its record (index/records)
	entry    store.Entry
	elemDF   termCounts
	headerID string // the article's <header><id> when it is not its id
	err      error
}

// analyzedField is a text field analysed beforehand (an article's title
// and text are analysed once, for Bleve and for the statistics alike): it
// holds the field's token frequencies and length, which Bleve reads, not
// its tokens, so that the articles waiting in a batch hold a fraction of
// the memory (their tokens were half of a build's live heap). Its Analyze
// does nothing.
type analyzedField struct {
	name    string
	value   []byte
	length  int
	freqs   bindex.TokenFrequencies
	options bindex.FieldIndexingOptions
}

func newAnalyzedField(name string, value []byte, toks banalysis.TokenStream, opt bindex.FieldIndexingOptions) *analyzedField {
	return &analyzedField{name: name, value: value, length: len(toks), freqs: banalysis.TokenFrequency(toks, nil, opt), options: opt}
}

// textOptions are the options of the text field: indexed with term
// vectors, not stored (the text is in the article's record: index/records).
const textOptions = bindex.IndexField | bindex.IncludeTermVectors

// textFreqs are the token frequencies of an article's text (toks: its
// tokens, byte offsets of text, in text order) with a location per
// occurrence that browse reads back (index/records) rather than Bleve's
// position and byte offsets, to keep the index small (locations are
// uncompressed varints in Bleve's postings): the location's Position is the
// occurrence's character offset minus that of the term's previous
// occurrence in the text (the first's is its offset), Start is 0 and End
// is the occurrence's length in characters. Nothing in readsim runs
// Bleve's phrase queries or highlighter, which would read them as
// positions and byte offsets.
func textFreqs(text string, toks banalysis.TokenStream) bindex.TokenFrequencies {
	out := make(bindex.TokenFrequencies, len(toks)/2)
	locs := make([]bindex.TokenLocation, len(toks))
	last := make(map[*bindex.TokenFreq]int, len(toks)/2)
	var starts, ends chars.Cursor
	for i, t := range toks {
		s, e := starts.Char(text, t.Start), ends.Char(text, t.End)
		tf, ok := out[string(t.Term)]
		if !ok {
			tf = &bindex.TokenFreq{Term: t.Term}
			out[string(t.Term)] = tf
		}
		locs[i] = bindex.TokenLocation{Position: s - last[tf], End: e - s}
		last[tf] = s
		tf.Locations = append(tf.Locations, &locs[i])
		tf.SetFrequency(tf.Frequency() + 1)
	}
	return out
}

// newPlaceField is an article's RecField: its record's place as one
// indexed term (DocPlaces reads them all when the index is opened) and
// its stored value (an update reads it to take a deleted article's
// elements out of the element frequencies).
func newPlaceField(p records.Place) *analyzedField {
	f := newKeywordField(store.RecField, []string{string(p.Bytes())})
	f.options |= bindex.StoreField
	return f
}

// newKeywordField is an indexed, unstored field holding the terms keys,
// each whole.
func newKeywordField(name string, keys []string) *analyzedField {
	var toks banalysis.TokenStream
	at := 0
	for i, k := range keys {
		toks = append(toks, &banalysis.Token{Term: []byte(k), Start: at, End: at + len(k), Position: i + 1, Type: banalysis.AlphaNumeric})
		at += len(k) + 1
	}
	return &analyzedField{name: name, value: []byte(strings.Join(keys, "\n")), length: len(toks),
		freqs: banalysis.TokenFrequency(toks, nil, bindex.IndexField), options: bindex.IndexField}
}

func (f *analyzedField) Name() string                                      { return f.name }
func (f *analyzedField) ArrayPositions() []uint64                          { return nil }
func (f *analyzedField) Options() bindex.FieldIndexingOptions              { return f.options }
func (f *analyzedField) Analyze()                                          {}
func (f *analyzedField) Value() []byte                                     { return f.value }
func (f *analyzedField) NumPlainTextBytes() uint64                         { return uint64(len(f.value)) }
func (f *analyzedField) EncodedFieldType() byte                            { return 't' }
func (f *analyzedField) AnalyzedLength() int                               { return f.length }
func (f *analyzedField) AnalyzedTokenFrequencies() bindex.TokenFrequencies { return f.freqs }

// Size estimates the field's memory (Bleve accounts batches with it).
func (f *analyzedField) Size() int {
	n := 64 + len(f.name) + len(f.value)
	for _, tf := range f.freqs {
		n += 48 + tf.Size()
	}
	return n
}

// parseOne parses an article file with rd and builds its Bleve document,
// its manifest entry and its candidate elements' term counts. The article
// is analysed in its language (Article.Lang: rd's Lang, or detected).
func parseOne(rd *article.Reader, f srcFile, names map[string]bool) parsed {
	a, err := rd.ParseFile(f.path)
	if err != nil {
		var ae *article.Error
		if errors.As(err, &ae) {
			// Skipped.Path names the file already
			msg := ae.Msg
			if ae.Line > 0 {
				msg = fmt.Sprintf("line %d: %s", ae.Line, ae.Msg)
			}
			return parsed{f: f, err: errors.New(msg)}
		}
		return parsed{f: f, err: err}
	}
	a.ID = f.id
	title, headerID := a.Title, a.HeaderID
	kind := analysis.Kind(a.Lang)
	markup := wikimarkup.Find(a)
	brk, quiet := breaks(a), wikimarkup.Union(unshown(a, markup), footnoteMarks(a))
	aux := auxiliary(a)
	bytesOf := func(cs []int) []int {
		out := make([]int, len(cs))
		for i, c := range cs {
			out[i] = a.ByteOffset(c)
		}
		return out
	}
	// a build analyzes much text: memoize the word filters (memoAnalyzer)
	an, release := analysis.Memo(kind)
	toks := analysis.AnalyzeText(an, a.Text, bytesOf(brk), bytesOf(quiet))
	release()
	body, auxToks := splitTokens(toks, bytesOf(aux))
	elems := Candidates(a, names)

	doc, titleToks := newDoc(a, title, body, auxToks)

	ids := newInternTerms(len(toks))
	starts := make([]int, len(toks))
	for i, t := range toks {
		ids.addBytes(t.Term)
		starts[i] = t.Start
	}
	spans := make([][2]int, len(elems))
	for k, el := range elems {
		spans[k] = [2]int{a.ByteOffset(el.Start), a.ByteOffset(el.End)}
	}
	df, lens := elementCounts(ids.ids, len(ids.terms), starts, spans)
	if !sort.IntsAreSorted(starts) {
		// browse counts an element's tokens by their starts in order
		sorted := slices.Clone(starts)
		sort.Ints(sorted)
		lens = records.ElemLens(sorted, spans)
	}
	elemLen := 0
	for _, n := range lens {
		elemLen += n
	}
	// the record: what browse, snippets and pages read (index/records); its
	// place in the shard's records file is added to the document when it
	// is written (shardWriter.feed)
	rec := records.Encode(nil, title, a.Lang, f.rel, a.Text, a.Len, elems, lens,
		records.Spans{Quiet: quiet, Breaks: brk, Aux: aux, Seps: snippetSeps(a, quiet, wikimarkup.Captions(markup))})
	p := parsed{f: f, doc: doc, rec: rec,
		entry: store.Entry{ID: f.id, Size: f.size, MTime: f.mt, Elems: len(elems), Lang: a.Lang,
			TitleLen: len(titleToks), TextLen: len(body), AuxLen: len(auxToks), ElemLen: elemLen, Rec: int64(len(rec))},
		elemDF: termCounts{ids.terms, df}.nonZero(),
	}
	if headerID != "" && headerID != article.BaseID(f.id) {
		p.headerID = headerID
	}
	return p
}

// inline are the elements whose boundaries are not word boundaries (emphasis
// and links of both collections); an element with a wordnetid attribute (a
// YAGO wrapper such as <person>) or a link target is inline too. Every other
// element boundary separates words.
var inline = map[string]bool{
	"b": true, "i": true, "it": true, "u": true, "em": true, "emph": true, "emph2": true, "emph3": true, "emph4": true, "emph5": true,
	"sub": true, "sup": true, "font": true, "span": true, "tt": true, "small": true, "big": true, "strike": true, "s": true,
	"link": true, "collectionlink": true, "unknownlink": true, "outsidelink": true, "wikipedialink": true, "weblink": true, "languagelink": true,
}

// breaks returns the character offsets at which the text of two block
// elements touch with no white space between them: the analyzer must not
// join words across them.
func breaks(a *article.Article) []int {
	seen := map[int]bool{}
	isSpace := func(c int) bool {
		s := a.Slice(c, c+1)
		return s == "" || chars.Blank(s)
	}
	for i := range a.Elements {
		e := &a.Elements[i]
		if isInline(e) {
			continue
		}
		for _, c := range [2]int{e.Start, e.End} {
			if c > 0 && c < a.Len && !seen[c] && !isSpace(c-1) && !isSpace(c) {
				seen[c] = true
			}
		}
	}
	out := make([]int, 0, len(seen))
	for c := range seen {
		out = append(out, c)
	}
	sort.Ints(out)
	return out
}

// metadata returns the character spans (start, end pairs, in document
// order) of the header's fields but its title and categories: its ids,
// revision, timestamp and contributor (INEX 2009: /article/header/id,
// /article/header/revision…, semantic wrappers aside). Their text keeps
// its offsets but is not analysed: a query for a contributor's name or a
// revision number matches no article. The title stays searchable (it is in
// the text and the title field), and so do the categories.
func metadata(a *article.Article) []int {
	var out []int
	for h := range a.Elements {
		e := &a.Elements[h]
		if e.Name != "header" || e.IsWrapper() || a.LayoutParent(h) != 0 {
			continue
		}
		for c := h + 1; c < e.Next; {
			ce := &a.Elements[c]
			if ce.IsWrapper() {
				c++ // look through a wrapper at its children
				continue
			}
			if ce.Name != "title" && ce.Name != "categories" && ce.End > ce.Start {
				if n := len(out); n > 0 && out[n-1] == ce.Start {
					out[n-1] = ce.End // touching spans: one
				} else {
					out = append(out, ce.Start, ce.End)
				}
			}
			c = ce.Next
		}
		break
	}
	return out
}

// unshown returns the character spans the index does not analyse: the
// header's metadata, the wiki markup a reader does not see (hidden, or
// shown as another character: of markup, wikimarkup.Find's ranges) and
// the templates (infoboxes), which the page folds (docs/articles.md). No
// snippet shows them.
func unshown(a *article.Article, markup []wikimarkup.Range) []int {
	return wikimarkup.Union(metadata(a), wikimarkup.Quiet(markup), wikimarkup.Templates(a))
}

// newDoc returns the Bleve document of the article a: its title (and
// the title's tokens), its body's and auxiliary text's tokens, its title
// keys and its language.
func newDoc(a *article.Article, title string, body, auxToks banalysis.TokenStream) (*document.Document, banalysis.TokenStream) {
	doc := document.NewDocument(a.ID)
	titleToks := analysis.AnalyzerOf(a.Lang).Analyze([]byte(title)) // on a copy: the analyzer lower-cases in place
	doc.AddField(newAnalyzedField("title", []byte(title), titleToks, bindex.IndexField))
	// the text keeps where each token is (term vectors, see textFreqs):
	// browse and snippets read the query terms' occurrences from them
	// instead of analysing the article again
	// (no value: the text is not stored in Bleve, and a batch waiting to
	// be indexed need not hold it)
	doc.AddField(&analyzedField{name: "text", length: len(body), freqs: textFreqs(a.Text, body), options: textOptions})
	// the auxiliary text, a field of its own that fetch weighs less
	// (docs/search.md, "Auxiliary text"), kept as the text is
	doc.AddField(&analyzedField{name: store.AuxField, length: len(auxToks), freqs: textFreqs(a.Text, auxToks), options: textOptions})
	if keys := analysis.TitleKeys(title); len(keys) > 0 {
		doc.AddField(newKeywordField(store.TitleKeyField, keys))
	}
	doc.AddField(newKeywordField(store.LangField, []string{a.Lang}))
	return doc, titleToks
}

// splitTokens splits an article's tokens (in text order) into those of
// its body text and those starting in its auxiliary text (aux: byte
// spans, start and end pairs, in order).
func splitTokens(toks banalysis.TokenStream, aux []int) (body, auxToks banalysis.TokenStream) {
	if len(aux) == 0 {
		return toks, nil
	}
	body = make(banalysis.TokenStream, 0, len(toks))
	for _, t := range toks {
		k := sort.Search(len(aux)/2, func(k int) bool { return aux[2*k+1] > t.Start })
		if k < len(aux)/2 && aux[2*k] <= t.Start {
			auxToks = append(auxToks, t)
		} else {
			body = append(body, t)
		}
	}
	return body, auxToks
}

// isInline reports whether an element's boundaries are not word
// boundaries: emphasis, links and semantic wrappers.
func isInline(e *article.Element) bool {
	if inline[e.Name] || e.IsWrapper() {
		return true
	}
	if _, ok := e.Attr("wordnetid"); ok {
		return true
	}
	_, ok := e.Attr("href")
	return ok
}

// bodies are the names of the body elements of both INEX collections,
// whose own text runs are candidates (see candidates).
var bodies = map[string]bool{"bdy": true, "body": true}

// Candidates returns the article's candidate elements, in document order
// (by start, the longer first): elements with one of the names that contain
// some non-blank text, except
//   - semantic wrappers (Element.IsWrapper: a YAGO <country> is no
//     candidate, whatever its name);
//   - elements deeper than MaxCandidateDepth;
//   - the entries of a reference list (an entry whose nearest ancestor that
//     is not a wrapper is a reflist): citations, not text to read; the entries
//     of other lists are candidates;
//
// plus the body's own text runs: the text of a bdy (or body) that no block
// element inside it holds, cut at each block element (inline elements and
// wrappers are part of a run), white space trimmed. The INEX 2009
// converter leaves an article's lead paragraphs — its definition, often
// what a query asks — bare in bdy before the first section, with the
// remains of its infobox. A run is named by the body's XPath followed by
// /text().
func Candidates(a *article.Article, names map[string]bool) []records.Elem {
	var out []records.Elem
	runs := false
	for i := range a.Elements {
		e := &a.Elements[i]
		if e.Depth > MaxCandidateDepth || e.IsWrapper() {
			continue
		}
		if bodies[e.Name] {
			n := len(out)
			out = appendRuns(out, a, i)
			runs = runs || len(out) > n
		}
		if !names[e.Name] || e.End <= e.Start || chars.Blank(a.Slice(e.Start, e.End)) {
			continue
		}
		if e.Name == "entry" && inReflist(a, i) {
			continue
		}
		out = append(out, records.Elem{XPath: a.XPath(i), Span: effort.Span{Start: e.Start, End: e.End}})
	}
	if runs {
		sort.SliceStable(out, func(i, j int) bool {
			if out[i].Start != out[j].Start {
				return out[i].Start < out[j].Start
			}
			return out[i].End > out[j].End
		})
	}
	return out
}

// appendRuns appends to out the own text runs of element b (see
// candidates). It visits each element of b's subtree at most once.
func appendRuns(out []records.Elem, a *article.Article, b int) []records.Elem {
	els := a.Elements
	var xpath string
	emit := func(s, e int) {
		text := a.Slice(s, e)
		trimmed := strings.TrimLeftFunc(text, unicode.IsSpace)
		s += utf8.RuneCountInString(text) - utf8.RuneCountInString(trimmed)
		trimmed = strings.TrimRightFunc(trimmed, unicode.IsSpace)
		if trimmed == "" {
			return
		}
		if xpath == "" {
			xpath = a.XPath(b) + "/text()"
		}
		out = append(out, records.Elem{XPath: xpath, Span: effort.Span{Start: s, End: s + utf8.RuneCountInString(trimmed)}})
	}
	cur := els[b].Start
	for c := b + 1; c < els[b].Next; {
		if isInline(&els[c]) {
			c++ // part of the run: into it
			continue
		}
		emit(cur, els[c].Start)
		cur = els[c].End
		c = els[c].Next
	}
	emit(cur, els[b].End)
	return out
}

// inReflist reports whether the nearest ancestor of element i that is not
// a semantic wrapper is a reflist. (i is at most MaxCandidateDepth deep.)
func inReflist(a *article.Article, i int) bool {
	for p := a.Elements[i].Parent; p >= 0; p = a.Elements[p].Parent {
		if !a.Elements[p].IsWrapper() {
			return a.Elements[p].Name == "reflist"
		}
	}
	return false
}
