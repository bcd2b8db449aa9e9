package inex

import (
	"bytes"
	"io"
	"sort"
	"strconv"

	"github.com/readsim/readsim/effort"
)

// Judgment is one line of FOL judgments: an article judged for a topic.
type Judgment struct {
	Article string
	// Rsize is the relevant characters the line declares; Length the article
	// length; BEP the best entry point.
	Rsize, Length, BEP int
	// Rel is the union of the highlighted passages clipped to [0,Length).
	Rel effort.Spans
	// NRC is |Rel|, the relevant characters (readsim uses it, not Rsize).
	NRC  int
	Line int
}

// TopicJudgments are the judgments of one topic.
type TopicJudgments struct {
	ID   string
	Docs map[string]*Judgment
	// Trel counts the relevant articles (NRC > 0); RelChars sums their NRC.
	Trel, RelChars int
}

// Qrels are the judgments of a file.
type Qrels struct {
	File   string
	Topics map[string]*TopicJudgments
	// IDs are the topic ids in SortTopics order.
	IDs []string
}

// OpenQrels reads FOL judgments from path (gzip or not). warn, if not nil,
// receives the warnings (one per kind of problem, with a count).
func OpenQrels(path string, warn func(string)) (*Qrels, error) {
	r, closeFn, err := open(path)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	return ReadQrels(path, r, warn)
}

// ReadQrels reads FOL judgments, `topic Q0 article rsize length bep
// offset:length …`, from r; name names it in errors. Lines whose passages
// disagree with rsize, run past length or overlap are accepted with a
// warning and normalised (union, clipped). A repeated topic–article pair, a
// wrong column count, a negative or non-numeric field or an empty file is an
// error.
func ReadQrels(name string, r io.Reader, warn func(string)) (*Qrels, error) {
	r, err := maybeGunzip(name, r)
	if err != nil {
		return nil, err
	}
	lr := newLineReader(name, r)
	q := &Qrels{File: name, Topics: map[string]*TopicJudgments{}}
	in := interner{}
	var fs [][]byte
	var w warnings
	lines := 0
	for {
		b, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if isBlank(b) {
			continue
		}
		lines++
		ln := lr.line
		fs = fields(fs, b)
		if len(fs) < 6 {
			return nil, errorf(name, ln, "%d columns, want at least 6: topic Q0 article rsize length bep [offset:length]…", len(fs))
		}
		j := &Judgment{Line: ln, Article: string(fs[2])}
		if j.Rsize, err = intField(name, ln, "rsize", fs[3]); err != nil {
			return nil, err
		}
		if j.Length, err = intField(name, ln, "length", fs[4]); err != nil {
			return nil, err
		}
		if j.BEP, err = intField(name, ln, "bep", fs[5]); err != nil {
			return nil, err
		}
		ps := make([]effort.Span, 0, len(fs)-6)
		past, overlap := false, false
		for _, f := range fs[6:] {
			o, l, ok := bytes.Cut(f, []byte{':'})
			if !ok {
				return nil, errorf(name, ln, "passage %q is not offset:length", f)
			}
			off, err := intField(name, ln, "passage offset", o)
			if err != nil {
				return nil, err
			}
			n, err := intField(name, ln, "passage length", l)
			if err != nil {
				return nil, err
			}
			if off+n > j.Length {
				past = true
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
			w.add("passages past the article's length (clipped)", ln)
		}
		if overlap {
			w.add("overlapping or unordered passages (merged)", ln)
		}
		if j.NRC != j.Rsize {
			w.add("rsize different from the highlighted characters (the passages are used)", ln)
		}
		topic := in.get(fs[0])
		t := q.Topics[topic]
		if t == nil {
			t = &TopicJudgments{ID: topic, Docs: map[string]*Judgment{}}
			q.Topics[topic] = t
			q.IDs = append(q.IDs, topic)
		}
		if prev := t.Docs[j.Article]; prev != nil {
			return nil, errorf(name, ln, "topic %s, article %s judged twice (lines %d and %d)", topic, j.Article, prev.Line, ln)
		}
		t.Docs[j.Article] = j
		if j.NRC > 0 {
			t.Trel++
			t.RelChars += j.NRC
		}
	}
	if lines == 0 {
		return nil, &Error{File: name, Msg: "empty file: no judgments"}
	}
	SortTopics(q.IDs)
	w.emit(name, warn)
	return q, nil
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
