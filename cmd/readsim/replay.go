package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

// runReplay implements `readsim replay`: the trace of scenario.md as JSON
// Lines, one event per line, topics in the judgments' order (or the order
// of --topic). Without -m the `done` scores are effort.ReplayDefaults of
// the configured reader (with --t2i X they include AgP\T2Ip(X)); the
// `score` events hold the distinct document scores of those measures.
func runReplay(e *cli.Env, fs *flag.FlagSet, args []string) error {
	sf := addMeasureFlags(fs, "a list score of the done events, repeatable ("+effort.ReplayUsage()+")", compatUsage).addOverlapFlags(fs)
	run := fs.String("run", "", "the run to replay (FOL, TREC or INEX XML)")
	var topics cli.Strings
	fs.Var(&topics, "topic", "replay only this topic, repeatable (default: every topic of the run in the judgments)")
	baseline := fs.Bool("doc-baseline", false, "the document baseline: every article read in full from its start")
	t2i := fs.Int("t2i", 0, "tolerance to irrelevance x in characters: stop after the x-th non-relevant character of an article (0: none, read everything)")
	screen := fs.Int("screen", effort.DefaultScreen, "screen size s in characters (300: phone, 2000: laptop); each read event covers at most one screen")
	nr := fs.Int("nr", effort.DefaultNR, "NR, the effort of a non-relevant article (LE)")
	depth := fs.Int("depth", 0, "how many ranks the reader looks at (0: all)")
	out := fs.String("out", "", "write the trace to FILE (atomically) instead of standard output")
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.Usagef("unexpected argument %q (the run is given with --run)", pos[0])
	}
	if *run == "" {
		return cli.Usagef("--run is required")
	}
	if err := scenario.CheckInputs([]string{sf.qrels, *run}); err != nil {
		return cli.Usage(err)
	}
	if err := scenario.CheckOutput(*out, sf.qrels, *run); err != nil {
		return cli.Usage(err)
	}
	if *t2i < 0 || *screen < 1 || *nr < 1 || *depth < 0 {
		return cli.Usagef("--t2i and --depth must be >= 0, --screen and --nr >= 1")
	}
	o, ms, err := sf.check(nil)
	if err != nil {
		return err
	}
	if err := scenario.CheckMeasures(ms, scenario.UseReplay, nil); err != nil {
		return cli.Usage(err)
	}
	warn := cli.Warner(e.Stderr)
	q, err := inex.OpenQrels(sf.qrels, warn)
	if err != nil {
		return err
	}
	r, err := inex.OpenRun(*run, inex.RunOptions{Warn: warn})
	if err != nil {
		return err
	}
	cfg := sf.config(o)
	cfg.DocBaseline = *baseline
	p, err := scenario.NewReplayer(q, r, scenario.SimulatedReader{
		Config: cfg, T2I: *t2i, Screen: *screen, NR: *nr, Depth: *depth, Group: sf.group, MergeOverlaps: sf.merge, Measures: ms,
	})
	if err != nil {
		return err
	}
	ids, err := p.SelectTopics(topics)
	if err != nil {
		return cli.Usage(err)
	}
	if len(ids) == 0 {
		warn(fmt.Sprintf("%s: warning: no topic of the run is in the judgments %s", *run, sf.qrels))
	}
	if msg, err := p.ClipWarning(ids); err != nil {
		return err
	} else if msg != "" {
		warn(msg)
	}
	bar := cli.NewBar(e, int64(len(ids)), "replaying topics", false)
	defer bar.Finish()
	return scenario.WriteOutput(e.Stdout, *out, func(w io.Writer) error { return p.WriteTrace(w, ids, func() { bar.Add(1) }) })
}
