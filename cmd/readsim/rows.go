package main

import (
	"flag"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/internal/cli/flaggroup"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

// runRows implements `readsim rows` (cli.md, python.md): a judgments file
// (--qrels, with --lengths and --offsets for span judgments) or a run
// (--run, with --articles for the element paths of XML submissions), read
// by the readers eval uses, written as tab-separated rows
// (scenario.WriteQrelsRows, scenario.WriteRunRows).
func runRows(e *cli.Env, fs *flag.FlagSet, args []string) error {
	mf := &flaggroup.Measures{}
	fs.StringVar(&mf.Qrels, "qrels", "", "judgments: INEX FOL, TREC qrels, span judgments or the TREC Genomics gold standard (gzip or not; - for standard input)")
	mf.AddSpans(fs)
	runPath := fs.String("run", "", "a run: FOL, TREC, INEX XML or span run (gzip or not; - for standard input)")
	articles := fs.String("articles", "", "article folder, to resolve element paths of INEX XML submissions")
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.Usagef("rows takes no argument: --qrels FILE or --run FILE")
	}
	if (mf.Qrels == "") == (*runPath == "") {
		return cli.Usagef("give one of --qrels FILE and --run FILE")
	}
	warn := cli.Warner(e.Stderr)
	if mf.Qrels != "" {
		q, err := mf.Judgments(warn)
		if err != nil {
			return err
		}
		return scenario.WriteQrelsRows(e.Stdout, q)
	}
	opt := inex.RunOptions{Warn: warn}
	if *articles != "" {
		d, err := article.OpenDir(*articles)
		if err != nil {
			return err
		}
		opt.Resolver = d.PathResolver()
	}
	run, err := inex.OpenRun(*runPath, opt)
	if err != nil {
		return err
	}
	return scenario.WriteRunRows(e.Stdout, run)
}
