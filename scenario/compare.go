package scenario

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// Tests of a comparison.
const (
	TestRand = "rand" // the paired randomization test (Smucker, Allan & Carterette 2007)
	TestT    = "t"    // the paired t-test
)

// CompareOptions configures Compare.
type CompareOptions struct {
	// Eval are the options of every evaluation (measures, reading order,
	// grouping, -c). Eval.Config.DocBaseline is ignored: see DocBaseline.
	Eval EvalOptions
	// DocBaseline adds the document baseline of the first run (same ranking,
	// every article read in full) as the last run.
	DocBaseline bool
	// Baseline is the index of the run the others are compared with; a
	// negative value means the last run (the document baseline with
	// DocBaseline). AllPairs compares every pair of runs instead.
	Baseline int
	AllPairs bool
	// Permutations of the randomization test (0: DefaultPermutations; < 0:
	// no randomization test) and its Seed.
	Permutations int
	Seed         uint64
	// Test is the test whose p-values are corrected for multiple comparisons
	// (Holm–Bonferroni) and marked: TestRand (the default) or TestT.
	Test string
	// Alpha is the significance level of the marks (0: 0.05).
	Alpha float64
}

// Comparison is the paired comparison of several runs over the topics they
// all evaluate (measures.md §9, for N runs).
type Comparison struct {
	// Runs are the evaluations restricted to Topics; Names their display
	// names (run ids, made unique), Files their files ("" for a document
	// baseline).
	Runs   []*Evaluation
	Names  []string
	Files  []string
	Topics []string
	// Dropped are the topics left out because some run does not evaluate
	// them.
	Dropped  []string
	Measures []effort.Measure
	// Baseline is the index of the baseline run, -1 with AllPairs.
	Baseline int
	// Pairs holds, for each measure in order, its comparisons: run A against
	// run B (B the baseline, or the later run of a pair).
	Pairs []Pair
	// Test, Alpha and Permutations are the settings used.
	Test         string
	Alpha        float64
	Permutations int
}

// Pair compares run A with run B under one measure.
type Pair struct {
	Measure int
	A, B    int
	Paired
	// EffectSize is Cohen's d of the paired differences (EffectSize); CILow
	// and CIHigh the 95% confidence interval of the mean difference.
	EffectSize    float64
	CILow, CIHigh float64
	// PHolm is the Test's p-value adjusted with Holm–Bonferroni over the
	// measure's comparisons; Significant is PHolm < Alpha.
	PHolm       float64
	Significant bool
}

// Better reports whether run A is significantly better than run B (in the
// measure's direction).
func (p Pair) Better(m effort.Measure) bool {
	if !p.Significant {
		return false
	}
	if m.Better() == effort.Lower {
		return p.Diff < 0
	}
	return p.Diff > 0
}

// Compare evaluates runs (at least two, or one with DocBaseline) with the
// code of `readsim eval` and compares them per measure over the topics all
// evaluate. Topics evaluated by only some runs are left out and named in
// Dropped (with a warning); with Eval.AllTopics every run covers every
// judged topic.
func Compare(q *inex.Qrels, runs []*inex.Run, opt CompareOptions) (*Comparison, error) {
	switch {
	case len(runs) == 0:
		return nil, fmt.Errorf("scenario: Compare needs runs")
	case len(runs) == 1 && !opt.DocBaseline:
		return nil, fmt.Errorf("scenario: Compare needs two runs, or one and its document baseline")
	}
	ev := opt.Eval
	ev.Config.DocBaseline = false
	ev.comparing = true
	ev.Warn = onceEach(ev.Warn) // the document baseline reads the first run again
	var evs []*Evaluation
	var names, files []string
	for _, r := range runs {
		res, err := Evaluate(q, r, ev, ev.Workers)
		if err != nil {
			return nil, err
		}
		evs, files, names = append(evs, res), append(files, r.File), append(names, runName(r))
	}
	if opt.DocBaseline {
		eb := ev
		eb.Config.DocBaseline = true
		res, err := Evaluate(q, runs[0], eb, eb.Workers)
		if err != nil {
			return nil, err
		}
		evs, files, names = append(evs, res), append(files, ""), append(names, names[0]+" (document baseline)")
	}
	return CompareEvaluations(evs, names, files, opt)
}

