package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFidelityCommand(t *testing.T) {
	qrels, _ := simFiles(t)
	status, stdout, stderr := runCLI("fidelity", "--qrels", qrels, "-m", `AgP\F(1)`, "--format", "tsv")
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	runs, exp, _ := strings.Cut(stdout, "\n\n")
	rows := strings.Split(runs, "\n")
	// S and SLD × R, RS, RI, RSI, one measure.
	if len(rows) != 8 {
		t.Fatalf("%d run rows, want 8:\n%s", len(rows), runs)
	}
	// SR is perfect: F(1) = 1 on both topics. SLDR: topic 1 reads a whole
	// (P = 0.01, R = 1: F = 0.02/1.01), topic 2 d whole (P = 0.5: F = 2/3).
	if rows[0] != "SR\tAgP\\F(1)\t1" {
		t.Errorf("first row %q", rows[0])
	}
	sldr := ""
	for _, r := range rows {
		if strings.HasPrefix(r, "SLDR\t") {
			sldr = r
		}
	}
	want := (0.02/1.01 + 2.0/3) / 2
	if f := strings.Split(sldr, "\t"); len(f) != 3 || !close(mustFloat(t, f[2]), want) {
		t.Errorf("SLDR row %q, want mean %v", sldr, want)
	}
	lines := strings.Split(strings.TrimSpace(exp), "\n")
	if lines[0] != "expectation\tleft\tright\tmeasure\tmean_left\tmean_right\tdiff\twins\tties\tlosses\tp_t\tstatus" {
		t.Errorf("expectation header %q", lines[0])
	}
	// Without articles: S ≥ SLD, R ≥ RS, R > RI, RS > RSI; all hold.
	if len(lines) != 1+4 {
		t.Errorf("expectation block:\n%s", exp)
	}
	if !strings.Contains(exp, "S ≥ SLD\tSR\tSLDR\tAgP\\F(1)") || strings.Contains(exp, "FAIL") {
		t.Errorf("expectations:\n%s", exp)
	}

	// With articles (the scenario package's test article): all five sets;
	// F(4) fails SS ≥ SL there (hand-derived in scenario's tests).
	dir := t.TempDir()
	q2 := filepath.Join(dir, "x.qrels")
	mustWriteFile(t, q2, "7 Q0 x 12 15 0 0:12\n")
	arts := filepath.Join(dir, "articles")
	os.Mkdir(arts, 0o755)
	mustWriteFile(t, filepath.Join(arts, "x.xml"), "<article><sec>xx<p>aaa</p>yy<p>bbb</p></sec><p>ccccc</p></article>\n")
	plots := filepath.Join(dir, "plots")
	status, stdout, stderr = runCLI("fidelity", "--qrels", q2, "--articles", arts, "-m", `AgP\F(4)`, "--plot", plots)
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	checkText(t, "output", stdout, []string{"SSTRSI", "SS ≥ SL", "FAIL", "AgP\\F(4): SS ≥ SL"}, nil)
	for _, n := range []string{"gP-F(4)-answer-sets.svg", "gP-F(4)-rankings.svg", "expectations-AgP_F(4).svg"} {
		if _, err := os.Stat(filepath.Join(plots, n)); err != nil {
			t.Error(err)
		}
	}
	if status, _, _ := runCLI("fidelity", "--qrels", q2, "--articles", filepath.Join(dir, "none")); status != 2 {
		t.Errorf("missing article folder: status %d, want 2", status)
	}
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	var v float64
	if _, err := fmt.Sscan(s, &v); err != nil {
		t.Fatal(err)
	}
	return v
}
