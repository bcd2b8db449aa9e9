package main

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article/shareddata"
	"github.com/readsim/readsim/internal/ground/testfs"
)

// runEvalCmd runs readsim eval with args (runCLI).
func runEvalCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runCLI(append([]string{"eval"}, args...)...)
}

// values parses measure<TAB>topic<TAB>value lines (tabs may be doubled, the
// <eval> wrapper of the official files is skipped) into measure|topic → value.
func values(t *testing.T, text string) map[string]float64 {
	t.Helper()
	m := map[string]float64{}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "<") {
			continue
		}
		if len(f) != 3 {
			t.Fatalf("bad line %q", line)
		}
		if f[0] == "runid" {
			continue
		}
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			t.Fatalf("bad value in %q", line)
		}
		m[f[0]+"|"+f[1]] = v
	}
	return m
}

func readFile(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestEvalReference(t *testing.T) {
	d := shareddata.INEX(t)
	qrels := filepath.Join(d, "inex2009-2010.qrels")
	ric := filepath.Join(d, "passage-run.ric.fol")
	natural := values(t, readFile(t, filepath.Join(d, "expected", "passage-run.ric.effort-natural.tsv")))
	official := values(t, readFile(t, filepath.Join(d, "expected", "passage-run.ric.RiC-F0.25.txt")))
	// The default measures gP[k]\F(0.25) are the official gP[k] (every topic
	// of the run has 100 articles, so --compat inex makes no difference).
	for k, v := range official {
		if strings.HasPrefix(k, "gP[") {
			name, topic, _ := strings.Cut(k, "|")
			natural[name+`\F(0.25)|`+topic] = v
		}
	}
	docBaseline := values(t, readFile(t, filepath.Join(d, "expected", "passage-run.ric.effort-docbaseline.tsv")))
	for _, tc := range []struct {
		name string
		args []string
		ref  map[string]float64
		// rename maps our measure names to the reference's.
		rename func(string) string
		lines  int
	}{
		{"defaults", []string{"--qrels", qrels, ric}, natural, func(s string) string { return s }, 11},
		{"flags after the run", []string{ric, "--qrels", qrels, "-q"}, natural, func(s string) string { return s }, 11 * 119},
		{"best", []string{"--qrels", qrels, "--order", "best", "-q", "-m", `AgP\T2If(300,1)`, "-m", `AgP\ChP[600]`, ric},
			values(t, readFile(t, filepath.Join(d, "expected", "passage-run.ric.effort-best.tsv"))), func(s string) string { return s }, 2 * 119},
		{"doc baseline", []string{"--qrels", qrels, "--doc-baseline", "-q", "-m", `AgP\F(0.25)`, "-m", `AgP\T2Ip(300)`, "-m", `AgP\T2Ip(2000)`, "-m", `AgP\aveChP`, "-m", `ANCE[100]\LE(300,5)`, "-m", `ANCE[100]\LE(2000,5)`, "-m", "AP", ric},
			docBaseline, func(s string) string { return s }, 7 * 119},
		{"official RiC", []string{"--qrels", qrels, "--compat", "inex", "-q", "-m", "AgP", "-m", "gP[1]", "-m", "gR[25]", "-m", "gP[50]", "-m", "num_rel_ret", "-m", "rel_size", ric},
			official, func(s string) string {
				s = strings.Replace(s, `\F(0.25)|`, "|", 1)
				return strings.Replace(s, "AgP|all", "MAgP|all", 1)
			}, 6 * 119},
		// the official tool's own names print as it prints them; -f's
		// ircl_prn.x is iP[x]
		{"official names", []string{"--qrels", qrels, "-q", "-m", "MAiP,iP[0.00],num_q", filepath.Join(d, "passage-run.focused.fol")},
			values(t, readFile(t, filepath.Join(d, "expected", "passage-run.focused.Focused.txt"))), func(s string) string { return s }, 119 + 119 + 1}, // MAiP and iP[0.00]: 118 topics and all; num_q: all only
		{"official ircl_prn -f", []string{"--qrels", qrels, "-m", "iP[0.50],iP[1.00]", filepath.Join(d, "passage-run.focused.fol")},
			values(t, readFile(t, filepath.Join(d, "expected", "passage-run.focused.Focused.txt"))), func(s string) string {
				return "ircl_prn." + strings.TrimPrefix(strings.Replace(s, "]|", "|", 1), "iP[")
			}, 2},
		// readsim's ircl_prn.x is -r's (ircl_prn.x\T2Ip(300) -i's), printed in all only
		{"official ircl_prn -r", []string{"--qrels", qrels, "--compat", "inex", "-q", "-m", "MAgP,ircl_prn.0.00,ircl_prn.0.50", "-m", "ircl_prn.1.00", ric},
			official, func(s string) string { return s }, 119 + 3},
		{"official ircl_prn -i", []string{"--qrels", qrels, "--compat", "inex", "-q", "-m", `MAgP\T2Ip(300),ircl_prn.0.30\T2Ip(300)`, "-m", `ircl_prn.1.00\T2Ip(300)`, ric},
			values(t, readFile(t, filepath.Join(d, "expected", "passage-run.ric.T2I-300.txt"))), func(s string) string {
				return strings.Replace(s, `\T2Ip(300)|`, "|", 1)
			}, 119 + 2},
		{"official focused", []string{"--qrels", qrels, "-q", "-m", "iP[0.01]", "-m", "AiP", "-m", "char_f1", "-m", "art_rec", filepath.Join(d, "passage-run.focused.fol")},
			values(t, readFile(t, filepath.Join(d, "expected", "passage-run.focused.Focused.txt"))), func(s string) string {
				return strings.Replace(s, "AiP|all", "MAiP|all", 1)
			}, 4 * 119},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := runEvalCmd(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got := values(t, out)
			if n := strings.Count(out, "\n"); n != tc.lines+1 { // + the runid line
				t.Errorf("%d lines, want %d", n, tc.lines)
			}
			for k, v := range got {
				want, ok := tc.ref[tc.rename(k)]
				if !ok {
					t.Errorf("%s not in the reference", k)
					continue
				}
				if math.Abs(v-want) > 1e-9 {
					t.Errorf("%s = %v, reference %v", k, v, want)
				}
			}
		})
	}
}

