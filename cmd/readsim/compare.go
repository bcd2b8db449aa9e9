package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/internal/cli/flaggroup"
	"github.com/readsim/readsim/internal/ground/durable"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

// runCompare implements `readsim compare` (measures.md §9, for N runs):
// scenario.Compare (scenario.CompareReadings with --readings), reported by
// scenario.Comparison.Write, charted by scenario.ComparisonCharts.
func runCompare(e *cli.Env, fs *flag.FlagSet, args []string) error {
	sf := flaggroup.AddMeasures(fs, scenario.UsePerTopic, "a `MEASURE` name or several, comma-separated, or all; repeatable; readsim measures lists them ("+effort.DefaultsUsage(false)+")", flaggroup.CompatUsage).AddOverlaps(fs).AddSpans(fs)
	docBaseline := fs.Bool("doc-baseline", false, "add the document baseline of the first run (same ranking, every article read in full) as the baseline")
	baseline := fs.String("baseline", "", "the baseline: a run id, a run file or a position from 1 (default: the last run)")
	allPairs := fs.Bool("all-pairs", false, "compare every pair of runs instead of each run with the baseline")
	allTopics := fs.Bool("c", false, "compare over every judged topic; a topic missing from a run scores 0")
	rf := flaggroup.AddReport(fs, flaggroup.TableUsage, flaggroup.DigitsUsage, "write SVG charts into DIR: mean gP[r] and NCE[r] over ranks of every run, per-topic differences sorted", flaggroup.TableFormats...)
	perms := fs.Int("permutations", scenario.DefaultPermutations, fmt.Sprintf("random sign assignments of the randomization test (1 to %d)", scenario.MaxPermutations))
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
	case *readings && (*docBaseline || rf.Plot != ""):
		return cli.Usagef("--readings compares readings: no --doc-baseline or --plot")
	}
	if err := scenario.CheckInputs(append([]string{sf.Qrels}, pos...)); err != nil {
		return cli.Usage(err)
	}
	f, err := rf.Parse()
	if err != nil {
		return err
	}
	if err := (scenario.CompareOptions{Permutations: *perms, Test: *test, Alpha: *alpha}).CheckParams(); err != nil {
		return cli.Usage(err)
	}
	if *readings {
		sf.Use = scenario.UseRecordedPerTopic
	}
	cfg, _, err := sf.Check(nil)
	if err != nil {
		return err
	}
	eopt := scenario.EvalOptions{Config: cfg, Group: sf.Group, MergeOverlaps: sf.Merge, AllTopics: *allTopics, Warn: cli.Warner(e.Stderr)}
	// without --plot (which charts from every judgment) and
	// --doc-baseline, large judgments are read a topic at a time
	st, q, err := sf.OpenJudgments(*readings || rf.Plot != "" || *docBaseline, eopt.Warn)
	if err != nil {
		return err
	}
	if eopt.Measures, err = sf.Select(q, eopt.Warn); err != nil {
		return err
	}
	if rf.Plot != "" && !q.Lengths() {
		return cli.Usagef("--plot charts gP and NCE over ranks, which simulate reading: %s gives no document lengths (give --lengths FILE)", sf.Qrels)
	}
	copt := scenario.CompareOptions{Eval: eopt, DocBaseline: *docBaseline, AllPairs: *allPairs, Permutations: *perms, Seed: *seed, Test: *test, Alpha: *alpha}
	if *readings {
		cmp, err := scenario.CompareReadingFiles(q, pos, *baseline, copt)
		if err != nil {
			return baselineUsage(err)
		}
		return rf.Write(e, cmp, f)
	}
	cmp, runs, err := scenario.CompareRunFiles(q, st, pos, *baseline, copt)
	if err != nil {
		return baselineUsage(err)
	}
	if err := rf.Write(e, cmp, f); err != nil || rf.Plot == "" {
		return err
	}
	charts, err := scenario.ComparisonCharts(q, runs, cmp, scenario.SimulatedReader{Config: cfg, Group: sf.Group, MergeOverlaps: sf.Merge})
	if err != nil {
		return err
	}
	return flaggroup.WriteCharts(e, rf.Plot, charts)
}

