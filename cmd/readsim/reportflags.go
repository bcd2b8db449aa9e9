package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"

	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/scenario"
)

// reportFlags are --format, --digits and --plot of the commands that write
// a report (compare, fidelity, calibrate, measures, eval).
type reportFlags struct {
	format  string
	formats []scenario.ReportFormat // the first is the default
	digits  scenario.Digits         // DefaultDigits without --digits
	plot    string                  // "" without --plot
}

// The usage of --format and --digits of the commands whose reports are
// tables of runs (compare and fidelity), and the formats they write.
const (
	tableUsage  = "output: table (readable), tsv, markdown, latex or json"
	digitsUsage = "decimals in tables, Markdown and LaTeX (tsv and json: full precision)"
)

var tableFormats = []scenario.ReportFormat{scenario.FormatTable, scenario.FormatTSV, scenario.FormatMarkdown, scenario.FormatLaTeX, scenario.FormatJSON}

// The usage of --format of calibrate and measures, and the formats they
// write.
const plainUsage = "output: table, tsv, markdown or json"

var plainFormats = []scenario.ReportFormat{scenario.FormatTable, scenario.FormatTSV, scenario.FormatMarkdown, scenario.FormatJSON}

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

// report is what reportFlags.write writes: a comparison, the fidelity
// suite, a calibration.
type report interface {
	Write(w io.Writer, f scenario.ReportFormat, digits int) error
}

// write writes rep on standard output in format f with --digits.
func (r *reportFlags) write(e *cli.Env, rep report, f scenario.ReportFormat) error {
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
