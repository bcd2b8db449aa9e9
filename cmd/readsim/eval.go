package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

// measureFlags are the flags of scenario.MeasureRequest, shared by eval,
// compare, fidelity and replay: --qrels, -m, --order and --compat,
// (addOverlapFlags) --group and --merge-overlaps, and (addSpanFlags)
// --lengths and --offsets. One definition keeps their names and defaults
// from drifting apart.
type measureFlags struct {
	scenario.MeasureRequest
	group, merge bool // false without addOverlapFlags
}

// compatUsage is the usage of --compat of compare, fidelity and replay (eval
// words it its own way).
const compatUsage = "inex: gP[k] for k > n repeats gP[n], as the official INEX tool"

// addMeasureFlags defines --qrels, -m (with the command's usage msUsage),
// --order and --compat (usage compatUsage) on fs, for use.
func addMeasureFlags(fs *flag.FlagSet, use scenario.Use, msUsage, compatUsage string) *measureFlags {
	f := &measureFlags{MeasureRequest: scenario.MeasureRequest{Use: use}}
	fs.StringVar(&f.Qrels, "qrels", "", "judgments: INEX FOL, TREC qrels, span judgments or the TREC Genomics gold standard (gzip or not)")
	fs.Var((*cli.Strings)(&f.Names), "m", msUsage)
	fs.StringVar(&f.Order, "order", "natural", "reading order after the retrieved passages: natural, best or worst")
	fs.StringVar(&f.Compat, "compat", "", compatUsage)
	return f
}

// addSpanFlags defines --lengths and --offsets on fs, for span judgments
// (TREC Genomics and any collection judged by passages).
func (f *measureFlags) addSpanFlags(fs *flag.FlagSet) *measureFlags {
	fs.StringVar(&f.Lengths, "lengths", "", "`FILE` of document lengths for span judgments, a \"doc length\" line per document in the offsets' unit (gzip or not): the measures that simulate reading need them")
	fs.StringVar(&f.Offsets, "offsets", "", "what span judgments' offsets and lengths count: chars or bytes (default: bytes for TREC Genomics judgments, chars otherwise)")
	return f
}

// addOverlapFlags defines --group and --merge-overlaps on fs.
func (f *measureFlags) addOverlapFlags(fs *flag.FlagSet) *measureFlags {
	fs.BoolVar(&f.group, "group", false, "group an article's interleaved results at its first appearance instead of failing")
	fs.BoolVar(&f.merge, "merge-overlaps", false, "merge overlapping passages of an article instead of failing")
	return f
}

// reportFlags are --format, --digits and --plot of the commands that write
// a report (compare, fidelity, calibrate, measures, eval).
type reportFlags struct {
	format  string
	formats []scenario.ReportFormat // the first is the default
	digits  digitsFlag              // DefaultDigits without --digits
	plot    string                  // "" without --plot
}

// The usage of --format and --digits of the commands whose reports are
// tables of runs (compare and fidelity), and of --format of calibrate and
// measures; the formats each writes.
const (
	tableUsage  = "output: table (readable), tsv, markdown, latex or json"
	digitsUsage = "decimals in tables, Markdown and LaTeX (tsv and json: full precision)"
	plainUsage  = "output: table, tsv, markdown or json"
)

var (
	tableFormats = []scenario.ReportFormat{scenario.FormatTable, scenario.FormatTSV, scenario.FormatMarkdown, scenario.FormatLaTeX, scenario.FormatJSON}
	plainFormats = []scenario.ReportFormat{scenario.FormatTable, scenario.FormatTSV, scenario.FormatMarkdown, scenario.FormatJSON}
)

// addReportFlags defines --format (formats, the first the default) and,
// with their usage, --digits and --plot on fs.
func addReportFlags(fs *flag.FlagSet, usage, digits, plot string, formats ...scenario.ReportFormat) *reportFlags {
	r := &reportFlags{formats: formats, digits: scenario.DefaultDigits}
	fs.StringVar(&r.format, "format", string(formats[0]), usage)
	if digits != "" {
		fs.Var(&r.digits, "digits", fmt.Sprintf("%s; `N` from 0 to %d", digits, scenario.MaxDigits))
	}
	if plot != "" {
		fs.StringVar(&r.plot, "plot", "", plot)
	}
	return r
}

