package inex

import (
	"bytes"
	"errors"
	"io"
	"sort"
	"strconv"
	"sync"

	"github.com/readsim/readsim/effort"
)

// Judgment is one line of judgments: an article judged for a topic.
type Judgment struct {
	Topic, Article string
	// Rsize is the relevant characters the line declares; Length the article
	// length; BEP the best entry point (FOL judgments; 0 in TREC qrels).
	Rsize, Length, BEP int
	// Rel is the union of the highlighted passages clipped to [0,Length).
	Rel effort.Spans
	// NRC is |Rel|, the relevant characters (readsim uses it, not Rsize).
	NRC int
	// Grade is the relevance grade: a TREC qrels line's level, or for FOL
	// judgments 1 when the article holds relevant text and 0 otherwise.
	// The article is relevant when Grade > 0 (trec_eval's relevance level 1).
	Grade int
	// Unjudged marks a TREC qrels line of negative relevance (read as
	// Grade 0): in the pool but not judged, as trec_eval's infAP and bpref
	// see it.
	Unjudged bool
	// Line is the judgment's line (its first, for span judgments).
	Line int
	// Passages are the relevant passages for the span measures (PASSAGE,
	// ASPECT): a span judgment's relevant lines in line order, with their
	// aspects; for FOL judgments the spans of Rel, once
	// Qrels.NumberPassages has run.
	Passages []effort.GoldPassage
}

// Relevant tells whether the article is relevant to the topic.
func (j *Judgment) Relevant() bool { return j.Grade > 0 }

// TopicJudgments are the judgments of one topic.
type TopicJudgments struct {
	ID   string
	Docs map[string]*Judgment
	// Trel counts the relevant articles (Grade > 0); RelChars sums their NRC.
	Trel, RelChars int
	// Ideal are the grades of the relevant articles, highest first (nDCG's
	// ideal ranking).
	Ideal []int
	// GoldPassages counts the distinct relevant passages (PASSAGE) and
	// Aspects the distinct aspects of the span judgments (ASPECT). For FOL
	// judgments GoldPassages is set by Qrels.NumberPassages.
	GoldPassages, Aspects int
}

// QrelsFormat is the format of a judgments file.
type QrelsFormat int

// The judgment formats.
const (
	// FOLQrels are INEX judgments: topic Q0 article rsize length bep offset:length…
	FOLQrels QrelsFormat = iota
	// TRECQrels are trec_eval's: topic iteration document relevance. They
	// judge whole documents: no passage, no length.
	TRECQrels
	// SpanQrels are span judgments (span.go): topic doc offset length
	// [grade] [aspects], one passage a line; no length (SetLengths).
	SpanQrels
	// GenomicsQrels are the TREC 2007 Genomics gold standard, span
	// judgments of five tab-separated columns, topic doc offset length
	// aspects, offsets in bytes.
	GenomicsQrels
)

// String names the format for messages.
func (f QrelsFormat) String() string {
	switch f {
	case TRECQrels:
		return "TREC qrels"
	case SpanQrels:
		return "span judgments"
	case GenomicsQrels:
		return "TREC Genomics judgments"
	}
	return "INEX FOL judgments"
}

// Qrels are the judgments of a file.
type Qrels struct {
	File   string
	Format QrelsFormat
	Topics map[string]*TopicJudgments
	// IDs are the topic ids in SortTopics order.
	IDs []string
	// Unit is what offsets and lengths count: characters (INEX, span
	// judgments by default) or bytes (TREC Genomics); see SetUnit.
	Unit Unit
	// LengthsFile names the file that gave span judgments their documents'
	// lengths (SetLengths); "" when none did.
	LengthsFile string
	hasAspects  bool
	// gold numbers FOL judgments' relevant passages once, on first need
	// (NumberPassages).
	gold sync.Once
}