func TestEvalRefusesInterleaved(t *testing.T) {
	d := shareddata.INEX(t)
	qrels := filepath.Join(d, "inex2009-2010.qrels")
	code, _, stderr := runEvalCmd(t, "--qrels", qrels, filepath.Join(d, "passage-run.focused.fol"))
	if code != 2 || !strings.Contains(stderr, "passage-run.focused.fol:6: topic 2009001: article 21201 (line 3) reappears at line 6") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	code, _, stderr = runEvalCmd(t, "--qrels", qrels, "-m", "AiP", filepath.Join(d, "passage-run.focused-overlapping.fol"))
	if code != 2 || !strings.Contains(stderr, "passage-run.focused-overlapping.fol:32582: topic 2009079, article 1584732: this result repeats the one at line 15924") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	// --group makes it a valid relevant-in-context run.
	code, out, stderr := runEvalCmd(t, "--qrels", qrels, "--group", "-m", "AP", filepath.Join(d, "passage-run.focused.fol"))
	if code != 0 || !strings.HasPrefix(out, "runid\tall\tTREC2INEX\nAP\tall\t") {
		t.Errorf("--group: exit %d: %s %s", code, out, stderr)
	}
}

func TestEvalSmall(t *testing.T) {
	// Topic 1: a relevant [0,50) of 100, b relevant [10,20) of 40; c unjudged.
	// Topic 2: d relevant [0,10) of 10. Topic 9 is not judged.
	dir := testfs.Temp(t, map[string]string{
		"q":  "1 Q0 a 50 100 0 0:50\r\n1 Q0 b 10 40 0 10:10\r\n2 Q0 d 10 10 0 0:10\r\n",
		"r1": "1 Q0 c 1 3 r1 0 10\n1 Q0 a 2 2 r1 0 200\n9 Q0 x 1 1 r1 0 5\n",
		"r2": "1 Q0 b 1 3 r2\n1 Q0 a 2 2 r2\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		out    string // exact stdout
		stderr []string
	}{
		// r1 topic 1: ranks c (unjudged), a (retrieved [0,200) clipped to [0,100)).
		// F(1) of a: P = .5, R = 1 → 2/3; gP[2] = 1/3; AgP = (1/3)/2 = 1/6.
		{"list", []string{"--qrels", p("q"), "-q", "-m", `AgP\F(1)`, "-m", "P[2]", "-m", "ret_size", p("r1")}, 0,
			"runid\tall\tr1\nAgP\\F(1)\t1\t0.16666666666666666\nAgP\\F(1)\tall\t0.16666666666666666\n" +
				"P[2]\t1\t0.5\nP[2]\tall\t0.5\nret_size\t1\t110\nret_size\tall\t110\n",
			[]string{"1 topic(s) of the run are not in the judgments", "r1:2: warning: 1 result(s) run past their article's end"}},
		// -c: topic 2 is missing from the run and scores 0.
		{"-c", []string{"--qrels", p("q"), "-c", "-m", `AgP\F(1)`, p("r1")}, 0, "runid\tall\tr1\nAgP\\F(1)\tall\t0.08333333333333333\n", nil},
		// ANCE[2] for topic 2 missing (Trel 1): ES = 5,5; IE = 1,5 → NCE = 4,4 → 4.
		{"-c effort", []string{"--qrels", p("q"), "-c", "-q", "-m", `ANCE[2]`, p("r2")}, 0,
			"runid\tall\tr2\nANCE[2]\\LE(300,5)\t1\t0\nANCE[2]\\LE(300,5)\t2\t4\nANCE[2]\\LE(300,5)\tall\t2\n", nil},
		{"several runs", []string{"--qrels", p("q"), "-m", "AP", p("r1"), p("r2")}, 0,
			"runid\tall\tr1\nAP\tall\t0.25\nrunid\tall\tr2\nAP\tall\t1\n", nil},
		{"unknown measure", []string{"--qrels", p("q"), "-m", "MAPP", p("r1")}, 2, "", []string{`unknown measure "MAPP"`, `did you mean`, `"map"`}},
		{"unknown list score", []string{"--qrels", p("q"), "-m", "zzzz[3]", p("r1")}, 2, "", []string{`unknown measure "zzzz[3]"`, `AgP\F(0.25)`, "iP[0.01]"}},
		{"no qrels", []string{p("r1")}, 2, "", []string{"--qrels is required"}},
		{"no run", []string{"--qrels", p("q")}, 2, "", []string{"no run given"}},
		{"bad order", []string{"--qrels", p("q"), "--order", "random", p("r1")}, 2, "", []string{"unknown reading order"}},
		{"bad format", []string{"--qrels", p("q"), "--format", "xml", p("r1")}, 2, "", []string{`--format: unknown format "xml"`}},
		{"bad compat", []string{"--qrels", p("q"), "--compat", "trec", p("r1")}, 2, "", []string{"unknown --compat"}},
		{"missing file", []string{"--qrels", p("nope"), p("r1")}, 2, "", []string{p("nope")}},
		{"bad qrels", []string{"--qrels", p("r1"), p("r1")}, 2, "", []string{p("r1") + `:1: this looks like a run, not judgments`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := runEvalCmd(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr)
			}
			if out != tc.out {
				t.Errorf("stdout\n%s\nwant\n%s", out, tc.out)
			}
			checkText(t, "stderr", stderr, tc.stderr, nil)
		})
	}
}