// onceEach returns warn saying each distinct message once (nil for nil);
// safe for concurrent use, as warn must be.
func onceEach(warn func(string)) func(string) {
	if warn == nil {
		return nil
	}
	var mu sync.Mutex
	said := map[string]bool{}
	return func(msg string) {
		mu.Lock()
		seen := said[msg]
		said[msg] = true
		mu.Unlock()
		if !seen {
			warn(msg)
		}
	}
}

// CompareReadings compares recorded readings (EvaluateReading with
// opt.Eval) as Compare compares runs: each reading is one "run".
func CompareReadings(q *inex.Qrels, readings []*Reading, opt CompareOptions) (*Comparison, error) {
	if len(readings) < 2 {
		return nil, fmt.Errorf("compare needs two readings or more")
	}
	var evs []*Evaluation
	var names, files []string
	for _, rd := range readings {
		res, err := EvaluateReading(q, rd, opt.Eval)
		if err != nil {
			return nil, err
		}
		evs, files, names = append(evs, res), append(files, rd.File), append(names, rd.ID)
	}
	return CompareEvaluations(evs, names, files, opt)
}

// FindRun returns the index of the run named s among runs read from files:
// a position from 1 (len(runs)+1 is the document baseline Compare adds
// after them), a file as given or a run id, tried in that order; -1 when
// none (compare --baseline).
func FindRun(s string, files []string, runs []*inex.Run) int {
	if n, err := strconv.Atoi(s); err == nil && strconv.Itoa(n) == s {
		if n >= 1 && n <= len(runs)+1 {
			return n - 1
		}
		return -1
	}
	if i := slices.Index(files, s); i >= 0 {
		return i
	}
	return slices.IndexFunc(runs, func(r *inex.Run) bool { return r.ID == s })
}

// FindReading returns the index of the first reading named s among
// readings read from files: by its id, its file as given or its position
// from 1; -1 when none (compare --readings --baseline).
func FindReading(s string, files []string, rds []*Reading) int {
	for i, rd := range rds {
		if rd.ID == s || files[i] == s || strconv.Itoa(i+1) == s {
			return i
		}
	}
	return -1
}

// CompareEvaluations compares evaluations of the measures opt.Eval.Measures
// (of runs, document baselines or readings) named names, read from files
// ("" for a document baseline), over the topics all of them evaluate.
func CompareEvaluations(evs []*Evaluation, names, files []string, opt CompareOptions) (*Comparison, error) {
	c := &Comparison{Measures: opt.Eval.Measures, Test: opt.Test, Alpha: opt.Alpha, Permutations: opt.Permutations,
		Runs: evs, Names: names, Files: files}
	if c.Test == "" {
		c.Test = TestRand
	}
	if c.Alpha == 0 {
		c.Alpha = 0.05
	}
	if c.Permutations == 0 {
		c.Permutations = DefaultPermutations
	}
	apart(c.Names, c.Files)
	c.Topics, c.Dropped = commonTopics(c.Runs)
	if len(c.Dropped) > 0 {
		for i, r := range c.Runs {
			c.Runs[i] = subset(r, c.Topics, c.Measures)
		}
		if opt.Eval.Warn != nil {
			opt.Eval.Warn(fmt.Sprintf("warning: %d topic(s) are not evaluated by every run and are left out of the comparison: %s", len(c.Dropped), listTopics(c.Dropped, 20)))
		}
	}
	if len(c.Topics) == 0 {
		return nil, fmt.Errorf("the runs share no evaluated topic: nothing to compare")
	}
	c.Baseline = opt.Baseline
	if c.Baseline < 0 || c.Baseline >= len(c.Runs) {
		c.Baseline = len(c.Runs) - 1
	}
	var pairs [][2]int
	if opt.AllPairs {
		c.Baseline = -1
		for a := range c.Runs {
			for b := a + 1; b < len(c.Runs); b++ {
				pairs = append(pairs, [2]int{a, b})
			}
		}
	} else {
		for a := range c.Runs {
			if a != c.Baseline {
				pairs = append(pairs, [2]int{a, c.Baseline})
			}
		}
	}
	perms := max(c.Permutations, 0)
	for m, meas := range c.Measures {
		first := len(c.Pairs)
		var ps []float64
		for _, ab := range pairs {
			va, vb := c.Runs[ab[0]].Values[m], c.Runs[ab[1]].Values[m]
			p := Pair{Measure: m, A: ab[0], B: ab[1], Paired: ComparePaired(va, vb, LowerIsBetter(meas), perms, opt.Seed)}
			p.EffectSize = EffectSize(va, vb)
			p.CILow, p.CIHigh = ConfidenceInterval(va, vb)
			c.Pairs = append(c.Pairs, p)
			if c.Test == TestT {
				ps = append(ps, p.PT)
			} else {
				ps = append(ps, p.PRand)
			}
		}
		for i, adj := range Holm(ps) {
			p := &c.Pairs[first+i]
			p.PHolm = adj
			p.Significant = adj < c.Alpha
		}
	}
	return c, nil
}

