package main

import (
	"flag"

	"github.com/readsim/readsim/internal/cli"
)

// runInspect prints an article's length and elements (Article.WriteElements).
func runInspect(e *cli.Env, fs *flag.FlagSet, args []string) error {
	af := addArticleFlags(fs)
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return cli.Usagef("want exactly one article file")
	}
	rd, err := af.reader(e, "inspect", "")
	if err != nil {
		return err
	}
	a, err := rd.ParseFile(pos[0])
	if err != nil {
		return err
	}
	return a.WriteElements(e.Stdout)
}
