package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

func init() {
	register(&command{
		name:    "compare",
		args:    "--qrels Q [-m MEASURE]... [--format table|tsv|markdown|latex] [--plot DIR] RUN_A (RUN_B | --doc-baseline)",
		summary: "paired comparison of two runs, one row per measure",
		run:     runCompare,
	})
}

// runCompare implements `readsim compare` (measures.md §9): both runs are
// evaluated with eval's code (scenario.Evaluate) over the topics both
// evaluate; per measure the two means, diff = mean_a − mean_b, wins, ties
// and losses of run A (for CE, NCE and ANCE lower is better, so a win is a
// lower value), the two-sided paired t-test p-value and the paired
// randomization test p-value (--permutations random sign flips, --seed).
func runCompare(e *env, args []string) error {
	c := commands["compare"]
	fs := newFlags(e, c)
	sf := addMeasureFlags(fs, "measure, repeatable (default: the eleven of eval)", compatUsage).addOverlapFlags(fs)
	baseline := fs.Bool("doc-baseline", false, "compare RUN_A with its own document baseline (same ranking, every article read in full)")
	allTopics := fs.Bool("c", false, "compare over every judged topic; a topic missing from a run scores 0")
	format := fs.String("format", "table", "output: table (readable), tsv, markdown or latex")
	perms := fs.Int("permutations", scenario.DefaultPermutations, "random sign assignments of the randomization test (>= 1)")
	seed := fs.Uint64("seed", scenario.DefaultSeed, "seed of the randomization test")
	plotDir := fs.String("plot", "", "write SVG charts into DIR: mean gP[r] and NCE[r] over ranks of both runs, per-topic differences sorted")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case *baseline && len(pos) != 1:
		return usageError{"with --doc-baseline give exactly one run"}
	case !*baseline && len(pos) != 2:
		return usageError{"give two runs, or one run and --doc-baseline"}
	}
	switch *format {
	case "table", "tsv", "markdown", "latex":
	default:
		return usageError{fmt.Sprintf("unknown --format %q (table, tsv, markdown or latex)", *format)}
	}
	if *perms < 1 {
		return usageError{"--permutations must be at least 1"}
	}
	o, ms, err := sf.check(defaultMeasures)
	if err != nil {
		return err
	}
	for _, m := range ms {
		if m.IsCount() {
			return usageError{fmt.Sprintf("%s is an official count; compare compares per-topic scores", m)}
		}
	}
	warn := lockedWarn(e.stderr)
	q, err := inex.OpenQrels(*sf.qrels, warn)
	if err != nil {
		return asInputError(err)
	}
	runs := make([]*inex.Run, len(pos))
	for i, p := range pos {
		if runs[i], err = inex.OpenRun(p, inex.RunOptions{Warn: warn}); err != nil {
			return asInputError(err)
		}
	}
	var rb *inex.Run
	if !*baseline {
		rb = runs[1]
	}
	cfg := effort.Config{Order: o, CompatINEX: sf.compatINEX()}
	cmp, err := scenario.CompareRuns(q, runs[0], rb, scenario.CompareOptions{
		Eval: scenario.EvalOptions{Measures: ms, Config: cfg, Group: *sf.group, MergeOverlaps: *sf.merge,
			AllTopics: *allTopics, Warn: warn},
		DocBaseline: *baseline, Permutations: *perms, Seed: *seed,
	})
	if err != nil {
		return asInputError(err)
	}
	nameA := runLabel(pos[0], runs[0])
	nameB := "document baseline of " + nameA
	if !*baseline {
		nameB = runLabel(pos[1], runs[1])
	}
	w := bufio.NewWriter(e.stdout)
	writeComparison(w, *format, cmp, nameA, nameB)
	if err := w.Flush(); err != nil {
		return err
	}
	if *plotDir == "" {
		return nil
	}
	// The rank curves need the per-rank document scores: the replayer
	// computes them with the evaluator of eval.
	rd := scenario.Reader{Order: o, CompatINEX: cfg.CompatINEX, Group: *sf.group, MergeOverlaps: *sf.merge, Measures: ms}
	pa, err := scenario.NewReplayer(q, runs[0], rd)
	if err != nil {
		return err
	}
	rdB := rd
	runB := rb
	if *baseline {
		rdB.DocBaseline, runB = true, runs[0]
	}
	pb, err := scenario.NewReplayer(q, runB, rdB)
	if err != nil {
		return err
	}
	// Topics missing from a run (with -c) have no curve: use the common ones.
	topics := commonTopics(cmp.Topics, pa.Topics(), pb.Topics())
	va, err := scenario.TopicValuesAll(pa, topics)
	if err != nil {
		return asInputError(err)
	}
	vb, err := scenario.TopicValuesAll(pb, topics)
	if err != nil {
		return asInputError(err)
	}
	short := []string{"A: " + shortLabel(nameA), "B: " + shortLabel(nameB)}
	charts := scenario.RankCharts(ms, short, [][]*scenario.TopicValues{va, vb}, pa.DocScoreNames(), cfg.CompatINEX)
	for m, meas := range ms {
		d := scenario.Differences(cmp.A.Values[m], cmp.B.Values[m])
		charts["diff-"+scenario.FileName(meas.String())+".svg"] = &scenario.Chart{
			Title:  fmt.Sprintf("Per-topic difference A − B, %s (%d topics, sorted)", meas, len(d)),
			XLabel: "topics, sorted by difference", YLabel: "A − B, " + meas.String(),
			Curves: []scenario.Curve{{Name: short[0] + " − " + strings.TrimPrefix(short[1], "B: "), Y: scenario.SortedDesc(d)}},
			Zero:   true,
		}
	}
	return writeCharts(e, *plotDir, charts)
}