func TestEvalGPPastTheEnd(t *testing.T) {
	dir := testfs.Temp(t, map[string]string{
		"q": "1 Q0 a 50 100 0 0:50\n1 Q0 b 10 40 0 10:10\n",
		"r": "1 Q0 b 1 3 r\n1 Q0 a 2 2 r\n",
	})
	// Full documents: F(1) of b = 2·(10/40)/(10/40+1) = 0.4, of a = 2·.5/1.5 = 2/3.
	// gP[5]: the standard definition divides by 5; --compat inex repeats gP[2].
	for _, tc := range []struct {
		compat bool
		want   float64
	}{{false, (0.4 + 2.0/3) / 5}, {true, (0.4 + 2.0/3) / 2}} {
		args := []string{"--qrels", filepath.Join(dir, "q"), "-m", `gP[5]\F(1)`, filepath.Join(dir, "r")}
		if tc.compat {
			args = append(args, "--compat", "inex")
		}
		code, out, stderr := runEvalCmd(t, args...)
		if code != 0 {
			t.Fatal(stderr)
		}
		if v := values(t, out)[`gP[5]\F(1)|all`]; math.Abs(v-tc.want) > 1e-12 {
			t.Errorf("compat %v: %v, want %v", tc.compat, v, tc.want)
		}
	}
}

