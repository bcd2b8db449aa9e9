package scenario

import (
	"errors"
	"os"
	"runtime"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// StreamQrelsBytes is the size from which a judgments file is read a
// topic at a time by an evaluation (OpenJudgmentStream): below it, reading
// it whole costs little memory and keeps the runs' reading one at a time.
var StreamQrelsBytes int64 = 64 << 20

// JudgmentStream opens r's judgments to be read a topic at a time
// (inex.QrelsStream) when that is possible and worth it: a regular file of
// at least StreamQrelsBytes, without --lengths or --offsets. It returns nil
// (and no error) otherwise: the judgments are then read whole (Judgments).
func (r *MeasureRequest) JudgmentStream(warn func(string)) (*inex.QrelsStream, error) {
	if r.Lengths != "" || r.Offsets != "" || r.Qrels == inex.Stdin {
		return nil, nil
	}
	st, err := os.Stat(r.Qrels)
	if err != nil || !st.Mode().IsRegular() || st.Size() < StreamQrelsBytes {
		return nil, nil // Judgments gives the error
	}
	return inex.OpenQrelsStream(r.Qrels, warn)
}

// EvaluateJudged evaluates the run files against the judgments st
// (JudgmentStream) or q: a topic at a time when st is given and can be
// streamed for opt's measures (EvaluateStream), otherwise with every
// judgment read (EvaluateFiles).
func EvaluateJudged(st *inex.QrelsStream, q *inex.Qrels, paths []string, opt EvalOptions) ([]*Evaluation, error) {
	if st == nil {
		return EvaluateFiles(q, paths, opt)
	}
	if !streams(st, opt.Measures) {
		q, err := st.All()
		if err != nil {
			return nil, err
		}
		return EvaluateFiles(q, paths, opt)
	}
	return EvaluateStream(st, paths, opt)
}

// streams tells whether the measures ms can be computed with st's
// judgments read a topic at a time: the span measures number the FOL
// judgments' passages over the whole file.
func streams(st *inex.QrelsStream, ms []effort.Measure) bool {
	if !st.Streams() {
		return false
	}
	for _, m := range ms {
		if m.IsSpan() {
			return false
		}
	}
	return true
}

// streamRun is a run being evaluated against judgments read a topic at a
// time: its topics' values, in the judgments' topic order.
type streamRun struct {
	run       *inex.Run
	n         inputNeeds
	allTopics bool
	byID      map[string]*inex.RunTopic
	ids       []string  // the topics scored, in the judgments' order
	vals      []float64 // their values, len(ms) per topic
	cl        clipCount
	reordered []string
}

// EvaluateStream evaluates the run files against the judgments st, read a
// topic at a time: the runs are read first (one after the other, each
// whole), then each judged topic is scored for every run as soon as its
// judgments are read, and dropped. Memory is that of the runs and of the
// largest topic's judgments, not of every judgment. Judgments that turn
// out not to be grouped by topic (inex.ErrNotGrouped) are read again whole
// and the runs evaluated with Evaluate. The results and their warnings are
// those of EvaluateFiles.
func EvaluateStream(st *inex.QrelsStream, paths []string, opt EvalOptions) ([]*Evaluation, error) {
	defer st.Close()
	if err := CheckInputs(paths); err != nil {
		return nil, err
	}
	runs := make([]*inex.Run, len(paths))
	for i, p := range paths {
		ro := opt.Read
		ro.Warn = opt.Warn
		var err error
		if runs[i], err = inex.OpenRun(p, ro); err != nil {
			return nil, err
		}
	}
	results, err := evaluateStreamRuns(st, runs, opt)
	if err != nil {
		return nil, err
	}
	NameApart(results, opt.Warn)
	return results, nil
}

// evaluateStreamRuns is EvaluateStream of runs already read, without
// naming them apart.
func evaluateStreamRuns(st *inex.QrelsStream, rs []*inex.Run, opt EvalOptions) ([]*Evaluation, error) {
	q := st.Qrels()
	runs := make([]*streamRun, len(rs))
	for i, run := range rs {
		sr := &streamRun{run: run, byID: make(map[string]*inex.RunTopic, len(run.Topics))}
		var err error
		if sr.n, sr.allTopics, err = prepareRun(q, run, opt); err != nil {
			return nil, err
		}
		for _, t := range run.Topics {
			sr.byID[t.ID] = t
		}
		runs[i] = sr
	}
	if err := scoreStream(st, runs, opt); err != nil {
		if errors.Is(err, inex.ErrNotGrouped) {
			return evaluateAgain(q.File, runs, opt)
		}
		return nil, err
	}
	results := make([]*Evaluation, len(runs))
	for i, sr := range runs {
		res, err := sr.finish(q, opt)
		if err != nil {
			return nil, err
		}
		results[i] = res
	}
	return results, nil
}

// scoreStream scores every topic of st for the runs, as it is read.
func scoreStream(st *inex.QrelsStream, runs []*streamRun, opt EvalOptions) error {
	ev := effort.NewEvaluator(opt.Measures, opt.Config)
	byScore := ranksBoth(opt.Measures)
	var ws effort.Workspace
	var in effort.TopicInput
	out := make([]float64, 0, len(opt.Measures))
	for {
		j, err := st.Next()
		if err != nil {
			return err
		}
		if j == nil {
			return nil
		}
		for _, sr := range runs {
			rt := sr.byID[j.ID]
			if rt == nil && !sr.allTopics {
				continue
			}
			var cl clipCount
			if _, err := buildInput(&in, j, rt, sr.run.File, sr.n, &cl); err != nil {
				return focusedHint(err, opt.Measures)
			}
			sr.cl.add(cl)
			if byScore && !effort.InScoreOrder(in.Docs) {
				sr.reordered = append(sr.reordered, j.ID)
			}
			out = ev.Topic(&in, &ws, out[:0])
			sr.ids = append(sr.ids, j.ID)
			sr.vals = append(sr.vals, out...)
		}
	}
}

// finish makes the run's evaluation once every topic is scored, with the
// warnings Evaluate gives.
func (sr *streamRun) finish(q *inex.Qrels, opt EvalOptions) (*Evaluation, error) {
	byID, err := evalTopics(q, sr.run, opt, sr.allTopics)
	if err != nil {
		return nil, err
	}
	res := &Evaluation{File: sr.run.File, RunID: sr.run.ID}
	at := make(map[string]int, len(sr.ids))
	for k, id := range sr.ids {
		at[id] = k
	}
	for _, id := range q.IDs {
		if byID[id] != nil || sr.allTopics {
			res.Topics = append(res.Topics, id)
		}
	}
	nm, nt := len(opt.Measures), len(res.Topics)
	flat := make([]float64, nm*nt)
	for i, id := range res.Topics {
		k := at[id]
		for m := range nm {
			flat[m*nt+i] = sr.vals[k*nm+m]
		}
	}
	sr.vals, sr.ids = nil, nil
	inex.SortTopics(sr.reordered)
	warnScored(opt.Warn, sr.run.File, sr.cl, sr.reordered)
	finishEvaluation(q, res, flat, opt, sr.allTopics)
	return res, nil
}

// evaluateAgain reads the judgments file whole (they are not grouped by
// topic) and evaluates the runs already read against them.
func evaluateAgain(file string, runs []*streamRun, opt EvalOptions) ([]*Evaluation, error) {
	q, err := inex.OpenQrels(file, opt.Warn)
	if err != nil {
		return nil, err
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	results := make([]*Evaluation, len(runs))
	for i, sr := range runs {
		if results[i], err = Evaluate(q, sr.run, opt, workers); err != nil {
			return nil, err
		}
		sr.run = nil
	}
	return results, nil
}

// CompareStream is Compare with the judgments st read a topic at a time
// (EvaluateStream) when they can be for the measures, otherwise read
// whole: the runs are evaluated against each topic as it is read. It
// compares runs only (opt.DocBaseline is Compare's).
func CompareStream(st *inex.QrelsStream, runs []*inex.Run, opt CompareOptions) (*Comparison, error) {
	if len(runs) < 2 || opt.DocBaseline || !streams(st, opt.Eval.Measures) {
		q, err := st.All()
		if err != nil {
			return nil, err
		}
		return Compare(q, runs, opt)
	}
	defer st.Close()
	ev := opt.Eval
	ev.Config.DocBaseline = false
	ev.comparing = true
	evs, err := evaluateStreamRuns(st, runs, ev)
	if err != nil {
		return nil, err
	}
	names, files := make([]string, len(runs)), make([]string, len(runs))
	for i, r := range runs {
		names[i], files[i] = runName(r), r.File
	}
	return CompareEvaluations(evs, names, files, opt)
}

// OpenJudgments opens r's judgments for an evaluation: a large file to be
// read a topic at a time (JudgmentStream; q then holds the judgments read
// so far), unless whole is true or the file is none such, when every
// judgment is read at once (Judgments; st nil).
func (r *MeasureRequest) OpenJudgments(whole bool, warn func(string)) (st *inex.QrelsStream, q *inex.Qrels, err error) {
	if !whole {
		if st, err = r.JudgmentStream(warn); err != nil {
			return nil, nil, err
		}
		if st != nil {
			return st, st.Qrels(), nil
		}
	}
	q, err = r.Judgments(warn)
	return nil, q, err
}
