package main

import (
	"bufio"
	"encoding/json"
	"strings"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario"
)

func init() {
	register(&command{
		name:    "measures",
		args:    "[--format table|tsv|markdown|json]",
		summary: "every measure readsim computes: its names, meaning, direction and source",
		run:     runMeasures,
	})
}

// runMeasures prints effort.Catalogue: one row per list score, focused and
// count measure and document score, with the names other tools use for it.
func runMeasures(e *env, args []string) error {
	fs := newFlags(e, commands["measures"])
	format := fs.String("format", "table", "output: table, tsv, markdown or json")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError{"measures takes no argument"}
	}
	f, err := scenario.ParseFormat(*format, scenario.FormatTable, scenario.FormatTSV, scenario.FormatMarkdown, scenario.FormatJSON)
	if err != nil {
		return usageError{"--format: " + err.Error()}
	}
	cat := effort.Catalogue()
	w := bufio.NewWriter(e.stdout)
	if f == scenario.FormatJSON {
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
		if err := enc.Encode(out); err != nil {
			return err
		}
		return w.Flush()
	}
	t := &scenario.Table{Columns: []scenario.Column{{Name: "measure"}, {Name: "also"}, {Name: "kind"}, {Name: "better"}, {Name: "all"}, {Name: "meaning"}, {Name: "source"}}}
	for _, c := range cat {
		t.Rows = append(t.Rows, []scenario.Cell{scenario.Text(c.Form), scenario.Text(strings.Join(c.Aliases, ", ")), scenario.Text(c.Kind),
			scenario.Text(c.Better.String()), scenario.Text(allOf(c)), scenario.Text(c.Meaning), scenario.Text(c.Source)})
	}
	t.Notes = effort.CatalogueNotes()
	if err := t.Write(w, f, -1); err != nil {
		return err
	}
	return w.Flush()
}

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
