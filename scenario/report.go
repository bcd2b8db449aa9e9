package scenario

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ReportFormat is an output format of readsim's reports.
type ReportFormat string

// The formats. JSON is written by each report with encoding/json; Table
// writes the other four.
const (
	FormatTable    ReportFormat = "table"    // aligned columns for a terminal
	FormatTSV      ReportFormat = "tsv"      // tab-separated, full precision
	FormatMarkdown ReportFormat = "markdown" // a GitHub table
	FormatLaTeX    ReportFormat = "latex"    // a booktabs table
	FormatJSON     ReportFormat = "json"     // encoding/json, full precision
)

// ParseFormat reads a format name among the allowed ones.
func ParseFormat(s string, allowed ...ReportFormat) (ReportFormat, error) {
	var names []string
	for _, f := range allowed {
		if string(f) == s {
			return f, nil
		}
		names = append(names, string(f))
	}
	return "", fmt.Errorf("unknown format %q (%s)", s, strings.Join(names, ", "))
}

// DefaultDigits is how many decimals tables, Markdown and LaTeX show (TSV and
// JSON show full precision).
const DefaultDigits = 4

// MaxDigits is the most decimals a table shows: 17 significant digits tell
// any two float64 apart, so more would print noise.
const MaxDigits = 17

// Column is a column of a Table.
type Column struct {
	Name string
	// Num right-aligns the column (numbers).
	Num bool
}

// Cell is a cell of a Table: text, or a number written with the table's
// digits (full precision in TSV).
type Cell struct {
	Text  string
	Value float64
	IsNum bool
	// Signed writes a + before positive numbers (differences).
	Signed bool
	// Sup is a superscript mark after the value (significance letters, *);
	// TSV leaves it out.
	Sup string
}

// Text returns a text cell.
func Text(s string) Cell { return Cell{Text: s} }

// Num returns a number cell.
func Num(v float64) Cell { return Cell{Value: v, IsNum: true} }

// Int returns an integer cell.
func Int(n int) Cell { return Cell{Text: strconv.Itoa(n), IsNum: false} }

// Table is a report table: the one writer of every tabular output of
// readsim (eval's wide table, compare, fidelity) in every format.
type Table struct {
	// Title is printed above the table (a caption in LaTeX; TSV leaves it out).
	Title   string
	Columns []Column
	Rows    [][]Cell
	// Notes are printed below the table (in the caption in LaTeX; TSV leaves
	// them out).
	Notes []string
}

// Write writes t in format f (table, tsv, markdown or latex) with digits
// decimals (DefaultDigits when negative; TSV always writes full precision).
func (t *Table) Write(w io.Writer, f ReportFormat, digits int) error {
	if digits < 0 {
		digits = DefaultDigits
	}
	switch f {
	case FormatTSV:
		return t.writeTSV(w)
	case FormatMarkdown:
		return t.writeMarkdown(w, digits)
	case FormatLaTeX:
		return t.writeLaTeX(w, digits)
	default:
		return t.writeText(w, digits)
	}
}

