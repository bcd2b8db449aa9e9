package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

func init() {
	register(&command{
		name:    "compare",
		args:    "--qrels Q [-m MEASURE]... [--lengths FILE] [--offsets chars|bytes] [--format table|tsv|markdown|latex|json] [--plot DIR] RUN... [--doc-baseline]",
		summary: "paired comparison of runs: means, significance against a baseline (or all pairs), effect sizes",
		run:     runCompare,
	})
}

// runCompare implements `readsim compare` (measures.md §9, for N runs): every
// run is evaluated with eval's code over the topics all of them evaluate;
// each run is compared with the baseline (the last run, the document
// baseline of the first run with --doc-baseline, or --baseline) or, with
// --all-pairs, every pair: paired t-test and randomization test, Holm–
// Bonferroni over each measure's comparisons, effect size and 95% confidence
// interval of the mean difference. The report is scenario.Comparison's.
func runCompare(e *env, args []string) error {
	c := commands["compare"]
	fs := newFlags(e, c)
	sf := addMeasureFlags(fs, "a `MEASURE` name or several, comma-separated, or all; repeatable; readsim measures lists them ("+effort.DefaultsUsage(false)+")", compatUsage).addOverlapFlags(fs).addSpanFlags(fs)
	docBaseline := fs.Bool("doc-baseline", false, "add the document baseline of the first run (same ranking, every article read in full) as the baseline")
	baseline := fs.String("baseline", "", "the baseline: a run id, a run file or a position from 1 (default: the last run)")
	allPairs := fs.Bool("all-pairs", false, "compare every pair of runs instead of each run with the baseline")
	allTopics := fs.Bool("c", false, "compare over every judged topic; a topic missing from a run scores 0")
	format := fs.String("format", "table", "output: table (readable), tsv, markdown, latex or json")
	digits := addDigits(fs, "decimals in tables, Markdown and LaTeX (tsv and json: full precision)")
	perms := fs.Int("permutations", scenario.DefaultPermutations, fmt.Sprintf("random sign assignments of the randomization test (1 to %d)", maxPermutations))
	seed := fs.Uint64("seed", scenario.DefaultSeed, "seed of the randomization test")
	test := fs.String("test", scenario.TestRand, "the test corrected for multiple comparisons and marked: rand (randomization) or t")
	alpha := fs.Float64("alpha", 0.05, "significance level of the marks")
	plotDir := fs.String("plot", "", "write SVG charts into DIR: mean gP[r] and NCE[r] over ranks of every run, per-topic differences sorted")
	readings := fs.Bool("readings", false, "the files are recorded readings (eval --readings), compared as runs")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) == 0:
		return usageError{"give the runs to compare"}
	case len(pos) == 1 && !*docBaseline:
		return usageError{"give two runs or more, or one run and --doc-baseline"}
	case *readings && (*docBaseline || *plotDir != ""):
		return usageError{"--readings compares readings: no --doc-baseline or --plot"}
	}
	if err := scenario.CheckInputs(append([]string{*sf.qrels}, pos...)); err != nil {
		return usageError{err.Error()}
	}
	f, err := scenario.ParseFormat(*format, scenario.FormatTable, scenario.FormatTSV, scenario.FormatMarkdown, scenario.FormatLaTeX, scenario.FormatJSON)
	if err != nil {
		return usageError{"--format: " + err.Error()}
	}
	switch {
	case *perms < 1 || *perms > maxPermutations:
		return usageError{fmt.Sprintf("--permutations must be from 1 to %d", maxPermutations)}
	case *test != scenario.TestRand && *test != scenario.TestT:
		return usageError{fmt.Sprintf("--test %q: rand or t", *test)}
	case !(*alpha > 0 && *alpha < 1):
		return usageError{"--alpha must be between 0 and 1"}
	}
	o, ms, err := sf.check(nil)
	if err != nil {
		return err
	}
	use := scenario.UseCompare
	if *readings {
		use = scenario.UseCompareReadings
	}
	if err := scenario.CheckMeasures(ms, use, nil); err != nil {
		return usageError{err.Error()}
	}
	warn := lockedWarn(e.stderr)
	q, err := sf.openQrels(warn)
	if err != nil {
		return err
	}
	defaults := scenario.DefaultMeasureNames(q, use)
	if *readings {
		defaults = effort.ReadingListNames
	}
	if ms, err = sf.measuresOn(q, use, defaults); err != nil {
		return err
	}
	if err := scenario.CheckMeasures(ms, use, q); err != nil {
		return usageError{err.Error()}
	}
	if *plotDir != "" && !q.Lengths() {
		return usageError{fmt.Sprintf("--plot charts gP and NCE over ranks, which simulate reading: %s gives no document lengths (give --lengths FILE)", *sf.qrels)}
	}
	if note := scenario.UnitNote(q, ms); note != "" {
		warn(note)
	}
	copt := scenario.CompareOptions{
		Eval: scenario.EvalOptions{Measures: ms, Config: effort.Config{Order: o, CompatINEX: sf.compatINEX()}, Group: *sf.group, MergeOverlaps: *sf.merge,
			AllTopics: *allTopics, Warn: warn},
		DocBaseline: *docBaseline, AllPairs: *allPairs,
		Permutations: *perms, Seed: *seed, Test: *test, Alpha: *alpha,
	}
	if *readings {
		return compareReadings(e, q, pos, *baseline, copt, f, *digits)
	}
	runs := make([]*inex.Run, len(pos))
	for i, p := range pos {
		if runs[i], err = inex.OpenRun(p, inex.RunOptions{Warn: warn}); err != nil {
			return err
		}
	}
	base := -1
	if *baseline != "" {
		if base = findRun(*baseline, pos, runs); base < 0 {
			return usageError{fmt.Sprintf("--baseline %q is none of the runs (give a run id, a file or a position)", *baseline)}
		}
	}
	copt.Baseline = base
	cmp, err := scenario.Compare(q, runs, copt)
	if err != nil {
		return err
	}
	if err := writeComparison(e, cmp, f, *digits); err != nil {
		return err
	}
	if *plotDir == "" {
		return nil
	}
	charts, err := scenario.ComparisonCharts(q, runs, cmp, scenario.Reader{Order: o, CompatINEX: sf.compatINEX(), Group: *sf.group, MergeOverlaps: *sf.merge})
	if err != nil {
		return err
	}
	return writeCharts(e, *plotDir, charts)
}

