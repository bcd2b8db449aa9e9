package main

import (
	"flag"
	"fmt"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

// maxPermutations bounds --permutations: 10⁷ random sign assignments of
// 120 topics take seconds per measure; more would look like a hang.
const maxPermutations = 10_000_000

// runCompare implements `readsim compare` (measures.md §9, for N runs):
// scenario.Compare (scenario.CompareReadings with --readings), reported by
// scenario.Comparison.Write, charted by scenario.ComparisonCharts.
func runCompare(e *cli.Env, fs *flag.FlagSet, args []string) error {
	sf := addMeasureFlags(fs, "a `MEASURE` name or several, comma-separated, or all; repeatable; readsim measures lists them ("+effort.DefaultsUsage(false)+")", compatUsage).addOverlapFlags(fs).addSpanFlags(fs)
	docBaseline := fs.Bool("doc-baseline", false, "add the document baseline of the first run (same ranking, every article read in full) as the baseline")
	baseline := fs.String("baseline", "", "the baseline: a run id, a run file or a position from 1 (default: the last run)")
	allPairs := fs.Bool("all-pairs", false, "compare every pair of runs instead of each run with the baseline")
	allTopics := fs.Bool("c", false, "compare over every judged topic; a topic missing from a run scores 0")
	rf := addReportFlags(fs, tableUsage, digitsUsage, "write SVG charts into DIR: mean gP[r] and NCE[r] over ranks of every run, per-topic differences sorted", tableFormats...)
	perms := fs.Int("permutations", scenario.DefaultPermutations, fmt.Sprintf("random sign assignments of the randomization test (1 to %d)", maxPermutations))
	seed := fs.Uint64("seed", scenario.DefaultSeed, "seed of the randomization test")
	test := fs.String("test", scenario.TestRand, "the test corrected for multiple comparisons and marked: rand (randomization) or t")
	alpha := fs.Float64("alpha", 0.05, "significance level of the marks")
	readings := fs.Bool("readings", false, "the files are recorded readings (eval --readings), compared as runs")
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) == 0:
		return cli.Usagef("give the runs to compare")
	case len(pos) == 1 && !*docBaseline:
		return cli.Usagef("give two runs or more, or one run and --doc-baseline")
	case *readings && (*docBaseline || rf.plot != ""):
		return cli.Usagef("--readings compares readings: no --doc-baseline or --plot")
	}
	if err := scenario.CheckInputs(append([]string{sf.qrels}, pos...)); err != nil {
		return cli.Usage(err)
	}
	f, err := rf.parse()
	if err != nil {
		return err
	}
	switch {
	case *perms < 1 || *perms > maxPermutations:
		return cli.Usagef("--permutations must be from 1 to %d", maxPermutations)
	case *test != scenario.TestRand && *test != scenario.TestT:
		return cli.Usagef("--test %q: rand or t", *test)
	case !(*alpha > 0 && *alpha < 1):
		return cli.Usagef("--alpha must be between 0 and 1")
	}
	q, eopt, err := compareMeasures(e, sf, *readings, rf.plot != "")
	if err != nil {
		return err
	}
	eopt.AllTopics = *allTopics
	copt := scenario.CompareOptions{Eval: eopt, DocBaseline: *docBaseline, AllPairs: *allPairs, Permutations: *perms, Seed: *seed, Test: *test, Alpha: *alpha}
	if *readings {
		return compareReadings(e, q, pos, *baseline, copt, rf, f)
	}
	runs := make([]*inex.Run, len(pos))
	for i, p := range pos {
		if runs[i], err = inex.OpenRun(p, inex.RunOptions{Warn: eopt.Warn}); err != nil {
			return err
		}
	}
	copt.Baseline = -1
	if *baseline != "" {
		if copt.Baseline = scenario.FindRun(*baseline, pos, runs); copt.Baseline < 0 {
			return cli.Usagef("--baseline %q is none of the runs (give a run id, a file or a position)", *baseline)
		}
	}
	cmp, err := scenario.Compare(q, runs, copt)
	if err != nil {
		return err
	}
	if err := rf.write(e, cmp, f); err != nil || rf.plot == "" {
		return err
	}
	charts, err := scenario.ComparisonCharts(q, runs, cmp, scenario.SimulatedReader{Config: effort.Config{Order: eopt.Config.Order, CompatINEX: eopt.Config.CompatINEX}, Group: sf.group, MergeOverlaps: sf.merge})
	if err != nil {
		return err
	}
	return writeCharts(e, rf.plot, charts)
}

// compareMeasures checks compare's measure flags, reads the judgments and
// returns them with the evaluation options: the measures asked (or the
// defaults for the judgments, or for readings), the reading order and
// --compat, --group and --merge-overlaps. plot: the charts are asked for,
// which need the documents' lengths.
func compareMeasures(e *cli.Env, sf *measureFlags, readings, plot bool) (*inex.Qrels, scenario.EvalOptions, error) {
	opt := scenario.EvalOptions{Group: sf.group, MergeOverlaps: sf.merge, Warn: cli.Warner(e.Stderr)}
	o, ms, err := sf.check(nil)
	if err != nil {
		return nil, opt, err
	}
	opt.Config = sf.config(o)
	use := scenario.UseCompare
	if readings {
		use = scenario.UseCompareReadings
	}
	if err := scenario.CheckMeasures(ms, use, nil); err != nil {
		return nil, opt, cli.Usage(err)
	}
	q, err := sf.openQrels(opt.Warn)
	if err != nil {
		return nil, opt, err
	}
	if opt.Measures, err = sf.selectOn(q, use); err != nil {
		return nil, opt, err
	}
	if err := scenario.CheckMeasures(opt.Measures, use, q); err != nil {
		return nil, opt, cli.Usage(err)
	}
	if plot && !q.Lengths() {
		return nil, opt, cli.Usagef("--plot charts gP and NCE over ranks, which simulate reading: %s gives no document lengths (give --lengths FILE)", sf.qrels)
	}
	unitNote(q, opt.Measures, opt.Warn)
	return q, opt, nil
}

// compareReadings compares recorded readings (compare --readings), the
// baseline named by baseline ("" for the last).
func compareReadings(e *cli.Env, q *inex.Qrels, files []string, baseline string, copt scenario.CompareOptions, rf *reportFlags, f scenario.ReportFormat) error {
	rds, err := scenario.OpenReadings(files)
	if err != nil {
		return err
	}
	copt.Baseline = -1
	if baseline != "" {
		if copt.Baseline = scenario.FindReading(baseline, files, rds); copt.Baseline < 0 {
			return cli.Usagef("--baseline %q is none of the readings", baseline)
		}
	}
	cmp, err := scenario.CompareReadings(q, rds, copt)
	if err != nil {
		return err
	}
	return rf.write(e, cmp, f)
}
