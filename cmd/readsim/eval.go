package main

import (
	"flag"
	"fmt"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

// runEval implements `readsim eval` (cli.md, formats.md): every measure
// asked with -m ("all": scenario.AllMeasureNames; none: the judgments'
// defaults, scenario.DefaultMeasureNames) of each run, or of each recorded
// reading with --readings, written by scenario.WriteEval in trec_eval's
// layout, as JSON or as a table of runs × measures, or by
// scenario.WriteTrecGen as NIST's trecgen2007_score.py with --compat
// trecgen. --lengths gives span judgments their documents' lengths (the
// reading measures need them) and --offsets says what offsets count.
func runEval(e *cli.Env, fs *flag.FlagSet, args []string) error {
	defer cli.SoftMemoryLimit(evalMemoryLimit)()
	mf := addMeasureFlags(fs, "a `MEASURE` name or several, comma-separated, or all; repeatable; readsim measures lists them ("+effort.DefaultsUsage(true)+")",
		"inex: reproduce the official INEX tool (gP[k] for k > n repeats gP[n]); trecgen: write NIST's TREC Genomics output (RUN MEASURE TOPIC SCORE)").addOverlapFlags(fs).addSpanFlags(fs)
	mf.compats = []string{"inex", "trecgen"}
	perTopic := fs.Bool("q", false, "print every topic's value, in topic order, before the all line")
	allTopics := fs.Bool("c", false, "average over every judged topic; topics missing from the run score 0")
	baseline := fs.Bool("doc-baseline", false, "read every retrieved document in full from its start (the run's document baseline)")
	rf := addReportFlags(fs, "output: tsv (trec_eval's layout), json (one object per line), or a table of runs × measures: table, markdown or latex",
		"decimals in tables (tsv and json: full precision)", "", scenario.FormatTSV, scenario.FormatJSON, scenario.FormatTable, scenario.FormatMarkdown, scenario.FormatLaTeX)
	articles := fs.String("articles", "", "article folder, to resolve element paths of INEX XML submissions")
	readings := fs.Bool("readings", false, "the files are recorded readings (JSON Lines traces of the study mode, or of readsim replay), not runs")
	figures := fs.Bool("figures", false, "with --readings: also print each article's and topic's reading figures (characters read, Read, effort, times)")
	runs, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := mf.requireQrels(); err != nil {
		return err
	}
	if len(runs) == 0 {
		return cli.Usagef("no run given")
	}
	if err := scenario.CheckInputs(append([]string{mf.qrels}, runs...)); err != nil {
		return cli.Usage(err)
	}
	o, err := mf.readingOrder()
	if err != nil {
		return err
	}
	f, err := rf.parse()
	if err != nil {
		return err
	}
	opt := scenario.EvalOptions{Config: mf.config(o), Group: mf.group, MergeOverlaps: mf.merge, AllTopics: *allTopics, Warn: cli.Warner(e.Stderr)}
	opt.Config.DocBaseline = *baseline
	q, err := evalMeasures(mf, f, *readings, &opt)
	if err != nil {
		return err
	}
	if *articles != "" {
		d, err := article.OpenDir(*articles)
		if err != nil {
			return err
		}
		opt.Read.Resolver = d.PathResolver()
	}
	report := scenario.EvalReport{Format: f, PerTopic: *perTopic, Digits: int(rf.digits)}
	if *readings {
		return evalReadings(e, q, runs, opt, report, *figures)
	}
	results, err := scenario.EvaluateFiles(q, runs, opt)
	if err != nil {
		return err
	}
	if mf.compat == "trecgen" {
		return scenario.WriteTrecGen(e.Stdout, results, opt.Measures)
	}
	return scenario.WriteEval(e.Stdout, results, opt.Measures, report)
}

// evalMeasures checks --compat and -m against the format f, reads the
// judgments and returns them, with opt.Measures set: the names asked,
// --compat trecgen's, or the defaults for the judgments or for readings.
func evalMeasures(mf *measureFlags, f scenario.ReportFormat, readings bool, opt *scenario.EvalOptions) (*inex.Qrels, error) {
	if err := mf.checkCompat(); err != nil {
		return nil, err
	}
	trecgen := mf.compat == "trecgen"
	if trecgen && f != scenario.FormatTSV {
		return nil, cli.Usagef("--compat trecgen writes NIST's format: drop --format")
	}
	var err error
	if len(mf.ms) > 0 {
		if opt.Measures, err = mf.measures(nil); err != nil {
			return nil, err
		}
	}
	if trecgen {
		if opt.Measures, err = scenario.TrecGenMeasures(opt.Measures); err != nil {
			return nil, cli.Usage(err)
		}
	}
	q, err := mf.openQrels(opt.Warn)
	if err != nil {
		return nil, err
	}
	if opt.Measures == nil || !trecgen {
		use := scenario.UseEval
		if readings {
			use = scenario.UseReadings
		}
		if opt.Measures, err = mf.selectOn(q, use); err != nil {
			return nil, err
		}
	}
	unitNote(q, opt.Measures, opt.Warn)
	return q, nil
}

// evalReadings scores recorded readings (eval --readings) and, with
// figures, prints their reading figures after the measures.
func evalReadings(e *cli.Env, q *inex.Qrels, files []string, opt scenario.EvalOptions, report scenario.EvalReport, figures bool) error {
	rds, err := scenario.OpenReadings(files)
	if err != nil {
		return err
	}
	results, err := scenario.EvaluateReadings(q, rds, opt)
	if err != nil {
		return err
	}
	if err := scenario.WriteEval(e.Stdout, results, opt.Measures, report); err != nil || !figures {
		return err
	}
	if report.Format != scenario.FormatJSON {
		fmt.Fprintln(e.Stdout) // JSON Lines: no blank line between
	}
	return scenario.WriteFigures(e.Stdout, q, rds, effort.DefaultScreen, effort.DefaultNR, report.Format, report.Digits)
}

// evalMemoryLimit is the soft memory limit of eval (unless GOMEMLIMIT says
// otherwise): a run's results are held while it is evaluated, and the
// collector keeps the heap near this instead of letting it double (a 1.2
// million-line run: 170 MB resident instead of 220, no slower).
const evalMemoryLimit = 160 << 20