// NumberPassages gives FOL judgments their relevant passages for the span
// measures (PASSAGE, ASPECT, PASSAGE2, charAP), numbered per topic, the first
// time it is called; span judgments have theirs from reading. The work waits
// for a span measure: most evaluations of INEX judgments ask none, and
// numbering every judgment was a third of reading them. Safe for concurrent
// use.
func (q *Qrels) NumberPassages() {
	if q.Format == FOLQrels {
		q.gold.Do(q.folPassages)
	}
}

// Passages tells whether the judgments give relevant passages (FOL and
// span judgments do; TREC qrels judge whole documents).
func (q *Qrels) Passages() bool { return q.Format != TRECQrels }

// Lengths tells whether the judgments give the documents' lengths, which
// the measures that simulate reading need: FOL judgments do, span
// judgments after SetLengths.
func (q *Qrels) Lengths() bool { return q.Format == FOLQrels || q.LengthsFile != "" }

// Aspects tells whether the judgments give aspects (ASPECT needs them).
func (q *Qrels) Aspects() bool { return q.hasAspects }

// Characters tells whether the judgments give relevant passages and
// article lengths, which every character measure needs.
func (q *Qrels) Characters() bool { return q.Passages() && q.Lengths() }

// OpenQrels reads judgments from path (gzip or not): FOL, TREC qrels, span
// or TREC Genomics judgments (ReadQrels). warn, if not nil, receives the
// warnings (one per kind of problem, with a count).
func OpenQrels(path string, warn func(string)) (*Qrels, error) {
	r, closeFn, err := open(path)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	return ReadQrels(path, r, warn)
}

// ReadQrels reads judgments from r; name names it in errors. The format is
// decided from the first line (detectQrels) and every line must follow it:
//
//   - FOL judgments, `topic Q0 article rsize length bep offset:length …`:
//     lines whose passages disagree with rsize, run past length or overlap
//     are accepted with a warning and normalised (union, clipped); a
//     repeated topic–article pair is an error;
//   - TREC qrels, `topic iteration document relevance` (four columns, the
//     iteration "0" or "Q0" or the document not a number);
//   - span judgments, `topic doc offset length [grade] [aspects]`, and the
//     TREC 2007 Genomics gold standard, `topic<TAB>doc<TAB>offset<TAB>
//     length<TAB>aspects` (span.go); bytes are read as they are (Latin-1
//     files are never refused).
//
// A wrong column count, a negative or non-numeric field, a run given as
// judgments or an empty file is an error naming the line.
func ReadQrels(name string, r io.Reader, warn func(string)) (*Qrels, error) {
	r, err := maybeGunzip(name, r)
	if err != nil {
		return nil, err
	}
	lr := newLineReader(name, r)
	qr := &qrelsReader{name: name, q: &Qrels{File: name, Topics: map[string]*TopicJudgments{}}, in: interner{}}
	q := qr.q
	lines := 0
	for b := range lr.nonBlank() {
		lines++
		qr.fs = fields(qr.fs, b)
		if lines == 1 {
			qr.detect(b)
		}
		if err := qr.line(lr.line, b); err != nil {
			return nil, err
		}
	}
	if lr.err != nil {
		return nil, lr.err
	}
	if lines == 0 {
		return nil, &Error{File: name, Err: errors.New("empty file: no judgments")}
	}
	if qr.sp != nil {
		qr.sp.finish()
	}
	SortTopics(q.IDs)
	for _, t := range q.Topics {
		t.setIdeal()
	}
	qr.w.emit(name, warn)
	return q, nil
}

// setIdeal sets t.Ideal from its judgments.
func (t *TopicJudgments) setIdeal() {
	t.Ideal = t.Ideal[:0]
	for _, j := range t.Docs {
		if j.Relevant() {
			t.Ideal = append(t.Ideal, j.Grade)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(t.Ideal)))
}

// qrelsReader is the state of ReadQrels between lines.
type qrelsReader struct {
	name string
	q    *Qrels
	in   interner
	fs   [][]byte // the fields of the line being read
	w    warnings
	sp   *spanReader // the reader of span judgments; nil for other formats
}

