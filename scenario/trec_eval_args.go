package scenario

import (
	"slices"
	"strconv"
	"strings"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// This file reads the command line of `readsim trec_eval` as trec_eval
// 10.0 reads its own (docs/trec_eval.md, "Options"): the grammar of GNU
// getopt_long over trec_eval's option table, and readsim's --compat and
// --full_precision. Its errors are RequestErrors: bad usage.

// ParseTrecEvalArgs reads the arguments of `readsim trec_eval`. It stops
// at -h or -v (Help, Version) as trec_eval does; otherwise it wants two
// files, the judgments and the run.
func ParseTrecEvalArgs(args []string) (*TrecEvalRequest, error) {
	opts, files, err := parseTrecEvalArgs(args)
	if err != nil {
		return nil, err
	}
	r := &TrecEvalRequest{Options: TrecEvalOptions{Config: effort.TrecConfig{RelevanceLevel: 1}}, Format: "qrels", Files: files}
	for _, o := range opts {
		if err := r.set(o); err != nil {
			return nil, err
		}
		if r.Help || r.Version {
			return r, nil
		}
	}
	if len(files) != 2 {
		return nil, requestErrorf("give the judgments and the run (- for standard input): %d file(s) given", len(files))
	}
	if r.Options.Measures, err = effort.TrecSelect(r.Measures); err != nil {
		return nil, &RequestError{err}
	}
	if err := effort.TrecCheckFormat(r.Options.Measures, r.Format); err != nil {
		return nil, &RequestError{err}
	}
	return r, nil
}

// trecEvalOpt is one option of trec_eval: its short letter, long name and
// whether it takes an argument.
type trecEvalOpt struct {
	short byte
	long  string
	arg   bool
}

// trecEvalOpts are trec_eval 10.0's options (its getopt_long table), then
// readsim's own (long only, no letter, never read from a prefix).
var trecEvalOpts = []trecEvalOpt{
	{'h', "help", false}, {'v', "version", false}, {'q', "query_eval_wanted", false},
	{'m', "measure", true}, {'c', "complete_rel_info_wanted", false}, {'l', "level_for_rel", true},
	{'n', "nosummary", false}, {'D', "Debug_level", true}, {'J', "Judged_docs_only", false},
	{'N', "Number_docs_in_coll", true}, {'M', "Max_retrieved_per_topic", true},
	{'R', "Rel_info_format", true}, {'T', "Results_format", true},
	{'o', "Output_old_results_format", false}, {'Z', "Zscore", true},
	{fullPrecisionOpt, "full_precision", false}, // values at full precision
	{compatOpt, "compat", true},                 // --compat 9: trec_eval 9's rules
}

// fullPrecisionOpt and compatOpt stand for --full_precision and --compat
// among the letters: no letter of a command line is either.
const (
	fullPrecisionOpt = 0
	compatOpt        = 1
)

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
		var got []trecEvalArg
		switch {
		case a == "--":
			return opts, append(files, args[i+1:]...), nil
		case strings.HasPrefix(a, "--"):
			got, i, err = parseTrecEvalLong(args, i)
		case len(a) > 1 && a[0] == '-':
			got, i, err = parseTrecEvalShort(args, i)
		default:
			files = append(files, a)
		}
		if err != nil {
			return nil, nil, err
		}
		opts = append(opts, got...)
	}
	return opts, files, nil
}

// trecEvalLongOpt is the option a long name (or a prefix of trec_eval's
// own) names.
func trecEvalLongOpt(name string) (*trecEvalOpt, error) {
	var o *trecEvalOpt
	for k := range trecEvalOpts {
		c := &trecEvalOpts[k]
		if c.long == name {
			return c, nil
		}
		if c.short > compatOpt && strings.HasPrefix(c.long, name) {
			if o != nil {
				return nil, requestErrorf("option --%s is ambiguous", name)
			}
			o = c
		}
	}
	if o == nil {
		return nil, requestErrorf("unknown option --%s", name)
	}
	return o, nil
}

// parseTrecEvalLong reads the long option args[i] (and its argument, next
// when not joined by =); next is the index of the last argument read.
func parseTrecEvalLong(args []string, i int) (got []trecEvalArg, next int, err error) {
	name, val, hasVal := strings.Cut(args[i][2:], "=")
	o, err := trecEvalLongOpt(name)
	if err != nil {
		return nil, i, err
	}
	if o.arg && !hasVal {
		if i+1 >= len(args) {
			return nil, i, requestErrorf("option --%s needs an argument", o.long)
		}
		i++
		val = args[i]
	} else if !o.arg && hasVal {
		return nil, i, requestErrorf("option --%s takes no argument", o.long)
	}
	return []trecEvalArg{{o.short, val}}, i, nil
}

