package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

func init() {
	register(&command{
		name:    "fidelity",
		args:    "--qrels Q [--articles DIR] [-m MEASURE]... [--order O] [--format table|tsv|markdown] [--plot DIR]",
		summary: "the fidelity suite of simulated runs",
		run:     runFidelity,
	})
}

// runFidelity implements `readsim fidelity` (scenario.md, "Fidelity suite"):
// every measure for every simulated run (answer set × ranking, named as in
// Pehcevski & Thom: SR, SRS, SLDRI, SSTRSI, …), then every expected ordering
// under every measure with the mean difference (left − right), the wins,
// ties and losses of the left run (lower is better for CE, NCE, ANCE) and the
// two-sided paired t-test p-value; "FAIL" marks a measure whose means break
// the expectation. --format tsv prints `run<TAB>measure<TAB>mean` rows, a
// blank line, then the expectation table with a header line.
func runFidelity(e *env, args []string) error {
	c := commands["fidelity"]
	fs := newFlags(e, c)
	sf := addMeasureFlags(fs, "measure, repeatable (default: the eleven of eval)", compatUsage)
	articles := fs.String("articles", "", "article folder: adds the element answer sets SL, SS and SST")
	format := fs.String("format", "table", "output: table (readable), tsv or markdown")
	plotDir := fs.String("plot", "", "write SVG charts into DIR: mean gP[r] and NCE[r] over ranks of the answer sets and rankings, per-topic differences sorted")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", pos[0])}
	}
	switch *format {
	case "table", "tsv", "markdown":
	default:
		return usageError{fmt.Sprintf("unknown --format %q (table, tsv or markdown)", *format)}
	}
	o, ms, err := sf.check(defaultMeasures)
	if err != nil {
		return err
	}
	for _, m := range ms {
		if m.IsFocused() || m.IsCount() {
			return usageError{fmt.Sprintf("%s: the suite's simulated runs are ranked articles; use a list score of eval", m)}
		}
	}
	warn := lockedWarn(e.stderr)
	q, err := inex.OpenQrels(*sf.qrels, warn)
	if err != nil {
		return asInputError(err)
	}
	opt := scenario.FidelityOptions{Measures: ms, Config: effort.Config{Order: o, CompatINEX: sf.compatINEX()}, Warn: warn}
	if *articles != "" {
		d, err := article.OpenDir(*articles)
		if err != nil {
			return inputError{err}
		}
		opt.Articles = d
	}
	f, err := scenario.RunFidelity(q, opt)
	if err != nil {
		return inputError{err}
	}
	w := bufio.NewWriter(e.stdout)
	writeFidelity(w, *format, f)
	if err := w.Flush(); err != nil {
		return err
	}
	if *plotDir == "" {
		return nil
	}
	return writeCharts(e, *plotDir, fidelityCharts(f, opt.Config.CompatINEX))
}

func fidelityCharts(f *scenario.Fidelity, compat bool) map[string]*scenario.Chart {
	charts := map[string]*scenario.Chart{}
	group := func(suffix, what string, names []string) {
		var labels []string
		var sets [][]*scenario.TopicValues
		for _, n := range names {
			if r := f.Run(n); r != nil {
				labels = append(labels, n)
				sets = append(sets, r.TopicValues)
			}
		}
		for file, ch := range scenario.RankCharts(f.Measures, labels, sets, f.DocNames, compat) {
			ch.Title += " — " + what
			charts[strings.TrimSuffix(file, ".svg")+"-"+suffix+".svg"] = ch
		}
	}
	var setRuns []string
	for _, s := range scenario.AnswerSets {
		setRuns = append(setRuns, s+"R")
	}
	group("answer-sets", "answer sets, ranking R", setRuns)
	group("rankings", "rankings, answer set S", []string{"SR", "SRS", "SRI", "SRSI"})
	for m, meas := range f.Measures {
		ch := &scenario.Chart{
			Title:  fmt.Sprintf("Expected orderings under %s: per-topic left − right, sorted", meas),
			XLabel: "topics, sorted by difference", YLabel: "left − right, " + meas.String(), Zero: true,
		}
		for _, c := range f.Checks {
			if c.Measure != m {
				continue
			}
			l, r := f.Run(c.Left), f.Run(c.Right)
			name := c.Label
			if c.Fail {
				name += " (FAILS)"
			}
			ch.Curves = append(ch.Curves, scenario.Curve{Name: name, Y: scenario.SortedDesc(scenario.Differences(l.Values[m], r.Values[m]))})
		}
		charts["expectations-"+scenario.FileName(meas.String())+".svg"] = ch
	}
	return charts
}