// detect sets the format of the judgments from their first line b (split
// into r.fs).
func (r *qrelsReader) detect(b []byte) {
	q := r.q
	q.Format = detectQrels(b, r.fs)
	if q.Format == SpanQrels || q.Format == GenomicsQrels {
		r.sp = newSpanReader(q, &r.w)
	}
	if q.Format == GenomicsQrels {
		q.Unit = Bytes
	}
}

// line reads the non-blank line ln, b (split into r.fs).
func (r *qrelsReader) line(ln int, b []byte) error {
	name, fs := r.name, r.fs
	// the topic is column 0; the document column 1 of span judgments, 2
	// of FOL judgments and TREC qrels
	doc := 2
	if r.sp != nil {
		doc = 1
	}
	if err := idField(name, ln, "topic id", fs[0]); err != nil {
		return err
	}
	if len(fs) > doc {
		if err := idField(name, ln, "document id", fs[doc]); err != nil {
			return err
		}
	}
	switch {
	case r.sp != nil:
		return r.sp.line(name, ln, b)
	case r.q.Format == TRECQrels:
		if len(fs) != 4 {
			return errorf(name, ln, "%d columns, want 4 as the lines before (TREC qrels: topic iteration document relevance)", len(fs))
		}
		grade, err := gradeField(name, ln, fs[3])
		if err != nil {
			return err
		}
		j := &Judgment{Line: ln, Topic: r.in.get(fs[0]), Article: string(fs[2]), Grade: grade}
		j.Unjudged = len(fs[3]) > 1 && fs[3][0] == '-'
		return r.q.add(name, j.Topic, j)
	case looksLikeRun(fs):
		return errorf(name, ln, "this looks like a run, not judgments: give the judgments with --qrels and the run as an argument")
	case len(fs) < 6:
		return errorf(name, ln, "%d columns, want at least 6 (FOL judgments: topic Q0 article rsize length bep [offset:length]…) or 4 (TREC qrels: topic iteration document relevance)", len(fs))
	}
	return r.folLine(ln)
}

// folLine reads line ln of FOL judgments (split into r.fs, at least 6
// columns).
func (r *qrelsReader) folLine(ln int) error {
	name, fs := r.name, r.fs
	j := &Judgment{Line: ln, Topic: r.in.get(fs[0]), Article: string(fs[2])}
	var err error
	if j.Rsize, err = intField(name, ln, "rsize", fs[3]); err != nil {
		return err
	}
	if j.Length, err = intField(name, ln, "length", fs[4]); err != nil {
		return err
	}
	if j.BEP, err = intField(name, ln, "bep", fs[5]); err != nil {
		return err
	}
	ps := make([]effort.Span, 0, len(fs)-6)
	past, overlap := false, false
	for _, f := range fs[6:] {
		o, l, ok := bytes.Cut(f, []byte{':'})
		if !ok {
			return errorf(name, ln, "passage %q is not offset:length", f)
		}
		off, err := intField(name, ln, "passage offset", o)
		if err != nil {
			return err
		}
		n, err := intField(name, ln, "passage length", l)
		if err != nil {
			return err
		}
		if off+n > j.Length {
			past = true
		}
		if n == 0 {
			r.w.add("zero-length passages (ignored)", ln)
		}
		if k := len(ps); k > 0 && off < ps[k-1].End {
			overlap = true
		}
		ps = append(ps, effort.Span{Start: off, End: off + n})
	}
	rel := effort.Normalize(ps).Clip(0, j.Length)
	j.Rel = rel
	j.NRC = rel.Len()
	if past {
		r.w.add("passages past the article's length (clipped)", ln)
	}
	if j.BEP > j.Length {
		r.w.add("bep past the article's length", ln)
	}
	if overlap {
		r.w.add("overlapping or unordered passages (merged)", ln)
	}
	if j.NRC != j.Rsize {
		r.w.add("rsize different from the highlighted characters (the passages are used)", ln)
	}
	if j.NRC > 0 {
		j.Grade = 1
	}
	return r.q.add(name, j.Topic, j)
}

