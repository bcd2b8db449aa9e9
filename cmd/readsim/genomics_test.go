package main

import (
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/article/shareddata"
	"github.com/readsim/readsim/internal/ground/testfs"
)

// eval --compat trecgen writes NIST's output byte for byte: one header,
// then each run's block; without it, eval's defaults on Genomics judgments
// are the four measures, `all` NIST's MAP.
func TestEvalGenomics(t *testing.T) {
	d := shareddata.Genomics(t)
	gold := filepath.Join(d, "gold-standard-07.txt")
	r1, r2 := filepath.Join(d, "york07-ga-01.txt"), filepath.Join(d, "york07-ga-02.txt")
	n1, n2 := readFile(t, filepath.Join(d, "york07-ga-01.nist.tsv")), readFile(t, filepath.Join(d, "york07-ga-02.nist.tsv"))
	status, stdout, stderr := runCLI("eval", "--qrels", gold, "--compat", "trecgen", r1, r2)
	if status != 0 || stderr != "" {
		t.Fatalf("status %d: %s", status, stderr)
	}
	header, rest2, _ := strings.Cut(n2, "\n")
	if want := n1 + rest2; stdout != want || !strings.HasPrefix(stdout, header+"\n") {
		t.Errorf("--compat trecgen differs from NIST's outputs:\n%s", stdout)
	}
	status, stdout, stderr = runCLI("eval", "--qrels", gold, "-q", r1)
	if status != 0 || stderr != "" {
		t.Fatalf("status %d: %s", status, stderr)
	}
	got := values(t, stdout)
	lines := 0
	for _, line := range strings.Split(strings.TrimSpace(n1), "\n")[1:] {
		f := strings.Split(line, "\t")
		topic := f[2]
		if topic == "MAP" {
			topic = "all"
		}
		v, ok := got[f[1]+"|"+topic]
		if !ok || strconv.FormatFloat(v, 'f', 8, 64) != f[3] {
			t.Errorf("%s %s: %v, NIST %s", f[1], topic, v, f[3])
		}
		lines++
	}
	if lines != 148 || len(got) != 148 {
		t.Errorf("%d NIST values, %d of readsim's; want 148 (4 measures × (36 topics + MAP))", lines, len(got))
	}
	// compare: the four measures, three runs, LaTeX.
	status, stdout, stderr = runCLI("compare", "--qrels", gold, "--format", "latex", "--permutations", "1000", r1, r2, r1)
	if status != 0 {
		t.Fatalf("compare: status %d: %s", status, stderr)
	}
	checkText(t, "compare's LaTeX", stdout, []string{`\begin{tabular}`, "DOCUMENT", "PASSAGE2", "0.1086", "0.1588"}, nil)
}

// Span judgments of any collection: the span measures need no lengths;
// the reading measures are refused without --lengths and computed with it.
func TestEvalSpanJudgments(t *testing.T) {
	dir := testfs.Temp(t, map[string]string{
		"qrels":   "q1 d1 0 100 1 who|when\nq1 d2 50 50\nq2 d1 0 10\n",
		"run":     "q1 d1 1 0.9 0 100 rag\nq1 d3 2 0.8 0 500 rag\nq1 d2 3 0.7 0 100 rag\nq2 d1 1 0.5 5 10 rag\n",
		"lengths": "d1 1000\nd2 200\n",
		"short":   "d1 1000\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	// q1: d1 [0,100) all relevant (100 new: Σ i/i = 100), d3 500 not
	// relevant, d2 [0,100): 50 not relevant, then [50,100) new relevant
	// after 100 relevant of 650: Σ (100+i)/(650+i); 150 relevant.
	// q2: [5,10) relevant after nothing, then [10,15) not: 5/10.
	sum := 100.0
	for i := 1; i <= 50; i++ {
		sum += float64(100+i) / float64(650+i)
	}
	want := map[string]float64{"charAP|q1": sum / 150, "charAP|q2": 0.5, "charAP|all": (sum/150 + 0.5) / 2}
	status, stdout, stderr := runCLI("eval", "--qrels", p("qrels"), "-q", "-m", "charAP", p("run"))
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	for k, v := range values(t, stdout) {
		if w, ok := want[k]; !ok || !close(v, w) {
			t.Errorf("%s = %v, want %v", k, v, w)
		}
	}
	// the defaults: DOCUMENT, PASSAGE, ASPECT, PASSAGE2
	status, stdout, _ = runCLI("eval", "--qrels", p("qrels"), p("run"))
	if status != 0 || !strings.Contains(stdout, "ASPECT\tall\t") || !strings.Contains(stdout, "PASSAGE2\tall\t") {
		t.Errorf("defaults: status %d\n%s", status, stdout)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		want   string
	}{
		{"reading measure without lengths", []string{"-m", `AgP\T2Ip(300)`, p("run")}, 2, "gives no document lengths: give --lengths FILE"},
		{"reading measure with lengths", []string{"-m", `AgP\T2Ip(300)`, "--lengths", p("lengths"), p("run")}, 0, ""},
		{"a judged document without length", []string{"-m", "AiP", "--lengths", p("short"), p("run")}, 2, p("short") + ": document d2, judged at " + p("qrels") + ":2 (topic q1), has no length"},
		{"document baseline without lengths", []string{"-m", "AgP", "--doc-baseline", p("run")}, 2, "the document baseline reads every document in full"},
		{"bad --offsets", []string{"--offsets", "words", p("run")}, 2, `--offsets: unknown unit "words"`},
		{"--offsets bytes", []string{"--offsets", "bytes", "-m", "charAP", p("run")}, 0, ""},
		{"trecgen with another measure", []string{"--compat", "trecgen", "-m", "AP", p("run")}, 2, "--compat trecgen writes NIST's TREC Genomics measures only"},
		{"trecgen with --format", []string{"--compat", "trecgen", "--format", "json", p("run")}, 2, "--compat trecgen writes NIST's format"},
		{"unknown compat", []string{"--compat", "trec", p("run")}, 2, `unknown --compat "trec" (inex, trecgen or 9)`},
		{"judgments as the run", []string{p("qrels")}, 2, p("qrels") + ":2: this looks like judgments"}, // line 1 has a TREC run's shape
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, stderr := runCLI(append([]string{"eval", "--qrels", p("qrels")}, tc.args...)...)
			if status != tc.status || !strings.Contains(stderr, tc.want) {
				t.Errorf("status %d, stderr %q; want %d and %q", status, stderr, tc.status, tc.want)
			}
		})
	}
	// the run given as judgments, the judgments as the run
	status, _, stderr = runCLI("eval", "--qrels", p("run"), p("qrels"))
	if status != 2 || !strings.Contains(stderr, p("run")+":1: this looks like a run, not judgments") {
		t.Errorf("swapped: status %d, %q", status, stderr)
	}
	// compare's --plot needs the lengths
	status, _, stderr = runCLI("compare", "--qrels", p("qrels"), "--plot", filepath.Join(dir, "plots"), p("run"), p("run"))
	if status != 2 || !strings.Contains(stderr, "--plot charts gP and NCE") {
		t.Errorf("compare --plot: status %d, %q", status, stderr)
	}
	// replay reads whole documents: span judgments without lengths are refused
	status, _, stderr = runCLI("replay", "--qrels", p("qrels"), "--run", p("run"), "-m", "AP")
	if status != 2 || !strings.Contains(stderr, "the simulated reader reads whole documents") {
		t.Errorf("replay: status %d, %q", status, stderr)
	}
}

