package flaggroup

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/scenario"
)

// Measures are the flags of scenario.MeasureRequest, shared by eval,
// compare, fidelity and replay: --qrels, -m, --order and --compat,
// (AddOverlaps) --group and --merge-overlaps, and (AddSpans)
// --lengths and --offsets. One definition keeps their names and defaults
// from drifting apart.
type Measures struct {
	scenario.MeasureRequest
	// Group and Merge are --group and --merge-overlaps (false without
	// AddOverlaps).
	Group, Merge bool
}

// CompatUsage is the usage of --compat of compare, fidelity and replay (eval
// words it its own way).
const CompatUsage = "inex: gP[k] for k > n repeats gP[n], as the official INEX tool"

// AddMeasures defines --qrels, -m (with the command's usage msUsage),
// --order and --compat (usage compatUsage) on fs, for use.
func AddMeasures(fs *flag.FlagSet, use scenario.Use, msUsage, compatUsage string) *Measures {
	f := &Measures{MeasureRequest: scenario.MeasureRequest{Use: use}}
	fs.StringVar(&f.Qrels, "qrels", "", "judgments: INEX FOL, TREC qrels, span judgments or the TREC Genomics gold standard (gzip or not)")
	fs.Var((*cli.Strings)(&f.Names), "m", msUsage)
	fs.StringVar(&f.Order, "order", "natural", "reading order after the retrieved passages: natural, best or worst")
	fs.StringVar(&f.Compat, "compat", "", compatUsage)
	return f
}

// AddSpans defines --lengths and --offsets on fs, for span judgments
// (TREC Genomics and any collection judged by passages).
func (f *Measures) AddSpans(fs *flag.FlagSet) *Measures {
	fs.StringVar(&f.Lengths, "lengths", "", "`FILE` of document lengths for span judgments, a \"doc length\" line per document in the offsets' unit (gzip or not): the measures that simulate reading need them")
	fs.StringVar(&f.Offsets, "offsets", "", "what span judgments' offsets and lengths count: chars or bytes (default: bytes for TREC Genomics judgments, chars otherwise)")
	return f
}

// AddOverlaps defines --group and --merge-overlaps on fs.
func (f *Measures) AddOverlaps(fs *flag.FlagSet) *Measures {
	fs.BoolVar(&f.Group, "group", false, "group an article's interleaved results at its first appearance instead of failing")
	fs.BoolVar(&f.Merge, "merge-overlaps", false, "merge overlapping passages of an article instead of failing")
	return f
}

// Report is --format, --digits and --plot of the commands that write
// a report (compare, fidelity, calibrate, measures, eval).
type Report struct {
	format  string
	formats []scenario.ReportFormat // the first is the default
	// Digits is --digits (scenario.DefaultDigits without it), Plot
	// --plot ("" without it).
	Digits Digits
	Plot   string
}

// TableUsage and DigitsUsage are the usage of --format and --digits of
// the commands whose reports are tables of runs (compare and fidelity),
// PlainUsage that of --format of calibrate and measures.
const (
	TableUsage  = "output: table (readable), tsv, markdown, latex or json"
	DigitsUsage = "decimals in tables, Markdown and LaTeX (tsv and json: full precision)"
	PlainUsage  = "output: table, tsv, markdown or json"
)

// TableFormats and PlainFormats are the formats those commands write.
var (
	TableFormats = []scenario.ReportFormat{scenario.FormatTable, scenario.FormatTSV, scenario.FormatMarkdown, scenario.FormatLaTeX, scenario.FormatJSON}
	PlainFormats = []scenario.ReportFormat{scenario.FormatTable, scenario.FormatTSV, scenario.FormatMarkdown, scenario.FormatJSON}
)

// AddReport defines --format (formats, the first the default) and,
// with their usage, --digits and --plot on fs.
func AddReport(fs *flag.FlagSet, usage, digits, plot string, formats ...scenario.ReportFormat) *Report {
	r := &Report{formats: formats, Digits: scenario.DefaultDigits}
	fs.StringVar(&r.format, "format", string(formats[0]), usage)
	if digits != "" {
		fs.Var(&r.Digits, "digits", fmt.Sprintf("%s; `N` from 0 to %d", digits, scenario.MaxDigits))
	}
	if plot != "" {
		fs.StringVar(&r.Plot, "plot", "", plot)
	}
	return r
}

// Parse returns the format asked for; an unknown one is a usage error.
func (r *Report) Parse() (scenario.ReportFormat, error) {
	f, err := scenario.ParseFormat(r.format, r.formats...)
	if err != nil {
		return "", cli.Usagef("--format: %v", err)
	}
	return f, nil
}

// Write writes rep (a comparison, the fidelity suite, a calibration) on
// standard output in format f with --digits.
func (r *Report) Write(e *cli.Env, rep interface {
	Write(w io.Writer, f scenario.ReportFormat, digits int) error
}, f scenario.ReportFormat) error {
	w := bufio.NewWriter(e.Stdout)
	if err := rep.Write(w, f, int(r.Digits)); err != nil {
		return err
	}
	return w.Flush()
}