// parseTrecEvalShort reads the short options of args[i] (and the argument
// of the last, joined or next); next is the index of the last argument
// read.
func parseTrecEvalShort(args []string, i int) (got []trecEvalArg, next int, err error) {
	a := args[i]
	for j := 1; j < len(a); j++ {
		var o *trecEvalOpt
		for k := range trecEvalOpts {
			if trecEvalOpts[k].short == a[j] && a[j] > compatOpt {
				o = &trecEvalOpts[k]
			}
		}
		if o == nil {
			return nil, i, requestErrorf("unknown option -%c", a[j])
		}
		if !o.arg {
			got = append(got, trecEvalArg{o.short, ""})
			continue
		}
		val := a[j+1:]
		if val == "" {
			if i+1 >= len(args) {
				return nil, i, requestErrorf("option -%c needs an argument", o.short)
			}
			i++
			val = args[i]
		}
		return append(got, trecEvalArg{o.short, val}), i, nil
	}
	return got, i, nil
}

// trecEvalNumber is C's atol of an option's value, refused when it is no
// integer at all (trec_eval would read 0).
func trecEvalNumber(o trecEvalArg) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(o.val))
	if err != nil {
		return 0, requestErrorf("-%c %s: not an integer", o.opt, o.val)
	}
	return n, nil
}

// TrecEvalRequest is what the command line of `readsim trec_eval` asks
// (ParseTrecEvalArgs): trec_eval 10.0's options and readsim's own.
type TrecEvalRequest struct {
	// Options are the options of TrecEvalFile the command line gives;
	// Resolve sets their Measures.
	Options TrecEvalOptions
	// Measures are the names of -m, in their order; Format is -R (qrels
	// by default) and Zscores the file of -Z ("": none).
	Measures        []string
	Format, Zscores string
	// Help and Version are -h and -v: the command prints that and stops.
	Help, Version bool
	// Files are the judgments and the run, as given.
	Files []string
}

// setNumber sets the value of -l, -N, -M or -D.
func (r *TrecEvalRequest) setNumber(o trecEvalArg) error {
	n, err := trecEvalNumber(o)
	if err != nil {
		return err
	}
	switch o.opt {
	case 'l':
		r.Options.Config.RelevanceLevel = n
	case 'N':
		r.Options.Config.NumDocsInColl = n
	case 'M':
		if n <= 0 {
			return requestErrorf("-M %s: the documents kept per topic must be at least 1", o.val)
		}
		r.Options.Config.MaxDocs = n
	case 'D':
		if n != 0 {
			return requestErrorf("-D %s: readsim prints no debugging output (only -D 0)", o.val)
		}
	}
	return nil
}

// set applies the option o.
func (r *TrecEvalRequest) set(o trecEvalArg) error {
	switch o.opt {
	case 'h':
		r.Help = true
	case 'v':
		r.Version = true
	case 'q':
		r.Options.Query = true
	case fullPrecisionOpt:
		r.Options.FullPrecision = true
	case compatOpt:
		if o.val != "9" && o.val != "10" {
			return requestErrorf("--compat %s: the versions are 9 (trec_eval 9's interpolated precision, as pytrec_eval) and 10 (the default)", o.val)
		}
		r.Options.Config.Compat, _ = strconv.Atoi(o.val)
	case 'm':
		r.Measures = append(r.Measures, o.val)
	case 'c':
		r.Options.Complete = true
	case 'n':
		r.Options.NoSummary = true
	case 'J':
		r.Options.Config.JudgedOnly = true
	case 'o':
		// obsolete in trec_eval 10.0: accepted, no effect
	case 'l', 'N', 'M', 'D':
		return r.setNumber(o)
	case 'R':
		if !slices.Contains(inex.TrecEvalFormats, o.val) {
			return requestErrorf("-R %s: the judgment formats are qrels, qrels_jg, prefs and qrels_prefs", o.val)
		}
		r.Format = o.val
	case 'T':
		if o.val != "trec_results" {
			return requestErrorf("-T %s: the only results format is trec_results", o.val)
		}
	case 'Z':
		r.Zscores = o.val
	}
	return nil
}

// TrecEvalHelp is the help of `readsim trec_eval`: its options and
// measures.
func TrecEvalHelp() string {
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
  --compat 9                     trec_eval 9's rules where versions differ:
                                 x·R + 0.9 for iprec_at_recall and 11pt_avg
                                 (pytrec_eval's); 10, the default, rounds
  -h, -v                         this help; the version

Nicknames:`)
	for _, n := range effort.TrecNicknames {
		b.WriteString(" " + n.Name)
	}
	b.WriteString("\nMeasures: " + strings.Join(effort.TrecMeasureNames(), " ") + "\n")
	return b.String()
}
