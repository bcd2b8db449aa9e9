package main

import (
	"flag"
	"io"
	"os"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

func runAssess(e *cli.Env, fs *flag.FlagSet, args []string) error {
	dir := fs.String("articles", "", "folder of the articles the quotes are from (required)")
	out := fs.String("out", "", "write the judgments to this file (atomically) instead of standard output")
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *dir == "" {
		return cli.Usagef("want --articles DIR and one highlights file")
	}
	if err := scenario.CheckOutput(*out, pos[0]); err != nil {
		return cli.Usage(err)
	}
	d, err := article.OpenDir(*dir)
	if err != nil {
		return err
	}
	f, err := os.Open(pos[0])
	if err != nil {
		return inputError{err}
	}
	defer f.Close()
	js, err := scenario.Assess(f, pos[0], d.Parse)
	if err != nil {
		return err
	}
	return scenario.WriteOutput(e.Stdout, *out, func(w io.Writer) error { return inex.WriteJudgments(w, js) })
}
