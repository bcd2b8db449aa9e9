package scenario

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/readsim/readsim/effort"
)

// WriteCatalogue writes effort.Catalogue (`readsim measures`): a row per
// list score, focused and count measure and document score, with the names
// other tools use for it, its kind, direction, aggregation (allOf),
// meaning and source, then effort.CatalogueNotes; f is FormatJSON (an
// indented array of objects, without the notes) or a Table format.
func WriteCatalogue(w io.Writer, f ReportFormat) error {
	cat := effort.Catalogue()
	if f == FormatJSON {
		type entry struct {
			Form    string   `json:"form"`
			Aliases []string `json:"aliases"`
			Kind    string   `json:"kind"`
			Meaning string   `json:"meaning"`
			Better  string   `json:"better"`
			Source  string   `json:"source"`
			All     string   `json:"all"`
		}
		var out []entry
		for _, c := range cat {
			out = append(out, entry{c.Form, append([]string{}, c.Aliases...), c.Kind, c.Meaning, c.Better.String(), c.Source, allOf(c)})
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	t := &Table{Columns: []Column{{Name: "measure"}, {Name: "also"}, {Name: "kind"}, {Name: "better"}, {Name: "all"}, {Name: "meaning"}, {Name: "source"}}}
	for _, c := range cat {
		t.Rows = append(t.Rows, []Cell{Text(c.Form), Text(strings.Join(c.Aliases, ", ")), Text(c.Kind),
			Text(c.Better.String()), Text(allOf(c)), Text(c.Meaning), Text(c.Source)})
	}
	t.Notes = effort.CatalogueNotes()
	return t.Write(w, f, -1)
}

// allOf says how a measure's `all` aggregates its topics: "sum" (the
// counts), "mean, every judged topic" (the TREC Genomics measures), "mean",
// or "—" for a document score, which has no `all` of its own.
func allOf(c effort.Entry) string {
	switch {
	case c.Kind == "document score":
		return "—"
	case c.Sum:
		return "sum"
	case c.AllTopics:
		return "mean, every judged topic"
	}
	return "mean"
}

// MeasureInfo describes one measure name as readsim reads it (`readsim
// measures NAME…`): the name as asked, its canonical name, kind,
// direction, aggregation (allOf's words, or "geometric mean": the
// exponential of the mean of the topics' values, which are logarithms, as
// gm_map's), the ranking it follows ("line":
// the run's line order; "score": trec_eval's; "" for the counts and the
// Genomics measures, which have their own), whether it needs the
// judgments' relevant passages and the documents' lengths, and the names
// eval prints it under: on a topic's line (TopicName: MAgP is AgP there,
// as the INEX tool prints it) and on the `all` line (AllName); SummaryOnly
// when it has no topic line (num_q, the INEX tool's ircl_prn.x). Programs
// that drive readsim (the Python package, python.md) read it to know a
// measure before they evaluate it.
type MeasureInfo struct {
	Name        string `json:"name"`
	Canonical   string `json:"canonical"`
	TopicName   string `json:"topic_name"`
	AllName     string `json:"all_name"`
	SummaryOnly bool   `json:"summary_only"`
	Kind        string `json:"kind"`
	Better      string `json:"better"`
	All         string `json:"all"`
	Ranks       string `json:"ranks"`
	Passages    bool   `json:"passages"`
	Lengths     bool   `json:"lengths"`
	// Compat9: eval --compat 9 computes it by trec_eval 9's rule (the
	// families effort.TrecCompat9Measures); its value differs from
	// trec_eval 10's where a recall level x·R has a fraction from 0.1 to
	// below 0.5 (never at x = 0.5).
	Compat9 bool `json:"compat9"`
}

// DescribeMeasures parses each name (effort.ParseMeasure: one measure a
// name, so a name may hold a comma, as AgP\T2If(300,1) does) and describes
// it; a name readsim does not know is a RequestError with the parser's
// "did you mean".
func DescribeMeasures(names []string) ([]MeasureInfo, error) {
	out := make([]MeasureInfo, 0, len(names))
	for _, n := range names {
		m, err := effort.ParseMeasure(n)
		if err != nil {
			return nil, &RequestError{err}
		}
		info := MeasureInfo{Name: n, Canonical: m.Canonical(), TopicName: m.TopicString(), AllName: m.String(),
			SummaryOnly: m.SummaryOnly(), Kind: measureKind(m), Better: m.Better().String(),
			Passages: m.NeedsPassages(), Lengths: m.NeedsLengths(), Compat9: m.TrecCompat9()}
		// effort.Aggregate is the one rule of `all`: it tells the sum
		// (1+2), the mean and the geometric mean of logarithms (gm_map)
		// apart
		switch agg := effort.Aggregate(m, []float64{1, 2}); {
		case agg == 3:
			info.All = "sum"
		case agg != 1.5:
			info.All = "geometric mean"
		case m.AllTopics():
			info.All = "mean, every judged topic"
		default:
			info.All = "mean"
		}
		switch {
		case m.RanksByScore():
			info.Ranks = "score"
		case m.RanksByLine():
			info.Ranks = "line"
		}
		out = append(out, info)
	}
	return out, nil
}

// compat9Cell is the "compat 9" column of a measure: "changes" when eval
// --compat 9 changes its value, "—" otherwise.
func compat9Cell(changes bool) string {
	if changes {
		return "changes"
	}
	return "—"
}

// measureKind is the catalogue's kind of a parsed measure (Entry.Kind),
// "trec_eval" for the trec_eval measures beyond the document measures.
func measureKind(m effort.Measure) string {
	switch {
	case m.IsCount():
		return "count"
	case m.IsSpan():
		return "passages"
	case m.IsFocused():
		return "focused"
	case m.List == effort.ListTrec:
		return "trec_eval"
	case m.Doc.Kind != effort.DocNone:
		return "list score"
	}
	return "document"
}

// WriteMeasureInfo writes infos (DescribeMeasures): one JSON object a line
// with FormatJSON, otherwise a table of their fields.
func WriteMeasureInfo(w io.Writer, infos []MeasureInfo, f ReportFormat) error {
	if f == FormatJSON {
		enc := json.NewEncoder(w)
		for _, in := range infos {
			if err := enc.Encode(in); err != nil {
				return err
			}
		}
		return nil
	}
	t := &Table{Columns: []Column{{Name: "name"}, {Name: "canonical"}, {Name: "topic lines"}, {Name: "all line"}, {Name: "kind"}, {Name: "better"}, {Name: "all"}, {Name: "ranks"}, {Name: "passages"}, {Name: "lengths"}, {Name: "compat 9"}}}
	for _, in := range infos {
		topic := in.TopicName
		if in.SummaryOnly {
			topic = "—"
		}
		t.Rows = append(t.Rows, []Cell{Text(in.Name), Text(in.Canonical), Text(topic), Text(in.AllName), Text(in.Kind), Text(in.Better), Text(in.All),
			Text(in.Ranks), Text(strconv.FormatBool(in.Passages)), Text(strconv.FormatBool(in.Lengths)), Text(compat9Cell(in.Compat9))})
	}
	return t.Write(w, f, -1)
}
