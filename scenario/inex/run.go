package inex

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/readsim/readsim/effort"
)

// Format is the format of a run file.
type Format int

// The run formats of formats.md.
const (
	FOL      Format = iota // topic Q0 article rank rsv run-id offset length
	TREC                   // topic Q0 article rank score run-id (full documents)
	XML                    // INEX XML submission
	Genomics               // topic doc rank score offset length run-id (TREC Genomics; any span collection)
)

// Result is one result of a run: a passage [Start,End) of an article, a
// whole article (Full), or an entry point (Entry >= 0, no text).
type Result struct {
	Article string
	effort.Span
	Full bool
	// Entry is the best entry point of a <bep> result, -1 otherwise.
	Entry int
	// Score is the result's rsv (score) column.
	Score float64
	// Rank is the result's rank column (0 when the run has none: see
	// Run.Ranked).
	Rank int
	// Line is the line of the result in the run file.
	Line int
}

// RunTopic is the results of one topic, in rank (line) order.
type RunTopic struct {
	ID      string
	Results []Result
}

// Run is a parsed run file.
type Run struct {
	File   string
	ID     string
	Format Format
	// Topics are in order of first appearance.
	Topics []*RunTopic
	// Lines is the number of results read.
	Lines int
	// Ranked tells whether the results have a rank column (text runs do);
	// otherwise a result's rank is its position in its topic.
	Ranked bool
	// OrderWarning is the warning that the rank or score columns of a TREC
	// run disagree with its line order, held back by the reader (Warn is
	// not given it): it concerns only the measures that rank by line order
	// (effort.Measure.RanksByLine), and the evaluation gives it when one
	// of them is asked. Empty for the other formats, warned at once.
	OrderWarning string
}

// PathResolver turns an element's XPath in an article into its character
// span. The article model (package index/article) implements it over
// --articles DIR.
type PathResolver interface {
	Span(article, xpath string) (start, end int, err error)
}

// RunOptions configures ReadRun.
type RunOptions struct {
	// Warn receives warnings, one per kind of problem with a count.
	Warn func(string)
	// Resolver resolves the <path> elements of XML submissions; without it
	// such results are an error.
	Resolver PathResolver
	// TopicRead, when set, is given each topic of a text run as soon as its
	// lines end (the next topic starts), with its results so far; an error
	// stops the reading at once. It lets an evaluation find what it would
	// refuse in a topic (a repeated result) when the topic is read, not
	// after the whole file.
	TopicRead func(*RunTopic) error
}

// OpenRun reads a run file (FOL, TREC or XML, detected from the content;
// gzip or not).
func OpenRun(path string, opt RunOptions) (*Run, error) {
	r, closeFn, err := open(path)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	return ReadRun(path, r, opt)
}

// ReadRun reads a run from r; name names it in errors. The format is
// detected: a first non-blank character '<' means an XML submission,
// otherwise each line is FOL (8 columns) or TREC (6 columns), or every line
// is TREC Genomics (7 columns: topic doc rank score offset length run-id).
// Within a topic the line order is the rank of INEX's measures; a warning
// counts the lines whose rank or rsv disagrees with it (for a Genomics run,
// whose official measures order passages by the rank column, the lines
// whose rank does).
func ReadRun(name string, r io.Reader, opt RunOptions) (*Run, error) {
	r, err := maybeGunzip(name, r)
	if err != nil {
		return nil, err
	}
	br := r.(*bufio.Reader)
	// Sniff the format without consuming anything, so that the readers count
	// every line, blank ones included. Leading blanks longer than the
	// buffer are read as a text run.
	for n := 1; n <= br.Size(); n++ {
		b, err := br.Peek(n)
		if len(b) < n {
			if err != nil && err != io.EOF {
				return nil, &Error{File: name, Err: err}
			}
			if n == 1 {
				return nil, &Error{File: name, Err: errors.New("empty file: no results")}
			}
			break
		}
		c := b[n-1]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			continue
		}
		if c == '<' {
			return readXML(name, br, opt)
		}
		break
	}
	return readText(name, br, opt)
}

// Messages of a text run that is judgments given by mistake.
const (
	errQrelsNotRun = "this looks like judgments (qrels), not a run: give the judgments with --qrels and the run as an argument"
	errSpansNotRun = "this looks like judgments (span or TREC Genomics), not a run: give the judgments with --qrels and the run as an argument"
)

// The formats seen so far among the lines of a text run (textReader.formats).
const (
	sawFOL      = 1
	sawTREC     = 2
	sawGenomics = 4
)

// textReader is the state of readText between lines: the run so far, the
// formats seen and the topic being read.
type textReader struct {
	name        string
	run         *Run
	in          interner
	byID        map[string]*RunTopic
	fs          [][]byte
	tmp         [8][]byte
	w           warnings
	cur         *RunTopic
	lastRank    int
	lastRSV     float64
	formats     int // sawFOL | sawTREC | sawGenomics
	prevArticle string
	done        func(*RunTopic) error // RunOptions.TopicRead
}

