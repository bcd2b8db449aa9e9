package scenario

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// TrecEvalOptions are trec_eval's options (docs/trec_eval.md).
type TrecEvalOptions struct {
	// Measures are those of -m (effort.TrecSelect), in trec_eval's order.
	Measures []*effort.TrecMeasure
	// Config holds -l, -N, -M and -J.
	Config effort.TrecConfig
	// Query is -q: every topic's values before the summary.
	Query bool
	// Complete is -c: a judged topic absent from the run is evaluated
	// (as trec_eval does: a ranking of one unjudged document, whose counts
	// it then zeroes) and counts in the summary.
	Complete bool
	// NoSummary is -n: no summary.
	NoSummary bool
	// Zscores is -Z (nil: none): each topic's values are printed and
	// averaged as z-scores against the file's mean and standard deviation
	// for that topic and measure (TrecZscore), each line's measure name
	// after a Z, and the counts with four decimals as the other values.
	Zscores inex.TrecZscores
	// Workers evaluate topics in parallel (0: GOMAXPROCS).
	Workers int
	// FullPrecision writes each value that is no count as the shortest
	// decimal that reads back as the same float64, not as %6.4f:
	// readsim's own --full_precision, for programs that read the values
	// (the Python package's provider, python.md). The layout is
	// trec_eval's otherwise.
	FullPrecision bool
}

// trecMissingDoc is the document trec_eval ranks for a judged topic absent
// from the run under -c.
const trecMissingDoc = "ceci_nest_pas_un_docno"

// TrecEval evaluates run against q as trec_eval 10.0 does and writes what
// it prints, byte for byte: with -q each judged topic's values in the
// judgments' topic order (byte order), each measure's lines in trec_eval's
// order, then the summary ("all"). A judged topic absent from the run is
// an error without -c (trec_eval then repeats the topic before it, or
// crashes).
func TrecEval(w io.Writer, q *inex.TrecEvalQrels, run *inex.TrecEvalRun, opt TrecEvalOptions) error {
	e := newTrecEvaluator(q, opt)
	ids := make([]int, 0, len(run.Docs))
	for id := range run.Docs {
		if t, ok := e.index[id]; ok {
			ids = append(ids, t)
		}
	}
	parallel(opt.Workers, len(ids), func(r *effort.TrecRels, k int) {
		t := ids[k]
		e.topic(t, run.Docs[q.IDs[t]], r)
	})
	return e.write(w, run.File, run.RunID)
}

// TrecEvalFile is TrecEval of the run file at path ("-": standard input).
// A file whose topics each hold consecutive lines (as runs are written) is
// evaluated topic by topic while it is read, holding one topic's results at
// a time; any other run is read whole first.
func TrecEvalFile(w io.Writer, q *inex.TrecEvalQrels, path string, opt TrecEvalOptions) error {
	if path != inex.Stdin {
		err := trecEvalStream(w, q, path, opt)
		if !errors.Is(err, inex.ErrTopicSplit) {
			return err
		}
	}
	run, err := inex.OpenTrecEvalRun(path)
	if err != nil {
		return err
	}
	return TrecEval(w, q, run, opt)
}

// trecEvalStream evaluates the topics of the run at path as the reader
// hands them over, on opt.Workers goroutines.
func trecEvalStream(w io.Writer, q *inex.TrecEvalQrels, path string, opt TrecEvalOptions) error {
	e := newTrecEvaluator(q, opt)
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	blocks := make(chan *inex.TrecRunBlock, workers)
	free := make(chan *inex.TrecRunBlock, 2*workers+1)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var r effort.TrecRels
			for b := range blocks {
				if t, ok := e.index[b.Topic]; ok {
					e.topic(t, b.Docs, &r)
				}
				select {
				case free <- b:
				default:
				}
			}
		}()
	}
	runID, file, err := inex.StreamTrecEvalRun(path, free, func(b *inex.TrecRunBlock) { blocks <- b })
	close(blocks)
	wg.Wait()
	if err != nil {
		return err
	}
	return e.write(w, file, runID)
}

// parallel calls f(r, k) for k in [0, n) on workers goroutines (0:
// GOMAXPROCS), each with its own TrecRels.
func parallel(workers, n int, f func(r *effort.TrecRels, k int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var r effort.TrecRels
			for k := int(next.Add(1) - 1); k < n; k = int(next.Add(1) - 1) {
				f(&r, k)
			}
		}()
	}
	wg.Wait()
}

