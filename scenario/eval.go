package scenario

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// EvalOptions configures Evaluate.
type EvalOptions struct {
	Measures []effort.Measure
	Config   effort.Config
	// Group ranks an interleaved article by its first appearance instead of
	// failing; MergeOverlaps merges overlapping passages of an article
	// instead of failing.
	Group, MergeOverlaps bool
	// AllTopics (-c) averages over every judged topic, a topic missing from
	// the run scoring 0 (effort: NR at every rank). Otherwise the mean is over
	// the topics both in the run and in the judgments.
	AllTopics bool
	// Warn receives warnings (may be nil).
	Warn func(string)
	// Workers is the number of goroutines (0: GOMAXPROCS).
	Workers int
	// Run options for reading run files (resolver of XML paths).
	Read inex.RunOptions
}

// Evaluation is the evaluation of one run.
type Evaluation struct {
	File, RunID string
	// Topics are the evaluated topics, sorted (inex.SortTopics).
	Topics []string
	// Values[m][t] is measure m for Topics[t]; All[m] its `all` value.
	Values [][]float64
	All    []float64
}

// EvaluateFiles reads and evaluates the run files against q, using
// opt.Workers goroutines (one run each; the topics of a single run are
// shared out instead). Only one run per worker is held in memory at a time.
// Results are in the order of paths. The first error (in path order) is
// returned.
func EvaluateFiles(q *inex.Qrels, paths []string, opt EvalOptions) ([]*Evaluation, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	results := make([]*Evaluation, len(paths))
	errs := make([]error, len(paths))
	if len(paths) == 1 {
		results[0], errs[0] = evaluateFile(q, paths[0], opt, workers)
		return results, errs[0]
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers && w < len(paths); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = evaluateFile(q, paths[i], opt, 1)
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}

func evaluateFile(q *inex.Qrels, path string, opt EvalOptions, workers int) (*Evaluation, error) {
	ro := opt.Read
	ro.Warn = opt.Warn
	run, err := inex.OpenRun(path, ro)
	if err != nil {
		return nil, err
	}
	return Evaluate(q, run, opt, workers)
}

// Evaluate evaluates run against q with workers goroutines over its topics.
func Evaluate(q *inex.Qrels, run *inex.Run, opt EvalOptions, workers int) (*Evaluation, error) {
	strict, focused := false, false
	for _, m := range opt.Measures {
		switch {
		case m.IsFocused():
			focused = true
		case !m.IsCount():
			strict = true
		}
	}
	group := opt.Group || !strict // focused and count measures accept interleaving
	if err := CheckMeasures(opt.Measures, UseEval, q); err != nil {
		return nil, err
	}
	byID := make(map[string]*inex.RunTopic, len(run.Topics))
	var missing []string
	for _, t := range run.Topics {
		if q.Topics[t.ID] == nil {
			missing = append(missing, t.ID)
			continue
		}
		byID[t.ID] = t
	}
	if len(byID) == 0 && !opt.AllTopics {
		return nil, &inex.Error{File: run.File, Err: fmt.Errorf("the run shares no topic with the judgments %s: nothing to evaluate (the run's topics: %s; judged: %s)",
			q.File, listTopics(missing, 10), listTopics(q.IDs, 10))}
	}
	if len(missing) > 0 && opt.Warn != nil {
		inex.SortTopics(missing)
		opt.Warn(fmt.Sprintf("%s: warning: %d topic(s) of the run are not in the judgments %s and are not evaluated: %s", run.File, len(missing), q.File, listTopics(missing, 20)))
	}
	res := &Evaluation{File: run.File, RunID: run.ID}
	for _, id := range q.IDs {
		if byID[id] != nil || opt.AllTopics {
			res.Topics = append(res.Topics, id)
		}
	}
	ev := effort.NewEvaluator(opt.Measures, opt.Config)
	nm := len(opt.Measures)
	flat := make([]float64, nm*len(res.Topics))
	errs := make([]error, len(res.Topics))
	clipped := make([]clipCount, len(res.Topics))
	if workers < 1 {
		workers = 1
	}
	var wg sync.WaitGroup
	next := make(chan int, len(res.Topics))
	for i := range res.Topics {
		next <- i
	}
	close(next)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ws effort.Workspace
			var in effort.TopicInput
			out := make([]float64, 0, nm)
			for i := range next {
				id := res.Topics[i]
				_, errs[i] = buildInput(&in, q.Topics[id], byID[id], run.File, group, opt.MergeOverlaps, focused, &clipped[i])
				if errs[i] != nil {
					continue
				}
				out = ev.Topic(&in, &ws, out[:0])
				for m, v := range out {
					flat[m*len(res.Topics)+i] = v
				}
			}
		}()
	}
	wg.Wait()
	var cl clipCount
	for i, err := range errs {
		if err != nil {
			return nil, err
		}
		cl.add(clipped[i])
	}
	if cl.n > 0 && opt.Warn != nil {
		opt.Warn(cl.warning(run.File))
	}
	res.Values = make([][]float64, nm)
	res.All = make([]float64, nm)
	for m, meas := range opt.Measures {
		res.Values[m] = flat[m*len(res.Topics) : (m+1)*len(res.Topics)]
		res.All[m] = effort.Aggregate(meas, res.Values[m])
		if opt.Config.CompatINEX && !opt.AllTopics && (meas.List == effort.CountNumRel || meas.List == effort.CountRelSize) {
			// inex_eval -r and -i sum num_rel and rel_size over every judged
			// topic, including those absent from the run.
			s := 0
			for _, t := range q.Topics {
				if meas.List == effort.CountNumRel {
					s += t.Trel
				} else {
					s += t.RelChars
				}
			}
			res.All[m] = float64(s)
		}
	}
	return res, nil
}

