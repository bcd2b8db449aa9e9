package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

// trecEvalOpt is one option of trec_eval: its short letter, long name and
// whether it takes an argument.
type trecEvalOpt struct {
	short byte
	long  string
	arg   bool
}

// trecEvalOpts are trec_eval 10.0's options (its getopt_long table).
var trecEvalOpts = []trecEvalOpt{
	{'h', "help", false}, {'v', "version", false}, {'q', "query_eval_wanted", false},
	{'m', "measure", true}, {'c', "complete_rel_info_wanted", false}, {'l', "level_for_rel", true},
	{'n', "nosummary", false}, {'D', "Debug_level", true}, {'J', "Judged_docs_only", false},
	{'N', "Number_docs_in_coll", true}, {'M', "Max_retrieved_per_topic", true},
	{'R', "Rel_info_format", true}, {'T', "Results_format", true},
	{'o', "Output_old_results_format", false}, {'Z', "Zscore", true},
	// readsim's own, long only (no letter): values at full precision
	{fullPrecisionOpt, "full_precision", false},
}

// fullPrecisionOpt stands for --full_precision among the letters: no
// letter of a command line is it.
const fullPrecisionOpt = 0

// trecEvalArg is an option given: its letter and argument.
type trecEvalArg struct {
	opt byte
	val string
}

// parseTrecEvalArgs reads args as GNU getopt_long reads trec_eval's: short
// options alone or together (-qc), an option's argument joined (-l2,
// -mP.5) or next (-l 2, -m P.5), long options and their unambiguous
// prefixes (--measure=P.5, --measure P.5), options before or after the
// files, and -- ending the options. "-" alone is a file (standard input).
func parseTrecEvalArgs(args []string) (opts []trecEvalArg, files []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return opts, append(files, args[i+1:]...), nil
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			var o *trecEvalOpt
			for k := range trecEvalOpts {
				c := &trecEvalOpts[k]
				if c.long == name {
					o = c
					break
				}
				if strings.HasPrefix(c.long, name) {
					if o != nil {
						return nil, nil, cli.Usagef("option --%s is ambiguous", name)
					}
					o = c
				}
			}
			if o == nil {
				return nil, nil, cli.Usagef("unknown option --%s", name)
			}
			if o.arg && !hasVal {
				if i+1 >= len(args) {
					return nil, nil, cli.Usagef("option --%s needs an argument", o.long)
				}
				i++
				val = args[i]
			} else if !o.arg && hasVal {
				return nil, nil, cli.Usagef("option --%s takes no argument", o.long)
			}
			opts = append(opts, trecEvalArg{o.short, val})
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				var o *trecEvalOpt
				for k := range trecEvalOpts {
					if trecEvalOpts[k].short == a[j] {
						o = &trecEvalOpts[k]
					}
				}
				if o == nil {
					return nil, nil, cli.Usagef("unknown option -%c", a[j])
				}
				if !o.arg {
					opts = append(opts, trecEvalArg{o.short, ""})
					continue
				}
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return nil, nil, cli.Usagef("option -%c needs an argument", o.short)
					}
					i++
					val = args[i]
				}
				opts = append(opts, trecEvalArg{o.short, val})
				break
			}
		default:
			files = append(files, a)
		}
	}
	return opts, files, nil
}

// trecEvalNumber is C's atol of an option's value, refused when it is no
// integer at all (trec_eval would read 0).
func trecEvalNumber(o trecEvalArg) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(o.val))
	if err != nil {
		return 0, cli.Usagef("-%c %s: not an integer", o.opt, o.val)
	}
	return n, nil
}