// trecEvaluator holds the values of every judged topic as they are
// computed, in any order, and prints them in trec_eval's.
type trecEvaluator struct {
	q       *inex.TrecEvalQrels
	opt     TrecEvalOptions
	nv      int
	at      []int
	index   map[string]int // judged topic → its place in q.IDs
	values  []float64      // nv per judged topic
	relstr  []string
	present []bool  // the topic is in the run
	errs    []error // the topic's ranking is refused
	inherit []*staleLevels
	relLen  int
	relName string
}

func newTrecEvaluator(q *inex.TrecEvalQrels, opt TrecEvalOptions) *trecEvaluator {
	e := &trecEvaluator{q: q, opt: opt, relLen: -1, index: make(map[string]int, len(q.IDs))}
	e.nv, e.at = effort.TrecValues(opt.Measures)
	for t, id := range q.IDs {
		e.index[id] = t
	}
	n := len(q.IDs)
	e.values, e.relstr = make([]float64, e.nv*n), make([]string, n)
	e.present, e.errs = make([]bool, n), make([]error, n)
	e.inherit = trecStaleLevels(q, q.IDs)
	if q.Groups == nil && q.Prefs == nil && trecRanks(opt.Measures) {
		trecNegativeTopics(q, e.errs)
	}
	for _, m := range opt.Measures {
		if m.IsRelString() {
			e.relLen, e.relName = m.RelStringLen(), m.Names[0]
		}
	}
	return e
}

// topic computes judged topic t's values from its results docs (nil: a
// judged topic absent from the run, under -c), using r.
func (e *trecEvaluator) topic(t int, docs []effort.TrecDoc, r *effort.TrecRels) {
	id, present := e.q.IDs[t], docs != nil
	e.present[t] = present
	if !present {
		docs = []effort.TrecDoc{{Docno: trecMissingDoc, Sim: 1}}
	}
	if e.q.Groups != nil {
		e.groups(t, id, docs)
		return
	}
	if e.q.Prefs != nil {
		if err := effort.TrecTopicPrefs(&e.opt.Config, e.q.Prefs[id], docs, e.opt.Measures, e.values[t*e.nv:(t+1)*e.nv]); err != nil {
			file := "the run"
			if _, isPref := err.(*effort.TrecPrefError); isPref {
				file = e.q.File
			}
			e.errs[t] = &inex.Error{File: file, Err: fmt.Errorf("topic %s: %w", id, err)}
		}
		return
	}
	if err := effort.TrecRank(&e.opt.Config, e.q.Judged[id], docs, r); err != nil {
		file := "the run"
		if de, isDup := err.(*effort.TrecDuplicateError); isDup && de.Judged {
			file = e.q.File
		}
		e.errs[t] = &inex.Error{File: file, Err: fmt.Errorf("topic %s: %w", id, err)}
		return
	}
	if in := e.inherit[t]; in != nil {
		r.RelLevels, r.NumRelLevels = in.levels, in.n
	}
	v := e.values[t*e.nv : (t+1)*e.nv]
	if err := effort.TrecTopic(&e.opt.Config, r, e.opt.Measures, v); err != nil {
		e.errs[t] = err
		return
	}
	if !present {
		effort.TrecMissing(e.opt.Measures, v)
	}
	// trec_eval clears relstring for a missing topic, but not relstring_N
	// (it looks for the name "relstring")
	if e.relLen >= 0 && (present || e.relName != "relstring") {
		e.relstr[t] = effort.TrecRelString(r, e.relLen)
	}
}

// groups computes judged topic t's values (id) against each of its
// judgment groups (-R qrels_jg).
func (e *trecEvaluator) groups(t int, id string, docs []effort.TrecDoc) {
	gs := e.q.Groups[id]
	rs := make([]effort.TrecRels, len(gs))
	for g, judged := range gs {
		if err := effort.TrecRank(&e.opt.Config, judged, docs, &rs[g]); err != nil {
			e.errs[t] = &inex.Error{File: "the run", Err: fmt.Errorf("topic %s: %w", id, err)}
			return
		}
	}
	effort.TrecTopicGroups(&e.opt.Config, rs, e.opt.Measures, e.values[t*e.nv:(t+1)*e.nv])
}