// add files the judgment j of topic; a repeated topic–article pair is an error.
func (q *Qrels) add(name, topic string, j *Judgment) error {
	t := q.Topics[topic]
	if t == nil {
		t = q.newTopic(topic)
	}
	if prev := t.Docs[j.Article]; prev != nil {
		return errorf(name, j.Line, "topic %s, article %s judged twice (lines %d and %d)", topic, j.Article, prev.Line, j.Line)
	}
	t.Docs[j.Article] = j
	if j.Relevant() {
		t.Trel++
		t.RelChars += j.NRC
	}
	return nil
}

// newTopic adds topic id, with no judgment yet, and returns it.
func (q *Qrels) newTopic(id string) *TopicJudgments {
	t := &TopicJudgments{ID: id, Docs: map[string]*Judgment{}}
	q.Topics[id] = t
	q.IDs = append(q.IDs, id)
	return t
}

// gradeField parses a TREC relevance level: an integer, negative ones (some
// collections mark spam or unjudged that way) read as 0.
func gradeField(file string, line int, b []byte) (int, error) {
	neg := len(b) > 1 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	n, ok := atoi(b)
	if !ok || n > 1000 {
		return 0, errorf(file, line, "relevance %q is not an integer from -1000 to 1000", b)
	}
	if neg {
		return 0, nil
	}
	return n, nil
}

// looksLikeRun tells whether a line's fields look like a run's: a FOL run
// line (a number with a decimal point or an exponent as rsv, a run id, then
// offset and length), a TREC run line (a score, then a run id that is not a
// number where a judgment has its best entry point) or a TREC Genomics run
// line (topic doc rank score offset length run-id: integers but the score).
func looksLikeRun(fs [][]byte) bool {
	if len(fs) == 7 {
		if string(fs[1]) == "Q0" || isPassage(fs[6]) {
			return false // a FOL judgment with one passage
		}
		_, a := atoi(fs[2])
		_, b := parseFloat(fs[3])
		_, c := atoi(fs[4])
		_, d := atoi(fs[5])
		return a && b && c && d
	}
	if len(fs) != 6 && len(fs) != 8 {
		return false
	}
	if _, isInt := atoi(fs[5]); isInt {
		return false // a judgment's bep
	}
	if _, ok := parseFloat(fs[4]); !ok {
		return false
	}
	if len(fs) == 8 {
		_, a := atoi(fs[6])
		_, b := atoi(fs[7])
		return a && b
	}
	return true
}

// SortTopics sorts topic ids numerically when both are integers, else as
// strings (integers first).
func SortTopics(ids []string) {
	sort.Slice(ids, func(i, j int) bool { return TopicLess(ids[i], ids[j]) })
}

// TopicLess orders topic ids: numerically when both are integers, else as strings.
func TopicLess(a, b string) bool {
	x, errA := strconv.ParseUint(a, 10, 63)
	y, errB := strconv.ParseUint(b, 10, 63)
	switch {
	case errA == nil && errB == nil:
		if x != y {
			return x < y
		}
		return a < b
	case errA == nil:
		return true
	case errB == nil:
		return false
	}
	return a < b
}

// warnings counts problems by kind, remembering the first line of each.
type warnings struct {
	kinds []string
	count map[string]int
	first map[string]int
}

func (w *warnings) add(kind string, line int) {
	if w.count == nil {
		w.count, w.first = map[string]int{}, map[string]int{}
	}
	if w.count[kind] == 0 {
		w.kinds = append(w.kinds, kind)
		w.first[kind] = line
	}
	w.count[kind]++
}

func (w *warnings) emit(file string, warn func(string)) {
	if warn == nil {
		return
	}
	for _, k := range w.kinds {
		n := w.count[k]
		s := "s"
		if n == 1 {
			s = ""
		}
		warn(file + ":" + strconv.Itoa(w.first[k]) + ": warning: " + k + ": " + strconv.Itoa(n) + " line" + s + " (first at this line)")
	}
}