// runName is a run's display name: its run id, or its file's name.
func runName(r *inex.Run) string {
	if r.ID != "" {
		return r.ID
	}
	return filepath.Base(r.File)
}

// commonTopics returns the topics every result evaluates (in the first
// result's order) and the others, sorted.
func commonTopics(rs []*Evaluation) (common, dropped []string) {
	n := map[string]int{}
	for _, r := range rs {
		for _, t := range r.Topics {
			n[t]++
		}
	}
	for _, t := range rs[0].Topics {
		if n[t] == len(rs) {
			common = append(common, t)
		}
	}
	for t, k := range n {
		if k < len(rs) {
			dropped = append(dropped, t)
		}
	}
	inex.SortTopics(dropped)
	return common, dropped
}

// listTopics writes at most max topic ids, then how many more.
func listTopics(ts []string, most int) string {
	if len(ts) <= most {
		return strings.Join(ts, ", ")
	}
	return strings.Join(ts[:most], ", ") + fmt.Sprintf(" and %d more", len(ts)-most)
}

// subset restricts r to the topics (a subset of its own), aggregating each
// measure of ms as Evaluate does (a sum for the counts, a mean otherwise).
func subset(r *Evaluation, topics []string, ms []effort.Measure) *Evaluation {
	at := make(map[string]int, len(r.Topics))
	for i, t := range r.Topics {
		at[t] = i
	}
	out := &Evaluation{File: r.File, RunID: r.RunID, Topics: topics, Values: make([][]float64, len(r.Values)), All: make([]float64, len(r.All))}
	for m := range r.Values {
		for _, t := range topics {
			out.Values[m] = append(out.Values[m], r.Values[m][at[t]])
		}
		out.All[m] = effort.Aggregate(ms[m], out.Values[m])
	}
	return out
}

// Letter returns the letter that names run i in the tables: a, b, …, z, then
// a1, b1, ….
func Letter(i int) string {
	l := string(rune('a' + i%26))
	if i >= 26 {
		l += strconv.Itoa(i / 26)
	}
	return l
}

// MeansTable is the table of runs × measures: each run's mean, marked with
// the letters of the runs it is significantly better than (as ranx marks
// them).
func (c *Comparison) MeansTable() *Table {
	t := &Table{Columns: []Column{{Name: "run"}}}
	for _, m := range c.Measures {
		t.Columns = append(t.Columns, Column{Name: m.String(), Num: true})
	}
	for i, name := range c.Names {
		row := []Cell{Text(Letter(i) + "  " + name)}
		for m, meas := range c.Measures {
			cell := Num(c.Runs[i].All[m])
			cell.Sup = c.betterThan(m, meas, i)
			row = append(row, cell)
		}
		t.Rows = append(t.Rows, row)
	}
	test := "randomization test (" + strconv.Itoa(c.Permutations) + " permutations)"
	if c.Test == TestT {
		test = "t-test"
	}
	t.Title = fmt.Sprintf("Means over %d topics", len(c.Topics))
	if c.Baseline >= 0 {
		t.Title += fmt.Sprintf("; every run compared with %s (%s)", Letter(c.Baseline), c.Names[c.Baseline])
	} else {
		t.Title += "; every pair of runs compared"
	}
	t.Notes = []string{fmt.Sprintf("A letter marks a run significantly better than the run of that letter: paired %s, Holm–Bonferroni over each measure's comparisons, p < %s. %s",
		test, strconv.FormatFloat(c.Alpha, 'f', -1, 64), directionNote(c.Measures))}
	return t
}

// betterThan lists the letters of the runs run i is significantly better than.
func (c *Comparison) betterThan(m int, meas effort.Measure, i int) string {
	var s []string
	for _, p := range c.Pairs {
		if p.Measure != m {
			continue
		}
		switch {
		case p.A == i && p.Better(meas):
			s = append(s, Letter(p.B))
		case p.B == i && p.Significant && !p.Better(meas) && p.Diff != 0:
			s = append(s, Letter(p.A))
		}
	}
	sort.Strings(s)
	return strings.Join(s, "")
}

