package scenario

import (
	"fmt"
	"io"
	"strings"
)

// MeansTable is the table of the simulated runs × measures (means).
func (f *Fidelity) MeansTable() *Table {
	t := &Table{Title: fmt.Sprintf("Simulated runs (%d topics), mean per measure", len(f.Topics)), Columns: []Column{{Name: "run"}}}
	for _, m := range f.Measures {
		t.Columns = append(t.Columns, Column{Name: m.String(), Num: true})
	}
	for _, r := range f.Runs {
		row := []Cell{Text(r.Name)}
		for m := range f.Measures {
			row = append(row, Num(r.Means[m]))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// ChecksTable is the table of the expected orderings under every measure.
func (f *Fidelity) ChecksTable(digits int) *Table {
	t := &Table{Title: "Expected orderings (left − right; wins/ties/losses of the left run; paired t-test)", Columns: []Column{
		{Name: "expectation"}, {Name: "runs"}, {Name: "measure"},
		{Name: "left", Num: true}, {Name: "right", Num: true}, {Name: "left − right", Num: true},
		{Name: "wins", Num: true}, {Name: "ties", Num: true}, {Name: "losses", Num: true},
		{Name: "p (t-test)", Num: true}, {Name: "status"},
	}}
	for _, c := range f.Checks {
		d := Num(c.Diff)
		d.Signed = true
		t.Rows = append(t.Rows, []Cell{
			Text(c.Label), Text(c.Left + " vs " + c.Right), Text(f.Measures[c.Measure].String()),
			Num(c.MeanA), Num(c.MeanB), d, Int(c.Wins), Int(c.Ties), Int(c.Losses),
			{IsNum: true, Text: FormatP(c.PT, digits)}, Text(c.status()),
		})
	}
	return t
}

func (c Check) status() string {
	if c.Fail {
		return "FAIL"
	}
	return "ok"
}

// Failures lists, per measure (in order), the expectations it fails.
func (f *Fidelity) Failures() (measures []string, fails map[string][]string) {
	fails = map[string][]string{}
	for _, c := range f.Checks {
		if !c.Fail {
			continue
		}
		name := f.Measures[c.Measure].String()
		if fails[name] == nil {
			measures = append(measures, name)
		}
		fails[name] = append(fails[name], c.Label)
	}
	return measures, fails
}

// Write writes the suite's report in format f: every measure for every
// simulated run (answer set × ranking, named as in Pehcevski & Thom: SR,
// SRS, SLDRI, SSTRSI, …), then every expected ordering under every measure
// with the mean difference (left − right), the wins, ties and losses of the
// left run (lower is better for CE, NCE, ANCE) and the two-sided paired
// t-test p-value; "FAIL" marks a measure whose means break the
// expectation, and the failures are listed by measure. TSV gives
// `run<TAB>measure<TAB>mean` rows, a blank line, then the expectation table
// with a header line.
func (f *Fidelity) Write(w io.Writer, format ReportFormat, digits int) error {
	if format == FormatJSON {
		return f.writeJSON(w)
	}
	var b strings.Builder
	if format == FormatTSV {
		// the means as measure lines, then the checks
		for _, r := range f.Runs {
			for m, meas := range f.Measures {
				fmt.Fprintf(&b, "%s\t%s\t%s\n", r.Name, meas, FormatNumber(r.Means[m], -1))
			}
		}
		b.WriteString("\n")
		t := &Table{}
		for _, n := range []string{"expectation", "left", "right", "measure", "mean_left", "mean_right", "diff", "wins", "ties", "losses", "p_t", "status"} {
			t.Columns = append(t.Columns, Column{Name: n})
		}
		for _, c := range f.Checks {
			t.Rows = append(t.Rows, []Cell{Text(c.Label), Text(c.Left), Text(c.Right), Text(f.Measures[c.Measure].String()),
				Num(c.MeanA), Num(c.MeanB), Num(c.Diff), Int(c.Wins), Int(c.Ties), Int(c.Losses), Num(c.PT), Text(c.status())})
		}
		if err := t.Write(&b, format, digits); err != nil {
			return err
		}
		_, err := io.WriteString(w, b.String())
		return err
	} else {
		if err := f.MeansTable().Write(&b, format, digits); err != nil {
			return err
		}
		b.WriteString("\n")
		if err := f.ChecksTable(digits).Write(&b, format, digits); err != nil {
			return err
		}
	}
	order, fails := f.Failures()
	b.WriteString("\n")
	if len(order) == 0 {
		b.WriteString("Every measure meets every expectation.\n")
	} else {
		b.WriteString("Measures failing expectations:\n")
		for _, n := range order {
			fmt.Fprintf(&b, "  %s: %s\n", n, strings.Join(fails[n], "; "))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (f *Fidelity) writeJSON(w io.Writer) error {
	type run struct {
		Name  string               `json:"run"`
		Means map[string]jsonFloat `json:"means"`
	}
	type check struct {
		Expectation string    `json:"expectation"`
		Left        string    `json:"left"`
		Right       string    `json:"right"`
		Measure     string    `json:"measure"`
		MeanLeft    jsonFloat `json:"mean_left"`
		MeanRight   jsonFloat `json:"mean_right"`
		Diff        jsonFloat `json:"diff"`
		jsonTally
		Fail bool `json:"fail"`
	}
	out := struct {
		Topics []string            `json:"topics"`
		Runs   []run               `json:"runs"`
		Checks []check             `json:"checks"`
		Fails  map[string][]string `json:"failures"`
	}{Topics: f.Topics}
	for _, r := range f.Runs {
		x := run{Name: r.Name, Means: map[string]jsonFloat{}}
		for m, meas := range f.Measures {
			x.Means[meas.String()] = jsonFloat(r.Means[m])
		}
		out.Runs = append(out.Runs, x)
	}
	for _, c := range f.Checks {
		out.Checks = append(out.Checks, check{Expectation: c.Label, Left: c.Left, Right: c.Right, Measure: f.Measures[c.Measure].String(),
			MeanLeft: jsonFloat(c.MeanA), MeanRight: jsonFloat(c.MeanB), Diff: jsonFloat(c.Diff),
			jsonTally: tallyOf(c.Paired), Fail: c.Fail})
	}
	_, out.Fails = f.Failures()
	return writeIndentedJSON(w, out)
}
