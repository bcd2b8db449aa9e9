package main

import (
	"bufio"

	"github.com/readsim/readsim/scenario"
)

func init() {
	register(&command{
		name:    "measures",
		args:    "[--format table|tsv|markdown|json]",
		summary: "every measure readsim computes: its names, meaning, direction and source",
		run:     runMeasures,
	})
}

// runMeasures prints the catalogue of measures (scenario.WriteCatalogue).
func runMeasures(e *env, args []string) error {
	fs := newFlags(e, commands["measures"])
	rf := addReportFlags(fs, plainUsage, "", "", plainFormats...)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError{"measures takes no argument"}
	}
	f, err := rf.parse()
	if err != nil {
		return err
	}
	w := bufio.NewWriter(e.stdout)
	if err := scenario.WriteCatalogue(w, f); err != nil {
		return err
	}
	return w.Flush()
}