// compareReadings compares recorded readings (compare --readings), the
// baseline named by baseline ("" for the last).
func compareReadings(e *env, q *inex.Qrels, files []string, baseline string, copt scenario.CompareOptions, f scenario.Format, digits int) error {
	rds, err := scenario.OpenReadings(files)
	if err != nil {
		return err
	}
	copt.Baseline = -1
	if baseline != "" {
		if copt.Baseline = findReading(baseline, files, rds); copt.Baseline < 0 {
			return usageError{fmt.Sprintf("--baseline %q is none of the readings", baseline)}
		}
	}
	cmp, err := scenario.CompareReadings(q, rds, copt)
	if err != nil {
		return err
	}
	return writeComparison(e, cmp, f, digits)
}

// maxPermutations bounds --permutations: 10⁷ random sign assignments of
// 120 topics take seconds per measure; more would look like a hang.
const maxPermutations = 10_000_000

// writeComparison writes cmp on standard output.
func writeComparison(e *env, cmp *scenario.Comparison, f scenario.Format, digits int) error {
	w := bufio.NewWriter(e.stdout)
	if err := cmp.Write(w, f, digits); err != nil {
		return err
	}
	return w.Flush()
}

// findReading returns the index of the reading named s (a position from 1,
// a file or a reading id); -1 when none.
func findReading(s string, files []string, rds []*scenario.Reading) int {
	for i, rd := range rds {
		if rd.ID == s || files[i] == s || fmt.Sprint(i+1) == s {
			return i
		}
	}
	return -1
}

// findRun returns the index of the run named s: a position from 1, a file as
// given or a run id; -1 when none.
func findRun(s string, files []string, runs []*inex.Run) int {
	var n int
	if _, err := fmt.Sscanf(s, "%d", &n); err == nil && fmt.Sprint(n) == s {
		if n >= 1 && n <= len(runs)+1 {
			return n - 1
		}
		return -1
	}
	for i, f := range files {
		if f == s {
			return i
		}
	}
	for i, r := range runs {
		if r.ID == s {
			return i
		}
	}
	return -1
}

// writeCharts writes the charts into dir and says so on stderr.
func writeCharts(e *env, dir string, charts map[string]*scenario.Chart) error {
	names, err := scenario.WriteCharts(dir, charts)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "wrote %d charts into %s\n", len(names), dir)
	return nil
}

// writeFileAtomic writes path beside and renames it (scenario.WriteFileAtomic).
func writeFileAtomic(path string, write func(*os.File) error) error {
	return scenario.WriteFileAtomic(path, write)
}
