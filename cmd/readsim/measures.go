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
	t.Notes = []string{
		`A list score takes a document score D: AgP\T2Ip(300), gP[10]\F(0.25); D omitted is F(0.25) (LE(300,5) for CE, NCE, ANCE).`,
		"Names are read without regard to case where that leaves one meaning; several may be given in one -m, separated by commas.",
		"trec_eval's and ir_measures' names (map, P_10, P@10, recip_rank, RR, Rprec, ndcg_cut_10, nDCG@10, recall_100, R@100) rank as trec_eval does: by score, then document id, both descending; readsim's own names (AP, P[k], gR[k]…) rank by the run's line order, as the INEX tool does.",
		"DOCUMENT, PASSAGE, ASPECT and PASSAGE2 are the TREC 2007 Genomics track's, as NIST's trecgen2007_score.py computes them: passages in the order (rank, document, offset, length), a topic missing from the run scoring 0 (eval --compat trecgen writes NIST's output); charAP is PASSAGE2 in the run's line order.",
		"-m all asks for: " + strings.Join(effort.AllNames, " "),
	}
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
