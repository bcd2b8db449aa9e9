package inex

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/readsim/readsim/effort"
)

// Span judgments: any collection judged by passages of documents, one
// passage a line (the README, "Genomics 2007 and other span collections"):
//
//	topic doc offset length [grade] [aspects]
//
// Columns are separated by tabs when the line holds a tab (then a column may
// hold spaces, as aspects do), else by spaces. The fifth column is the grade
// when it is an integer and the aspects otherwise; with six columns the
// fifth is the grade and the sixth the aspects. A passage without a grade
// has grade 1; grade 0 or less judges it non-relevant (its document is
// judged, the passage is not relevant text). Aspects are separated by `|`,
// each trimmed of white space. A document's lines may be many and need not
// be together; its grade is the largest of its lines'.
//
// The TREC 2007 Genomics gold standard is the form with exactly five
// tab-separated columns, the fifth always the aspects (NIST's
// trecgen2007_score.py reads them so: an empty field is one empty aspect),
// offsets counting bytes. Its files are Latin-1: readsim reads ids and
// aspects as bytes, whatever their encoding.
//
// Span judgments give no document length: the measures that simulate
// reading need --lengths (SetLengths).

// Unit is what offsets and lengths count.
type Unit uint8

// The units.
const (
	Chars Unit = iota // characters (INEX; span judgments by default)
	Bytes             // bytes (TREC Genomics: bytes of each article's HTML)
)

// String returns "chars" or "bytes".
func (u Unit) String() string {
	if u == Bytes {
		return "bytes"
	}
	return "chars"
}

// ParseUnit reads "chars" or "bytes".
func ParseUnit(s string) (Unit, error) {
	switch s {
	case "chars", "characters":
		return Chars, nil
	case "bytes":
		return Bytes, nil
	}
	return 0, fmt.Errorf("unknown unit %q (chars or bytes)", s)
}

// asciiSpace tells whether c is white space to trim (as Python 2's
// str.strip, which NIST's scorer uses): space, \t, \n, \v, \f, \r.
func asciiSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

