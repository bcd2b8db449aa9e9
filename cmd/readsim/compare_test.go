package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/article/shareddata"
)

func TestCompareCommand(t *testing.T) {
	qrels, run := simFiles(t)
	// AgP\F(0.25) per topic. Run: topic 1 retrieves [200,300) of a, no
	// relevant text: 0; topic 2 retrieves exactly the relevant [0,50): 1.
	// Document baseline: topic 1 reads a whole: P = 10/1000, R = 1,
	// F = 1.0625·0.01/(0.0625·0.01 + 1); topic 2: P = 1/2, R = 1,
	// F = 1.0625·0.5/(0.0625·0.5 + 1).
	f1 := 1.0625 * 0.01 / (0.0625*0.01 + 1)
	f2 := 1.0625 * 0.5 / (0.0625*0.5 + 1)
	status, stdout, stderr := runCLI("compare", "--qrels", qrels, "-m", `AgP\F(0.25)`, "-m", `ANCE[2]\LE(300,5)`, "--format", "tsv", run, "--doc-baseline")
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if lines[0] != "measure\trun\tvs\tmean_run\tmean_vs\tdiff\tci_low\tci_high\teffect_size\twins\tties\tlosses\tp_t\tp_rand\tp_holm\tsignificant" {
		t.Errorf("header %q", lines[0])
	}
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), stdout)
	}
	f := cols(lines[1])
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if f[0] != `AgP\F(0.25)` || !close(num(f[1]), 0.5) || !close(num(f[2]), (f1+f2)/2) || !close(num(f[3]), 0.5-(f1+f2)/2) || g0(lines[1], 1) != "r" || g0(lines[1], 2) != "r (document baseline)" {
		t.Errorf("F row %q; want means 0.5 and %v", lines[1], (f1+f2)/2)
	}
	// Topic 1: 0 < f1 (loss); topic 2: 1 > f2 (win).
	if f[4] != "1" || f[5] != "0" || f[6] != "1" {
		t.Errorf("W/T/L %s/%s/%s, want 1/0/1", f[4], f[5], f[6])
	}
	// Two topics, d = (−f1, 1−f2): t = mean/(sd/√2) with 1 degree of
	// freedom; p = 1 − (2/π)·atan(|t|). Checked in scenario's tests; here
	// only that both p-values are in (0,1].
	if p := num(f[7]); !(p > 0 && p <= 1) {
		t.Errorf("p_t %v", p)
	}
	// ANCE[2]\LE: topic 1: ES(a) = 2 under both (the first relevant
	// character is the 501st read naturally and also from the start), c = 5;
	// IE = ⟨1,5⟩: NCE = ⟨1,1⟩ → 1. Topic 2: ES = 1 both → 0. Means 0.5, all ties.
	g := cols(lines[2])
	if g[1] != "0.5" || g[2] != "0.5" || g[5] != "2" || g[7] != "1" || g[8] != "1" {
		t.Errorf("ANCE row %q", lines[2])
	}

	for _, c := range []struct{ format, has string }{
		{"table", "Paired comparisons"}, {"markdown", "| measure | run | vs |"}, {"latex", `\begin{tabular}`}, {"json", `"comparisons": [`},
	} {
		status, stdout, stderr := runCLI("compare", "--qrels", qrels, "-m", `AgP\F(0.25)`, "--format", c.format, run, "--doc-baseline")
		if status != 0 || !strings.Contains(stdout, c.has) || !strings.Contains(stdout, "AgP") {
			t.Errorf("%s: status %d, stdout %q, stderr %q", c.format, status, stdout, stderr)
		}
	}
	// Same run twice: every topic ties, p = 1.
	_, stdout, _ = runCLI("compare", "--qrels", qrels, "-m", `AgP\F(0.25)`, "--format", "tsv", run, run)
	if !strings.HasSuffix(strings.TrimSpace(stdout), "0\t2\t0\t1\t1\t1\tfalse") {
		t.Errorf("run against itself: %q", stdout)
	}
	// Usage errors.
	for _, args := range [][]string{
		{"--qrels", qrels, run},
		{"--qrels", qrels, "--baseline", "nope", run, run},
		{"--qrels", qrels, "--permutations", "1000000000000", run, run},
		{"--qrels", qrels, "--format", "html", run, "--doc-baseline"},
		{"--qrels", qrels, "-m", "nope", run, "--doc-baseline"},
	} {
		if status, _, _ := runCLI(append([]string{"compare"}, args...)...); status != 2 {
			t.Errorf("%v: status %d, want 2", args, status)
		}
	}
	// Charts.
	dir := filepath.Join(t.TempDir(), "plots")
	if status, _, stderr := runCLI("compare", "--qrels", qrels, "-m", `AgP\F(0.25)`, "-m", `ANCE[2]\LE(300,5)`, run, "--doc-baseline", "--plot", dir); status != 0 {
		t.Fatalf("--plot: %s", stderr)
	}
	for _, n := range []string{"gP-F(0.25).svg", "NCE-LE(300,5).svg", "diff-AgP_F(0.25).svg", "diff-ANCE[2]_LE(300,5).svg"} {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil || !strings.Contains(string(b), "<svg") || !strings.Contains(string(b), "rank r") && strings.HasPrefix(n, "gP") {
			t.Errorf("%s: %v", n, err)
		}
	}
	// The charts read as the comparison does: with --order best the reader
	// of topic 1 reads a's relevant [500,510) right after the retrieved
	// [200,300), so its effort to a is 1 screen, not 2: another NCE curve.
	best := filepath.Join(t.TempDir(), "best")
	if status, _, stderr := runCLI("compare", "--qrels", qrels, "-m", `ANCE[2]\LE(300,5)`, run, "--doc-baseline", "--order", "best", "--plot", best); status != 0 {
		t.Fatalf("--plot --order best: %s", stderr)
	}
	natural, _ := os.ReadFile(filepath.Join(dir, "NCE-LE(300,5).svg"))
	ordered, err := os.ReadFile(filepath.Join(best, "NCE-LE(300,5).svg"))
	if err != nil || string(natural) == string(ordered) {
		t.Errorf("NCE chart under --order best: %v, the same as under natural order", err)
	}
}

