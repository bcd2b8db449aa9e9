package main

import (
	"flag"
	"io"
	"os"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

func runAssess(e *env, fs *flag.FlagSet, args []string) error {
	dir := fs.String("articles", "", "folder of the articles the quotes are from (required)")
	out := fs.String("out", "", "write the judgments to this file (atomically) instead of standard output")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *dir == "" {
		return usageError{"want --articles DIR and one highlights file"}
	}
	if err := scenario.CheckOutput(*out, pos[0]); err != nil {
		return usageError{err.Error()}
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
	return writeOutput(e, *out, func(w io.Writer) error { return inex.WriteJudgments(w, js) })
}
