package scenario

import (
	"fmt"
	"sort"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/scenario/inex"
)

// ArticleSource gives the parsed articles for the element-based answer sets
// (article.Dir implements it).
type ArticleSource interface {
	Parse(id string) (*article.Article, error)
}

// FidelityOptions configures the fidelity suite.
type FidelityOptions struct {
	Measures []effort.Measure
	// Config is the reading (order, compat); DocBaseline is ignored.
	Config effort.Config
	// Articles, when not nil, adds the element answer sets SL, SS and SST.
	Articles ArticleSource
	// Warn receives warnings (may be nil).
	Warn func(string)
}

// The answer sets and rankings of the suite (scenario.md), in report order.
var (
	AnswerSets = []string{"S", "SS", "SL", "SLD", "SST"}
	Rankings   = []string{"R", "RS", "RI", "RSI"}
)

// Expectation is an expected ordering of two simulated runs: Left ≥ Right
// (or Left > Right when Strict), "better" following each measure's
// direction (lower is better for CE, NCE, ANCE).
type Expectation struct {
	Left, Right string // simulated run names, e.g. "SR", "SSR"
	Strict      bool
	// Label names the ordering as scenario.md writes it: "S ≥ SS", "R > RI".
	Label string
}

// Expectations are the orderings of scenario.md: answer sets under the ideal
// ranking R (S ≥ SS ≥ SL ≥ SLD, S ≥ SST, and S ≥ SLD, which follows from the
// chain and is the only answer-set check without articles) and rankings
// with the judged passages S (R ≥ RS, R > RI, RS > RSI).
var Expectations = []Expectation{
	{"SR", "SSR", false, "S ≥ SS"},
	{"SSR", "SLR", false, "SS ≥ SL"},
	{"SLR", "SLDR", false, "SL ≥ SLD"},
	{"SR", "SSTR", false, "S ≥ SST"},
	{"SR", "SLDR", false, "S ≥ SLD"},
	{"SR", "SRS", false, "R ≥ RS"},
	{"SR", "SRI", true, "R > RI"},
	{"SRS", "SRSI", true, "RS > RSI"},
}

// SimRun is one simulated run of the suite.
type SimRun struct {
	Name, AnswerSet, Ranking string
	// Values[m][t] is measure m for topic t; Means[m] its mean.
	Values [][]float64
	Means  []float64
	// TopicValues are the per-rank document scores, for the rank charts.
	TopicValues []*TopicValues
}

// Check is one expectation under one measure.
type Check struct {
	Expectation
	Measure int
	Paired
	// Fail: for ≥, the left run's mean is worse than the right's; for >, it
	// is not better (beyond rounding noise, TieTolerance). The decision is on
	// the means, as Pehcevski & Thom's comparison of MAgP; the wins, ties and
	// losses show the topics that disagree.
	Fail bool
}

// Fidelity is the result of the suite.
type Fidelity struct {
	Topics   []string
	Measures []effort.Measure
	Runs     []*SimRun
	Checks   []Check
	// DocNames are the document scores of the TopicValues.
	DocNames []string
}

