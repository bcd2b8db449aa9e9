package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

func runRun(e *cli.Env, fs *flag.FlagSet, args []string) error {
	rf := addRetrievalFlags(fs, 100)
	topicsFile := fs.String("topics", "", "the topic `FILE` (INEX 2009 or 2006 XML, or plain text \"id title…\" lines)")
	task := fs.String("task", "ric", "ric, focused, bic (FOL text) or doc (TREC document run)")
	runID := fs.String("run-id", "", "the run id column (default readsim-TASK)")
	fields := fs.String("fields", "title", "topic fields that make the query, comma-separated: title, castitle, phrasetitle, description, narrative")
	out := fs.String("out", "", "write the run to `FILE` (written beside, then renamed) instead of standard output")
	if err := cli.ParseFlagsOnly(fs, args); err != nil {
		return err
	}
	search, err := rf.options()
	if err != nil {
		return err
	}
	if *topicsFile == "" {
		return cli.Usagef("--topics is required")
	}
	if err := scenario.CheckOutput(*out, *topicsFile); err != nil {
		return cli.Usage(err)
	}
	opt := scenario.MakeRunOptions{Task: *task, K: rf.k, RunID: *runID, Search: search,
		Warn: func(s string) { fmt.Fprintf(e.Stderr, "readsim run: %s\n", s) }}
	if err := opt.Check(); err != nil {
		return cli.Usage(err)
	}
	fieldNames, err := scenario.TopicFields(*fields)
	if err != nil {
		return cli.Usage(err)
	}
	if len(fieldNames) == 0 {
		return cli.Usagef("--fields names no field")
	}
	ts, err := inex.OpenTopics(*topicsFile)
	if err != nil {
		return inputError{err}
	}
	x, err := index.Open(rf.idx)
	if err != nil {
		return err
	}
	defer x.Close()
	ctx, stop := cli.Context()
	defer stop()
	run, err := scenario.MakeRun(ctx, x, scenario.TopicQueries(ts, fieldNames), opt)
	if err != nil {
		return err
	}
	return scenario.WriteOutput(e.Stdout, *out, func(w io.Writer) error { return inex.WriteRun(w, run) })
}
