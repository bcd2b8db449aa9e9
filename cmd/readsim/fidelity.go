package main

import (
	"flag"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

// runFidelity implements `readsim fidelity` (scenario.md, "Fidelity
// suite"): scenario.RunFidelity, reported by scenario.Fidelity.Write.
func runFidelity(e *cli.Env, fs *flag.FlagSet, args []string) error {
	sf := addMeasureFlags(fs, "measure(s), repeatable and comma-separated; readsim measures lists them (default: the eleven of eval)", compatUsage)
	articles := fs.String("articles", "", "article folder: adds the element answer sets SL, SS and SST")
	rf := addReportFlags(fs, tableUsage, digitsUsage, "write SVG charts into DIR: mean gP[r] and NCE[r] over ranks of the answer sets and rankings, per-topic differences sorted", tableFormats...)
	if err := cli.ParseFlagsOnly(fs, args); err != nil {
		return err
	}
	f, err := rf.parse()
	if err != nil {
		return err
	}
	o, ms, err := sf.check(effort.DefaultNames)
	if err != nil {
		return err
	}
	if err := scenario.CheckMeasures(ms, scenario.UseFidelity, nil); err != nil {
		return cli.Usage(err)
	}
	warn := cli.Warner(e.Stderr)
	q, err := inex.OpenQrels(sf.qrels, warn)
	if err != nil {
		return err
	}
	opt := scenario.FidelityOptions{Measures: ms, Config: sf.config(o), Warn: warn}
	if *articles != "" {
		d, err := article.OpenDir(*articles)
		if err != nil {
			return err
		}
		opt.Articles = d
	}
	fid, err := scenario.RunFidelity(q, opt)
	if err != nil {
		return err
	}
	if err := rf.write(e, fid, f); err != nil || rf.plot == "" {
		return err
	}
	return writeCharts(e, rf.plot, scenario.FidelityCharts(fid, opt.Config.CompatINEX))
}
