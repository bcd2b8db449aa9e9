package scenario

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
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
	// the topics both in the run and in the judgments, unless a measure
	// averages over every judged topic by definition (the TREC Genomics
	// measures: effort.Measure.AllTopics), which sets it.
	AllTopics bool
	// Warn receives warnings (may be nil).
	Warn func(string)
	// Workers is the number of goroutines (0: GOMAXPROCS).
	Workers int
	// Run options for reading run files (resolver of XML paths).
	Read inex.RunOptions
	// comparing: Compare names the topics it leaves out itself; the judged
	// topics a run misses are not named per run (unless they score 0).
	comparing bool
}

// Evaluation is the evaluation of one run.
type Evaluation struct {
	File, RunID string
	// Label, when not empty, names the run in reports instead of its run id
	// (NameApart: two runs with one run id).
	Label string
	// Topics are the evaluated topics, sorted (inex.SortTopics).
	Topics []string
	// Values[m][t] is measure m for Topics[t]; All[m] its `all` value.
	Values [][]float64
	All    []float64
}

// EvaluateReadings scores recorded readings against q (EvaluateReading,
// readsim eval --readings), in the order given, and names apart the ones
// that share an id (NameApart, warning with opt.Warn).
//
// A reading whose every judged topic was abandoned (ErrAllAbandoned: a
// participant who left before finishing a topic, or is still reading) is
// passed over with a warning when other readings are given, so that one
// unfinished participant does not stop the scoring of a study; alone, it is
// an error.
func EvaluateReadings(q *inex.Qrels, rds []*Reading, opt EvalOptions) ([]*Evaluation, error) {
	evs := make([]*Evaluation, 0, len(rds))
	for _, rd := range rds {
		ev, err := EvaluateReading(q, rd, opt)
		if err != nil {
			if len(rds) > 1 && errors.Is(err, ErrAllAbandoned) {
				if opt.Warn != nil {
					opt.Warn(fmt.Sprintf("%s: warning: every judged topic was abandoned (no done event): the reading is not scored", rd.File))
				}
				continue
			}
			return nil, err
		}
		evs = append(evs, ev)
	}
	if len(evs) == 0 && len(rds) > 0 {
		return nil, &inex.Error{File: rds[0].File, Err: ErrAllAbandoned}
	}
	NameApart(evs, opt.Warn)
	return evs, nil
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
	if err := CheckInputs(paths); err != nil {
		return nil, err
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
	NameApart(results, opt.Warn)
	return results, nil
}

func evaluateFile(q *inex.Qrels, path string, opt EvalOptions, workers int) (*Evaluation, error) {
	ro := opt.Read
	ro.Warn = opt.Warn
	ro.TopicRead = GroupCheck(q, path, opt.Measures, opt.Group, opt.MergeOverlaps)
	run, err := inex.OpenRun(path, ro)
	if err != nil {
		return nil, err
	}
	return Evaluate(q, run, opt, workers)
}

// Evaluate evaluates run against q with workers goroutines over its topics.
//
// The span measures (DOCUMENT, PASSAGE, ASPECT, PASSAGE2, charAP) read the
// run's passages one by one: asked alone, they accept the interleaved
// documents and overlapping passages that the measures of ranked articles
// refuse (without --group, --merge-overlaps). The TREC Genomics measures
// average over every judged topic, a topic missing from the run scoring 0
// (NIST's MAP): when one is asked the evaluation covers every judged topic,
// as with AllTopics, for every measure asked with it (a warning says so
// when the run misses topics and other measures are asked).
func Evaluate(q *inex.Qrels, run *inex.Run, opt EvalOptions, workers int) (*Evaluation, error) {
	n, allTopics, err := prepareRun(q, run, opt)
	if err != nil {
		return nil, err
	}
	byID, err := evalTopics(q, run, opt, allTopics)
	if err != nil {
		return nil, err
	}
	res := &Evaluation{File: run.File, RunID: run.ID}
	for _, id := range q.IDs {
		if byID[id] != nil || allTopics {
			res.Topics = append(res.Topics, id)
		}
	}
	flat, err := scoreTopics(q, run.File, byID, res.Topics, n, opt, workers)
	if err != nil {
		return nil, focusedHint(err, opt.Measures)
	}
	finishEvaluation(q, res, flat, opt, allTopics)
	return res, nil
}

// prepareRun checks that the measures of opt can evaluate run against q,
// and returns what they need of it and whether the evaluation covers every
// judged topic (-c, or a measure that averages over them), giving the
// run's order warning when a measure ranks by line order.
func prepareRun(q *inex.Qrels, run *inex.Run, opt EvalOptions) (inputNeeds, bool, error) {
	if err := CheckMeasures(opt.Measures, UseAll, q); err != nil {
		return inputNeeds{}, false, err
	}
	n := needsOf(opt.Measures, q, run, opt.Group, opt.MergeOverlaps)
	if opt.Config.DocBaseline && !q.Lengths() {
		return n, false, &MeasureError{Why: fmt.Sprintf("the document baseline reads every document in full, and %s (%s) gives no document lengths: give --lengths FILE", q.File, q.Format)}
	}
	if n.passages && !n.lengths {
		if line := firstFull(run); line > 0 {
			return n, false, &inex.Error{File: run.File, Line: line, Err: fmt.Errorf("a whole-document result, and the judgments %s give no document lengths: its characters are unknown (give --lengths FILE, or ask document measures only: DOCUMENT, AP, map…)", q.File)}
		}
	}
	allTopics := opt.AllTopics
	for _, m := range opt.Measures {
		allTopics = allTopics || m.AllTopics()
	}
	if run.OrderWarning != "" && opt.Warn != nil {
		for _, m := range opt.Measures {
			if m.RanksByLine() {
				opt.Warn(run.OrderWarning)
				break
			}
		}
	}
	return n, allTopics, nil
}

// finishEvaluation sets res's values from flat (measure m of res.Topics[t]
// at m*len(res.Topics)+t) and its `all` values.
func finishEvaluation(q *inex.Qrels, res *Evaluation, flat []float64, opt EvalOptions, allTopics bool) {
	nm := len(opt.Measures)
	res.Values = make([][]float64, nm)
	res.All = make([]float64, nm)
	for m, meas := range opt.Measures {
		res.Values[m] = flat[m*len(res.Topics) : (m+1)*len(res.Topics)]
		res.All[m] = effort.Aggregate(meas, res.Values[m])
		if opt.Config.CompatINEX && !allTopics && (meas.List == effort.CountNumRel || meas.List == effort.CountRelSize) {
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
}

// focusedHint adds to an error of a run's ranked articles (an interleaved
// or overlapping focused run) asked for ircl_prn.x that the focused task's
// ircl_prn.x is iP[x]: readsim's is the interpolated gP of -r and -i.
func focusedHint(err error, ms []effort.Measure) error {
	for _, m := range ms {
		if m.List == effort.ListIGP && strings.HasPrefix(m.Name, "ircl_prn.") {
			return fmt.Errorf("%w (%s is the official tool's relevant-in-context ircl_prn, over ranked articles; for a focused run, its -f ircl_prn.x is iP[x])", err, m)
		}
	}
	return err
}

// evalTopics returns the run's topics that q judges, by id, warning about
// the others and naming the judged topics the run misses: left out of
// `all`, or scoring 0 in it with -c (opt.AllTopics) or a measure that
// averages over every judged topic. A run that shares no topic with q is an
// error unless allTopics.
func evalTopics(q *inex.Qrels, run *inex.Run, opt EvalOptions, allTopics bool) (map[string]*inex.RunTopic, error) {
	byID := make(map[string]*inex.RunTopic, len(run.Topics))
	var missing []string
	for _, t := range run.Topics {
		if q.Topics[t.ID] == nil {
			missing = append(missing, t.ID)
			continue
		}
		byID[t.ID] = t
	}
	if len(byID) == 0 && !allTopics {
		return nil, &inex.Error{File: run.File, Err: fmt.Errorf("the run shares no topic with the judgments %s: nothing to evaluate (the run's topics: %s; judged: %s)",
			q.File, listTopics(missing, 10), listTopics(q.IDs, 10))}
	}
	if opt.Warn == nil {
		return byID, nil
	}
	if len(missing) > 0 {
		inex.SortTopics(missing)
		opt.Warn(fmt.Sprintf("%s: warning: %d topic(s) of the run are not in the judgments %s and are not evaluated: %s", run.File, len(missing), q.File, listTopics(missing, 20)))
	}
	var official []string
	others := false
	for _, m := range opt.Measures {
		if m.AllTopics() {
			official = append(official, m.String())
		} else {
			others = true
		}
	}
	var absent []string
	for _, id := range q.IDs {
		if byID[id] == nil {
			absent = append(absent, id)
		}
	}
	switch {
	case len(absent) == 0:
	case len(byID) == 0:
		opt.Warn(fmt.Sprintf("%s: warning: the run shares no topic with the judgments %s: every topic scores 0", run.File, q.File))
	case !allTopics:
		if !opt.comparing {
			opt.Warn(fmt.Sprintf("%s: warning: %d judged topic(s) are not in the run and are left out of `all` (with -c they score 0): %s", run.File, len(absent), listTopics(absent, 20)))
		}
	case opt.AllTopics:
		opt.Warn(fmt.Sprintf("%s: warning: %d judged topic(s) are not in the run and score 0 in `all` (-c): %s", run.File, len(absent), listTopics(absent, 20)))
	case others:
		opt.Warn(fmt.Sprintf("%s: warning: %s average over every judged topic (NIST's MAP): the %d judged topic(s) missing from the run score 0 for every measure asked, as with -c: %s", run.File, strings.Join(official, ", "), len(absent), listTopics(absent, 20)))
	default:
		opt.Warn(fmt.Sprintf("%s: warning: %d judged topic(s) are not in the run and score 0 in `all` (NIST's MAP): %s", run.File, len(absent), listTopics(absent, 20)))
	}
	return byID, nil
}

// scoreTopics computes the measures of opt for the given topics of the run
// (file; byID: its judged topics) with workers goroutines, warning about
// the results clipped to their article's end. The value of measure m for
// topics[i] is at m*len(topics)+i.
func scoreTopics(q *inex.Qrels, file string, byID map[string]*inex.RunTopic, topics []string, n inputNeeds, opt EvalOptions, workers int) ([]float64, error) {
	ev := effort.NewEvaluator(opt.Measures, opt.Config)
	nm := len(opt.Measures)
	flat := make([]float64, nm*len(topics))
	errs := make([]error, len(topics))
	clipped := make([]clipCount, len(topics))
	reordered := make([]bool, len(topics)) // trec_eval ranks the topic's articles otherwise
	byScore := ranksBoth(opt.Measures)
	if workers < 1 {
		workers = 1
	}
	var wg sync.WaitGroup
	next := make(chan int, len(topics))
	for i := range topics {
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
				id := topics[i]
				_, errs[i] = buildInput(&in, q.Topics[id], byID[id], file, n, &clipped[i])
				if errs[i] != nil {
					continue
				}
				reordered[i] = byScore && !effort.InScoreOrder(in.Docs)
				out = ev.Topic(&in, &ws, out[:0])
				for m, v := range out {
					flat[m*len(topics)+i] = v
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
	var ts []string
	for i, r := range reordered {
		if r {
			ts = append(ts, topics[i])
		}
	}
	warnScored(opt.Warn, file, cl, ts)
	return flat, nil
}

// warnScored gives the warnings of a run file's scoring: the results
// clipped to their article's end (cl), the topics whose articles the
// document measures rank otherwise than the line order (ts).
func warnScored(warn func(string), file string, cl clipCount, ts []string) {
	if cl.n > 0 && warn != nil {
		warn(cl.warning(file))
	}
	if warn != nil {
		if len(ts) > 0 {
			warn(fmt.Sprintf("%s: warning: in %d topic(s) the articles' scores do not fall strictly down the run's lines (tied or rising scores): the document measures (AP, P[k], RR, Rprec, nDCG, R[k] under any name: map, P_10…) rank them by score, then article id, as trec_eval; AgP, gP, gR and the other INEX measures in line order, as the official INEX tool; the two rankings differ there: %s",
				file, len(ts), listTopics(ts, 10)))
		}
	}
}

// ranksBoth tells whether ms rank a topic's articles both by score and by
// line order: the two rankings differ only for a run asked both kinds of
// measure.
func ranksBoth(ms []effort.Measure) bool {
	byScore, byLine := false, false
	for _, m := range ms {
		byScore = byScore || m.RanksByScore()
		byLine = byLine || m.RanksByLine()
	}
	return byScore && byLine
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

// inputNeeds says what buildInput builds for the measures asked.
type inputNeeds struct {
	// group and merge are RunTopic.Group's options; docs asks for the
	// ranked articles (every measure but the span measures), focused for
	// the ranked passages of iP and AiP, spans for the span measures'.
	group, merge, docs, focused, spans bool
	// passages: some measure needs the judgments' passages; lengths: the
	// judgments give the documents' lengths (else no result is clipped);
	// ranked: the run has a rank column (else a result's rank is its
	// position in its topic).
	passages, lengths, ranked bool
	// levels: some measure needs the topic's judgments by grade
	// (effort.TopicInput.Levels: the trec_eval measures of ListTrec).
	levels bool
}

// needsOf returns what the measures ms need of run against q, with the
// --group and --merge-overlaps options.
func needsOf(ms []effort.Measure, q *inex.Qrels, run *inex.Run, group, merge bool) inputNeeds {
	n := inputNeeds{merge: merge, lengths: q.Lengths(), ranked: run.Ranked}
	for _, m := range ms {
		n.levels = n.levels || m.List == effort.ListTrec
	}
	var strict bool
	n.docs, strict = docMeasures(ms)
	for _, m := range ms {
		if m.IsSpan() {
			n.spans = true
			q.NumberPassages()
		}
		n.focused = n.focused || m.IsFocused()
		n.passages = n.passages || m.NeedsPassages()
	}
	n.group = group || !strict // focused and count measures accept interleaving
	return n
}

// docMeasures tells whether the measures ms read a run's ranked articles
// (docs), and whether one of them wants an article's results together
// (strict: the focused and count measures accept them apart).
func docMeasures(ms []effort.Measure) (docs, strict bool) {
	for _, m := range ms {
		switch {
		case m.IsSpan():
		case m.IsFocused(), m.IsCount():
			docs = true
		default:
			docs, strict = true, true
		}
	}
	return docs, strict
}

// GroupCheck returns what refuses, as soon as a topic of the run file
// (path) is read, what the evaluation of its ranked articles with the
// measures ms would refuse later (RunTopic.Group: an article's results
// apart without --group, a repeated or overlapping result without
// --merge-overlaps), for the topics q judges; nil when the measures read
// no ranked article. A 20-million-line run whose second line repeats its
// first is so refused after its first topic, not after the whole file.
func GroupCheck(q *inex.Qrels, path string, ms []effort.Measure, group, merge bool) func(*inex.RunTopic) error {
	docs, strict := docMeasures(ms)
	if !docs {
		return nil
	}
	group = group || !strict
	return func(t *inex.RunTopic) error {
		if q.Topics[t.ID] == nil {
			return nil
		}
		_, err := t.Group(path, group, merge)
		return err
	}
}

// firstFull returns the line of the run's first whole-document result, or 0.
func firstFull(run *inex.Run) int {
	for _, t := range run.Topics {
		for _, p := range t.Results {
			if p.Full {
				return p.Line
			}
		}
	}
	return 0
}

// buildInput fills in with topic's run results against its judgments j and
// returns the topic's ranked articles (t.Group; nil when t is nil or n asks
// for no article), counting in cl the results (passages) that run past their
// article's end and are clipped, for the ranked list, the focused passages
// and the span measures' passages alike. Without lengths (span judgments
// without --lengths) nothing is clipped.
func buildInput(in *effort.TopicInput, j *inex.TopicJudgments, t *inex.RunTopic, file string, n inputNeeds, cl *clipCount) ([]inex.RankedArticle, error) {
	in.Trel, in.TrelChars, in.Ideal = j.Trel, j.RelChars, j.Ideal
	in.GoldPassages, in.Aspects = j.GoldPassages, j.Aspects
	in.Levels = in.Levels[:0]
	if n.levels {
		for _, d := range j.Docs {
			if d.Grade >= 0 && !d.Unjudged {
				for len(in.Levels) <= d.Grade {
					in.Levels = append(in.Levels, 0)
				}
				in.Levels[d.Grade]++
			}
		}
	}
	in.Docs, in.Passages, in.Ranked, in.RunDocs = in.Docs[:0], in.Passages[:0], in.Ranked[:0], 0
	in.Scored = true // a run's articles have its scores (a FOL article: its first line's)
	if t == nil {
		return nil, nil
	}
	if n.spans {
		spanInput(in, j, t, n, !n.docs, cl)
	}
	if !n.docs {
		return nil, nil
	}
	docs, err := t.Group(file, n.group, n.merge)
	if err != nil {
		return nil, err
	}
	clipped := false
	for _, d := range docs {
		rd := effort.RankedDoc{Ret: d.Ret, Full: d.Full, Entry: d.Entry, ID: d.Article, Score: d.Score}
		if jd := j.Docs[d.Article]; jd != nil {
			rd.Judged, rd.L, rd.Rel, rd.Grade, rd.Unjudged = true, jd.Length, jd.Rel, jd.Grade, jd.Unjudged
			if k := len(rd.Ret); n.lengths && k > 0 && rd.Ret[k-1].End > jd.Length {
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
	if n.focused {
		focusedInput(in, j, t, n)
	}
	return docs, nil
}

// focusedInput sets the focused passages of in, one per result of t in
// line order, each with its relevant characters by j; with n.merge, only
// the part of a result not returned earlier for its article counts.
func focusedInput(in *effort.TopicInput, j *inex.TopicJudgments, t *inex.RunTopic, n inputNeeds) {
	var seen map[string]effort.Spans
	if n.merge {
		seen = map[string]effort.Spans{}
	}
	var tmp effort.Spans
	for _, p := range t.Results {
		jd := j.Docs[p.Article]
		s := resultSpan(p, jd, n.lengths)
		if n.merge {
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
}

// resultSpan is the text of result p of a document judged jd (nil: not
// judged): a whole document is [0,L) when its length is known, else
// empty; with lengths, a passage is clipped to its document.
func resultSpan(p inex.Result, jd *inex.Judgment, lengths bool) effort.Span {
	s := effort.Span{Start: p.Start, End: p.End}
	if p.Full {
		s = effort.Span{}
		if jd != nil && lengths {
			s.End = jd.Length
		}
	}
	if jd != nil && lengths {
		if s.End > jd.Length {
			s.End = jd.Length // counted by the callers
		}
		if s.Start > s.End {
			s.Start = s.End
		}
	}
	return s
}

// spanInput fills in.Ranked with the topic's results for the span measures,
// in line order, counting the clipped ones in cl when count is set.
func spanInput(in *effort.TopicInput, j *inex.TopicJudgments, t *inex.RunTopic, n inputNeeds, count bool, cl *clipCount) {
	keys := make(map[string]int, len(t.Results)/4+1)
	for i, p := range t.Results {
		jd := j.Docs[p.Article]
		s := resultSpan(p, jd, n.lengths)
		if count && jd != nil && n.lengths && !p.Full && p.End > p.Start && p.End > jd.Length {
			cl.add(clipCount{1, p.Line})
		}
		key, ok := keys[p.Article]
		if !ok {
			key = len(keys)
			keys[p.Article] = key
		}
		rank := i + 1
		if n.ranked {
			rank = p.Rank
		}
		rp := effort.RankedPassage{ID: p.Article, Key: key, Rank: rank, Span: s}
		if jd != nil {
			rp.Relevant, rp.Gold, rp.Rel = jd.Relevant(), jd.Passages, jd.Rel
		}
		in.Ranked = append(in.Ranked, rp)
	}
	in.RunDocs = len(keys)
}
