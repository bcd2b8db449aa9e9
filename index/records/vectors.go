package records

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"

	"github.com/blevesearch/bleve/v2/index/scorch"
	bindex "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/readsim/readsim/index/analysis"
	"github.com/readsim/readsim/index/store"
)

// Browse and snippets without analysis.
//
// Browse needs, of an article, the tokens that hold a query term (their
// term and character span) and each candidate element's length in tokens;
// a snippet needs the same tokens. Both were computed by analysing the
// whole article again at query time, which was most of a search's time
// (docs/performance.md). A build now keeps them: the text field is indexed
// with a location per token in Bleve's postings (its term vectors, holding
// the token's character offset and length rather than Bleve's position and
// byte offsets: textFreqs) and the elements' lengths are in the article's
// record (records.go). At query time the occurrences of the query's terms in
// the hits are read from the postings of those terms only — a character
// term (Term.Char) reads every indexed term holding its character
// (charTermRegexp), as fetch does. The tokens are those analysis gives
// that hold a query term, so browse's passages and scores and the snippets
// are the same as with the article analysed again (TestBrowseStoredSame).

// vectorTerms returns the terms of the text fields (textFields) whose
// occurrences browse needs for the query terms: each term, and for a
// character term every term of r's dictionaries holding its character
// (charTermRegexp), each once.
func vectorTerms(r bindex.IndexReader, terms []analysis.Term) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(t string) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, t := range terms {
		add(t.Text)
		if !t.Char {
			continue
		}
		rr, ok := r.(bindex.IndexReaderRegexp)
		if !ok {
			return nil, fmt.Errorf("index: a shard has no term dictionary search (%T)", r)
		}
		for _, field := range textFields {
			dict, err := rr.FieldDictRegexp(field, analysis.CharTermRegexp(t.Text))
			if err != nil {
				return nil, err
			}
			for {
				e, err := dict.Next()
				if err != nil {
					dict.Close()
					return nil, err
				}
				if e == nil {
					break
				}
				add(e.Term)
			}
			dict.Close()
		}
	}
	return out, nil
}

// textFields are the fields an article's tokens are in, each with a
// location per token: its body text and its auxiliary text.
var textFields = [2]string{"text", store.AuxField}

// readVectors returns, for each of the documents docs of a shard
// (internal numbers, increasing), the occurrences in its text of the terms
// (vectorTerms), by start, from their locations (textFreqs). On a scorch
// shard it reads the postings of the segments holding the documents only
// (segmentVectors); on another, through term field readers.
func readVectors(ctx context.Context, sr StoredReader, docs []uint64, terms []string) ([][]analysis.Token, error) {
	out := make([][]analysis.Token, len(docs))
	if sr.segs == nil {
		if err := readerVectors(ctx, sr.r, docs, terms, out); err != nil {
			return nil, err
		}
	}
	// docs increase, so each segment's documents follow one another
	for lo := 0; lo < len(docs) && sr.segs != nil; {
		i := sort.Search(len(sr.offs), func(x int) bool { return sr.offs[x] > docs[lo] }) - 1
		if i < 0 {
			return nil, fmt.Errorf("index: no document %d in a shard", docs[lo])
		}
		hi := lo + 1
		for hi < len(docs) && (i+1 == len(sr.offs) || docs[hi] < sr.offs[i+1]) {
			hi++
		}
		if err := segmentVectors(ctx, sr.segs[i], docs[lo:hi], sr.offs[i], terms, out[lo:hi]); err != nil {
			return nil, err
		}
		lo = hi
	}
	for _, toks := range out {
		sort.Slice(toks, func(i, j int) bool { return toks[i].Start < toks[j].Start })
	}
	return out, nil
}

// segmentVectors appends to out[j] the occurrences of the terms in the
// document docs[j] of the segment seg, whose first internal number is off
// (docs increasing). It looks each term up in this segment's dictionary
// alone: a term field reader would look it up in every segment of the
// shard, and build a vector per location.
func segmentVectors(ctx context.Context, seg *scorch.SegmentSnapshot, docs []uint64, off uint64, terms []string, out [][]analysis.Token) error {
	for _, field := range textFields {
		if err := fieldVectors(ctx, seg, field, docs, off, terms, out); err != nil {
			return err
		}
	}
	return nil
}

// fieldVectors is segmentVectors in one field.
func fieldVectors(ctx context.Context, seg *scorch.SegmentSnapshot, field string, docs []uint64, off uint64, terms []string, out [][]analysis.Token) error {
	dict, err := seg.Segment().Dictionary(field)
	if err != nil {
		return err
	}
	var pl segment.PostingsList
	var it segment.PostingsIterator
	for _, term := range terms {
		if err := ctx.Err(); err != nil {
			return err
		}
		if pl, err = dict.PostingsList([]byte(term), seg.Deleted(), pl); err != nil {
			return err
		}
		it = pl.Iterator(false, false, true, it)
		var p segment.Posting
		for j, doc := range docs {
			if p == nil || p.Number() < doc-off {
				// forward only: the iterator is past the posting it
				// returned last, which may be a later hit's
				if p, err = it.Advance(doc - off); err != nil {
					return err
				}
				if p == nil {
					break
				}
			}
			if p.Number() != doc-off {
				continue
			}
			start := 0
			for _, l := range p.Locations() {
				start += int(l.Pos())
				out[j] = append(out[j], analysis.Token{Term: term, Start: start, End: start + int(l.End())})
			}
		}
	}
	return nil
}

