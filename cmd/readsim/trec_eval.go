package main

import (
	"flag"
	"fmt"

	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

// runTrecEval implements `readsim trec_eval` (docs/trec_eval.md): trec_eval
// 10.0's options (scenario.ParseTrecEvalArgs) and output, byte for byte,
// for TREC qrels and TREC runs; --compat 9 applies trec_eval 9's rules
// where the versions differ.
func runTrecEval(e *cli.Env, _ *flag.FlagSet, args []string) error {
	r, err := scenario.ParseTrecEvalArgs(args)
	switch {
	case err != nil:
		return err
	case r.Help:
		fmt.Fprint(e.Stdout, scenario.TrecEvalHelp())
		return nil
	case r.Version:
		fmt.Fprintln(e.Stdout, cli.Version("readsim")+" (trec_eval 10.0's measures and output)")
		return nil
	}
	q, err := inex.OpenTrecEvalJudgments(r.Files[0], r.Format)
	if err != nil {
		return err
	}
	if r.Zscores != "" {
		// read before the run (trec_eval reads it after), so that a bad
		// -Z file is refused before a long run is read
		if r.Options.Zscores, err = inex.OpenTrecZscores(r.Zscores); err != nil {
			return err
		}
	}
	return scenario.TrecEvalFile(e.Stdout, q, r.Files[1], r.Options)
}
