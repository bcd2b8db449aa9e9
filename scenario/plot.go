package scenario

import (
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/internal/ground/durable"
	"github.com/readsim/readsim/scenario/inex"
)

// Curve is one line of a chart: Y[i] is the value at x = i+1 (a rank, or a
// topic's position among the sorted differences).
type Curve struct {
	Name string
	Y    []float64
}

// Chart is an SVG line chart (gonum.org/v1/plot, SVG backend).
type Chart struct {
	Title, XLabel, YLabel string
	Curves                []Curve
	// Zero draws a horizontal line at y = 0 (for differences).
	Zero bool
	// Points marks every value (few points per curve).
	Points bool
	// LegendLeft puts the legend at the top left (for rising curves) instead
	// of the top right.
	LegendLeft bool
}

// Chart size: about a column and a half of a paper.
const chartWidth, chartHeight = 16 * vg.Centimeter, 10 * vg.Centimeter

// WriteSVG draws the chart as SVG to w.
func (c *Chart) WriteSVG(w io.Writer) error {
	p := plot.New()
	p.Title.Text = c.Title
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = c.XLabel
	p.Y.Label.Text = c.YLabel
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font.Size = vg.Points(12)
		ax.Tick.Label.Font.Size = vg.Points(10)
	}
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = c.LegendLeft
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	p.Legend.Padding = vg.Points(2)
	if c.Zero {
		n := 1
		for _, cv := range c.Curves {
			n = max(n, len(cv.Y))
		}
		z := plotter.NewFunction(func(float64) float64 { return 0 })
		z.Color = color.Gray{Y: 90}
		z.XMin, z.XMax = 1, float64(n)
		p.Add(z)
	}
	for i, cv := range c.Curves {
		pts := make(plotter.XYs, len(cv.Y))
		for j, y := range cv.Y {
			pts[j] = plotter.XY{X: float64(j + 1), Y: y}
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return fmt.Errorf("chart %q, curve %q: %w", c.Title, cv.Name, err)
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i)
		l.Width = vg.Points(1.5)
		p.Add(l)
		if c.Points {
			s, err := plotter.NewScatter(pts)
			if err != nil {
				return err
			}
			s.Color = l.Color
			s.Shape = plotutil.Shape(i)
			s.Radius = vg.Points(2.5)
			p.Add(s)
			p.Legend.Add(cv.Name, l, s)
		} else {
			p.Legend.Add(cv.Name, l)
		}
	}
	if len(c.Curves) > 0 && len(c.Curves[0].Y) > 0 {
		p.X.Min = 1
	}
	if n := len(c.Curves); n > 2 && !c.LegendLeft {
		// Room above the curves for a long legend.
		p.Y.Max += (p.Y.Max - p.Y.Min) * 0.065 * float64(n)
	}
	p.Legend.XOffs = -vg.Points(6)
	if c.LegendLeft {
		p.Legend.XOffs = vg.Points(6)
	}
	wt, err := p.WriterTo(chartWidth, chartHeight, "svg")
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
}

// SortedDesc returns a copy of ys sorted in decreasing order: the per-topic
// differences of a comparison as the "sorted differences" chart draws them.
func SortedDesc(ys []float64) []float64 {
	s := append([]float64(nil), ys...)
	sort.Sort(sort.Reverse(sort.Float64Slice(s)))
	return s
}

// Differences returns a[i] − b[i].
func Differences(a, b []float64) []float64 {
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return d
}

// FileName turns a chart name (a measure, a run) into a portable file name:
// `gP-F(0.25)` stays, `AgP\T2Ip(300)` becomes `AgP_T2Ip(300)`.
func FileName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("().,-[]", r):
			b.WriteRune(r)
		case r == '\'':
			b.WriteString("p")
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// CurveKind is what MeanCurve computes per rank.
type CurveKind int

// The rank curves of the charts.
const (
	CurveGP  CurveKind = iota // gP[r] of a document score
	CurveNCE                  // NCE[r] of an LE effort
)

// MeanCurve returns the mean over the topic values tvs of gP[r]\ds or
// NCE[r]\ds for r = 1…k, computed with the list-score code of eval
// (effort.GP, effort.NCE). i is the index of ds among the document scores.
func MeanCurve(kind CurveKind, tvs []*TopicValues, i int, ds effort.DocScore, k int, compat bool) []float64 {
	y := make([]float64, k)
	for _, tv := range tvs {
		s := tv.DocScores[i]
		for r := 1; r <= k; r++ {
			if kind == CurveGP {
				y[r-1] += effort.GP(s, r, compat)
			} else {
				y[r-1] += effort.NCE(s, tv.Trel, r, ds.NR)
			}
		}
	}
	if len(tvs) > 0 {
		for r := range y {
			y[r] /= float64(len(tvs))
		}
	}
	return y
}

// CurveScores returns the document scores to draw rank curves of for ms:
// every non-LE document score (gP[r]) and every LE effort (NCE[r]), each
// once, in order of appearance.
func CurveScores(ms []effort.Measure) []effort.DocScore {
	var out []effort.DocScore
	for _, m := range ms {
		if m.Doc.Kind == effort.DocNone {
			continue
		}
		dup := false
		for _, d := range out {
			dup = dup || d == m.Doc
		}
		if !dup {
			out = append(out, m.Doc)
		}
	}
	return out
}

// TopicValuesAll returns p.Values for every topic of topics.
func TopicValuesAll(p *Replayer, topics []string) ([]*TopicValues, error) {
	out := make([]*TopicValues, 0, len(topics))
	for _, id := range topics {
		tv, err := p.Values(id)
		if err != nil {
			return nil, err
		}
		out = append(out, tv)
	}
	return out, nil
}