// runColumns are the columns of a text run line's article, rank, rsv and
// run id (the topic is column 0 in every format).
type runColumns struct{ article, rank, rsv, id int }

// readText reads a text run: FOL, TREC or TREC Genomics lines (ReadRun).
func readText(name string, r io.Reader, opt RunOptions) (*Run, error) {
	lr := newLineReader(name, r)
	t := &textReader{name: name, run: &Run{File: name, Format: FOL, Ranked: true}, in: interner{}, byID: map[string]*RunTopic{}, done: opt.TopicRead}
	for b := range lr.nonBlank() {
		if err := t.line(lr.line, b); err != nil {
			return nil, err
		}
	}
	if lr.err != nil {
		return nil, lr.err
	}
	run := t.run
	if run.Lines == 0 {
		return nil, &Error{File: name, Err: errors.New("empty file: no results")}
	}
	switch t.formats {
	case sawTREC:
		run.Format = TREC
		run.OrderWarning = t.w.take(name, kindOrder)
	case sawGenomics:
		run.Format = Genomics
	}
	t.w.emit(name, opt.Warn)
	return run, nil
}

// line reads line ln, b, of a text run: one result.
func (t *textReader) line(ln int, b []byte) error {
	t.fs = fields(t.fs, b)
	fs := t.fs
	p, c, err := t.columns(ln, b)
	if err != nil {
		return err
	}
	rank, ok := atoi(fs[c.rank])
	if !ok || rank > MaxRank {
		_, err := rankField(t.name, ln, fs[c.rank])
		return err
	}
	rsv, ok := parseFloat(fs[c.rsv])
	if !ok {
		return scoreError(t.name, ln, "rsv", fs[c.rsv])
	}
	if string(fs[c.article]) != t.prevArticle {
		if err := idField(t.name, ln, "article id", fs[c.article]); err != nil {
			return err
		}
	}
	if t.cur == nil || t.cur.ID != string(fs[0]) {
		if err := idField(t.name, ln, "topic id", fs[0]); err != nil {
			return err
		}
	}
	if !p.Full && p.Start == p.End {
		t.w.add("zero-length passages (they retrieve nothing)", ln)
	}
	run := t.run
	if run.ID == "" {
		run.ID = string(fs[c.id])
	} else if string(fs[c.id]) != run.ID {
		t.w.add("run id differs from the first line's (readsim names the run by the first line's; trec_eval by the last's)", ln)
	}
	topic := t.in.get(fs[0])
	if string(fs[c.article]) == t.prevArticle {
		p.Article = t.prevArticle
	} else {
		p.Article = string(fs[c.article])
		t.prevArticle = p.Article
	}
	p.Score, p.Rank = rsv, rank
	return t.add(topic, p)
}

// columns checks the columns of line ln, b (split into t.fs) against the
// format of the lines before, and returns its result with the passage read
// (Line, Start, End, Full, Entry set) and where its other columns are.
func (t *textReader) columns(ln int, b []byte) (Result, runColumns, error) {
	name, fs := t.name, t.fs
	p := Result{Line: ln, Entry: -1}
	c := runColumns{article: 2, rank: 3, rsv: 4, id: 5}
	if bytes.IndexByte(b, '\t') >= 0 && spanQrelsLine(b, t.tmp[:0]) {
		return p, c, errorf(name, ln, errSpansNotRun)
	}
	switch {
	case t.formats == sawGenomics && len(fs) != 7:
		return p, c, errorf(name, ln, "%d columns, want 7 as the lines before (TREC Genomics: topic doc rank score offset length run-id)", len(fs))
	case len(fs) == 7 && string(fs[1]) == "Q0" && isPassage(fs[6]):
		return p, c, errorf(name, ln, errQrelsNotRun)
	case len(fs) == 7 && (t.formats&(sawFOL|sawTREC) != 0 || string(fs[1]) == "Q0"):
		// a FOL or TREC line with a column too many or too few
		return p, c, errorf(name, ln, "7 columns, want 8 (FOL: topic Q0 article rank rsv run-id offset length) or 6 (TREC: topic Q0 article rank score run-id)")
	}
	var err error
	switch len(fs) {
	case 7:
		t.formats |= sawGenomics
		c = runColumns{article: 1, rank: 2, rsv: 3, id: 6}
		p.Span, err = t.passage(ln, fs[4], fs[5])
		if err == nil && p.End > MaxLength {
			err = errorf(name, ln, "passage %d:%d ends past %d: not a document readsim reads", p.Start, p.End-p.Start, MaxLength)
		}
	case 8:
		if looksLikeQrels(fs) {
			return p, c, errorf(name, ln, errQrelsNotRun)
		}
		t.formats |= sawFOL
		p.Span, err = t.passage(ln, fs[6], fs[7])
	case 6:
		t.formats |= sawTREC
		p.Full = true
	default:
		if spanQrelsLine(b, t.tmp[:0]) {
			return p, c, errorf(name, ln, errSpansNotRun)
		}
		if looksLikeQrels(fs) {
			return p, c, errorf(name, ln, errQrelsNotRun)
		}
		return p, c, errorf(name, ln, "%d columns, want 8 (FOL: topic Q0 article rank rsv run-id offset length) or 6 (TREC: topic Q0 article rank score run-id)", len(fs))
	}
	return p, c, err
}