// write evaluates the judged topics absent from the run (-c) or refuses
// them, reports the first topic refused in trec_eval's order, and prints
// the values. runFile names the run in errors.
func (e *trecEvaluator) write(w io.Writer, runFile, runID string) error {
	var r effort.TrecRels
	var topics []int
	for t, id := range e.q.IDs {
		if e.errs[t] != nil {
			if ie, ok := e.errs[t].(*inex.Error); ok && ie.File == "the run" {
				ie.File = runFile
			}
			return e.errs[t]
		}
		if !e.present[t] {
			if !e.opt.Complete {
				return &inex.Error{File: runFile, Err: fmt.Errorf("topic %s is judged in %s but has no result here: trec_eval 10.0 would print the topic before it again under its id (or crash); give -c to evaluate it as retrieving nothing", id, e.q.File)}
			}
			if e.topic(t, nil, &r); e.errs[t] != nil {
				return e.errs[t]
			}
		}
		topics = append(topics, t)
	}
	if len(topics) == 0 {
		return &inex.Error{File: runFile, Err: fmt.Errorf("no topic of the run is judged in %s (trec_eval: No queries with both results and relevance info)", e.q.File)}
	}
	nv, opt := e.nv, e.opt
	z := opt.Zscores != nil
	bw := bufio.NewWriterSize(w, 1<<16)
	var line []byte
	sum := make([]float64, nv)
	for _, t := range topics {
		id := e.q.IDs[t]
		v := e.values[t*nv : (t+1)*nv]
		if opt.Zscores != nil {
			e.zscores(id, v)
		}
		for i := range sum {
			sum[i] += v[i]
		}
		if !opt.Query {
			continue
		}
		for i, m := range opt.Measures {
			if !m.Single() {
				continue
			}
			if m.IsRelString() {
				line = appendName(line[:0], m.Names[0], id)
				line = append(line, '\'')
				line = append(line, e.relstr[t]...)
				line = append(line, '\'', '\n')
				bw.Write(line)
				continue
			}
			for k, name := range m.Names {
				line = e.appendValue(appendName(zname(line[:0], z), name, id), v[e.at[i]+k], m.IsCount() && !z)
				bw.Write(line)
			}
		}
	}
	if !opt.NoSummary {
		e.writeSummary(bw, sum, len(topics), runID)
	}
	return bw.Flush()
}

// writeSummary turns sum, the sum of the values of n topics, into the
// summary and writes its lines ("all"), runID on runid's.
func (e *trecEvaluator) writeSummary(bw *bufio.Writer, sum []float64, n int, runID string) {
	opt, z := e.opt, e.opt.Zscores != nil
	effort.TrecSummary(opt.Measures, sum, n)
	if opt.Complete {
		effort.TrecCompleteNumRel(opt.Measures, sum, e.q.NumRelAbove0())
	}
	var line []byte
	for i, m := range opt.Measures {
		switch {
		case m.IsRelString():
			continue
		case m.IsRunID():
			line = append(appendName(line[:0], "runid", "all"), runID...)
			line = append(line, '\n')
			bw.Write(line)
			continue
		}
		for k, name := range m.Names {
			line = e.appendValue(appendName(zname(line[:0], z), name, "all"), sum[e.at[i]+k], m.IsCount() && !z)
			bw.Write(line)
		}
	}
}

// TrecMissingZscore is the z-score trec_eval gives a value whose topic and
// measure the -Z file lacks, or whose standard deviation there is 0 while
// the value is not the mean.
const TrecMissingZscore = -1000000

// zscores turns the values v of topic id into z-scores as trec_eval's -Z
// does: (value - mean) / stddev with the file's mean and standard
// deviation for the topic and the value's name (P_5, map…); 0 where the
// standard deviation is 0 and the value is the mean; TrecMissingZscore
// where the file has no line for them or the deviation is 0 otherwise.
// runid and relstring have no value to convert.
func (e *trecEvaluator) zscores(id string, v []float64) {
	z := e.opt.Zscores[id]
	for i, m := range e.opt.Measures {
		if m.IsRunID() || m.IsRelString() {
			continue
		}
		for k, name := range m.Names {
			p := &v[e.at[i]+k]
			s, ok := z[name]
			switch {
			case !ok:
				*p = TrecMissingZscore
			case s.StdDev != 0:
				*p = (*p - s.Mean) / s.StdDev
			case *p == s.Mean:
				*p = 0
			default:
				*p = TrecMissingZscore
			}
		}
	}
}

// staleLevels are the judgment counts by level that trec_eval gives a
// topic whose judgments are all negative.
type staleLevels struct {
	levels []int
	n      int
}

