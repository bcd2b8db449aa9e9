package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/readsim/readsim/scenario"
)

// eval and compare give the same report, warnings and status whether
// their judgments are read a topic at a time (a file past
// scenario.StreamQrelsBytes) or whole, with INEX judgments and TREC qrels,
// -q, -c, JSON and the measures that read the judgments whole (span
// measures).
func TestEvalStreamedAsWhole(t *testing.T) {
	sample := "../../corpus-sample/judgments.qrels"
	te := "../../scenario/testdata/trec_eval/"
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.qrels")
	mustWriteFile(t, bad, "1 0 a 1\n1 0 b 1\n2 0 a 1\n2 0 b x\n")
	for _, args := range [][]string{
		{"eval", "--qrels", sample, "../../corpus-sample/runs/ric.fol", "../../corpus-sample/runs/doc.trec"},
		{"eval", "--qrels", sample, "-q", "-c", "-m", "AgP,map,P_10", "../../corpus-sample/runs/ric.fol"},
		{"eval", "--qrels", sample, "--format", "json", "-m", "all", "../../corpus-sample/runs/doc.trec"},
		{"eval", "--qrels", sample, "-m", "PASSAGE,AgP", "../../corpus-sample/runs/ric.fol"},
		{"eval", "--qrels", te + "fol.trec.qrels", "-q", te + "fol.trec.run"},
		{"eval", "--qrels", bad, te + "fol.trec.run"},
		{"compare", "--qrels", sample, "-m", "AgP,map", "--permutations", "500", "../../corpus-sample/runs/ric.fol", "../../corpus-sample/runs/doc.trec"},
		{"compare", "--qrels", sample, "-c", "--format", "json", "--permutations", "500", "../../corpus-sample/runs/doc.trec", "../../corpus-sample/runs/ric.fol"},
		{"compare", "--qrels", bad, te + "fol.trec.run", te + "fol.trec.run"},
	} {
		t.Run(strings.Join(args[:2], " ")+" "+args[len(args)-1], func(t *testing.T) {
			ws, wo, we := runCLI(args...)
			defer func(n int64) { scenario.StreamQrelsBytes = n }(scenario.StreamQrelsBytes)
			scenario.StreamQrelsBytes = 0
			gs, gotOut, ge := runCLI(args...)
			// whole, several runs are read concurrently: their warnings come
			// in any order
			if gs != ws || gotOut != wo || sortedLines(ge) != sortedLines(we) {
				t.Errorf("%q streamed: %d\n%s\n%s\nwhole: %d\n%s\n%s", args, gs, gotOut, ge, ws, wo, we)
			}
		})
	}
}

// sortedLines returns the lines of s sorted.
func sortedLines(s string) string {
	ls := strings.Split(s, "\n")
	slices.Sort(ls)
	return strings.Join(ls, "\n")
}
