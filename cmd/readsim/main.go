// Command readsim measures what focused retrieval saves a reader: it indexes and
// searches INEX-style XML articles, renders them for phone screens, replays
// simulated readers over INEX topics, judgments and runs, computes every measure
// of the specification, and serves a phone prototype with a live simulation view.
//
// This package holds flag parsing and wiring only; the work is done in the
// library packages (effort, scenario, index, render, web), the command-line
// plumbing in internal/cli. Errors become exit statuses in one place, this
// file (badUsage: a library's bad usage, reported with the usage line;
// cli.InputStatus: every other error): 0 success, 1 a failure it
// explains, 2 bad usage or bad input naming the file, the line and the
// problem. Bad input is a judgments, run or topics file (inex.Error), an
// article or its DTD (article.Error, article.DTDError), an article id
// several articles have (article.AmbiguousError), an articles folder or
// index (index.InputError), a damaged index (index.DamagedError), what a
// server is asked to serve (app.InputError), or any other file readsim
// cannot read or parse (cli.InputError).
package main

import (
	_ "embed"
	"errors"

	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/internal/ground/durable"
	"github.com/readsim/readsim/scenario"
)

// program is readsim: its commands, by name, with their synopses and
// summaries from commands.txt. An interrupt or a termination leaves no
// half-written output behind: the temporary files of --out, --plot and the
// like are removed first (the servers shut down gracefully on their own).
var program = &cli.Program{
	Name: "readsim",
	Commands: map[string]*cli.Command{
		"assess":    {Run: runAssess, Details: scenario.HighlightsFormat},
		"calibrate": {Run: runCalibrate},
		"compare":   {Run: runCompare},
		"demo":      {Run: runDemo, HandlesSignals: true},
		"eval":      {Run: runEval},
		"fidelity":  {Run: runFidelity},
		"index":     {Run: runIndex},
		"inspect":   {Run: runInspect},
		"measures":  {Run: runMeasures},
		"render":    {Run: runRender},
		"replay":    {Run: runReplay},
		"rows":      {Run: runRows},
		"run":       {Run: runRun},
		"search":    {Run: runSearch},
		"serve":     {Run: runServe, HandlesSignals: true},
		"study":     {Run: runStudy},
		"trec_eval": {Run: runTrecEval},
	},
	Footer:   "Run 'readsim help COMMAND' (or 'readsim COMMAND -h') for a command's flags; the README has examples.",
	Status:   cli.InputStatus,
	BadUsage: badUsage,
	Stop:     durable.RemoveTempFiles,
}

//go:embed commands.txt
var commandsText string

func init() {
	if err := program.Describe(commandsText); err != nil {
		panic("readsim: commands.txt: " + err.Error())
	}
}

func main() { program.Main() }

// badUsage tells whether a command's error is bad usage as the library
// packages report it: a request scenario cannot take
// (scenario.RequestError: a measure name, a reading order, a mode, a flag
// value) or a measure the request or its input cannot give
// (scenario.MeasureError). cli.Program.Run reports it with the usage
// line, exit status 2, as it does a cli.UsageError.
func badUsage(err error) bool {
	var re *scenario.RequestError
	var me *scenario.MeasureError
	return errors.As(err, &re) || errors.As(err, &me)
}