// baselineUsage is err, a usage error when it names an unknown baseline.
func baselineUsage(err error) error {
	var be *scenario.BaselineError
	if errors.As(err, &be) {
		return cli.Usage(err)
	}
	return err
}

// runFidelity implements `readsim fidelity` (scenario.md, "Fidelity
// suite"): scenario.RunFidelity, reported by scenario.Fidelity.Write.
func runFidelity(e *cli.Env, fs *flag.FlagSet, args []string) error {
	sf := flaggroup.AddMeasures(fs, scenario.UseSimulatedPerTopic, "measure(s), repeatable and comma-separated; readsim measures lists them (default: the eleven of eval)", flaggroup.CompatUsage)
	articles := fs.String("articles", "", "article folder: adds the element answer sets SL, SS and SST")
	rf := flaggroup.AddReport(fs, flaggroup.TableUsage, flaggroup.DigitsUsage, "write SVG charts into DIR: mean gP[r] and NCE[r] over ranks of the answer sets and rankings, per-topic differences sorted", flaggroup.TableFormats...)
	if err := cli.ParseFlagsOnly(fs, args); err != nil {
		return err
	}
	f, err := rf.Parse()
	if err != nil {
		return err
	}
	cfg, ms, err := sf.Check(effort.DefaultNames)
	if err != nil {
		return err
	}
	if err := scenario.CheckOutsideFolders(rf.Plot, scenario.InputFolder{What: "the articles folder", Dir: *articles}); err != nil {
		return cli.Usage(err)
	}
	opt := scenario.FidelityOptions{Measures: ms, Config: cfg, Warn: cli.Warner(e.Stderr)}
	q, err := sf.Judgments(opt.Warn)
	if err != nil {
		return err
	}
	if *articles != "" {
		if opt.Articles, err = flaggroup.OpenCollection(e, "fidelity", *articles, nil); err != nil {
			return err
		}
	}
	fid, err := scenario.RunFidelity(q, opt)
	if err != nil {
		return err
	}
	if err := rf.Write(e, fid, f); err != nil || rf.Plot == "" {
		return err
	}
	return flaggroup.WriteCharts(e, rf.Plot, scenario.FidelityCharts(fid, cfg.CompatINEX))
}

// runReplay implements `readsim replay`: the trace of scenario.md as JSON
// Lines, one event per line, topics in the judgments' order (or the order
// of --topic). Without -m the `done` scores are effort.ReplayDefaults of
// the configured reader (with --t2i X they include AgP\T2Ip(X)); the
// `score` events hold the distinct document scores of those measures.
func runReplay(e *cli.Env, fs *flag.FlagSet, args []string) error {
	sf := flaggroup.AddMeasures(fs, scenario.UseSimulated, "a list score of the done events, repeatable ("+effort.ReplayUsage()+")", flaggroup.CompatUsage).AddOverlaps(fs)
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
	if err := rd.CheckParams(); err != nil {
		return cli.Usage(err)
	}
	if rd.Config, rd.Measures, err = sf.Check(nil); err != nil {
		return err
	}
	rd.DocBaseline, rd.Group, rd.MergeOverlaps = *baseline, sf.Group, sf.Merge
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
	rf := flaggroup.AddReport(fs, flaggroup.PlainUsage, "decimals in tables", "", flaggroup.PlainFormats...)
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
	f, err := rf.Parse()
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
			return cli.InputError{Err: err}
		}
		return rf.Write(e, b, f)
	}
	c, err := scenario.Calibrate(q, rds, opt)
	if err != nil {
		return cli.InputError{Err: err}
	}
	return rf.Write(e, c, f)
}