// trecStaleLevels returns, for each topic evaluated (in trec_eval's
// order) whose judgments are all negative, the counts by level that
// trec_eval's measures see there: it counts the levels in a buffer kept
// from topic to topic, clearing only the levels 0…m of the topic's highest
// judgment m, and keeps the number of levels of the topic before when no
// level counts. Such a topic has no relevant document, and its measures
// are 0 but for ideal_dcg (and bpref's count of non-relevant documents,
// which changes nothing there). nil for the other topics.
func trecStaleLevels(q *inex.TrecEvalQrels, topics []string) []*staleLevels {
	out := make([]*staleLevels, len(topics))
	var buf []int
	n := 0
	for t, id := range topics {
		js := q.Judged[id]
		maxRel := -1
		for _, j := range js {
			maxRel = max(maxRel, j.Rel)
		}
		if maxRel < 0 {
			out[t] = &staleLevels{levels: slices.Clone(buf), n: n}
			continue
		}
		if len(buf) < maxRel+1 {
			buf = append(buf, make([]int, maxRel+1-len(buf))...)
		}
		clear(buf[:maxRel+1])
		for _, j := range js {
			if j.Rel >= 0 {
				buf[j.Rel]++
			}
		}
		for lvl := maxRel; lvl >= 0; lvl-- {
			if buf[lvl] > 0 {
				n = lvl + 1
				break
			}
		}
	}
	return out
}

// trecRanks tells whether some measure of ms ranks the documents against
// the judgments (all but runid and num_q).
func trecRanks(ms []*effort.TrecMeasure) bool {
	for _, m := range ms {
		if !m.IsRunID() && m.Name() != "num_q" {
			return true
		}
	}
	return false
}

// trecNegativeTopics sets errs[t] for each judged topic t (in trec_eval's
// order) whose judgments are all negative where trec_eval 10.0 cannot
// evaluate it: its highest judgment is -2 or less (form_res_rels.c clears
// max + 1 counts of levels, a negative size: trec_eval crashes), or it is
// -1 and no topic before it has a judgment of 0 or more (the buffer of
// counts was never allocated: trec_eval stops, "Can't calculate
// measure"). readsim refuses both rather than guess.
func trecNegativeTopics(q *inex.TrecEvalQrels, errs []error) {
	counted := false
	for t, id := range q.IDs {
		maxRel := math.MinInt
		for _, j := range q.Judged[id] {
			maxRel = max(maxRel, j.Rel)
		}
		switch {
		case maxRel >= 0:
			counted = true
		case maxRel <= -2:
			errs[t] = &inex.Error{File: q.File, Err: fmt.Errorf("topic %s: every judgment is negative, the highest %d: trec_eval 10.0 crashes on such a topic (it clears %d counts of levels); give one judgment of -1 or more", id, maxRel, maxRel+1)}
		case !counted:
			errs[t] = &inex.Error{File: q.File, Err: fmt.Errorf("topic %s: every judgment is negative and no topic before it has one of 0 or more: trec_eval 10.0 cannot compute its measures (Can't calculate measure)", id)}
		}
	}
}

// zname appends the Z that trec_eval's -Z puts before a measure's name
// (not runid's, nor relstring's), when z.
func zname(b []byte, z bool) []byte {
	if z {
		return append(b, 'Z')
	}
	return b
}

// appendName appends trec_eval's "%-22s\t%s\t".
func appendName(b []byte, name, topic string) []byte {
	b = append(b, name...)
	for i := len(name); i < 22; i++ {
		b = append(b, ' ')
	}
	b = append(b, '\t')
	b = append(b, topic...)
	return append(b, '\t')
}

// appendValue is appendValue, or with FullPrecision a value that is no
// count as the shortest decimal that reads back as v.
func (e *trecEvaluator) appendValue(b []byte, v float64, count bool) []byte {
	if e.opt.FullPrecision && !count {
		return append(strconv.AppendFloat(b, v, 'g', -1, 64), '\n')
	}
	return appendValue(b, v, count)
}

// appendValue appends v as trec_eval prints it, and a newline: a count as
// C's %ld of (long)v, any other value as %6.4f (glibc's nan, -nan, inf).
func appendValue(b []byte, v float64, count bool) []byte {
	if count {
		switch {
		case math.IsNaN(v) || v >= 1<<63 || v < -(1<<63):
			b = strconv.AppendInt(b, math.MinInt64, 10) // x86's conversion of what fits no long
		default:
			b = strconv.AppendInt(b, int64(v), 10)
		}
		return append(b, '\n')
	}
	var s []byte
	switch {
	case math.IsNaN(v):
		if math.Signbit(v) {
			s = []byte("-nan")
		} else {
			s = []byte("nan")
		}
	case math.IsInf(v, 1):
		s = []byte("inf")
	case math.IsInf(v, -1):
		s = []byte("-inf")
	}
	if s == nil {
		n := len(b)
		b = strconv.AppendFloat(b, v, 'f', 4, 64)
		if pad := 6 - (len(b) - n); pad > 0 {
			b = append(b[:n], append([]byte("      "[:pad]), b[n:]...)...)
		}
		return append(b, '\n')
	}
	for i := len(s); i < 6; i++ {
		b = append(b, ' ')
	}
	b = append(b, s...)
	return append(b, '\n')
}