type clipCount struct{ n, first int }

// warning is the warning about the clipped results of the run file.
func (c clipCount) warning(file string) string {
	return fmt.Sprintf("%s:%d: warning: %d result(s) run past their article's end and were clipped (first at this line)", file, c.first, c.n)
}

func (c *clipCount) add(o clipCount) {
	if o.n > 0 && (c.n == 0 || o.first < c.first) {
		c.first = o.first
	}
	c.n += o.n
}

// buildInput fills in with topic's run results against its judgments j and
// returns the topic's ranked articles (t.Group; nil when t is nil),
// counting in cl the results (passages) that run past their article's end and
// are clipped, for the ranked list and the focused passages alike.
func buildInput(in *effort.TopicInput, j *inex.TopicJudgments, t *inex.RunTopic, file string, group, merge, focused bool, cl *clipCount) ([]inex.RankedArticle, error) {
	in.Trel, in.TrelChars, in.Ideal = j.Trel, j.RelChars, j.Ideal
	in.Docs, in.Passages = in.Docs[:0], in.Passages[:0]
	if t == nil {
		return nil, nil
	}
	docs, err := t.Group(file, group, merge)
	if err != nil {
		return nil, err
	}
	clipped := false
	for _, d := range docs {
		rd := effort.RankedDoc{Ret: d.Ret, Full: d.Full, Entry: d.Entry, ID: d.Article, Score: d.Score}
		if jd := j.Docs[d.Article]; jd != nil {
			rd.Judged, rd.L, rd.Rel, rd.Grade = true, jd.Length, jd.Rel, jd.Grade
			if n := len(rd.Ret); n > 0 && rd.Ret[n-1].End > jd.Length {
				clipped = true
				rd.Ret = rd.Ret.Clip(0, jd.Length)
			}
		} else if rd.Full {
			rd.Ret = nil // length unknown: counts 0 in ret_size
		}
		in.Docs = append(in.Docs, rd)
	}
	if clipped {
		// Rare: count the results themselves, for their lines.
		for _, p := range t.Results {
			if jd := j.Docs[p.Article]; jd != nil && !p.Full && p.End > p.Start && p.End > jd.Length {
				cl.add(clipCount{1, p.Line})
			}
		}
	}
	if !focused {
		return docs, nil
	}
	var seen map[string]effort.Spans
	if merge {
		seen = map[string]effort.Spans{}
	}
	var tmp effort.Spans
	for _, p := range t.Results {
		s := effort.Span{Start: p.Start, End: p.End}
		jd := j.Docs[p.Article]
		if p.Full {
			s = effort.Span{}
			if jd != nil {
				s.End = jd.Length
			}
		}
		if jd != nil {
			if s.End > jd.Length {
				s.End = jd.Length // counted above
			}
			if s.Start > s.End {
				s.Start = s.End
			}
		}
		if merge {
			// Only the part not returned earlier for the article counts.
			prev := seen[p.Article]
			tmp = effort.AppendDifference(tmp[:0], effort.Spans{s}, prev)
			seen[p.Article] = effort.Union(prev, effort.Spans{s})
			ps := effort.FocusedPassage{Len: tmp.Len()}
			if jd != nil {
				ps.RelLen = effort.IntersectLen(tmp, jd.Rel)
			}
			in.Passages = append(in.Passages, ps)
			continue
		}
		ps := effort.FocusedPassage{Len: s.Len()}
		if jd != nil {
			ps.RelLen = effort.SpanIntersectLen(s, jd.Rel)
		}
		in.Passages = append(in.Passages, ps)
	}
	return docs, nil
}
