package scenario

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"sync"

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
	// Workers evaluate topics in parallel (0: GOMAXPROCS).
	Workers int
}

// trecMissingDoc is the document trec_eval ranks for a judged topic absent
// from the run under -c.
const trecMissingDoc = "ceci_nest_pas_un_docno"

// TrecEval evaluates run against q as trec_eval 10.0 does and writes what
// it prints, byte for byte: with -q each judged topic's values in the
// judgments' topic order (byte order), each measure's lines in trec_eval's
// order, then the summary ("all"). A judged topic absent from the run is
// an error without -c (trec_eval then repeats the topic before it, or
// crashes); a run that shares no topic with the judgments is an error.
func TrecEval(w io.Writer, q *inex.TrecEvalQrels, run *inex.TrecEvalRun, opt TrecEvalOptions) error {
	nv, at := effort.TrecValues(opt.Measures)
	var topics []string
	for _, id := range q.IDs {
		if _, ok := run.Docs[id]; ok || opt.Complete {
			topics = append(topics, id)
			continue
		}
		return &inex.Error{File: run.File, Err: fmt.Errorf("topic %s is judged in %s but has no result here: trec_eval 10.0 would print the topic before it again under its id (or crash); give -c to evaluate it as retrieving nothing", id, q.File)}
	}
	if len(topics) == 0 {
		return &inex.Error{File: run.File, Err: fmt.Errorf("no topic of the run is judged in %s (trec_eval: No queries with both results and relevance info)", q.File)}
	}
	relLen, relName := -1, ""
	for _, m := range opt.Measures {
		if m.IsRelString() {
			relLen, relName = m.RelStringLen(), m.Names[0]
		}
	}
	values := make([]float64, nv*len(topics))
	relstr := make([]string, len(topics))
	if err := trecEvalTopics(q, run, topics, opt, nv, relLen, relName, values, relstr); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	var line []byte
	sum := make([]float64, nv)
	for t, id := range topics {
		v := values[t*nv : (t+1)*nv]
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
				line = append(line, relstr[t]...)
				line = append(line, '\'', '\n')
				bw.Write(line)
				continue
			}
			for k, name := range m.Names {
				line = appendValue(appendName(line[:0], name, id), v[at[i]+k], m.IsCount())
				bw.Write(line)
			}
		}
	}
	if !opt.NoSummary {
		effort.TrecSummary(opt.Measures, sum, len(topics))
		for i, m := range opt.Measures {
			switch {
			case m.IsRelString():
				continue
			case m.IsRunID():
				line = append(appendName(line[:0], "runid", "all"), run.RunID...)
				line = append(line, '\n')
				bw.Write(line)
				continue
			}
			for k, name := range m.Names {
				line = appendValue(appendName(line[:0], name, "all"), sum[at[i]+k], m.IsCount())
				bw.Write(line)
			}
		}
	}
	return bw.Flush()
}

// trecEvalTopics computes the values of every topic (nv each, in values)
// and its relstring (relLen ≥ 0) with opt.Workers goroutines.
func trecEvalTopics(q *inex.TrecEvalQrels, run *inex.TrecEvalRun, topics []string, opt TrecEvalOptions, nv, relLen int, relName string, values []float64, relstr []string) error {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(topics))
	inherit := trecStaleLevels(q, topics)
	errs := make([]error, len(topics))
	var next sync.Mutex
	n := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var r effort.TrecRels
			for {
				next.Lock()
				t := n
				n++
				next.Unlock()
				if t >= len(topics) {
					return
				}
				id := topics[t]
				docs, ok := run.Docs[id]
				if !ok {
					docs = []effort.TrecDoc{{Docno: trecMissingDoc, Sim: 1}}
				}
				v := values[t*nv : (t+1)*nv]
				if err := effort.TrecRank(&opt.Config, q.Judged[id], docs, &r); err != nil {
					file := run.File
					if de, isDup := err.(*effort.TrecDuplicateError); isDup && de.Judged {
						file = q.File
					}
					errs[t] = &inex.Error{File: file, Err: fmt.Errorf("topic %s: %w", id, err)}
					continue
				}
				if in := inherit[t]; in != nil {
					r.RelLevels, r.NumRelLevels = in.levels, in.n
				}
				if err := effort.TrecTopic(&opt.Config, &r, opt.Measures, v); err != nil {
					errs[t] = err
					continue
				}
				if !ok {
					effort.TrecMissing(opt.Measures, v)
				}
				// trec_eval clears relstring for a missing topic, but not
				// relstring_N (it looks for the name "relstring")
				if relLen >= 0 && (ok || relName != "relstring") {
					relstr[t] = effort.TrecRelString(&r, relLen)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
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