// directionNote names the measures where lower is better.
func directionNote(ms []effort.Measure) string {
	var lower []string
	for _, m := range ms {
		if m.Better() == effort.Lower {
			lower = append(lower, m.String())
		}
	}
	if len(lower) == 0 {
		return "Higher is better for every measure."
	}
	return "Lower is better for " + strings.Join(lower, ", ") + "; higher for the others."
}

// PairsTable is the table of the comparisons: per measure and pair, both
// means, the difference with its 95% confidence interval, the effect size,
// wins/ties/losses and the p-values.
func (c *Comparison) PairsTable(digits int) *Table {
	t := &Table{Columns: []Column{
		{Name: "measure"}, {Name: "run"}, {Name: "vs"},
		{Name: "mean", Num: true}, {Name: "mean vs", Num: true}, {Name: "difference", Num: true},
		{Name: "95% CI", Num: true}, {Name: "effect d", Num: true},
		{Name: "wins", Num: true}, {Name: "ties", Num: true}, {Name: "losses", Num: true},
		{Name: "p (t-test)", Num: true}, {Name: "p (rand.)", Num: true}, {Name: "p (Holm)", Num: true},
	}}
	for _, p := range c.Pairs {
		meas := c.Measures[p.Measure]
		d := Num(p.Diff)
		d.Signed = true
		ci := Cell{IsNum: true, Text: "[" + FormatNumber(p.CILow, digits) + ", " + FormatNumber(p.CIHigh, digits) + "]"}
		holm := Cell{IsNum: true, Text: FormatP(p.PHolm, digits)}
		if p.Significant {
			holm.Sup = "*"
		}
		t.Rows = append(t.Rows, []Cell{
			Text(meas.String()), Text(Letter(p.A)), Text(Letter(p.B)),
			Num(p.MeanA), Num(p.MeanB), d, ci, Num(p.EffectSize),
			Int(p.Wins), Int(p.Ties), Int(p.Losses),
			{IsNum: true, Text: FormatP(p.PT, digits)}, {IsNum: true, Text: FormatP(p.PRand, digits)}, holm,
		})
	}
	t.Title = "Paired comparisons (difference = run − vs)"
	t.Notes = []string{"wins/ties/losses: topics where the run is better/equal/worse than the one it is compared with, in each measure's direction; * significant after Holm–Bonferroni."}
	return t
}

// tsvTable is the comparisons with full precision, one row per pair.
func (c *Comparison) tsvTable() *Table {
	t := &Table{}
	for _, n := range []string{"measure", "run", "vs", "mean_run", "mean_vs", "diff", "ci_low", "ci_high", "effect_size",
		"wins", "ties", "losses", "p_t", "p_rand", "p_holm", "significant"} {
		t.Columns = append(t.Columns, Column{Name: n})
	}
	for _, p := range c.Pairs {
		t.Rows = append(t.Rows, []Cell{
			Text(c.Measures[p.Measure].String()), Text(c.Names[p.A]), Text(c.Names[p.B]),
			Num(p.MeanA), Num(p.MeanB), Num(p.Diff), Num(p.CILow), Num(p.CIHigh), Num(p.EffectSize),
			Int(p.Wins), Int(p.Ties), Int(p.Losses), Num(p.PT), Num(p.PRand), Num(p.PHolm), Text(strconv.FormatBool(p.Significant)),
		})
	}
	return t
}

