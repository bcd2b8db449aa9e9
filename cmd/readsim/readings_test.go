package main

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A simulated reader's trace, read back as a reading: eval --readings gives
// the replay's own AgP\T2Ip(300) as AgP\Read; calibrate recovers the reader
// (tolerance 300, screen 300, natural order) in its JSON; compare takes
// readings as it takes runs.
func TestReadingsCommands(t *testing.T) {
	qrels, run := "../../corpus-sample/judgments.qrels", "../../corpus-sample/runs/ric.fol"
	dir := t.TempDir()
	trace := filepath.Join(dir, "p1.jsonl")
	if status, _, stderr := runCLI("replay", "--qrels", qrels, "--run", run, "--t2i", "300", "--out", trace); status != 0 {
		t.Fatal(stderr)
	}
	value := func(args ...string) float64 {
		status, stdout, stderr := runCLI(args...)
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		f := strings.Split(lines[len(lines)-1], "\t")
		if status != 0 || len(f) != 3 {
			t.Fatalf("%v: exit %d, %q, %s", args, status, stdout, stderr)
		}
		v, _ := strconv.ParseFloat(f[2], 64)
		return v
	}
	want := value("eval", "--qrels", qrels, "-m", `AgP\T2Ip(300)`, run)
	if got := value("eval", "--qrels", qrels, "--readings", "-m", `AgP\Read`, trace); got != want || want == 0 {
		t.Errorf("AgP\\Read of the trace %v, want the run's AgP\\T2Ip(300) %v", got, want)
	}
	status, stdout, stderr := runCLI("calibrate", "--qrels", qrels, "--format", "json", "--bootstrap", "100", trace)
	if status != 0 {
		t.Fatal(stderr)
	}
	var c struct {
		T2I    float64 `json:"t2i"`
		Screen int     `json:"screen"`
		Order  string  `json:"order"`
	}
	if err := json.Unmarshal([]byte(stdout), &c); err != nil || c.T2I != 300 || c.Screen != 300 || c.Order != "natural" {
		t.Errorf("calibrate: %+v %v\n%s", c, err, stdout)
	}
	// a second reader with a larger tolerance reads more: compare them
	trace2 := filepath.Join(dir, "p2.jsonl")
	if status, _, stderr := runCLI("replay", "--qrels", qrels, "--run", run, "--t2i", "2000", "--out", trace2); status != 0 {
		t.Fatal(stderr)
	}
	status, stdout, stderr = runCLI("compare", "--qrels", qrels, "--readings", "-m", `AgP\Read`, "--format", "tsv", trace, trace2)
	if status != 0 || !strings.Contains(stdout, "AgP\\Read\treadsim-ric (") {
		t.Errorf("compare --readings: exit %d\n%s%s", status, stdout, stderr)
	}
	// Read is for readings only
	if status, _, stderr := runCLI("eval", "--qrels", qrels, "-m", `AgP\Read`, run); status != 2 || !strings.Contains(stderr, "eval --readings") {
		t.Errorf("AgP\\Read of a run: exit %d, %s", status, stderr)
	}
}
