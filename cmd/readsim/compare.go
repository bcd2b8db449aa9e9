package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/internal/ground/durable"
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
	sf := addMeasureFlags(fs, scenario.UsePerTopic, "a `MEASURE` name or several, comma-separated, or all; repeatable; readsim measures lists them ("+effort.DefaultsUsage(false)+")", compatUsage).addOverlapFlags(fs).addSpanFlags(fs)
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
	if err := scenario.CheckInputs(append([]string{sf.Qrels}, pos...)); err != nil {
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
	if *readings {
		sf.Use = scenario.UseRecordedPerTopic
	}
	cfg, _, err := sf.Check(nil)
	if err != nil {
		return err
	}
	eopt := scenario.EvalOptions{Config: cfg, Group: sf.group, MergeOverlaps: sf.merge, AllTopics: *allTopics, Warn: cli.Warner(e.Stderr)}
	// without --plot (which charts from every judgment) and
	// --doc-baseline, large judgments are read a topic at a time
	st, q, err := evalJudgments(sf, *readings || rf.plot != "" || *docBaseline, eopt.Warn)
	if err != nil {
		return err
	}
	if eopt.Measures, err = sf.Select(q, eopt.Warn); err != nil {
		return err
	}
	if rf.plot != "" && !q.Lengths() {
		return cli.Usagef("--plot charts gP and NCE over ranks, which simulate reading: %s gives no document lengths (give --lengths FILE)", sf.Qrels)
	}
	copt := scenario.CompareOptions{Eval: eopt, DocBaseline: *docBaseline, AllPairs: *allPairs, Permutations: *perms, Seed: *seed, Test: *test, Alpha: *alpha}
	if *readings {
		return compareReadings(e, q, pos, *baseline, copt, rf, f)
	}
	return compareRuns(e, judged{q, st}, pos, *baseline, copt, rf, f)
}

// judged are the judgments of a comparison: q, read whole, or st read a
// topic at a time (q then holds what was read so far).
type judged struct {
	q  *inex.Qrels
	st *inex.QrelsStream
}

// compareRuns compares the runs of files, the baseline named by baseline
// ("" for the last), and charts them with --plot.
func compareRuns(e *cli.Env, j judged, files []string, baseline string, copt scenario.CompareOptions, rf *reportFlags, f scenario.ReportFormat) error {
	q := j.q
	runs := make([]*inex.Run, len(files))
	for i, p := range files {
		var err error
		ro := inex.RunOptions{Warn: copt.Eval.Warn, TopicRead: scenario.GroupCheck(q, p, copt.Eval.Measures, copt.Eval.Group, copt.Eval.MergeOverlaps)}
		if runs[i], err = inex.OpenRun(p, ro); err != nil {
			return err
		}
	}
	copt.Baseline = -1
	if baseline != "" {
		if copt.Baseline = scenario.FindRun(baseline, files, runs); copt.Baseline < 0 {
			return cli.Usagef("--baseline %q is none of the runs (give a run id, a file or a position)", baseline)
		}
	}
	var cmp *scenario.Comparison
	var err error
	if j.st != nil {
		cmp, err = scenario.CompareStream(j.st, runs, copt)
	} else {
		cmp, err = scenario.Compare(q, runs, copt)
	}
	if err != nil {
		return err
	}
	if err := rf.write(e, cmp, f); err != nil || rf.plot == "" {
		return err
	}
	ev := copt.Eval
	charts, err := scenario.ComparisonCharts(q, runs, cmp, scenario.SimulatedReader{Config: ev.Config, Group: ev.Group, MergeOverlaps: ev.MergeOverlaps})
	if err != nil {
		return err
	}
	return writeCharts(e, rf.plot, charts)
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

// runFidelity implements `readsim fidelity` (scenario.md, "Fidelity
// suite"): scenario.RunFidelity, reported by scenario.Fidelity.Write.
func runFidelity(e *cli.Env, fs *flag.FlagSet, args []string) error {
	sf := addMeasureFlags(fs, scenario.UseSimulatedPerTopic, "measure(s), repeatable and comma-separated; readsim measures lists them (default: the eleven of eval)", compatUsage)
	articles := fs.String("articles", "", "article folder: adds the element answer sets SL, SS and SST")
	rf := addReportFlags(fs, tableUsage, digitsUsage, "write SVG charts into DIR: mean gP[r] and NCE[r] over ranks of the answer sets and rankings, per-topic differences sorted", tableFormats...)
	if err := cli.ParseFlagsOnly(fs, args); err != nil {
		return err
	}
	f, err := rf.parse()
	if err != nil {
		return err
	}
	cfg, ms, err := sf.Check(effort.DefaultNames)
	if err != nil {
		return err
	}
	if err := scenario.CheckOutsideFolders(rf.plot, scenario.InputFolder{What: "the articles folder", Dir: *articles}); err != nil {
		return cli.Usage(err)
	}
	opt := scenario.FidelityOptions{Measures: ms, Config: cfg, Warn: cli.Warner(e.Stderr)}
	q, err := sf.Judgments(opt.Warn)
	if err != nil {
		return err
	}
	if *articles != "" {
		if opt.Articles, err = openCollection(e, "fidelity", *articles, nil); err != nil {
			return err
		}
	}
	fid, err := scenario.RunFidelity(q, opt)
	if err != nil {
		return err
	}
	if err := rf.write(e, fid, f); err != nil || rf.plot == "" {
		return err
	}
	return writeCharts(e, rf.plot, scenario.FidelityCharts(fid, cfg.CompatINEX))
}

// runReplay implements `readsim replay`: the trace of scenario.md as JSON
// Lines, one event per line, topics in the judgments' order (or the order
// of --topic). Without -m the `done` scores are effort.ReplayDefaults of
// the configured reader (with --t2i X they include AgP\T2Ip(X)); the
// `score` events hold the distinct document scores of those measures.
func runReplay(e *cli.Env, fs *flag.FlagSet, args []string) error {
	sf := addMeasureFlags(fs, scenario.UseSimulated, "a list score of the done events, repeatable ("+effort.ReplayUsage()+")", compatUsage).addOverlapFlags(fs)
	run := fs.String("run", "", "the run to replay (FOL, TREC or INEX XML; gzip or not)")
	var topics cli.Strings
	fs.Var(&topics, "topic", "replay only this topic, repeatable (default: every topic of the run in the judgments)")
	var rd scenario.SimulatedReader
	baseline := fs.Bool("doc-baseline", false, "the document baseline: every article read in full from its start")
	fs.IntVar(&rd.T2I, "t2i", 0, "tolerance to irrelevance x in characters: stop after the x-th non-relevant character of an article (0: none, read everything)")
	fs.IntVar(&rd.Screen, "screen", effort.DefaultScreen, "screen size s in characters (300: phone, 2000: laptop); each read event covers at most one screen")
	fs.IntVar(&rd.NR, "nr", effort.DefaultNR, "NR, the effort of a non-relevant article (LE)")
	fs.IntVar(&rd.Depth, "depth", 0, "how many ranks the reader looks at (0: all)")
	out := fs.String("out", "", "write the trace to FILE (atomically) instead of standard output")
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return cli.Usagef("unexpected argument %q (the run is given with --run)", pos[0])
	case *run == "":
		return cli.Usagef("--run is required")
	}
	if err := scenario.CheckInputs([]string{sf.Qrels, *run}); err != nil {
		return cli.Usage(err)
	}
	if err := scenario.CheckOutput(*out, sf.Qrels, *run); err != nil {
		return cli.Usage(err)
	}
	if rd.T2I < 0 || rd.Screen < 1 || rd.NR < 1 || rd.Depth < 0 ||
		rd.T2I > effort.MaxParam || rd.Screen > effort.MaxParam || rd.NR > effort.MaxParam || rd.Depth > inex.MaxRank {
		return cli.Usagef("--t2i must be from 0 to %d, --screen and --nr from 1 to %d (the bound of measure parameters), --depth from 0 to %d", effort.MaxParam, effort.MaxParam, inex.MaxRank)
	}
	if rd.Config, rd.Measures, err = sf.Check(nil); err != nil {
		return err
	}
	rd.DocBaseline, rd.Group, rd.MergeOverlaps = *baseline, sf.group, sf.merge
	warn := cli.Warner(e.Stderr)
	q, err := sf.Judgments(warn)
	if err != nil {
		return err
	}
	r, err := inex.OpenRun(*run, inex.RunOptions{Warn: warn})
	if err != nil {
		return err
	}
	p, err := scenario.NewReplayer(q, r, rd)
	if err != nil {
		return err
	}
	ids, err := p.SelectTopics(topics)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		warn(fmt.Sprintf("%s: warning: no topic of the run is in the judgments %s", *run, sf.Qrels))
	}
	if msg, err := p.ClipWarning(ids); err != nil {
		return err
	} else if msg != "" {
		warn(msg)
	}
	bar := cli.NewBar(e, int64(len(ids)), "replaying topics", false)
	defer bar.Finish()
	return durable.WriteOutput(e.Stdout, *out, func(w io.Writer) error { return p.WriteTrace(w, ids, func() { bar.Add(1) }) })
}