func commonTopics(lists ...[]string) []string {
	n := map[string]int{}
	for _, l := range lists {
		for _, t := range l {
			n[t]++
		}
	}
	var out []string
	for _, t := range lists[0] {
		if n[t] == len(lists) {
			out = append(out, t)
		}
	}
	return out
}

// writeCharts writes every chart into dir (created if needed), atomically,
// and lists the files on stderr.
func writeCharts(e *env, dir string, charts map[string]*scenario.Chart) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(charts))
	for n := range charts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		path := filepath.Join(dir, n)
		if err := writeFileAtomic(path, func(f *os.File) error {
			return charts[n].WriteSVG(f)
		}); err != nil {
			return err
		}
	}
	fmt.Fprintf(e.stderr, "wrote %d charts into %s\n", len(names), dir)
	return nil
}

// runLabel names a run by its file and, when it has one, its run id.
func runLabel(path string, r *inex.Run) string {
	if r.ID != "" && r.ID != filepath.Base(path) {
		return fmt.Sprintf("%s (%s)", path, r.ID)
	}
	return path
}

func shortLabel(s string) string {
	if strings.HasPrefix(s, "document baseline of ") {
		return "document baseline"
	}
	if i := strings.Index(s, " ("); i >= 0 {
		s = s[:i]
	}
	return filepath.Base(s)
}