func trimASCII(b []byte) []byte {
	for len(b) > 0 && asciiSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && asciiSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// spanFields splits a span line into dst: at tabs when it holds one (each
// column trimmed), else at spaces and tabs.
func spanFields(dst [][]byte, b []byte) [][]byte {
	if bytes.IndexByte(b, '\t') < 0 {
		return fields(dst, b)
	}
	dst = dst[:0]
	for {
		i := bytes.IndexByte(b, '\t')
		if i < 0 {
			return append(dst, trimASCII(b))
		}
		dst = append(dst, trimASCII(b[:i]))
		b = b[i+1:]
	}
}

// isGrade tells whether b is a relevance grade: an integer, maybe negative.
func isGrade(b []byte) bool {
	if len(b) > 1 && b[0] == '-' {
		b = b[1:]
	}
	_, ok := atoi(b)
	return ok
}

// spanHead tells whether columns 3 and 4 are integers (offset, length) and
// column 2 is not INEX's and trec_eval's "Q0".
func spanHead(f [][]byte) bool {
	if len(f) < 4 || string(f[1]) == "Q0" {
		return false
	}
	_, a := atoi(f[2])
	_, b := atoi(f[3])
	return a && b
}

// genomicsLine tells whether the line is the TREC Genomics gold standard's:
// five tab-separated columns, integers in the third and fourth, aspects
// (not an integer) in the fifth.
func genomicsLine(b []byte, tmp [][]byte) bool {
	if bytes.IndexByte(b, '\t') < 0 {
		return false
	}
	f := spanFields(tmp, b)
	return len(f) == 5 && spanHead(f) && !isGrade(f[4])
}

// spanQrelsLine tells whether the line reads as span judgments: four to six
// columns with integers in the third and fourth, the second not "Q0". Six
// space-separated columns are a TREC run's shape too: such a line counts
// only with an integer grade in the fifth.
func spanQrelsLine(b []byte, tmp [][]byte) bool {
	f := spanFields(tmp, b)
	if len(f) < 4 || len(f) > 6 || !spanHead(f) {
		return false
	}
	return len(f) < 6 || isGrade(f[4])
}

// trecQrelsLike tells whether four columns read as trec_eval's qrels (topic
// iteration document relevance) rather than span judgments (topic doc
// offset length): the iteration is "0" or "Q0", or the document is not a
// number, or the relevance not an integer.
func trecQrelsLike(fs [][]byte) bool {
	if len(fs) != 4 {
		return false
	}
	s := string(fs[1])
	return s == "0" || s == "Q0" || !spanHead(fs)
}

// detectQrels decides a judgments file's format from its first line: TREC
// Genomics (five tab-separated columns, aspects last), a run given by
// mistake (read as FOL, whose reader says so), TREC qrels (four columns, see
// trecQrelsLike), span judgments, or FOL. Span judgments whose first line
// names document "0" in column 2 read as TREC qrels or runs (whose column 2
// is "0" or "Q0"): such a file needs another first line.
func detectQrels(b []byte, fs [][]byte) QrelsFormat {
	var tmp [8][]byte
	switch {
	case genomicsLine(b, tmp[:0]):
		return GenomicsQrels
	case len(fs) == 6 && string(fs[1]) != "0" && spanQrelsLine(b, tmp[:0]):
		// a TREC run's shape, but column 2 is not Q0 or 0 and column 5
		// is an integer grade
		return SpanQrels
	case looksLikeRun(fs):
		return FOLQrels
	case trecQrelsLike(fs):
		return TRECQrels
	case spanQrelsLine(b, tmp[:0]):
		return SpanQrels
	case len(fs) == 4:
		return TRECQrels
	}
	return FOLQrels
}

// spanReader accumulates span judgments line by line.
type spanReader struct {
	q       *Qrels
	in      interner
	sf      [][]byte
	ids     map[string]map[goldKey]int // per topic: distinct passages
	aspects map[string]map[string]int  // per topic: distinct aspects
	asp     []int
	listed  map[string]map[int]int // per topic: the line each aspect was last listed on
	w       *warnings              // the judgments' warnings
}

type goldKey struct {
	doc        string
	start, end int
}

func newSpanReader(q *Qrels, w *warnings) *spanReader {
	return &spanReader{q: q, in: interner{}, ids: map[string]map[goldKey]int{}, aspects: map[string]map[string]int{}, listed: map[string]map[int]int{}, w: w}
}

// spanLine is what a line of span judgments gives besides its topic and
// document.
type spanLine struct {
	span       effort.Span
	grade      int
	aspects    []byte // the aspects column ('|'-separated)
	hasAspects bool
}

// line reads one non-blank line of span judgments.
func (r *spanReader) line(name string, ln int, b []byte) error {
	q := r.q
	r.sf = spanFields(r.sf, b)
	sl, err := r.columns(name, ln)
	if err != nil {
		return err
	}
	topic := r.in.get(r.sf[0])
	t := q.Topics[topic]
	if t == nil {
		t = q.newTopic(topic)
		r.ids[topic] = map[goldKey]int{}
		r.aspects[topic] = map[string]int{}
	}
	doc := r.in.get(r.sf[1])
	j := t.Docs[doc]
	if j == nil {
		j = &Judgment{Topic: topic, Article: doc, Line: ln}
		t.Docs[doc] = j
	}
	j.Grade = max(j.Grade, sl.grade)
	if sl.grade <= 0 {
		return nil
	}
	if sl.span.Start == sl.span.End {
		r.w.add("zero-length passages (kept, as NIST's scorer keeps them: their aspects count, they hold no character)", ln)
	}
	g := effort.GoldPassage{Span: sl.span}
	key := goldKey{doc, g.Start, g.End}
	ids := r.ids[topic]
	id, ok := ids[key]
	if !ok {
		id = len(ids)
		ids[key] = id
	} else {
		r.w.add("duplicate span judgments (the same passage of a document again: one passage, its aspects joined)", ln)
	}
	g.ID = id
	if sl.hasAspects {
		q.hasAspects = true
		g.Aspects = r.aspectIDs(topic, sl.aspects, ln)
	}
	j.Passages = append(j.Passages, g)
	return nil
}

// columns checks the columns of line ln (split into r.sf) and reads its
// passage, grade and aspects.
func (r *spanReader) columns(name string, ln int) (spanLine, error) {
	f := r.sf
	if r.q.Format == GenomicsQrels {
		if len(f) != 5 {
			return spanLine{}, errorf(name, ln, "%d columns, want 5 as the lines before (TREC Genomics judgments: topic<TAB>doc<TAB>offset<TAB>length<TAB>aspects)", len(f))
		}
	} else if len(f) < 4 || len(f) > 6 {
		return spanLine{}, errorf(name, ln, "%d columns, want 4 to 6 as the lines before (span judgments: topic doc offset length [grade] [aspects])", len(f))
	}
	if len(f[0]) == 0 || len(f[1]) == 0 {
		return spanLine{}, errorf(name, ln, "empty topic or document id")
	}
	off, err := intField(name, ln, "offset", f[2])
	if err != nil {
		return spanLine{}, err
	}
	n, err := intField(name, ln, "length", f[3])
	if err != nil {
		return spanLine{}, err
	}
	if off+n > MaxLength {
		return spanLine{}, errorf(name, ln, "passage %d:%d ends past %d: not a document readsim reads", off, n, MaxLength)
	}
	sl := spanLine{span: effort.Span{Start: off, End: off + n}, grade: 1}
	switch {
	case len(f) == 6:
		if sl.grade, err = gradeField(name, ln, f[4]); err != nil {
			return spanLine{}, err
		}
		sl.aspects, sl.hasAspects = f[5], len(f[5]) > 0
	case len(f) == 5 && (r.q.Format == GenomicsQrels || !isGrade(f[4])):
		sl.aspects, sl.hasAspects = f[4], r.q.Format == GenomicsQrels || len(f[4]) > 0
	case len(f) == 5:
		if sl.grade, err = gradeField(name, ln, f[4]); err != nil {
			return spanLine{}, err
		}
	}
	return sl, nil
}

// aspectIDs returns the numbers of the distinct aspects of an aspects
// column ('|'-separated) of topic, numbering new ones in order. A repeat
// within the column is found by the line each aspect was last listed on
// (r.listed), so that a line of a million aspects costs a million steps.
func (r *spanReader) aspectIDs(topic string, aspects []byte, ln int) []int {
	as := r.aspects[topic]
	r.asp = r.asp[:0]
	for a := range bytes.SplitSeq(aspects, []byte{'|'}) {
		s := trimASCII(a)
		k, ok := as[string(s)]
		if !ok {
			k = len(as)
			as[string(s)] = k
		}
		if r.listed[topic] == nil {
			r.listed[topic] = map[int]int{}
		}
		if r.listed[topic][k] != ln {
			r.listed[topic][k] = ln
			r.asp = append(r.asp, k)
		}
	}
	return append([]int(nil), r.asp...)
}

// finish counts the topics' distinct passages and aspects and derives every
// judgment's relevant text.
func (r *spanReader) finish() {
	for id, t := range r.q.Topics {
		t.GoldPassages = len(r.ids[id])
		t.Aspects = len(r.aspects[id])
	}
	r.q.derive(nil)
}

// derive sets every span judgment's relevant text (Rel, the union of its
// relevant passages clipped to its length when known) and the topics'
// counts, calling clipped(line) for each judgment with a passage past its
// document's length.
func (q *Qrels) derive(clipped func(line int)) {
	for _, t := range q.Topics {
		t.Trel, t.RelChars = 0, 0
		for _, j := range t.Docs {
			rel := make(effort.Spans, 0, len(j.Passages))
			for _, g := range j.Passages {
				rel = append(rel, g.Span)
			}
			rel = effort.Normalize(rel)
			if q.LengthsFile != "" {
				if n := len(rel); n > 0 && rel[n-1].End > j.Length {
					if clipped != nil {
						clipped(j.Line)
					}
					rel = rel.Clip(0, j.Length)
					for i := range j.Passages {
						g := &j.Passages[i].Span
						g.Start, g.End = min(g.Start, j.Length), min(g.End, j.Length)
					}
				}
			}
			j.Rel, j.NRC = rel, rel.Len()
			j.Rsize = j.NRC
			if j.Relevant() {
				t.Trel++
				t.RelChars += j.NRC
			}
		}
	}
}

// folPassages gives FOL judgments their relevant passages for the span
// measures: the spans of Rel (normalised: INEX's highlighted passages,
// merged and ordered), numbered per topic.
func (q *Qrels) folPassages() {
	var rel []*Judgment
	for _, t := range q.Topics {
		// the relevant judgments in line order (most judgments are not
		// relevant: ordering only these keeps reading the judgments fast)
		rel = rel[:0]
		for _, j := range t.Docs {
			if j.Relevant() {
				rel = append(rel, j)
			}
		}
		slices.SortFunc(rel, func(a, b *Judgment) int { return cmp.Compare(a.Line, b.Line) })
		n := 0
		for _, j := range rel {
			j.Passages = make([]effort.GoldPassage, len(j.Rel))
			for i, s := range j.Rel {
				j.Passages[i] = effort.GoldPassage{Span: s, ID: n}
				n++
			}
		}
		t.GoldPassages = n
	}
}

// docOrder returns t's judged documents in the judgments' line order.
func (q *Qrels) docOrder(t *TopicJudgments) []string {
	ids := make([]string, 0, len(t.Docs))
	for id := range t.Docs {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(a, b int) bool { return t.Docs[ids[a]].Line < t.Docs[ids[b]].Line })
	return ids
}

// OpenQrelsWith reads judgments (OpenQrels) and, for span judgments, gives
// them the unit of their offsets (nil: their format's own, SetUnit) and
// the documents' lengths of the file lengths ("": none, SetLengths), as
// readsim eval and compare --offsets and --lengths ask.
func OpenQrelsWith(path string, unit *Unit, lengths string, warn func(string)) (*Qrels, error) {
	q, err := OpenQrels(path, warn)
	if err != nil {
		return nil, err
	}
	if unit != nil {
		if err := q.SetUnit(*unit); err != nil {
			return nil, err
		}
	}
	if lengths != "" {
		ls, err := OpenLengths(lengths)
		if err != nil {
			return nil, err
		}
		if err := q.SetLengths(ls, lengths, warn); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// SetLengths gives span judgments their documents' lengths (lengths maps a
// document id to its length, read from file by ReadLengths), which the
// measures that simulate reading need. Every judged document must have one;
// passages past a document's end are clipped, with one warning. FOL
// judgments give their own lengths and TREC qrels judge whole documents:
// both are an error.
func (q *Qrels) SetLengths(lengths map[string]int, file string, warn func(string)) error {
	switch q.Format {
	case FOLQrels:
		return &Error{File: q.File, Err: fmt.Errorf("INEX judgments give their articles' lengths: --lengths %s is for span judgments", file)}
	case TRECQrels:
		return &Error{File: q.File, Err: fmt.Errorf("TREC qrels judge whole documents: --lengths %s is for span judgments", file)}
	}
	for _, id := range q.IDs {
		t := q.Topics[id]
		for _, doc := range q.docOrder(t) {
			n, ok := lengths[doc]
			if !ok {
				return &Error{File: file, Err: fmt.Errorf("document %s, judged at %s:%d (topic %s), has no length", doc, q.File, t.Docs[doc].Line, id)}
			}
			t.Docs[doc].Length = n
		}
	}
	q.LengthsFile = file
	var w warnings
	q.derive(func(line int) { w.add("passages past the document's length (clipped)", line) })
	w.emit(q.File, warn)
	return nil
}

// SetUnit says what the judgments' offsets count. INEX judgments count
// characters (bytes is an error) and TREC qrels have no offsets (any unit
// is an error).
func (q *Qrels) SetUnit(u Unit) error {
	switch {
	case q.Format == TRECQrels:
		return &Error{File: q.File, Err: fmt.Errorf("TREC qrels judge whole documents: they have no offsets in %s", u)}
	case q.Format == FOLQrels && u != Chars:
		return &Error{File: q.File, Err: fmt.Errorf("INEX judgments count characters: --offsets %s is for span judgments", u)}
	}
	q.Unit = u
	return nil
}

// MaxLengthsLines bounds a lengths file: one line per document.
const MaxLengthsLines = 20_000_000

// OpenLengths reads a lengths file (gzip or not): `doc length` per line.
func OpenLengths(path string) (map[string]int, error) {
	r, closeFn, err := open(path)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	return ReadLengths(path, r)
}

// ReadLengths reads document lengths, `doc length` per line (space or tab
// separated; blank lines skipped), from r; name names it in errors. A
// document given two different lengths, a wrong column count, a negative
// or non-numeric length or an empty file is an error.
func ReadLengths(name string, r io.Reader) (map[string]int, error) {
	rr, err := maybeGunzip(name, r)
	if err != nil {
		return nil, err
	}
	lr := newLineReader(name, rr)
	out := map[string]int{}
	line := map[string]int{}
	var fs [][]byte
	for b := range lr.nonBlank() {
		ln := lr.line
		if len(out) >= MaxLengthsLines {
			return nil, errorf(name, ln, "more than %d documents", MaxLengthsLines)
		}
		fs = fields(fs, b)
		if len(fs) != 2 {
			return nil, errorf(name, ln, "%d columns, want 2 (lengths: doc length)", len(fs))
		}
		n, err := intField(name, ln, "length", fs[1])
		if err != nil {
			return nil, err
		}
		if err := idField(name, ln, "document id", fs[0]); err != nil {
			return nil, err
		}
		doc := string(fs[0])
		if prev, ok := out[doc]; ok && prev != n {
			return nil, errorf(name, ln, "document %s has two lengths, %d (line %d) and %d", doc, prev, line[doc], n)
		}
		if _, ok := out[doc]; !ok {
			out[doc], line[doc] = n, ln
		}
	}
	if lr.err != nil {
		return nil, lr.err
	}
	if len(out) == 0 {
		return nil, &Error{File: name, Err: fmt.Errorf("empty file: no lengths")}
	}
	return out, nil
}

// isPassage tells whether b is a FOL passage, offset:length.
func isPassage(b []byte) bool {
	o, l, ok := bytes.Cut(b, []byte{':'})
	_, a := atoi(o)
	_, c := atoi(l)
	return ok && a && c
}
