package main

import (
	"flag"

	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

// runCalibrate implements `readsim calibrate`: scenario.Calibrate over the
// readings (files of the study mode, or any trace in the reader's schema).
func runCalibrate(e *cli.Env, fs *flag.FlagSet, args []string) error {
	qrels := fs.String("qrels", "", "judgments, INEX FOL (gzip or not)")
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
	c, err := scenario.Calibrate(q, rds, scenario.CalibrateOptions{Bootstrap: *boot, Seed: *seed})
	if err != nil {
		return inputError{err}
	}
	return rf.write(e, c, f)
}