// runTrecEval implements `readsim trec_eval` (docs/trec_eval.md): trec_eval
// 10.0's options and output, byte for byte, for TREC qrels and TREC runs.
func runTrecEval(e *cli.Env, _ *flag.FlagSet, args []string) error {
	opts, files, err := parseTrecEvalArgs(args)
	if err != nil {
		return err
	}
	opt := scenario.TrecEvalOptions{Config: effort.TrecConfig{RelevanceLevel: 1}}
	var measures []string
	format, zfile := "qrels", ""
	for _, o := range opts {
		switch o.opt {
		case 'h':
			fmt.Fprint(e.Stderr, trecEvalHelp())
			return nil
		case 'v':
			fmt.Fprintln(e.Stdout, cli.Version("readsim")+" (trec_eval 10.0's measures and output)")
			return nil
		case 'q':
			opt.Query = true
		case fullPrecisionOpt:
			opt.FullPrecision = true
		case 'm':
			measures = append(measures, o.val)
		case 'c':
			opt.Complete = true
		case 'n':
			opt.NoSummary = true
		case 'J':
			opt.Config.JudgedOnly = true
		case 'o':
			// obsolete in trec_eval 10.0: accepted, no effect
		case 'l', 'N', 'M', 'D':
			n, err := trecEvalNumber(o)
			if err != nil {
				return err
			}
			switch o.opt {
			case 'l':
				opt.Config.RelevanceLevel = n
			case 'N':
				opt.Config.NumDocsInColl = n
			case 'M':
				if n <= 0 {
					return cli.Usagef("-M %s: the documents kept per topic must be at least 1", o.val)
				}
				opt.Config.MaxDocs = n
			case 'D':
				if n != 0 {
					return cli.Usagef("-D %s: readsim prints no debugging output (only -D 0)", o.val)
				}
			}
		case 'R':
			switch o.val {
			case "qrels", "qrels_jg", "prefs", "qrels_prefs":
				format = o.val
			default:
				return cli.Usagef("-R %s: the judgment formats are qrels, qrels_jg, prefs and qrels_prefs", o.val)
			}
		case 'T':
			if o.val != "trec_results" {
				return cli.Usagef("-T %s: the only results format is trec_results", o.val)
			}
		case 'Z':
			zfile = o.val
		}
	}
	if len(files) != 2 {
		return cli.Usagef("give the judgments and the run (- for standard input): %d file(s) given", len(files))
	}
	if opt.Measures, err = effort.TrecSelect(measures); err != nil {
		return cli.Usage(err)
	}
	if err := effort.TrecCheckFormat(opt.Measures, format); err != nil {
		return cli.Usage(err)
	}
	var q *inex.TrecEvalQrels
	switch format {
	case "qrels_jg":
		q, err = inex.OpenTrecEvalQrelsJG(files[0])
	case "prefs", "qrels_prefs":
		q, err = inex.OpenTrecEvalPrefs(files[0], format == "qrels_prefs")
	default:
		q, err = inex.OpenTrecEvalQrels(files[0])
	}
	if err != nil {
		return err
	}
	if zfile != "" {
		// read before the run (trec_eval reads it after), so that a bad
		// -Z file is refused before a long run is read
		if opt.Zscores, err = inex.OpenTrecZscores(zfile); err != nil {
			return err
		}
	}
	return scenario.TrecEvalFile(e.Stdout, q, files[1], opt)
}

// trecEvalHelp is the help of readsim trec_eval (on standard error, as every
// command's): its options and measures.
func trecEvalHelp() string {
	var b strings.Builder
	b.WriteString(`usage: readsim trec_eval [-q] [-m measure[.params]]... [-c] [-n] [-l num] [-N num] [-M num] [-J] [-R format] [-Z file] QRELS RUN

Prints what trec_eval 10.0 prints, byte for byte: RUN (- for standard input)
against the judgments QRELS, TREC qrels unless -R says otherwise
(docs/trec_eval.md).

  -q, --query_eval_wanted        every topic's values, then the summary
  -m, --measure M[.params]       a measure or nickname; repeatable (default: official)
  -c, --complete_rel_info_wanted judged topics absent from the run count (as 0)
  -n, --nosummary                no summary
  -l, --level_for_rel N          least relevant judgment (1)
  -N, --Number_docs_in_coll N    documents in the collection (utility)
  -M, --Max_retrieved_per_topic N keep the first N documents of each topic
  -J, --Judged_docs_only         drop unjudged documents
  -R qrels|qrels_jg|prefs|qrels_prefs  judgments, judgment groups (measures
                                 qrels_jg) or preferences (prefs, all_prefs)
  -T trec_results                the only results format
  -Z, --Zscore FILE              print z-scores: FILE's lines are
                                 "topic measure mean stddev"
  -h, -v                         this help; the version

Nicknames:`)
	for _, n := range effort.TrecNicknames {
		b.WriteString(" " + n.Name)
	}
	b.WriteString("\nMeasures: " + strings.Join(effort.TrecMeasureNames(), " ") + "\n")
	return b.String()
}