// WriteCharts writes the charts into dir and says so on stderr.
func WriteCharts(e *cli.Env, dir string, charts map[string]*scenario.Chart) error {
	names, err := scenario.WriteCharts(dir, charts)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.Stderr, "wrote %d charts into %s\n", len(names), dir)
	return nil
}

// ParseDigits reads a number of decimals for tables (--digits): an integer
// from 0 to scenario.MaxDigits.
func ParseDigits(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 || n > scenario.MaxDigits {
		return 0, fmt.Errorf("%q: want an integer from 0 to %d", s, scenario.MaxDigits)
	}
	return n, nil
}

// Digits is a number of decimals for tables that reads itself from text
// (ParseDigits): the flag.Value of --digits.
type Digits int

// String returns the number.
func (d *Digits) String() string { return strconv.Itoa(int(*d)) }

// Set reads s (ParseDigits); out of range, d is left as it was.
func (d *Digits) Set(s string) error {
	n, err := ParseDigits(s)
	if err == nil {
		*d = Digits(n)
	}
	return err
}

// Articles are the flags of every command that reads articles: where
// their DTD is when it is not where the articles say, and their language.
type Articles struct {
	dtd  *string
	lang *string
}

// AddArticles defines --dtd and --lang on fs.
func AddArticles(fs *flag.FlagSet) *Articles {
	return &Articles{
		dtd:  fs.String("dtd", "", "the collection's DTD `FILE`, used when an article's DOCTYPE names a DTD that is neither beside it nor at the collection root (without one, the XHTML entities are built in)"),
		lang: fs.String("lang", "", "the articles' language (`en`, zh, ja, ko…) instead of detecting it per article"),
	}
}

// Reader returns an article reader for the collection rooted at root ("" for
// single files) that warns on e.Stderr, once, when a DTD is missing.
func (f *Articles) Reader(e *cli.Env, cmd, root string) (*article.Reader, error) {
	lang := strings.TrimSpace(*f.lang)
	if lang != "" {
		if err := article.CheckLang(lang); err != nil {
			return nil, cli.Usage(err)
		}
	}
	return &article.Reader{
		Root: root,
		DTD:  *f.dtd,
		Lang: lang,
		Warn: func(msg string) { fmt.Fprintf(e.Stderr, "readsim %s: warning: %s\n", cmd, msg) },
	}, nil
}

// OpenCollection lists the articles folder dir for the command cmd
// (article.OpenDir) with rd as its reader, or, when rd is nil, one that
// warns on e.Stderr (no --dtd, no --lang); it warns of each entry named like
// an article that is none (a FIFO, a socket, a device, a file named .xml)
// and of the file names several articles have.
func OpenCollection(e *cli.Env, cmd, dir string, rd *article.Reader) (*article.Dir, error) {
	d, err := article.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	warn := func(s string) { fmt.Fprintf(e.Stderr, "readsim %s: warning: %s\n", cmd, s) }
	if rd == nil {
		rd = &article.Reader{Warn: warn}
	}
	rd.Root = dir
	d.Reader = rd
	for _, s := range d.Skipped() {
		warn("skipped " + s)
	}
	if w := article.ClashWarning(d.Clashes()); w != "" {
		warn(w)
	}
	return d, nil
}

// Retrieval are the flags search and run share: --index, -k and the
// search options.
type Retrieval struct {
	// Index is --index, K is -k.
	Index                            string
	K                                int
	titleBoost, textBoost, threshold float64
}

// AddRetrieval defines the flags on fs, -k defaulting to k.
func AddRetrieval(fs *flag.FlagSet, k int) *Retrieval {
	r := &Retrieval{}
	fs.StringVar(&r.Index, "index", "", "the index built by readsim index: its folder (`IDX`), or http(s)://HOST:PORT[,HOST:PORT…]/NAME on an OpenSearch cluster")
	fs.IntVar(&r.K, "k", k, "number of articles to fetch per query")
	fs.Float64Var(&r.titleBoost, "title-boost", 2, "weight of the title field in fetch")
	fs.Float64Var(&r.textBoost, "text-boost", 1, "weight of the text field in fetch")
	fs.Float64Var(&r.threshold, "threshold", index.DefaultThreshold, "browse keeps the elements scoring at least this fraction of the best one (0 < t ≤ 1)")
	return r
}

// Options checks the flags and returns the search options they give.
func (r *Retrieval) Options() (index.Options, error) {
	switch {
	case r.Index == "":
		return index.Options{}, cli.Usagef("--index is required")
	case r.K <= 0:
		return index.Options{}, cli.Usagef("-k must be positive")
	}
	o, err := index.NewOptions(r.titleBoost, r.textBoost, r.threshold)
	if err != nil {
		return o, cli.Usage(err)
	}
	return o, nil
}