func writeFidelity(w io.Writer, format string, f *scenario.Fidelity) {
	status := func(c scenario.Check) string {
		if c.Fail {
			return "FAIL"
		}
		return "ok"
	}
	switch format {
	case "tsv":
		for _, r := range f.Runs {
			for m, meas := range f.Measures {
				fmt.Fprintf(w, "%s\t%s\t%s\n", r.Name, meas, full(r.Means[m]))
			}
		}
		fmt.Fprintln(w)
		fmt.Fprintln(w, "expectation\tleft\tright\tmeasure\tmean_left\tmean_right\tdiff\twins\tties\tlosses\tp_t\tstatus")
		for _, c := range f.Checks {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\t%s\n", c.Label, c.Left, c.Right, f.Measures[c.Measure],
				full(c.MeanA), full(c.MeanB), full(c.Diff), c.Wins, c.Ties, c.Losses, full(c.PT), status(c))
		}
		return
	case "markdown":
		fmt.Fprintf(w, "Simulated runs, %d topics (mean per measure).\n\n| run |", len(f.Topics))
		for _, m := range f.Measures {
			fmt.Fprintf(w, " %s |", mdEscape(m.String()))
		}
		fmt.Fprint(w, "\n|---|")
		for range f.Measures {
			fmt.Fprint(w, "---:|")
		}
		fmt.Fprintln(w)
		for _, r := range f.Runs {
			fmt.Fprintf(w, "| %s |", r.Name)
			for m := range f.Measures {
				fmt.Fprintf(w, " %s |", fmtMean(r.Means[m]))
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, "\n| expectation | measure | left | right | left − right | W/T/L | p (t-test) | |")
		fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---|")
		for _, c := range f.Checks {
			fmt.Fprintf(w, "| %s (%s vs %s) | %s | %s | %s | %s | %d/%d/%d | %s | %s |\n", c.Label, c.Left, c.Right,
				mdEscape(f.Measures[c.Measure].String()), fmtMean(c.MeanA), fmtMean(c.MeanB), fmtSigned(c.Diff),
				c.Wins, c.Ties, c.Losses, fmtP(c.PT), map[bool]string{true: "**FAIL**", false: "ok"}[c.Fail])
		}
	default:
		fmt.Fprintf(w, "Simulated runs (%d topics), mean per measure\n\n", len(f.Topics))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "run\t")
		for _, m := range f.Measures {
			fmt.Fprintf(tw, "%s\t", m)
		}
		fmt.Fprintln(tw)
		for _, r := range f.Runs {
			fmt.Fprintf(tw, "%s\t", r.Name)
			for m := range f.Measures {
				fmt.Fprintf(tw, "%s\t", fmtMean(r.Means[m]))
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
		fmt.Fprintf(w, "\nExpected orderings (left − right; wins/ties/losses of the left run; paired t-test)\n\n")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "expectation\truns\tmeasure\tleft\tright\tleft − right\twins\tties\tlosses\tp (t-test)\t\t")
		for _, c := range f.Checks {
			fmt.Fprintf(tw, "%s\t%s vs %s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\t%s\t\n", c.Label, c.Left, c.Right, f.Measures[c.Measure],
				fmtMean(c.MeanA), fmtMean(c.MeanB), fmtSigned(c.Diff), c.Wins, c.Ties, c.Losses, fmtP(c.PT), status(c))
		}
		tw.Flush()
	}
	// The summary: which measures fail which expectation.
	fails := map[string][]string{}
	var order []string
	for _, c := range f.Checks {
		if !c.Fail {
			continue
		}
		name := f.Measures[c.Measure].String()
		if fails[name] == nil {
			order = append(order, name)
		}
		fails[name] = append(fails[name], c.Label)
	}
	fmt.Fprintln(w)
	if len(order) == 0 {
		fmt.Fprintln(w, "Every measure meets every expectation.")
		return
	}
	fmt.Fprintln(w, "Measures failing expectations:")
	for _, n := range order {
		fmt.Fprintf(w, "  %s: %s\n", n, strings.Join(fails[n], "; "))
	}
}