func TestEvalJSON(t *testing.T) {
	dir := testfs.Temp(t, map[string]string{
		"q": "1 Q0 a 50 100 0 0:50\n",
		"r": "1 Q0 a 1 1 r 0 100\n",
	})
	code, out, stderr := runEvalCmd(t, "--qrels", filepath.Join(dir, "q"), "--format", "json", "-q", "-m", `AgP\F(1)`, "-m", "iP[0.5]", filepath.Join(dir, "r"))
	if code != 0 {
		t.Fatal(stderr)
	}
	type row struct {
		Run, Measure, Topic string
		Value               float64
	}
	var rows []row
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var r row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		rows = append(rows, r)
	}
	r := "r" // the run id (the run file's sixth column), not the path
	want := []row{{r, `AgP\F(1)`, "1", 2.0 / 3}, {r, `AgP\F(1)`, "all", 2.0 / 3}, {r, "iP[0.50]", "1", 0.5}, {r, "iP[0.50]", "all", 0.5}}
	if len(rows) != len(want) {
		t.Fatalf("%v", rows)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, rows[i], want[i])
		}
	}
}

// TestEvalRunValidation checks the run validation errors of issue 3 end to
// end: exit 2 with the file and the (true) line.
func TestEvalRunValidation(t *testing.T) {
	dir := testfs.Temp(t, map[string]string{
		"q": "1 Q0 a 10 100 0 0:10\n1 Q0 b 10 100 0 0:10\n",
		// The same TREC line twice (lines 2 and 3).
		"dup.trec": "1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n1 Q0 b 2 2 r\n",
		// Two blank lines, then a good line 3 and a 7-column line 4.
		"blank.fol": "\n\n1 Q0 a 1 1 r 0 10\n1 Q0 b 2 1 r 0\n",
	})
	q := filepath.Join(dir, "q")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"duplicate", []string{filepath.Join(dir, "dup.trec")}, 2, "dup.trec:3: topic 1, article b: this result repeats the one at line 2 (use --merge-overlaps"},
		{"duplicate merged", []string{"--merge-overlaps", "-m", "num_ret", filepath.Join(dir, "dup.trec")}, 0, ""},
		{"leading blanks", []string{filepath.Join(dir, "blank.fol")}, 2, "blank.fol:4: 7 columns"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := runEvalCmd(t, append([]string{"--qrels", q}, tc.args...)...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d with %q", code, stderr, tc.code, tc.want)
			}
			// Merged, b counts once: a and b are retrieved.
			if tc.code == 0 && out != "runid\tall\tr\nnum_ret\tall\t2\n" {
				t.Errorf("stdout %q, want num_ret 2", out)
			}
		})
	}
}

// On judgments of whole documents (plain TREC qrels) eval without -m and
// with -m all gives trec_eval's document measures (effort.DocumentNames,
// effort.DocumentAllNames), each equal to the real trec_eval's output kept
// in scenario/testdata/trec_eval (where it printed the measure); a measure
// of characters asked by name is still refused.
func TestEvalDocumentJudgments(t *testing.T) {
	dir := "../../scenario/testdata/trec_eval"
	qrels, run := filepath.Join(dir, "graded.qrels"), filepath.Join(dir, "graded.run")
	ref := values(t, readFile(t, filepath.Join(dir, "graded.trec_eval.txt")))
	for _, tc := range []struct {
		name  string
		args  []string
		names []string
	}{
		{"defaults", nil, effort.DocumentNames},
		{"all", []string{"-m", "all"}, effort.DocumentAllNames},
		{"ALL and map again", []string{"-m", "ALL,map"}, effort.DocumentAllNames},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := runEvalCmd(t, append(append([]string{"--qrels", qrels}, tc.args...), run)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if strings.Contains(stderr, "judgments of characters") {
				t.Errorf("stderr speaks of character measures nobody asked for: %s", stderr)
			}
			var names []string
			compared := 0
			for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
				f := strings.Split(line, "\t")
				names = append(names, f[0])
				want, ok := ref[f[0]+"|all"]
				if !ok {
					continue // trec_eval was not asked for it
				}
				if got, _ := strconv.ParseFloat(f[2], 64); math.Abs(got-want) > 1e-12 {
					t.Errorf("%s = %v, trec_eval %v", f[0], got, want)
				}
				compared++
			}
			if strings.Join(names, " ") != strings.Join(tc.names, " ") {
				t.Errorf("measures %v, want %v", names, tc.names)
			}
			if compared < 10 {
				t.Errorf("%d values compared with trec_eval's", compared)
			}
		})
	}
	code, _, stderr := runEvalCmd(t, "--qrels", qrels, "-m", "map,AgP", run)
	if code != 2 || !strings.Contains(stderr, "needs judgments of characters") {
		t.Errorf("-m map,AgP on TREC qrels: exit %d, %s; want 2 and a message", code, stderr)
	}
}