// parse returns the format asked for; an unknown one is a usage error.
func (r *reportFlags) parse() (scenario.ReportFormat, error) {
	f, err := scenario.ParseFormat(r.format, r.formats...)
	if err != nil {
		return "", cli.Usagef("--format: %v", err)
	}
	return f, nil
}

// write writes rep (a comparison, the fidelity suite, a calibration) on
// standard output in format f with --digits.
func (r *reportFlags) write(e *cli.Env, rep interface {
	Write(w io.Writer, f scenario.ReportFormat, digits int) error
}, f scenario.ReportFormat) error {
	w := bufio.NewWriter(e.Stdout)
	if err := rep.Write(w, f, int(r.digits)); err != nil {
		return err
	}
	return w.Flush()
}

// writeCharts writes the charts into dir and says so on stderr.
func writeCharts(e *cli.Env, dir string, charts map[string]*scenario.Chart) error {
	names, err := scenario.WriteCharts(dir, charts)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.Stderr, "wrote %d charts into %s\n", len(names), dir)
	return nil
}

// runMeasures prints the catalogue of measures (scenario.WriteCatalogue),
// or with names how readsim reads each (scenario.DescribeMeasures).
func runMeasures(e *cli.Env, fs *flag.FlagSet, args []string) error {
	rf := addReportFlags(fs, plainUsage, "", "", plainFormats...)
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	f, err := rf.parse()
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
	mf := addMeasureFlags(fs, scenario.UseAll, "a `MEASURE` name or several, comma-separated, or all; repeatable; readsim measures lists them ("+effort.DefaultsUsage(true)+")",
		"inex: reproduce the official INEX tool (gP[k] for k > n repeats gP[n]); trecgen: write NIST's TREC Genomics output (RUN MEASURE TOPIC SCORE)").addOverlapFlags(fs).addSpanFlags(fs)
	mf.Compats = []string{scenario.CompatINEX, scenario.CompatTrecGen}
	perTopic := fs.Bool("q", false, "print every topic's value, in topic order, before the all line")
	allTopics := fs.Bool("c", false, "average over every judged topic; topics missing from the run score 0")
	baseline := fs.Bool("doc-baseline", false, "read every retrieved document in full from its start (the run's document baseline)")
	rf := addReportFlags(fs, "output: tsv (trec_eval's layout), json (one object per line), or a table of runs × measures: table, markdown or latex",
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
	f, err := rf.parse()
	if err != nil {
		return err
	}
	if mf.Compat == scenario.CompatTrecGen && f != scenario.FormatTSV {
		return cli.Usagef("--compat trecgen writes NIST's format: drop --format")
	}
	cfg.DocBaseline = *baseline
	opt := scenario.EvalOptions{Config: cfg, Group: mf.group, MergeOverlaps: mf.merge, AllTopics: *allTopics, Warn: cli.Warner(e.Stderr)}
	st, q, err := evalJudgments(mf, *readings, opt.Warn)
	if err != nil {
		return err
	}
	if opt.Measures, err = mf.Select(q, opt.Warn); err != nil {
		return err
	}
	if *articles != "" {
		d, err := openCollection(e, "eval", *articles, nil)
		if err != nil {
			return err
		}
		opt.Read.Resolver = d.PathResolver()
	}
	report := scenario.EvalReport{Format: f, PerTopic: *perTopic, Digits: int(rf.digits)}
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

// evalJudgments opens the judgments of eval: a large file of runs' judgments
// to be read a topic at a time (scenario.MeasureRequest.JudgmentStream,
// with q the judgments read so far), otherwise every judgment (st nil).
func evalJudgments(mf *measureFlags, readings bool, warn func(string)) (*inex.QrelsStream, *inex.Qrels, error) {
	if !readings {
		st, err := mf.JudgmentStream(warn)
		if err != nil || st != nil {
			if err != nil {
				return nil, nil, err
			}
			return st, st.Qrels(), nil
		}
	}
	q, err := mf.Judgments(warn)
	return nil, q, err
}
