package scenario

import (
	"encoding/json"
	"io"
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