// FormatNumber writes v with digits decimals, "n/a" for NaN; digits < 0 is
// full precision (never in exponent form).
func FormatNumber(v float64, digits int) string {
	switch {
	case math.IsNaN(v):
		return "n/a"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	case digits < 0:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', digits, 64)
}

// FormatP writes a p-value: digits decimals, and values too small for them
// in exponent form (2.6e-11), so a tiny p never reads as 0.0000.
func FormatP(p float64, digits int) string {
	if digits < 0 {
		return FormatNumber(p, digits)
	}
	if p > 0 && p < math.Pow(10, -float64(digits)) {
		return strconv.FormatFloat(p, 'e', 1, 64)
	}
	return FormatNumber(p, digits)
}

func (c Cell) text(digits int) string {
	if !c.IsNum {
		return c.Text
	}
	if c.Text != "" {
		return c.Text // a number written by the report itself (p-values)
	}
	s := FormatNumber(c.Value, digits)
	if c.Signed && c.Value >= 0 && !strings.HasPrefix(s, "-") && s != "n/a" {
		s = "+" + s
	}
	return s
}

func (t *Table) writeTSV(w io.Writer) error {
	var b strings.Builder
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteByte('\t')
		}
		b.WriteString(c.Name)
	}
	b.WriteByte('\n')
	for _, r := range t.Rows {
		for i, c := range r {
			if i > 0 {
				b.WriteByte('\t')
			}
			if c.IsNum {
				b.WriteString(FormatNumber(c.Value, -1))
			} else {
				b.WriteString(c.Text)
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// superscript writes s (letters, digits, * and †) as Unicode superscripts
// where they exist.
func superscript(s string) string {
	const from = "abcdefghijklmnoprstuvwxyz0123456789+-"
	to := []rune("ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻")
	var b strings.Builder
	for _, r := range s {
		if i := strings.IndexRune(from, r); i >= 0 {
			b.WriteRune(to[i])
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func (t *Table) writeText(w io.Writer, digits int) error {
	cells := make([][]string, 0, len(t.Rows)+1)
	head := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		head[i] = c.Name
	}
	cells = append(cells, head)
	for _, r := range t.Rows {
		row := make([]string, len(r))
		for i, c := range r {
			row[i] = c.text(digits) + superscript(c.Sup)
		}
		cells = append(cells, row)
	}
	width := make([]int, len(t.Columns))
	for _, r := range cells {
		for i, s := range r {
			if i < len(width) {
				width[i] = max(width[i], utf8.RuneCountInString(s))
			}
		}
	}
	var b strings.Builder
	if t.Title != "" {
		b.WriteString(t.Title + "\n\n")
	}
	for _, r := range cells {
		var line strings.Builder
		for i, s := range r {
			if i >= len(width) {
				break
			}
			if i > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(s))
			if t.Columns[i].Num {
				line.WriteString(pad + s)
			} else {
				line.WriteString(s + pad)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	if len(t.Notes) > 0 {
		b.WriteByte('\n')
		for _, n := range t.Notes {
			b.WriteString(n + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// MarkdownEscape escapes the characters Markdown would read as markup.
func MarkdownEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "<", `&lt;`).Replace(s)
}

// LaTeXEscape escapes LaTeX's special characters.
func LaTeXEscape(s string) string {
	return strings.NewReplacer(`\`, `\textbackslash{}`, "_", `\_`, "%", `\%`, "&", `\&`, "#", `\#`, "$", `\$`,
		"{", `\{`, "}", `\}`, "~", `\textasciitilde{}`, "^", `\textasciicircum{}`, "−", "$-$", "≥", `$\geq$`, "≤", `$\leq$`).Replace(s)
}

func (t *Table) writeMarkdown(w io.Writer, digits int) error {
	var b strings.Builder
	if t.Title != "" {
		b.WriteString(MarkdownEscape(t.Title) + "\n\n")
	}
	row := func(cells []string) { b.WriteString("| " + strings.Join(cells, " | ") + " |\n") }
	row(t.names(MarkdownEscape))
	b.WriteString("|" + t.aligns("---:|", "---|") + "\n")
	for _, r := range t.Rows {
		row(cellTexts(r, digits, MarkdownEscape, func(s string) string { return "<sup>" + s + "</sup>" }))
	}
	if len(t.Notes) > 0 {
		b.WriteByte('\n')
		for _, n := range t.Notes {
			b.WriteString(MarkdownEscape(n) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (t *Table) writeLaTeX(w io.Writer, digits int) error {
	var b strings.Builder
	row := func(cells []string) { b.WriteString(strings.Join(cells, " & ") + " \\\\\n") }
	b.WriteString("\\begin{table}[t]\n\\centering\n\\begin{tabular}{" + t.aligns("r", "l") + "}\n\\toprule\n")
	row(t.names(LaTeXEscape))
	b.WriteString("\\midrule\n")
	for _, r := range t.Rows {
		row(cellTexts(r, digits, LaTeXEscape, func(s string) string { return "$^{" + s + "}$" }))
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	if t.Title != "" || len(t.Notes) > 0 {
		b.WriteString("\\caption{" + LaTeXEscape(strings.TrimSpace(t.Title+" "+strings.Join(t.Notes, " "))) + "}\n")
	}
	b.WriteString("\\end{table}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// names returns the columns' names, each escaped by esc.
func (t *Table) names(esc func(string) string) []string {
	out := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = esc(c.Name)
	}
	return out
}

// aligns returns, column by column, right for a numeric column and left
// for the others.
func (t *Table) aligns(right, left string) string {
	var b strings.Builder
	for _, c := range t.Columns {
		if c.Num {
			b.WriteString(right)
		} else {
			b.WriteString(left)
		}
	}
	return b.String()
}

// cellTexts returns the cells of a row as text with digits decimals, each
// escaped by esc and followed by its escaped superscript as sup marks it.
func cellTexts(r []Cell, digits int, esc, sup func(string) string) []string {
	out := make([]string, len(r))
	for i, c := range r {
		out[i] = esc(c.text(digits))
		if c.Sup != "" {
			out[i] += sup(esc(c.Sup))
		}
	}
	return out
}
