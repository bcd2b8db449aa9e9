package scenario

import (
	"math"
	"strings"
	"testing"
)

// One table in every format; the expected texts are written by hand from
// the formats' rules (alignment, escaping, superscripts, full precision in
// TSV).
func TestTableFormats(t *testing.T) {
	d := Num(-0.125)
	d.Signed = true
	up := Num(2.0 / 3)
	up.Sup = "b"
	tab := &Table{
		Title:   "Means",
		Columns: []Column{{Name: "run"}, {Name: `AgP\F(0.25)`, Num: true}, {Name: "diff", Num: true}},
		Rows: [][]Cell{
			{Text("a_1"), up, d},
			{Text("b|2"), Num(math.NaN()), Num(10)},
		},
		Notes: []string{"lower is better"},
	}
	for _, tc := range []struct {
		f    ReportFormat
		want string
	}{
		{FormatTSV, "run\tAgP\\F(0.25)\tdiff\na_1\t0.6666666666666666\t-0.125\nb|2\tn/a\t10\n"},
		{FormatTable, "Means\n\n" +
			"run  AgP\\F(0.25)    diff\n" +
			"a_1       0.667ᵇ  -0.125\n" +
			"b|2          n/a  10.000\n" +
			"\nlower is better\n"},
		{FormatMarkdown, "Means\n\n| run | AgP\\\\F(0.25) | diff |\n|---|---:|---:|\n" +
			"| a\\_1 | 0.667<sup>b</sup> | -0.125 |\n| b\\|2 | n/a | 10.000 |\n\nlower is better\n"},
		{FormatLaTeX, "\\begin{table}[t]\n\\centering\n\\begin{tabular}{lrr}\n\\toprule\n" +
			"run & AgP\\textbackslash{}F(0.25) & diff \\\\\n\\midrule\n" +
			"a\\_1 & 0.667$^{b}$ & -0.125 \\\\\nb|2 & n/a & 10.000 \\\\\n" +
			"\\bottomrule\n\\end{tabular}\n\\caption{Means lower is better}\n\\end{table}\n"},
	} {
		var b strings.Builder
		if err := tab.Write(&b, tc.f, 3); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.f, b.String(), tc.want)
		}
	}
}

func TestFormatP(t *testing.T) {
	for _, tc := range []struct {
		p      float64
		digits int
		want   string
	}{
		{0.04999, 4, "0.0500"},
		{2.63e-11, 4, "2.6e-11"},
		{0.00009, 4, "9.0e-05"},
		{1, 4, "1.0000"},
		{math.NaN(), 4, "n/a"},
		{2.63e-11, -1, "0.0000000000263"},
	} {
		if got := FormatP(tc.p, tc.digits); got != tc.want {
			t.Errorf("FormatP(%v, %d) = %q, want %q", tc.p, tc.digits, got, tc.want)
		}
	}
}