// The README's span example (corpus-sample/spans: chunks a retrieval
// system returned, judged by character offsets) scores as worked by hand.
//
// q1 judges manual-ch2 [100,200) and faq [0,50) (150 relevant characters);
// the run returns manual-ch2 [80,180), release-notes [0,100) (not judged
// for q1) and faq [0,100). q2 judges release-notes [200,300); the run
// returns release-notes [150,250) and manual-ch2 [0,50).
//
//   - charAP (PASSAGE2): q1 reads 20 non-relevant then 80 relevant
//     characters, 100 non-relevant, then 50 relevant: (Σ_{k=1..80} k/(20+k)
//   - Σ_{j=1..50} (80+j)/(200+j)) / 150; q2 reads 50 non-relevant then 50
//     relevant: Σ_{k=1..50} k/(50+k) / 100.
//   - char_prec: q1 130 of 300 retrieved characters, q2 50 of 150.
//   - AgP\T2Ip(300) (lengths 400, 300, 500): q1's manual-ch2 is read in
//     order 80…179, 0…79, 180…399: its 300th non-relevant character is
//     its last, 100 relevant of 400, 0.25; faq reads 0…99 then 250 more
//     non-relevant characters: 50 of 350. gP[1] = 0.25, gP[3] =
//     (0.25+0+1/7)/3, AgP = (gP[1]+gP[3])/2. q2's release-notes reads
//     150…249, 0…149, 250…299: 100 relevant of 300, AgP 1/3.
//   - DOCUMENT: q1 relevant at ranks 1 and 3, (1 + 2/3)/2; q2 1.
func TestSpanExample(t *testing.T) {
	dir := filepath.Join("..", "..", "corpus-sample", "spans")
	harm := func(from, to int, f func(k int) float64) float64 {
		s := 0.0
		for k := from; k <= to; k++ {
			s += f(k)
		}
		return s
	}
	q1 := (harm(1, 80, func(k int) float64 { return float64(k) / float64(20+k) }) +
		harm(1, 50, func(j int) float64 { return float64(80+j) / float64(200+j) })) / 150
	q2 := harm(1, 50, func(k int) float64 { return float64(k) / float64(50+k) }) / 100
	agp1 := (0.25 + (0.25+1.0/7)/3) / 2
	want := map[string]float64{
		"charAP|q1": q1, "charAP|q2": q2, "charAP|all": (q1 + q2) / 2,
		"char_prec|q1": 130.0 / 300, "char_prec|q2": 50.0 / 150,
		`AgP\T2Ip(300)|q1`: agp1, `AgP\T2Ip(300)|q2`: 1.0 / 3, `AgP\T2Ip(300)|all`: (agp1 + 1.0/3) / 2,
		"DOCUMENT|q1": (1 + 2.0/3) / 2, "DOCUMENT|q2": 1,
	}
	status, stdout, stderr := runCLI("eval", "--qrels", filepath.Join(dir, "judgments.txt"), "--lengths", filepath.Join(dir, "lengths.txt"),
		"-q", "-m", `charAP,char_prec,AgP\T2Ip(300),DOCUMENT`, filepath.Join(dir, "chunks.run"))
	if status != 0 || stderr != "" {
		t.Fatalf("status %d: %s", status, stderr)
	}
	got := values(t, stdout)
	for k, w := range want {
		if v, ok := got[k]; !ok || math.Abs(v-w) > 1e-12 {
			t.Errorf("%s = %v (present %v), want %v", k, v, ok, w)
		}
	}
	// without lengths, the reading measure is refused, naming the flag
	status, _, stderr = runCLI("eval", "--qrels", filepath.Join(dir, "judgments.txt"), "-m", `AgP\T2Ip(300)`, filepath.Join(dir, "chunks.run"))
	if status != 2 || !strings.Contains(stderr, "--lengths FILE") {
		t.Errorf("reading measure without lengths: status %d, %s", status, stderr)
	}
}