// Two runs with one run id are told apart in the table and the JSON by
// their file's name, with a warning.
func TestEvalSameRunID(t *testing.T) {
	dir := "../../scenario/testdata/trec_eval"
	qrels := filepath.Join(dir, "graded.qrels")
	b := readFile(t, filepath.Join(dir, "graded.run"))
	tmp := t.TempDir()
	int1, float1 := filepath.Join(tmp, "int.trec"), filepath.Join(tmp, "float.trec")
	mustWriteFile(t, int1, b)
	mustWriteFile(t, float1, b)
	code, out, stderr := runEvalCmd(t, "--qrels", qrels, "-m", "map", "--format", "json", int1, float1)
	if code != 0 {
		t.Fatal(stderr)
	}
	var runs []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var v struct{ Run string }
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, v.Run)
	}
	if strings.Join(runs, "|") != "synth (int.trec)|synth (float.trec)" {
		t.Errorf("runs named %q", runs)
	}
	if !strings.Contains(stderr, `warning: 2 runs are named "synth" (their run id): they are told apart as "synth (int.trec)", "synth (float.trec)"`) {
		t.Errorf("stderr: %s", stderr)
	}
}

// ir_measures' Judged@k on graded.qrels and graded.run, worked out by hand
// from its judged provider: the share of the first min(k, retrieved)
// documents that are judged at any grade (d5: -1 counts), ranked by score
// with ties by document id increasing. Topic 101 ranks d1 d2 d3 (12.5),
// D8 d10 d9 u1 (11), d5, d4 d6 (equal), d7, u2 x12: u1 is its only unjudged
// document in the first 10 (trec_eval's order would put u1 fourth: 0.75
// at 4). 102: b, a c (0.5), zz (not judged); 103: n1, u3; 104: q2 q4 u4
// q3 q1; 105: z.
func TestEvalJudgedByHand(t *testing.T) {
	dir := "../../scenario/testdata/trec_eval"
	qrels, run := filepath.Join(dir, "graded.qrels"), filepath.Join(dir, "graded.run")
	want := map[string]float64{
		"Judged@4|101": 1, "Judged@4|102": 0.75, "Judged@4|103": 0.5, "Judged@4|104": 0.75, "Judged@4|105": 1,
		"Judged@4|all":  (1 + 0.75 + 0.5 + 0.75 + 1) / 5,
		"Judged@10|101": 0.9, "Judged@10|102": 0.75, "Judged@10|103": 0.5, "Judged@10|104": 0.8, "Judged@10|105": 1,
		"Judged@10|all": (0.9 + 0.75 + 0.5 + 0.8 + 1) / 5,
		"judged@1|104":  1, "judged@1|all": 1,
	}
	code, out, stderr := runEvalCmd(t, "--qrels", qrels, "-q", "-m", "Judged@4,Judged@10,judged@1", run)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := values(t, out)
	for key, w := range want {
		g, ok := got[key]
		if !ok {
			t.Errorf("%s: not printed", key)
		} else if math.Abs(g-w) > 1e-12 {
			t.Errorf("%s = %v, want %v", key, g, w)
		}
	}
	for _, bad := range []string{"Judged@0", "prefs_simp", "map_avgjg"} {
		if code, _, _ := runEvalCmd(t, "--qrels", qrels, "-m", bad, run); code != 2 {
			t.Errorf("-m %s: exit %d, want 2", bad, code)
		}
	}
}