// passage parses the offset and length columns of line ln.
func (t *textReader) passage(ln int, offset, length []byte) (effort.Span, error) {
	off, err := intField(t.name, ln, "offset", offset)
	if err != nil {
		return effort.Span{}, err
	}
	n, err := intField(t.name, ln, "length", length)
	if err != nil {
		return effort.Span{}, err
	}
	return effort.Span{Start: off, End: off + n}, nil
}

// add appends result p (of line p.Line) to topic's results, warning when
// the topic's lines are not together or when its rank or rsv disagrees
// with the line order.
func (t *textReader) add(topic string, p Result) error {
	ln, cur := p.Line, t.cur
	if cur == nil || cur.ID != topic {
		prevLen := 0
		if cur != nil {
			prevLen = len(cur.Results)
			if t.done != nil {
				if err := t.done(cur); err != nil {
					return err
				}
			}
		}
		cur = t.byID[topic]
		if cur == nil {
			// topics are usually alike in size: start where the last one ended
			cur = &RunTopic{ID: topic, Results: make([]Result, 0, prevLen)}
			t.byID[topic] = cur
			t.run.Topics = append(t.run.Topics, cur)
		} else {
			t.w.add("topic's lines are not contiguous (its results are joined in line order)", ln)
		}
		t.cur = cur
		t.lastRank, t.lastRSV = 0, 0
	}
	switch {
	case len(cur.Results) == 0:
	case t.formats == sawGenomics && p.Rank < t.lastRank:
		t.w.add("rank disagrees with the line order (DOCUMENT, PASSAGE, ASPECT and PASSAGE2 order passages by rank, as NIST's scorer; the other measures by line)", ln)
	case t.formats != sawGenomics && (p.Rank < t.lastRank || p.Score > t.lastRSV):
		t.w.add(kindOrder, ln)
	}
	t.lastRank, t.lastRSV = p.Rank, p.Score
	cur.Results = append(cur.Results, p)
	t.run.Lines++
	return nil
}

// kindOrder is the warning of the lines whose rank or rsv disagrees with
// the line order.
const kindOrder = "rank or rsv disagrees with the line order (the INEX measures rank by line order; AP, P[k], map, P_10… by score, as trec_eval)"

// take removes the warnings of kind from w and returns their message as
// emit would give it, or "" when there is none.
func (w *warnings) take(file, kind string) string {
	n := w.count[kind]
	if n == 0 {
		return ""
	}
	var msg string
	one := warnings{kinds: []string{kind}, count: map[string]int{kind: n}, first: map[string]int{kind: w.first[kind]}}
	one.emit(file, func(s string) { msg = s })
	delete(w.count, kind)
	for i, k := range w.kinds {
		if k == kind {
			w.kinds = append(w.kinds[:i], w.kinds[i+1:]...)
			break
		}
	}
	return msg
}

// looksLikeQrels tells whether a line's fields look like judgments: a FOL
// judgment's passages (offset:length) or a TREC judgment's 4 columns.
func looksLikeQrels(fs [][]byte) bool {
	if len(fs) == 4 {
		_, ok := atoi(fs[3])
		return ok || (len(fs[3]) > 1 && fs[3][0] == '-')
	}
	for _, f := range fs[min(len(fs), 6):] {
		if bytes.IndexByte(f, ':') > 0 {
			return true
		}
	}
	return false
}

// RankedArticle is one article of a topic's ranked list, with its retrieved passages.
type RankedArticle struct {
	Article string
	// Ret is the union of the article's passages (not clipped: the article
	// length comes from the judgments).
	Ret   effort.Spans
	Full  bool
	Entry int
	// Score is the score of the article's first result.
	Score float64
	// Line is the line of the article's first result.
	Line int
}