// Run returns the simulated run called name, or nil.
func (f *Fidelity) Run(name string) *SimRun {
	for _, r := range f.Runs {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// simDoc is a relevant article of a topic with its answer sets.
type simDoc struct {
	id   string
	j    *inex.Judgment
	sets map[string]effort.Spans
}

// RunFidelity builds the simulated runs of every judged topic from q (and the
// articles) and evaluates them with eval's evaluator.
//
// Decisions where the specification is silent: R breaks ties of relevant
// characters by article id; RI and RSI insert, at the top, the first (by id)
// article judged non-relevant for the topic, or an article absent from the
// topic's judgments (non-relevant, scores 0, effort NR) when there is none;
// RS equals R for a topic with one relevant article. An article whose
// passages contain no whole element (SS, SST) keeps its rank with no
// retrieved text: the reader reads it from its start (scores 0 for F). The
// element sets are clipped to the judged length; a parsed article whose
// length differs from the judgments' is reported in a warning.
func RunFidelity(q *inex.Qrels, opt FidelityOptions) (*Fidelity, error) {
	if err := CheckMeasures(opt.Measures, UseSimulatedPerTopic, q); err != nil {
		return nil, err
	}
	sets := []string{"S", "SLD"}
	if opt.Articles != nil {
		sets = AnswerSets
	}
	f := &Fidelity{Topics: q.IDs, Measures: opt.Measures, DocNames: docScoreNames(opt.Measures)}
	cfg := opt.Config
	cfg.DocBaseline = false
	sc := &simScorer{ev: effort.NewEvaluator(opt.Measures, cfg)}
	byName := map[string]*SimRun{}
	for _, s := range sets {
		for _, r := range Rankings {
			run := &SimRun{Name: s + r, AnswerSet: s, Ranking: r, Values: make([][]float64, len(opt.Measures)), Means: make([]float64, len(opt.Measures))}
			f.Runs = append(f.Runs, run)
			byName[run.Name] = run
		}
	}
	mismatch, firstMismatch := 0, ""
	for _, tid := range q.IDs {
		tj := q.Topics[tid]
		rel, nonrel := rankJudged(tj)
		for _, d := range rel {
			d.sets = map[string]effort.Spans{
				"S":   d.j.Rel,
				"SLD": {{Start: 0, End: d.j.Length}},
			}
			if opt.Articles == nil {
				continue
			}
			a, err := opt.Articles.Parse(d.id)
			if err != nil {
				return nil, fmt.Errorf("topic %s, article %s (%s line %d): %w", tid, d.id, q.File, d.j.Line, err)
			}
			if a.Len != d.j.Length {
				if mismatch == 0 {
					firstMismatch = fmt.Sprintf("article %s: %d characters, judged length %d", d.id, a.Len, d.j.Length)
				}
				mismatch++
			}
			d.sets["SL"], d.sets["SS"], d.sets["SST"] = elementSets(a, d.j.Rel, d.j.Length)
		}
		nonrelDoc := effort.RankedDoc{Entry: -1}
		if len(nonrel) > 0 {
			j := tj.Docs[nonrel[0]]
			nonrelDoc = effort.RankedDoc{Judged: true, L: j.Length, Rel: j.Rel, Ret: effort.Spans{{Start: 0, End: j.Length}}, Entry: -1}
		}
		for _, run := range f.Runs {
			sc.score(run, tid, tj, rel, nonrelDoc)
		}
	}
	if mismatch > 0 && opt.Warn != nil {
		opt.Warn(fmt.Sprintf("warning: %d article(s) have a length that differs from the judgments %s (first: %s); element sets are clipped to the judged length", mismatch, q.File, firstMismatch))
	}
	for _, run := range f.Runs {
		for m, meas := range opt.Measures {
			run.Means[m] = effort.Aggregate(meas, run.Values[m])
		}
	}
	f.Checks = checkExpectations(byName, opt.Measures)
	return f, nil
}

// rankJudged returns the relevant articles of a topic, most relevant
// characters first (ties by id), and its non-relevant ones by id.
func rankJudged(tj *inex.TopicJudgments) (rel []*simDoc, nonrel []string) {
	for id, j := range tj.Docs {
		if j.NRC > 0 {
			rel = append(rel, &simDoc{id: id, j: j})
		} else {
			nonrel = append(nonrel, id)
		}
	}
	sort.Slice(rel, func(a, b int) bool {
		if rel[a].j.NRC != rel[b].j.NRC {
			return rel[a].j.NRC > rel[b].j.NRC
		}
		return rel[a].id < rel[b].id
	})
	sort.Strings(nonrel)
	return rel, nonrel
}

// simScorer scores the simulated runs topic by topic, reusing its buffers.
type simScorer struct {
	ev  *effort.Evaluator
	ws  effort.Workspace
	in  effort.TopicInput
	out []float64
}

// score adds topic tid of the simulated run: the relevant articles rel (R
// order) with the run's answer set, in the run's ranking (RS swaps the
// first two, RI and RSI put nonrelDoc first).
func (sc *simScorer) score(run *SimRun, tid string, tj *inex.TopicJudgments, rel []*simDoc, nonrelDoc effort.RankedDoc) {
	in := &sc.in
	in.Trel, in.TrelChars = tj.Trel, tj.RelChars
	in.Docs, in.Passages = in.Docs[:0], nil
	order := make([]*simDoc, len(rel))
	copy(order, rel)
	if (run.Ranking == "RS" || run.Ranking == "RSI") && len(order) >= 2 {
		order[0], order[1] = order[1], order[0]
	}
	if run.Ranking == "RI" || run.Ranking == "RSI" {
		in.Docs = append(in.Docs, nonrelDoc)
	}
	for _, d := range order {
		in.Docs = append(in.Docs, effort.RankedDoc{Judged: true, L: d.j.Length, Rel: d.j.Rel, Ret: d.sets[run.AnswerSet], Entry: -1})
	}
	sc.out = sc.ev.Topic(in, &sc.ws, sc.out[:0])
	for m, v := range sc.out {
		run.Values[m] = append(run.Values[m], v)
	}
	dv := sc.ev.Docs(in, &sc.ws)
	tv := &TopicValues{Topic: tid, Trel: tj.Trel, List: append([]float64(nil), sc.out...),
		IsRel: append([]bool(nil), dv.IsRel...), DocScores: make([][]float64, len(dv.Scores))}
	for i, s := range dv.Scores {
		tv.DocScores[i] = append([]float64(nil), s...)
	}
	run.TopicValues = append(run.TopicValues, tv)
}

// checkExpectations checks the Expectations between the simulated runs
// (by name) under each measure.
func checkExpectations(byName map[string]*SimRun, ms []effort.Measure) []Check {
	var checks []Check
	for _, x := range Expectations {
		l, r := byName[x.Left], byName[x.Right]
		if l == nil || r == nil {
			continue
		}
		for m, meas := range ms {
			lower := LowerIsBetter(meas)
			p := ComparePaired(l.Values[m], r.Values[m], lower, 0, 0)
			better := diff(p.MeanA, p.MeanB)
			if lower {
				better = -better
			}
			fail := better < 0
			if x.Strict {
				fail = better <= 0
			}
			checks = append(checks, Check{Expectation: x, Measure: m, Paired: p, Fail: fail})
		}
	}
	return checks
}

// elementSets returns the element answer sets of an article whose relevant
// text is rel: SL the smallest element containing each passage, SS the
// largest elements inside each passage, SST the leaf elements inside each
// passage, each a normalised set clipped to [0,L).
func elementSets(a *article.Article, rel effort.Spans, L int) (sl, ss, sst effort.Spans) {
	for _, p := range rel {
		if i := a.Smallest(p.Start, p.End); i >= 0 {
			sl = append(sl, effort.Span{Start: a.Elements[i].Start, End: a.Elements[i].End})
		} else {
			// No element contains the passage (text past the root's end):
			// fall back to the whole article.
			sl = append(sl, effort.Span{Start: 0, End: L})
		}
		for _, i := range a.Largest(p.Start, p.End) {
			ss = append(ss, effort.Span{Start: a.Elements[i].Start, End: a.Elements[i].End})
		}
		for _, i := range a.Leaves(p.Start, p.End) {
			sst = append(sst, effort.Span{Start: a.Elements[i].Start, End: a.Elements[i].End})
		}
	}
	return effort.Normalize(sl).Clip(0, L), effort.Normalize(ss).Clip(0, L), effort.Normalize(sst).Clip(0, L)
}