// cols returns the columns of a compare --format tsv row that the checks
// read, in the order measure, mean_run, mean_vs, diff, wins, ties, losses,
// p_t, p_rand.
func cols(line string) []string {
	f := strings.Split(line, "\t")
	return []string{f[0], f[3], f[4], f[5], f[9], f[10], f[11], f[12], f[13]}
}

// g0 returns column i of a tsv row.
func g0(line string, i int) string { return strings.Split(line, "\t")[i] }

func close(a, b float64) bool { d := a - b; return d < 1e-12 && d > -1e-12 }

// TestCompareSharedFinding is the README's finding on the shared data: the
// passage run against its own document baseline. Its passages start at the
// article's first character, so every reading that does not stop inside
// them is the document's own: T2Ip, aveChP and LE tie on every topic (p = 1),
// while F(0.25), scored on the retrieved text only, prefers the passages.
func TestCompareSharedFinding(t *testing.T) {
	d := shareddata.INEX(t)
	status, stdout, stderr := runCLI("compare", "--qrels", filepath.Join(d, "inex2009-2010.qrels"),
		"-m", `AgP\F(0.25)`, "-m", `AgP\T2Ip(300)`, "-m", `AgP\aveChP`, "-m", `ANCE[100]\LE(300,5)`, "-m", `ANCE[100]\LE(2000,5)`,
		"--format", "tsv", filepath.Join(d, "passage-run.ric.fol"), "--doc-baseline")
	if status != 0 {
		t.Fatal(stderr)
	}
	// The means are eval's: the `all` values of the reference files of the
	// independent implementation (natural and document baseline), and the
	// topics are those of their per-topic lines.
	nat := values(t, readFile(t, filepath.Join(d, "expected", "passage-run.ric.effort-natural.tsv")))
	doc := values(t, readFile(t, filepath.Join(d, "expected", "passage-run.ric.effort-docbaseline.tsv")))
	topics := 0
	for k := range nat {
		if strings.HasPrefix(k, `AgP\F(0.25)|`) && k != `AgP\F(0.25)|all` {
			topics++
		}
	}
	if topics == 0 {
		t.Fatal("no per-topic AgP\\F(0.25) line in the reference")
	}
	rows := 0
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n")[1:] {
		f := cols(l)
		wa, okA := nat[f[0]+"|all"]
		wb, okB := doc[f[0]+"|all"]
		if !okA || !okB {
			t.Errorf("%s: no `all` value in the reference files", f[0])
			continue
		}
		rows++
		a, _ := strconv.ParseFloat(f[1], 64)
		b, _ := strconv.ParseFloat(f[2], 64)
		if !near9(a, wa) || !near9(b, wb) {
			t.Errorf("%s: means %v %v, want %v %v", f[0], a, b, wa, wb)
		}
		if atoi(f[4])+atoi(f[5])+atoi(f[6]) != topics {
			t.Errorf("%s: wins, ties and losses %s/%s/%s, want %d topics in all", f[0], f[4], f[5], f[6], topics)
		}
		if f[0] != `AgP\F(0.25)` && (f[5] != strconv.Itoa(topics) || f[7] != "1" || f[8] != "1") {
			t.Errorf("%s should tie on all %d topics: %q", f[0], topics, l)
		}
		if f[0] == `AgP\F(0.25)` {
			if pt, _ := strconv.ParseFloat(f[7], 64); pt > 1e-6 {
				t.Errorf("F: p_t %v, want < 1e-6", pt)
			}
		}
	}
	if rows != 5 {
		t.Errorf("%d rows checked, want the 5 measures asked", rows)
	}
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

func near9(a, b float64) bool { d := a - b; return d < 1e-9 && d > -1e-9 }
