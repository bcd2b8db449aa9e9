package main

import (
	"bufio"
	"flag"

	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/scenario"
)

// runMeasures prints the catalogue of measures (scenario.WriteCatalogue).
func runMeasures(e *cli.Env, fs *flag.FlagSet, args []string) error {
	rf := addReportFlags(fs, plainUsage, "", "", plainFormats...)
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.Usagef("measures takes no argument")
	}
	f, err := rf.parse()
	if err != nil {
		return err
	}
	w := bufio.NewWriter(e.Stdout)
	if err := scenario.WriteCatalogue(w, f); err != nil {
		return err
	}
	return w.Flush()
}
