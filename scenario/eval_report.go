package scenario

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// EvalReport says how WriteEval writes evaluations.
type EvalReport struct {
	Format ReportFormat // tsv (default), json or table
	// PerTopic writes every topic's value before `all` (-q).
	PerTopic bool
	// Digits of the table (DefaultDigits when negative; tsv and json are
	// full precision).
	Digits int
}

// WriteEval writes the evaluations of runs (in order) under ms.
//
//   - tsv: trec_eval's layout, `measure<TAB>topic<TAB>value` (formats.md):
//     for each run a first line `runid<TAB>all<TAB>RUN`, then per measure
//     the topics (with PerTopic, in topic order) and `all`;
//   - json: one JSON object per value and line, {"run","measure","topic","value"},
//     the run named by its run id;
//   - table: one row per run (and with PerTopic per run and topic), one
//     column per measure: the wide table of several runs.
//
// Numbers are written in full precision, never in exponent form, except in
// the table. num_q and the INEX tool's ircl_prn points have no per-topic
// lines (Measure.SummaryOnly), and MAgP and MAiP are named AgP and AiP on
// them (Measure.TopicString), as trec_eval and the INEX tool print them.
func WriteEval(w io.Writer, results []*Evaluation, ms []effort.Measure, opt EvalReport) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	switch opt.Format {
	case FormatTable, FormatMarkdown, FormatLaTeX:
		if err := evalTable(results, ms, opt.PerTopic).Write(bw, opt.Format, opt.Digits); err != nil {
			return err
		}
		return bw.Flush()
	case FormatJSON:
		enc := json.NewEncoder(bw)
		type value struct {
			Run     string  `json:"run"`
			Measure string  `json:"measure"`
			Topic   string  `json:"topic"`
			Value   float64 `json:"value"`
		}
		for _, r := range results {
			for m, meas := range ms {
				name := meas.String()
				if opt.PerTopic && !meas.SummaryOnly() {
					for t, topic := range r.Topics {
						if err := enc.Encode(value{r.Name(), meas.TopicString(), topic, r.Values[m][t]}); err != nil {
							return err
						}
					}
				}
				if err := enc.Encode(value{r.Name(), name, "all", r.All[m]}); err != nil {
					return err
				}
			}
		}
		return bw.Flush()
	}
	var line []byte
	emit := func(measure, topic string, v float64) {
		line = append(append(append(append(line[:0], measure...), '\t'), topic...), '\t')
		line = strconv.AppendFloat(line, v, 'f', -1, 64)
		bw.Write(append(line, '\n'))
	}
	for _, r := range results {
		bw.WriteString("runid\tall\t" + r.Name() + "\n")
		for m, meas := range ms {
			if opt.PerTopic && !meas.SummaryOnly() {
				name := meas.TopicString()
				for t, topic := range r.Topics {
					emit(name, topic, r.Values[m][t])
				}
			}
			emit(meas.String(), "all", r.All[m])
		}
	}
	return bw.Flush()
}

// Name is the run's name in reports: its Label when set (NameApart), its
// run id, or its file's name.
func (r *Evaluation) Name() string {
	if r.Label != "" {
		return r.Label
	}
	if r.RunID != "" {
		return r.RunID
	}
	return r.File
}

// evalTable is the wide table: runs (× topics) by measures.
func evalTable(results []*Evaluation, ms []effort.Measure, perTopic bool) *Table {
	t := &Table{Columns: []Column{{Name: "run"}}}
	if perTopic {
		t.Columns = append(t.Columns, Column{Name: "topic"})
	}
	for _, m := range ms {
		t.Columns = append(t.Columns, Column{Name: m.String(), Num: true})
	}
	row := func(r *Evaluation, topic string, at func(m int) float64) {
		cells := []Cell{Text(r.Name())}
		if perTopic {
			cells = append(cells, Text(topic))
		}
		for m, meas := range ms {
			c := Num(at(m))
			if meas.IsSum() {
				c = Cell{IsNum: true, Text: strconv.FormatFloat(at(m), 'f', -1, 64)}
			}
			cells = append(cells, c)
		}
		t.Rows = append(t.Rows, cells)
	}
	for _, r := range results {
		if perTopic {
			for ti, topic := range r.Topics {
				row(r, topic, func(m int) float64 { return r.Values[m][ti] })
			}
		}
		row(r, "all", func(m int) float64 { return r.All[m] })
	}
	return t
}

// EvalReadingFiles scores the recorded readings of files (OpenReadings,
// EvaluateReadings) and writes their values (WriteEval) on w, followed,
// when figures, by each article's and topic's reading figures on a phone
// screen (WriteFigures with effort.DefaultScreen and effort.DefaultNR),
// after a blank line except in JSON Lines.
func EvalReadingFiles(w io.Writer, q *inex.Qrels, files []string, opt EvalOptions, report EvalReport, figures bool) error {
	rds, err := OpenReadings(files)
	if err != nil {
		return err
	}
	results, err := EvaluateReadings(q, rds, opt)
	if err != nil {
		return err
	}
	if err := WriteEval(w, results, opt.Measures, report); err != nil || !figures {
		return err
	}
	if report.Format != FormatJSON {
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
	}
	return WriteFigures(w, q, rds, effort.DefaultScreen, effort.DefaultNR, report.Format, report.Digits)
}