// runCalibrate implements `readsim calibrate`: scenario.Calibrate over the
// readings (files of the study mode, or any trace in the reader's schema),
// or with --by participant scenario.CalibrateByParticipant: each
// participant's tolerance and the spread across them.
func runCalibrate(e *cli.Env, fs *flag.FlagSet, args []string) error {
	qrels := fs.String("qrels", "", "judgments, INEX FOL (gzip or not)")
	by := fs.String("by", "", "participant: each participant's tolerance with its interval, and the spread across participants (`WHAT`)")
	fs.Bool("readings", true, "the files are recorded readings (the only kind calibrate reads; accepted for symmetry with eval)")
	rf := addReportFlags(fs, plainUsage, "decimals in tables", "", plainFormats...)
	boot := fs.Int("bootstrap", 1000, "resamples of the tolerance's interval (1 to 100000)")
	seed := fs.Uint64("seed", 1, "seed of the resamples")
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	switch {
	case *qrels == "":
		return cli.Usagef("--qrels is required")
	case len(pos) == 0:
		return cli.Usagef("give the readings to calibrate against")
	case *boot < 1 || *boot > 100000:
		return cli.Usagef("--bootstrap must be from 1 to 100000")
	case *by != "" && *by != "participant":
		return cli.Usagef("--by %q: calibrate goes by participant (--by participant) or pools every reading (no --by)", *by)
	}
	f, err := rf.parse()
	if err != nil {
		return err
	}
	q, err := inex.OpenQrels(*qrels, cli.Warner(e.Stderr))
	if err != nil {
		return err
	}
	rds, err := scenario.OpenReadings(pos)
	if err != nil {
		return err
	}
	opt := scenario.CalibrateOptions{Bootstrap: *boot, Seed: *seed, Warn: cli.Warner(e.Stderr)}
	if *by == "participant" {
		b, err := scenario.CalibrateByParticipant(q, rds, opt)
		if err != nil {
			return inputError{err}
		}
		return rf.write(e, b, f)
	}
	c, err := scenario.Calibrate(q, rds, opt)
	if err != nil {
		return inputError{err}
	}
	return rf.write(e, c, f)
}