// Group returns the topic's ranked articles, each with its passages. An
// article that reappears after another article is an error naming the topic,
// the article and both lines, unless group (then articles are ranked by first
// appearance). Overlapping passages of one article (including a repeated
// line or a whole-article result beside a passage) are an error naming both
// lines, unless merge (then their union is used); so are two whole-article
// results, or two entry-point results, for the same article (a TREC run that
// lists an article twice), unless merge (then the article is read once, from
// the first entry point).
func (t *RunTopic) Group(file string, group, merge bool) ([]RankedArticle, error) {
	// an article's results are usually together: size for the runs of one
	// article, not for every result
	runs := 0
	for i := range t.Results {
		if i == 0 || t.Results[i].Article != t.Results[i-1].Article {
			runs++
		}
	}
	docs := make([]RankedArticle, 0, runs)
	idx := make(map[string]int, runs)
	last := make([]int, 0, runs) // per doc: line of its last passage
	var rep []bool               // per doc: a repeated full or entry result (nil: none)
	prev, prevLine, i := "", 0, -1
	for _, p := range t.Results {
		seen := true
		if p.Article != prev {
			i, seen = idx[p.Article]
		}
		if seen && p.Article != prev && !group {
			return nil, errorf(file, p.Line, "topic %s: article %s (line %d) reappears at line %d after article %s (line %d); the results of an article must be together (use --group to rank it at its first appearance)", t.ID, p.Article, last[i], p.Line, prev, prevLine)
		}
		if !seen {
			last = append(last, 0)
			i = len(docs)
			idx[p.Article] = i
			docs = append(docs, RankedArticle{Article: p.Article, Entry: -1, Line: p.Line, Score: p.Score})
		}
		d := &docs[i]
		switch {
		case p.Full:
			if d.Full {
				rep = markRepeat(rep, len(docs), i)
			}
			d.Full = true
		case p.Entry >= 0 && p.End <= p.Start:
			if d.Entry < 0 {
				d.Entry = p.Entry
			} else {
				rep = markRepeat(rep, len(docs), i)
			}
		default:
			if p.End > p.Start {
				d.Ret = append(d.Ret, effort.Span{Start: p.Start, End: p.End})
			}
		}
		last[i] = p.Line
		prev, prevLine = p.Article, p.Line
	}
	if err := t.checkOverlaps(file, docs, rep, merge); err != nil {
		return nil, err
	}
	for i := range docs {
		docs[i].Ret = effort.Normalize(docs[i].Ret)
	}
	return docs, nil
}

// markRepeat records that doc i has a repeated whole-article or entry-point
// result, allocating rep only for the first one.
func markRepeat(rep []bool, n, i int) []bool {
	if len(rep) < n {
		rep = append(rep, make([]bool, n-len(rep))...)
	}
	rep[i] = true
	return rep
}

// checkOverlaps reports the first pair of overlapping or repeated results of
// an article; rep[i] (if present) tells that doc i has a repeated
// whole-article or entry-point result.
func (t *RunTopic) checkOverlaps(file string, docs []RankedArticle, rep []bool, merge bool) error {
	if merge {
		return nil
	}
	// Fast path: an article whose passages are sorted and disjoint as given.
	type seenSpan struct {
		s           effort.Span
		line        int
		full, entry bool
	}
	var bad []int
	for i, d := range docs {
		if i < len(rep) && rep[i] {
			bad = append(bad, i)
			continue
		}
		n := len(d.Ret)
		if d.Full {
			n++
		}
		if n <= 1 {
			continue
		}
		ok := !d.Full
		for k := 1; ok && k < len(d.Ret); k++ {
			if d.Ret[k].Start < d.Ret[k-1].End {
				ok = false
			}
		}
		if !ok {
			bad = append(bad, i)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	badSet := map[string]bool{}
	for _, i := range bad {
		badSet[docs[i].Article] = true
	}
	seen := map[string][]seenSpan{}
	for _, p := range t.Results {
		if !badSet[p.Article] {
			continue
		}
		cur := seenSpan{effort.Span{Start: p.Start, End: p.End}, p.Line, p.Full, false}
		if cur.s.End <= cur.s.Start && !cur.full {
			if p.Entry < 0 {
				continue // empty passage
			}
			cur.entry = true
		}
		for _, q := range seen[p.Article] {
			if q.entry || cur.entry {
				// An entry point conflicts only with another one.
				if q.entry && cur.entry {
					return errorf(file, p.Line, "topic %s, article %s: this result repeats the one at line %d (use --merge-overlaps to merge them)", t.ID, p.Article, q.line)
				}
				continue
			}
			if q.full || cur.full || (cur.s.Start < q.s.End && q.s.Start < cur.s.End) {
				what := "overlaps"
				if q.full == cur.full && q.s == cur.s {
					what = "repeats"
				}
				return errorf(file, p.Line, "topic %s, article %s: this result %s the one at line %d (use --merge-overlaps to merge them)", t.ID, p.Article, what, q.line)
			}
		}
		seen[p.Article] = append(seen[p.Article], cur)
	}
	return nil
}