// fmtP formats a p-value: four significant digits, "<1e-4"-style values in
// exponent form.
func fmtP(p float64) string {
	switch {
	case math.IsNaN(p):
		return "n/a"
	case p == 0:
		return "0"
	case p < 1e-4:
		return strconv.FormatFloat(p, 'e', 2, 64)
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}

func fmtMean(v float64) string {
	if math.Abs(v) >= 10 {
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

func sigMark(p float64) string {
	switch {
	case p < 0.01:
		return "**"
	case p < 0.05:
		return "*"
	}
	return ""
}

func full(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// writeComparison prints cmp in the format: tsv (full precision, the header
// of the issue), a readable aligned table, Markdown or LaTeX (booktabs).
func writeComparison(w io.Writer, format string, cmp *scenario.Comparison, nameA, nameB string) {
	n := len(cmp.Topics)
	switch format {
	case "tsv":
		fmt.Fprintln(w, "measure\tmean_a\tmean_b\tdiff\twins\tties\tlosses\tp_t\tp_rand")
		for m, r := range cmp.Rows {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\t%s\n", cmp.Measures[m], full(r.MeanA), full(r.MeanB), full(r.Diff),
				r.Wins, r.Ties, r.Losses, full(r.PT), full(r.PRand))
		}
	case "markdown":
		fmt.Fprintf(w, "A: %s; B: %s; %d topics.\n\n", mdEscape(nameA), mdEscape(nameB), n)
		fmt.Fprintln(w, "| measure | mean A | mean B | A − B | W/T/L | p (t-test) | p (randomization) |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|")
		for m, r := range cmp.Rows {
			fmt.Fprintf(w, "| %s | %s | %s | %s | %d/%d/%d | %s%s | %s%s |\n", mdEscape(cmp.Measures[m].String()),
				fmtMean(r.MeanA), fmtMean(r.MeanB), fmtSigned(r.Diff), r.Wins, r.Ties, r.Losses,
				fmtP(r.PT), sigMark(r.PT), fmtP(r.PRand), sigMark(r.PRand))
		}
		fmt.Fprintln(w, "\nW/T/L: topics where A is better/equal/worse (lower is better for CE, NCE, ANCE); * p < 0.05, ** p < 0.01 (two-sided, paired).")
	case "latex":
		fmt.Fprintln(w, `\begin{table}[t]`)
		fmt.Fprintln(w, `\centering`)
		fmt.Fprintln(w, `\begin{tabular}{lrrrrrr}`)
		fmt.Fprintln(w, `\toprule`)
		fmt.Fprintln(w, `Measure & Mean A & Mean B & $A-B$ & W/T/L & $p_t$ & $p_{\mathrm{rand}}$ \\`)
		fmt.Fprintln(w, `\midrule`)
		for m, r := range cmp.Rows {
			fmt.Fprintf(w, "%s & %s & %s & %s & %d/%d/%d & %s%s & %s%s \\\\\n", texEscape(cmp.Measures[m].String()),
				fmtMean(r.MeanA), fmtMean(r.MeanB), fmtSigned(r.Diff), r.Wins, r.Ties, r.Losses,
				fmtP(r.PT), texSig(r.PT), fmtP(r.PRand), texSig(r.PRand))
		}
		fmt.Fprintln(w, `\bottomrule`)
		fmt.Fprintln(w, `\end{tabular}`)
		fmt.Fprintf(w, "\\caption{A: %s; B: %s; %d topics. W/T/L: topics where A is better/equal/worse (lower is better for CE, NCE, ANCE). Two-sided paired t-test and randomization test; $^{*}$ $p<0.05$, $^{**}$ $p<0.01$.}\n",
			texEscape(nameA), texEscape(nameB), n)
		fmt.Fprintln(w, `\end{table}`)
	default:
		fmt.Fprintf(w, "A: %s\nB: %s\n%d topics\n\n", nameA, nameB, n)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "measure\tmean A\tmean B\tA − B\twins\tties\tlosses\tp (t-test)\tp (rand.)\t")
		for m, r := range cmp.Rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s%s\t%s%s\t\n", cmp.Measures[m], fmtMean(r.MeanA), fmtMean(r.MeanB),
				fmtSigned(r.Diff), r.Wins, r.Ties, r.Losses, fmtP(r.PT), padSig(r.PT), fmtP(r.PRand), padSig(r.PRand))
		}
		tw.Flush()
		fmt.Fprintln(w, "\nwins/ties/losses: topics where A is better/equal/worse (lower is better for CE, NCE, ANCE)")
		fmt.Fprintln(w, "p: two-sided paired tests; * p < 0.05, ** p < 0.01")
	}
}

func padSig(p float64) string { return fmt.Sprintf("%-2s", sigMark(p)) }

func fmtSigned(v float64) string {
	s := fmtMean(v)
	if v >= 0 && !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

func texSig(p float64) string {
	if s := sigMark(p); s != "" {
		return "$^{" + s + "}$"
	}
	return ""
}

func mdEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`).Replace(s)
}

func texEscape(s string) string {
	return strings.NewReplacer(`\`, `\textbackslash{}`, "_", `\_`, "%", `\%`, "&", `\&`, "#", `\#`, "$", `\$`, "{", `\{`, "}", `\}`, "~", `\textasciitilde{}`, "^", `\textasciicircum{}`).Replace(s)
}