// Write writes the comparison in format f with digits decimals (tables,
// Markdown, LaTeX; TSV and JSON are full precision).
func (c *Comparison) Write(w io.Writer, f ReportFormat, digits int) error {
	if f == FormatJSON {
		return c.writeJSON(w)
	}
	if f == FormatTSV {
		return c.tsvTable().Write(w, f, digits)
	}
	var b strings.Builder
	runs := &Table{Columns: []Column{{Name: ""}, {Name: "run"}, {Name: "file"}}}
	for i, n := range c.Names {
		file := c.Files[i]
		if file == "" {
			file = "(the document baseline of " + c.Names[0] + ": every article read in full)"
		}
		runs.Rows = append(runs.Rows, []Cell{Text(Letter(i)), Text(n), Text(file)})
	}
	if f == FormatLaTeX {
		// one table, as a paper shows it: the runs in the caption
		t := c.MeansTable()
		var names []string
		for i, n := range c.Names {
			names = append(names, "("+Letter(i)+") "+n)
		}
		t.Title = fmt.Sprintf("Runs %s; means over %d topics.", strings.Join(names, ", "), len(c.Topics))
		return t.Write(w, f, digits)
	}
	if err := runs.Write(&b, f, digits); err != nil {
		return err
	}
	b.WriteString("\n")
	if err := c.MeansTable().Write(&b, f, digits); err != nil {
		return err
	}
	b.WriteString("\n")
	if err := c.PairsTable(digits).Write(&b, f, digits); err != nil {
		return err
	}
	if len(c.Dropped) > 0 {
		fmt.Fprintf(&b, "\nLeft out (not evaluated by every run): %s\n", listTopics(c.Dropped, 50))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// jsonFloat is a float64 that encodes NaN and infinities as null.
type jsonFloat float64

// MarshalJSON writes the number, or null when it is not finite.
func (f jsonFloat) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

// jsonTally is the JSON of a paired comparison's topic tally and t-test
// (Paired): "wins", "ties", "losses" and "p_t", embedded in a report's
// objects where they stand.
type jsonTally struct {
	Wins   int       `json:"wins"`
	Ties   int       `json:"ties"`
	Losses int       `json:"losses"`
	PT     jsonFloat `json:"p_t"`
}

func tallyOf(p Paired) jsonTally { return jsonTally{p.Wins, p.Ties, p.Losses, jsonFloat(p.PT)} }

// writeIndentedJSON writes v as JSON indented by two spaces, with a final
// newline: the JSON of every report.
func writeIndentedJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func (c *Comparison) writeJSON(w io.Writer) error {
	type run struct {
		Letter string               `json:"letter"`
		Name   string               `json:"run"`
		File   string               `json:"file,omitempty"`
		Means  map[string]jsonFloat `json:"means"`
	}
	type pair struct {
		Measure    string    `json:"measure"`
		Run        string    `json:"run"`
		Vs         string    `json:"vs"`
		MeanRun    jsonFloat `json:"mean_run"`
		MeanVs     jsonFloat `json:"mean_vs"`
		Diff       jsonFloat `json:"diff"`
		CILow      jsonFloat `json:"ci_low"`
		CIHigh     jsonFloat `json:"ci_high"`
		EffectSize jsonFloat `json:"effect_size"`
		jsonTally
		PRand       jsonFloat `json:"p_rand"`
		PHolm       jsonFloat `json:"p_holm"`
		Significant bool      `json:"significant"`
	}
	out := struct {
		Topics       []string `json:"topics"`
		Dropped      []string `json:"dropped_topics"`
		Baseline     string   `json:"baseline,omitempty"`
		Test         string   `json:"test"`
		Alpha        float64  `json:"alpha"`
		Permutations int      `json:"permutations"`
		Runs         []run    `json:"runs"`
		Pairs        []pair   `json:"comparisons"`
	}{Topics: c.Topics, Dropped: c.Dropped, Test: c.Test, Alpha: c.Alpha, Permutations: c.Permutations}
	if out.Dropped == nil {
		out.Dropped = []string{}
	}
	if c.Baseline >= 0 {
		out.Baseline = c.Names[c.Baseline]
	}
	for i, n := range c.Names {
		r := run{Letter: Letter(i), Name: n, File: c.Files[i], Means: map[string]jsonFloat{}}
		for m, meas := range c.Measures {
			r.Means[meas.String()] = jsonFloat(c.Runs[i].All[m])
		}
		out.Runs = append(out.Runs, r)
	}
	for _, p := range c.Pairs {
		out.Pairs = append(out.Pairs, pair{
			Measure: c.Measures[p.Measure].String(), Run: c.Names[p.A], Vs: c.Names[p.B],
			MeanRun: jsonFloat(p.MeanA), MeanVs: jsonFloat(p.MeanB), Diff: jsonFloat(p.Diff),
			CILow: jsonFloat(p.CILow), CIHigh: jsonFloat(p.CIHigh), EffectSize: jsonFloat(p.EffectSize),
			jsonTally: tallyOf(p.Paired), PRand: jsonFloat(p.PRand), PHolm: jsonFloat(p.PHolm), Significant: p.Significant,
		})
	}
	return writeIndentedJSON(w, out)
}