// docIndex returns the index of ds among names (DocScoreNames), or -1.
func docIndex(names []string, ds effort.DocScore) int {
	for i, n := range names {
		if n == ds.String() {
			return i
		}
	}
	return -1
}

// RankCharts returns, for every document score of ms, the chart of mean
// gP[r] (r ≤ 50) or, for an LE effort, mean NCE[r] (r ≤ 100) over ranks, one
// curve per named set of topic values. names[i] labels sets[i]; all sets
// were computed with the measures ms (so share their document scores).
func RankCharts(ms []effort.Measure, names []string, sets [][]*TopicValues, docNames []string, compat bool) map[string]*Chart {
	out := map[string]*Chart{}
	for _, ds := range CurveScores(ms) {
		i := docIndex(docNames, ds)
		if i < 0 {
			continue
		}
		kind, k, file := CurveGP, 50, "gP-"+FileName(ds.String())
		title := `Mean gP[r]\` + ds.String() + " over ranks"
		ylabel := `gP[r]\` + ds.String()
		if ds.Kind == effort.DocLE {
			kind, k, file = CurveNCE, 100, "NCE-"+FileName(ds.String())
			title = `Mean NCE[r]\` + ds.String() + " over ranks (lower is better)"
			ylabel = `NCE[r]\` + ds.String()
		}
		c := &Chart{Title: title, XLabel: "rank r", YLabel: ylabel, LegendLeft: kind == CurveNCE}
		for j, tvs := range sets {
			c.Curves = append(c.Curves, Curve{Name: names[j], Y: MeanCurve(kind, tvs, i, ds, k, compat)})
		}
		out[file+".svg"] = c
	}
	return out
}

// ComparisonCharts returns the charts of a comparison of runs (the runs
// given to Compare, in order): the mean gP[r] and NCE[r] over ranks of every
// run (RankCharts, over the compared topics) and, per measure, the sorted
// per-topic differences of each compared pair. cfg is the reader the runs
// were evaluated with (its Measures are c's).
func ComparisonCharts(q *inex.Qrels, runs []*inex.Run, c *Comparison, cfg SimulatedReader) (map[string]*Chart, error) {
	cfg.Measures = c.Measures
	var sets [][]*TopicValues
	var labels []string
	var docNames []string
	for i := range c.Runs {
		rd, run := cfg, (*inex.Run)(nil)
		if i < len(runs) {
			run = runs[i]
		} else { // the document baseline of the first run
			rd.DocBaseline, run = true, runs[0]
		}
		p, err := NewReplayer(q, run, rd)
		if err != nil {
			return nil, err
		}
		tvs, err := TopicValuesAll(p, c.Topics)
		if err != nil {
			return nil, err
		}
		sets = append(sets, tvs)
		labels = append(labels, Letter(i)+": "+c.Names[i])
		docNames = p.DocScoreNames()
	}
	charts := RankCharts(c.Measures, labels, sets, docNames, cfg.CompatINEX)
	for m, meas := range c.Measures {
		ch := &Chart{
			Title:  fmt.Sprintf("Per-topic difference, %s (%d topics, sorted)", meas, len(c.Topics)),
			XLabel: "topics, sorted by difference", YLabel: "difference, " + meas.String(),
			Zero: true,
		}
		for _, p := range c.Pairs {
			if p.Measure == m {
				ch.Curves = append(ch.Curves, Curve{Name: Letter(p.A) + " − " + Letter(p.B),
					Y: SortedDesc(Differences(c.Runs[p.A].Values[m], c.Runs[p.B].Values[m]))})
			}
		}
		charts["diff-"+FileName(meas.String())+".svg"] = ch
	}
	return charts, nil
}

// FidelityCharts returns the charts of the fidelity suite: mean rank curves
// of the answer sets (ranking R) and of the rankings (answer set S), and per
// measure the sorted per-topic differences of every expected ordering.
func FidelityCharts(f *Fidelity, compat bool) map[string]*Chart {
	charts := map[string]*Chart{}
	group := func(suffix, what string, names []string) {
		var labels []string
		var sets [][]*TopicValues
		for _, n := range names {
			if r := f.Run(n); r != nil {
				labels = append(labels, n)
				sets = append(sets, r.TopicValues)
			}
		}
		for file, ch := range RankCharts(f.Measures, labels, sets, f.DocNames, compat) {
			ch.Title += " — " + what
			charts[strings.TrimSuffix(file, ".svg")+"-"+suffix+".svg"] = ch
		}
	}
	var setRuns []string
	for _, s := range AnswerSets {
		setRuns = append(setRuns, s+"R")
	}
	group("answer-sets", "answer sets, ranking R", setRuns)
	group("rankings", "rankings, answer set S", []string{"SR", "SRS", "SRI", "SRSI"})
	for m, meas := range f.Measures {
		ch := &Chart{
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
			ch.Curves = append(ch.Curves, Curve{Name: name, Y: SortedDesc(Differences(l.Values[m], r.Values[m]))})
		}
		charts["expectations-"+FileName(meas.String())+".svg"] = ch
	}
	return charts
}

// WriteCharts writes every chart into dir (created if needed), each file
// written beside and renamed, and returns the file names written, sorted.
func WriteCharts(dir string, charts map[string]*Chart) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(charts))
	for n := range charts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := durable.Write(filepath.Join(dir, n), 0o644, func(f *os.File) error { return charts[n].WriteSVG(f) }); err != nil {
			return nil, err
		}
	}
	return names, nil
}