// readerVectors is readVectors through term field readers, into out.
func readerVectors(ctx context.Context, r bindex.IndexReader, docs []uint64, terms []string, out [][]analysis.Token) error {
	for _, field := range textFields {
		if err := readerFieldVectors(ctx, r, field, docs, terms, out); err != nil {
			return err
		}
	}
	return nil
}

// readerFieldVectors is readerVectors in one field.
func readerFieldVectors(ctx context.Context, r bindex.IndexReader, field string, docs []uint64, terms []string, out [][]analysis.Token) error {
	for _, term := range terms {
		if err := ctx.Err(); err != nil {
			return err
		}
		tfr, err := r.TermFieldReader(ctx, []byte(term), field, false, false, true)
		if err != nil {
			return err
		}
		var cur *bindex.TermFieldDoc
		var at uint64
		for i, doc := range docs {
			if cur == nil || at < doc {
				// forward only: advancing to a document before the
				// reader's makes Bleve open the term's postings again
				cur, err = tfr.Advance(InternalID(doc), &bindex.TermFieldDoc{})
				if err != nil {
					tfr.Close()
					return err
				}
				if cur == nil {
					break
				}
				at = binary.BigEndian.Uint64(cur.ID)
			}
			if at != doc {
				continue
			}
			start := 0
			for _, v := range cur.Vectors {
				start += int(v.Pos)
				out[i] = append(out[i], analysis.Token{Term: term, Start: start, End: start + int(v.End)})
			}
		}
		tfr.Close()
	}
	return nil
}

// matched are the tokens of an article that hold one of a query's terms.
type matched struct {
	terms []analysis.Term
	toks  []analysis.Token
}

// SetMatches keeps the article's tokens holding a term of terms, read from
// its term vectors.
func (d *StoredArticle) SetMatches(terms []analysis.Term, toks []analysis.Token) {
	d.match = &matched{terms: terms, toks: toks}
}

// QueryTokens returns the article's tokens that browse and Snippet need for
// the query terms: those read from the index for them (SetMatches), or,
// for an article read without them, all its tokens, analysed again.
func (d *StoredArticle) QueryTokens(terms []analysis.Term) []analysis.Token {
	if d.match != nil && slices.Equal(d.match.terms, terms) {
		return d.match.toks
	}
	return d.Tokens()
}

// Lens returns the lengths in tokens of the article's candidate elements:
// stored by the build, or counted on its tokens analysed again.
func (d *StoredArticle) Lens() []int {
	if len(d.Elems) == 0 {
		return nil
	}
	if d.elemLens != nil && len(d.elemLens) == len(d.Elems) {
		return d.elemLens
	}
	toks := d.Tokens()
	starts := make([]int, len(toks))
	for i, t := range toks {
		starts[i] = t.Start
	}
	spans := make([][2]int, len(d.Elems))
	for k, el := range d.Elems {
		spans[k] = [2]int{el.Start, el.End}
	}
	d.elemLens = ElemLens(starts, spans)
	return d.elemLens
}

// LoadMatches reads the matches of q's terms in the articles ds, the
// documents docs of shard reader r (parallel to ds, any order).
func LoadMatches(ctx context.Context, sr StoredReader, ds []*StoredArticle, docs []uint64, terms []analysis.Term) error {
	if len(ds) == 0 || len(terms) == 0 {
		return nil
	}
	order := make([]int, len(ds))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return docs[order[i]] < docs[order[j]] })
	sorted := make([]uint64, len(ds))
	for i, o := range order {
		sorted[i] = docs[o]
	}
	vt, err := vectorTerms(sr.r, terms)
	if err != nil {
		return err
	}
	raw, err := readVectors(ctx, sr, sorted, vt)
	if err != nil {
		return err
	}
	for i, o := range order {
		ds[o].SetMatches(terms, raw[i])
	}
	return nil
}

// InternalID is the Bleve internal id of a scorch document number.
func InternalID(doc uint64) bindex.IndexInternalID {
	return binary.BigEndian.AppendUint64(nil, doc)
}

// StoredReader finds a shard's documents by their internal number in
// their scorch segment (readVectors reads their term vectors there):
// without the look-up of the id in every segment's dictionary that
// Bleve's Document(id) makes (its cost grows with the number of
// segments). A reader that is not scorch's has no segments (segs nil).
type StoredReader struct {
	r    bindex.IndexReader
	segs []*scorch.SegmentSnapshot
	offs []uint64 // the segments' first internal numbers
}

// NewStoredReader returns the StoredReader of a shard's reader r.
func NewStoredReader(r bindex.IndexReader) StoredReader {
	out := StoredReader{r: r}
	if is, ok := r.(*scorch.IndexSnapshot); ok {
		out.segs = is.Segments()
		var off uint64
		for _, s := range out.segs {
			out.offs = append(out.offs, off)
			off += s.Segment().Count()
		}
	}
	return out
}

// ElemLens returns the lengths in tokens of elements with spans, given
// their article's token starts (increasing): the number of tokens that
// start inside each.
func ElemLens(starts []int, spans [][2]int) []int {
	out := make([]int, len(spans))
	for k, sp := range spans {
		lo, _ := slices.BinarySearch(starts, sp[0])
		hi, _ := slices.BinarySearch(starts, sp[1])
		out[k] = hi - lo
	}
	return out
}
