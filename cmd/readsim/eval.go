package main

import (
	"bufio"
	"flag"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/internal/cli/flaggroup"
	"github.com/readsim/readsim/scenario"
)

// runMeasures prints the catalogue of measures (scenario.WriteCatalogue),
// or with names how readsim reads each (scenario.DescribeMeasures).
func runMeasures(e *cli.Env, fs *flag.FlagSet, args []string) error {
	rf := flaggroup.AddReport(fs, flaggroup.PlainUsage, "", "", flaggroup.PlainFormats...)
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	f, err := rf.Parse()
	if err != nil {
		return err
	}
	w := bufio.NewWriter(e.Stdout)
	if len(pos) > 0 {
		infos, err := scenario.DescribeMeasures(pos)
		if err != nil {
			return err
		}
		err = scenario.WriteMeasureInfo(w, infos, f)
	} else {
		err = scenario.WriteCatalogue(w, f)
	}
	if err != nil {
		return err
	}
	return w.Flush()
}

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
	mf := flaggroup.AddMeasures(fs, scenario.UseAll, "a `MEASURE` name or several, comma-separated, or all; repeatable; readsim measures lists them ("+effort.DefaultsUsage(true)+")",
		"inex: reproduce the official INEX tool (gP[k] for k > n repeats gP[n]); trecgen: write NIST's TREC Genomics output (RUN MEASURE TOPIC SCORE); 9: trec_eval 9's interpolated precision (IPrec@x, iprec_at_recall, 11pt_avg), as pytrec_eval").AddOverlaps(fs).AddSpans(fs)
	mf.Compats = []string{scenario.CompatINEX, scenario.CompatTrecGen, scenario.CompatTrec9}
	perTopic := fs.Bool("q", false, "print every topic's value, in topic order, before the all line")
	allTopics := fs.Bool("c", false, "average over every judged topic; topics missing from the run score 0")
	baseline := fs.Bool("doc-baseline", false, "read every retrieved document in full from its start (the run's document baseline)")
	rf := flaggroup.AddReport(fs, "output: tsv (trec_eval's layout), json (one object per line), or a table of runs × measures: table, markdown or latex",
		"decimals in tables (tsv and json: full precision)", "", scenario.FormatTSV, scenario.FormatJSON, scenario.FormatTable, scenario.FormatMarkdown, scenario.FormatLaTeX)
	articles := fs.String("articles", "", "article folder, to resolve element paths of INEX XML submissions")
	readings := fs.Bool("readings", false, "the files are recorded readings (JSON Lines traces of the study mode, or of readsim replay; gzip or not), not runs")
	figures := fs.Bool("figures", false, "with --readings: also print each article's and topic's reading figures (characters read, Read, effort, times)")
	runs, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if *readings {
		mf.Use = scenario.UseRecorded
	}
	cfg, _, err := mf.Check(nil)
	if err != nil {
		return err
	}
	if len(runs) == 0 {
		return cli.Usagef("no run given")
	}
	if err := scenario.CheckInputs(append([]string{mf.Qrels}, runs...)); err != nil {
		return cli.Usage(err)
	}
	f, err := rf.Parse()
	if err != nil {
		return err
	}
	if mf.Compat == scenario.CompatTrecGen && f != scenario.FormatTSV {
		return cli.Usagef("--compat trecgen writes NIST's format: drop --format")
	}
	cfg.DocBaseline = *baseline
	opt := scenario.EvalOptions{Config: cfg, Group: mf.Group, MergeOverlaps: mf.Merge, AllTopics: *allTopics, Warn: cli.Warner(e.Stderr)}
	st, q, err := mf.OpenJudgments(*readings, opt.Warn)
	if err != nil {
		return err
	}
	if opt.Measures, err = mf.Select(q, opt.Warn); err != nil {
		return err
	}
	if *articles != "" {
		d, err := flaggroup.OpenCollection(e, "eval", *articles, nil)
		if err != nil {
			return err
		}
		opt.Read.Resolver = d.PathResolver()
	}
	report := scenario.EvalReport{Format: f, PerTopic: *perTopic, Digits: int(rf.Digits)}
	if *readings {
		return scenario.EvalReadingFiles(e.Stdout, q, runs, opt, report, *figures)
	}
	results, err := scenario.EvaluateJudged(st, q, runs, opt)
	if err != nil {
		return err
	}
	if mf.Compat == scenario.CompatTrecGen {
		return scenario.WriteTrecGen(e.Stdout, results, opt.Measures)
	}
	return scenario.WriteEval(e.Stdout, results, opt.Measures, report)
}

// evalMemoryLimit is the soft memory limit of eval (unless GOMEMLIMIT says
// otherwise): a run's results are held while it is evaluated, and the
// collector keeps the heap near this instead of letting it double (a 1.2
// million-line run: 170 MB resident instead of 220, no slower).
const evalMemoryLimit = 160 << 20
