package scenario

import (
	"fmt"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// CompareOptions configures CompareRuns.
type CompareOptions struct {
	// Eval are the options of both evaluations (measures, reading order,
	// grouping, -c). Eval.Config.DocBaseline is ignored: see DocBaseline.
	Eval EvalOptions
	// DocBaseline compares run a with its own document baseline (same
	// ranking, every article read in full) instead of run b.
	DocBaseline bool
	// Permutations of the randomization test (0: DefaultPermutations; < 0:
	// no randomization test) and its Seed.
	Permutations int
	Seed         uint64
}

// Comparison is the paired comparison of two runs (measures.md §9).
type Comparison struct {
	// A and B are the two evaluations, restricted to Topics, the topics
	// evaluated in both (in both results' order).
	A, B     *Result
	Topics   []string
	Measures []effort.Measure
	// Rows[m] compares measure m.
	Rows []Paired
}

// CompareRuns evaluates run a and run b (or a's document baseline when
// opt.DocBaseline, b then being nil) with the code of `readsim eval` and
// compares them per measure over the topics both evaluate. Topics evaluated
// in only one run are left out (with a warning); with Eval.AllTopics both
// runs cover every judged topic.
func CompareRuns(q *inex.Qrels, a, b *inex.Run, opt CompareOptions) (*Comparison, error) {
	ea := opt.Eval
	ea.Config.DocBaseline = false
	ra, err := Evaluate(q, a, ea, ea.Workers)
	if err != nil {
		return nil, err
	}
	eb := ea
	if opt.DocBaseline {
		b = a
		eb.Config.DocBaseline = true
	}
	if b == nil {
		return nil, fmt.Errorf("scenario: CompareRuns needs run b or DocBaseline")
	}
	rb, err := Evaluate(q, b, eb, eb.Workers)
	if err != nil {
		return nil, err
	}
	ra, rb, dropped := pairTopics(ra, rb, opt.Eval.Measures)
	if dropped > 0 && opt.Eval.Warn != nil {
		opt.Eval.Warn(fmt.Sprintf("warning: %d topic(s) are evaluated in only one of %s and %s and are left out of the comparison", dropped, a.File, b.File))
	}
	c := &Comparison{A: ra, B: rb, Topics: ra.Topics, Measures: opt.Eval.Measures}
	perms := opt.Permutations
	if perms == 0 {
		perms = DefaultPermutations
	}
	for m, meas := range c.Measures {
		c.Rows = append(c.Rows, ComparePaired(ra.Values[m], rb.Values[m], LowerIsBetter(meas), perms, opt.Seed))
	}
	return c, nil
}

// pairTopics restricts a and b (evaluations of ms) to their common topics.
func pairTopics(a, b *Result, ms []effort.Measure) (*Result, *Result, int) {
	inB := map[string]int{}
	for i, t := range b.Topics {
		inB[t] = i
	}
	var ia, ib []int
	for i, t := range a.Topics {
		if j, ok := inB[t]; ok {
			ia, ib = append(ia, i), append(ib, j)
		}
	}
	dropped := len(a.Topics) + len(b.Topics) - 2*len(ia)
	if dropped == 0 {
		return a, b, 0
	}
	return subset(a, ia, ms), subset(b, ib, ms), dropped
}

// subset restricts r to its topics idx, aggregating each measure of ms as
// Evaluate does (a sum for the counts, a mean otherwise).
func subset(r *Result, idx []int, ms []effort.Measure) *Result {
	out := &Result{File: r.File, RunID: r.RunID, Values: make([][]float64, len(r.Values)), All: make([]float64, len(r.All))}
	for _, i := range idx {
		out.Topics = append(out.Topics, r.Topics[i])
	}
	for m := range r.Values {
		for _, i := range idx {
			out.Values[m] = append(out.Values[m], r.Values[m][i])
		}
		out.All[m] = effort.Aggregate(ms[m], out.Values[m])
	}
	return out
}
