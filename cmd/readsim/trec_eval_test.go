package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/article/shareddata"
)

// trecEvalDir holds judgments and runs written for the tests and trec_eval
// 10.0's output on them (its README.md says how they were made).
const trecEvalDir = "../../scenario/testdata/trec_eval"

// trecEvalCase is one line of cases.txt: trec_eval's output file and the
// arguments that made it.
type trecEvalCase struct {
	out  string
	args []string
}

func readTrecEvalCases(t *testing.T) []trecEvalCase {
	t.Helper()
	f, err := os.Open(filepath.Join(trecEvalDir, "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cs []trecEvalCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || l[0] == '#' {
			continue
		}
		out, args, ok := strings.Cut(l, "\t")
		if !ok {
			t.Fatalf("cases.txt: %q has no tab", l)
		}
		cs = append(cs, trecEvalCase{out, strings.Fields(args)})
	}
	if len(cs) == 0 {
		t.Fatal("cases.txt: no case")
	}
	return cs
}

// inDir prefixes the arguments that name a file of dir with dir.
func inDir(dir string, args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if _, err := os.Stat(filepath.Join(dir, a)); err == nil && !strings.HasPrefix(a, "-") {
			out[i] = filepath.Join(dir, a)
		}
	}
	return out
}

// readsim trec_eval prints trec_eval 10.0's bytes on judgments and runs
// written for it (grades -2…4, ties, topics on one side only, lists of 1
// to 1,500 documents, comments, blank lines, extra columns) under -q, -c,
// -l, -M, -J, -N, -n and measure parameters.
func TestTrecEvalBytes(t *testing.T) {
	for _, c := range readTrecEvalCases(t) {
		t.Run(c.out, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(trecEvalDir, c.out))
			if err != nil {
				t.Fatal(err)
			}
			status, stdout, stderr := runCLI(append([]string{"trec_eval"}, inDir(trecEvalDir, c.args)...)...)
			if status != 0 {
				t.Fatalf("exit %d: %s", status, stderr)
			}
			if stdout != string(want) {
				t.Errorf("output differs from trec_eval's %s:\n%s", c.out, firstDiff(stdout, string(want)))
			}
		})
	}
}

// firstDiff describes the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + strings.ReplaceAll(gl, "\t", "<TAB>") + "\n want " + strings.ReplaceAll(wl, "\t", "<TAB>")
		}
	}
	return "(same lines)"
}

// The run may come from standard input ("-"), as trec_eval's.
func TestTrecEvalStdin(t *testing.T) {
	want, err := os.ReadFile(filepath.Join(trecEvalDir, "heldout.q.txt"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(trecEvalDir, "heldout.run"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = saved }()
	status, stdout, stderr := runCLI("trec_eval", "-q", "-m", "all_trec", filepath.Join(trecEvalDir, "heldout.qrels"), "-")
	if status != 0 || stdout != string(want) {
		t.Errorf("exit %d (%s), output differs from heldout.q.txt:\n%s", status, stderr, firstDiff(stdout, string(want)))
	}
}

// writeRefusalFiles writes into dir the judgments, runs and -Z files that
// TestTrecEvalRefusals gives readsim trec_eval.
func writeRefusalFiles(t *testing.T, dir string) {
	t.Helper()
	mustWriteFile(t, filepath.Join(dir, "blank.qrels"), "1 0 a 1\n\n1 0 b 0\n")
	mustWriteFile(t, filepath.Join(dir, "five.qrels"), "1 0 a 1 extra\n")
	mustWriteFile(t, filepath.Join(dir, "short.run"), "1 Q0 a 1 2.5 r\n1 Q0 b 2 1.5\n")
	mustWriteFile(t, filepath.Join(dir, "empty.run"), "# nothing\n\n")
	mustWriteFile(t, filepath.Join(dir, "other.run"), "9 Q0 a 1 2.5 r\n")
	// preferences trec_eval refuses (exit 2, 4) or aborts on (a cycle a > b > c > a)
	mustWriteFile(t, filepath.Join(dir, "four.prefs"), "1 g s a 1\n1 g s b\n")
	mustWriteFile(t, filepath.Join(dir, "cycle.prefs"), "1 g s1 a 2\n1 g s1 b 1\n1 g s2 b 2\n1 g s2 c 1\n1 g s3 c 2\n1 g s3 a 1\n")
	mustWriteFile(t, filepath.Join(dir, "zero.prefs"), "1 g s1 a 2\n1 g s1 b 0\n1 g s2 b 1\n1 g s2 c 0\n")
	mustWriteFile(t, filepath.Join(dir, "twice.qrels"), "1 g a 2\n1 g a 1\n1 g b 0\n")
	mustWriteFile(t, filepath.Join(dir, "abc.run"), "1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n1 Q0 c 3 1 r\n")
	// relevance past effort.MaxTrecRelevance (1,023), refused at its line
	mustWriteFile(t, filepath.Join(dir, "high.qrels"), "1 0 a 1\n1 0 b 1023\n1 0 c 1024\n")
	// topics whose judgments are all negative where trec_eval cannot
	// evaluate them: the highest -2 (it crashes), or -1 on the first topic
	mustWriteFile(t, filepath.Join(dir, "minus2.qrels"), "1 0 a 1\n2 0 b -2\n2 0 c -3\n")
	mustWriteFile(t, filepath.Join(dir, "minus1.qrels"), "1 0 a -1\n2 0 b 1\n")
	mustWriteFile(t, filepath.Join(dir, "two.run"), "1 Q0 a 1 3 r\n2 Q0 b 1 3 r\n")
	mustWriteFile(t, filepath.Join(dir, "high.jg"), "# groups\n1 g a 1\n1 g b 99999999999\n")
	// -Z files trec_eval refuses (a line of 3 or 5 fields, a blank line,
	// an empty file) and those readsim refuses where trec_eval reads 0 or
	// keeps either line
	mustWriteFile(t, filepath.Join(dir, "three.z"), "101 map 0.2 0.1\n101 P_5 0.4\n")
	mustWriteFile(t, filepath.Join(dir, "five.z"), "101 map 0.2 0.1 x\n")
	mustWriteFile(t, filepath.Join(dir, "blank.z"), "101 map 0.2 0.1\n\n102 map 0.2 0.1\n")
	mustWriteFile(t, filepath.Join(dir, "empty.z"), "")
	mustWriteFile(t, filepath.Join(dir, "word.z"), "101 map 0.2 0.1\n101 P_5 mean 0.1\n")
	mustWriteFile(t, filepath.Join(dir, "twice.z"), "101 map 0.2 0.1\n102 map 0.2 0.1\n101 map 0.3 0.1\n")
	mustWriteFile(t, filepath.Join(dir, "nan.z"), "101 map 0.2 0.1\n101 P_5 NaN 0.1\n")
	mustWriteFile(t, filepath.Join(dir, "inf.z"), "101 map 0.2 1e999\n")
	mustWriteFile(t, filepath.Join(dir, "latin1.z"), "101 map 0.2 0.1\n101 caf\xe9 0.2 0.1\n")
}

// Where trec_eval fails, readsim trec_eval fails, saying why: the file,
// the line or topic, the problem.
func TestTrecEvalRefusals(t *testing.T) {
	dir := t.TempDir()
	writeRefusalFiles(t, dir)
	abc := filepath.Join(dir, "abc.run")
	q := filepath.Join(trecEvalDir, "graded.qrels")
	run := filepath.Join(trecEvalDir, "graded.run")
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		want   []string
	}{
		{"judged topic missing without -c", []string{filepath.Join(trecEvalDir, "missing.qrels"), run}, 2,
			[]string{"graded.run: topic 100 is judged in", "give -c"}},
		{"document judged twice", []string{filepath.Join(trecEvalDir, "dup.qrels"), run}, 2,
			[]string{"dup.qrels: topic 101: document d1 is judged twice"}},
		{"document retrieved twice", []string{"-c", q, filepath.Join(trecEvalDir, "dup.run")}, 2,
			[]string{"dup.run: topic 101: document d1 is retrieved twice"}},
		{"blank judgment line", []string{filepath.Join(dir, "blank.qrels"), run}, 2, []string{"blank.qrels:2: a blank line"}},
		{"five columns", []string{filepath.Join(dir, "five.qrels"), run}, 2, []string{"five.qrels:1: 5 columns, want 4"}},
		{"topic judged -2 at most", []string{filepath.Join(dir, "minus2.qrels"), filepath.Join(dir, "two.run")}, 2,
			[]string{"minus2.qrels: topic 2: every judgment is negative, the highest -2: trec_eval 10.0 crashes"}},
		{"first topic judged -1 at most", []string{"-m", "P.5", filepath.Join(dir, "minus1.qrels"), filepath.Join(dir, "two.run")}, 2,
			[]string{"minus1.qrels: topic 1: every judgment is negative and no topic before it has one of 0 or more"}},
		{"relevance past 1023", []string{filepath.Join(dir, "high.qrels"), abc}, 2, []string{"high.qrels:3: relevance 1024 is past 1023"}},
		{"group relevance past 1023", []string{"-R", "qrels_jg", "-m", "qrels_jg", filepath.Join(dir, "high.jg"), abc}, 2, []string{"high.jg:3: relevance 99999999999 is past 1023"}},
		{"five-column result", []string{q, filepath.Join(dir, "short.run")}, 2, []string{"short.run:2: 5 columns, want 6"}},
		{"no result", []string{q, filepath.Join(dir, "empty.run")}, 2, []string{"empty.run: no result"}},
		{"no shared topic", []string{q, filepath.Join(dir, "other.run")}, 2, []string{"other.run: topic 101 is judged in"}},
		{"unknown measure", []string{"-m", "MAP", q, run}, 2, []string{"-m MAP: no such measure"}},
		{"empty parameters", []string{"-m", "P.", q, run}, 2, []string{"-m P.: no parameter"}},
		{"zero cutoff", []string{"-m", "P.0,5", q, run}, 2, []string{"not positive"}},
		{"three utility coefficients", []string{"-m", "utility.1,2,3", q, run}, 2, []string{"4 coefficients"}},
		{"bad pairs", []string{"-m", "ndcg.1=2=3", q, run}, 2, []string{"level=gain pairs"}},
		{"unknown judgment format", []string{"-R", "prefs_jg", q, run}, 2, []string{"-R prefs_jg: the judgment formats are"}},
		{"four-column preference", []string{"-R", "prefs", "-m", "prefs", filepath.Join(dir, "four.prefs"), abc}, 2, []string{"four.prefs:2: 4 columns, want 5"}},
		{"preferences in a cycle", []string{"-R", "prefs", "-m", "all_prefs", filepath.Join(dir, "cycle.prefs"), abc}, 2,
			[]string{"cycle.prefs: topic 1: group g: documents a and b are each preferred to the other"}},
		{"level 0 and above in a group", []string{"-R", "prefs", "-m", "prefs_simp", filepath.Join(dir, "zero.prefs"), abc}, 2,
			[]string{"zero.prefs: topic 1: group g: document b at level 0 and above 0"}},
		{"two levels in a subgroup", []string{"-R", "qrels_prefs", "-m", "prefs", filepath.Join(dir, "twice.qrels"), abc}, 2,
			[]string{"twice.qrels: topic 1: group g: document a at two levels of one subgroup"}},
		{"qrels measures on preferences", []string{"-R", "prefs", filepath.Join(dir, "zero.prefs"), abc}, 2,
			[]string{"-m num_ret: trec_eval computes it from qrels, not from preferences", "-m prefs"}},
		{"preference measure on qrels", []string{"-m", "prefs_pair", q, run}, 2, []string{"-m prefs_pair: a measure of preferences"}},
		{"qrels measure on judgment groups", []string{"-R", "qrels_jg", "-m", "map", q, run}, 2, []string{"-m map: trec_eval computes it from qrels"}},
		{"judgment-group measure on qrels", []string{"-m", "map_avgjg", q, run}, 2, []string{"give them with -R qrels_jg"}},
		{"z-score line of 3 fields", []string{"-Z", filepath.Join(dir, "three.z"), q, run}, 2, []string{"three.z:2: 3 fields where a z-score line has 4"}},
		{"z-score line of 5 fields", []string{"-Z", filepath.Join(dir, "five.z"), q, run}, 2, []string{"five.z:1: 5 fields"}},
		{"blank z-score line", []string{"-Z", filepath.Join(dir, "blank.z"), q, run}, 2, []string{"blank.z:2: 0 fields"}},
		{"empty z-score file", []string{"-Z", filepath.Join(dir, "empty.z"), q, run}, 2, []string{"empty.z: empty z-score file"}},
		{"z-score mean not a number", []string{"-Z", filepath.Join(dir, "word.z"), q, run}, 2, []string{"word.z:2: mean \"mean\" is not a number"}},
		{"z-score line twice", []string{"-Z", filepath.Join(dir, "twice.z"), q, run}, 2, []string{"twice.z:3: topic 101 measure map again (first on line 1)"}},
		{"z-score mean NaN", []string{"-Z", filepath.Join(dir, "nan.z"), q, run}, 2, []string{"nan.z:2: mean \"NaN\" is not a finite number"}},
		{"z-score deviation past float64", []string{"-Z", filepath.Join(dir, "inf.z"), q, run}, 2, []string{"inf.z:1: stddev \"1e999\" is not a finite number"}},
		{"z-score line not UTF-8", []string{"-Z", filepath.Join(dir, "latin1.z"), q, run}, 2, []string{"latin1.z:2: not UTF-8 text (byte 8)"}},
		{"z-score file absent", []string{"-Z", filepath.Join(dir, "absent.z"), q, run}, 2, []string{"absent.z"}},
		{"one file", []string{q}, 2, []string{"1 file(s) given"}},
		{"unknown option", []string{"-x", q, run}, 2, []string{"unknown option -x"}},
		{"-l without a number", []string{"-l", "two", q, run}, 2, []string{"-l two: not an integer"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, stdout, stderr := runCLI(append([]string{"trec_eval"}, tc.args...)...)
			if status != tc.status {
				t.Errorf("exit %d, want %d; stderr %s", status, tc.status, stderr)
			}
			if stdout != "" {
				t.Errorf("printed %q", stdout)
			}
			checkText(t, "stderr", stderr, tc.want, []string{"panic"})
		})
	}
}

// trec_eval's options are read as its getopt_long reads them: joined or
// separate arguments, long names and their prefixes, options after the
// files, several short options together.
func TestTrecEvalOptionSpellings(t *testing.T) {
	want, err := os.ReadFile(filepath.Join(trecEvalDir, "heldout.ql2.txt"))
	if err != nil {
		t.Fatal(err)
	}
	q, run := filepath.Join(trecEvalDir, "heldout.qrels"), filepath.Join(trecEvalDir, "heldout.run")
	for _, args := range [][]string{
		{"-q", "-l2", "-m", "all_trec", "-mrelstring.15", q, run},
		{"-ql", "2", "-mall_trec", "-m", "relstring.15", q, run},
		{q, run, "--query_eval_wanted", "--level_for_rel=2", "--measure", "all_trec", "--meas=relstring.15"},
		{"-q", "-l", "2", "-m", "relstring.15", "-m", "all_trec", "-m", "relstring.20", "--", q, run},
	} {
		status, stdout, stderr := runCLI(append([]string{"trec_eval"}, args...)...)
		if status != 0 || stdout != string(want) {
			t.Errorf("%q: exit %d (%s):\n%s", args, status, stderr, firstDiff(stdout, string(want)))
		}
	}
}

// quicktestLine is a line of trec_eval's Makefile quicktest target.
var quicktestLine = regexp.MustCompile(`^\s*\./trec_eval (.*) \| diff - (test/\S+)\s*$`)

// TestTrecEvalQuicktest builds trec_eval from its source tree
// (../shared/data/trec_eval, or the tree TREC_EVAL_SRC names), copied to a
// temporary folder as the tree may be read-only, and runs every case of
// its Makefile's quicktest target through readsim trec_eval, comparing
// the bytes with the expected file and with the built trec_eval's output.
// Without the tree it skips, saying so; under CI it fails.
func TestTrecEvalQuicktest(t *testing.T) {
	orig := os.Getenv("TREC_EVAL_SRC")
	if orig == "" {
		orig = shareddata.TrecEval(t)
	}
	src := filepath.Join(t.TempDir(), "trec_eval")
	if err := os.CopyFS(src, os.DirFS(orig)); err != nil {
		t.Fatalf("copying %s: %v", orig, err)
	}
	mk, err := os.ReadFile(filepath.Join(src, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	build := exec.Command("make", "trec_eval")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building trec_eval from %s: %v\n%s", orig, err, out)
	}
	inQuick, n := false, 0
	for _, l := range strings.Split(string(mk), "\n") {
		if strings.HasPrefix(l, "quicktest:") {
			inQuick = true
			continue
		}
		if inQuick && (l == "" || !strings.HasPrefix(l, "\t")) {
			break
		}
		m := quicktestLine.FindStringSubmatch(l)
		if !inQuick || m == nil {
			continue
		}
		args, expected := strings.Fields(m[1]), m[2]
		n++
		t.Run(expected, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(src, expected))
			if err != nil {
				t.Fatal(err)
			}
			peer := exec.Command("./trec_eval", args...)
			peer.Dir = src
			peerOut, err := peer.Output()
			if err != nil {
				t.Fatalf("trec_eval %s: %v", strings.Join(args, " "), err)
			}
			status, stdout, stderr := runCLI(append([]string{"trec_eval"}, inDir(src, args)...)...)
			if status != 0 {
				t.Fatalf("exit %d: %s", status, stderr)
			}
			if stdout != string(want) {
				t.Errorf("differs from %s:\n%s", expected, firstDiff(stdout, string(want)))
			}
			if stdout != string(peerOut) {
				t.Errorf("differs from the built trec_eval:\n%s", firstDiff(stdout, string(peerOut)))
			}
		})
	}
	if n == 0 {
		t.Fatalf("%s/Makefile: no quicktest line", orig)
	}
}

// --compat 9 gives trec_eval 9's interpolated precision, in trec_eval and
// in eval (under ir_measures' name too), and 10 (the default) trec_eval
// 10's: R = 4, relevant documents at ranks 1, 2, 6, 10, so that x = 0.6
// is lround(2.4) = 2 relevant documents (precision 1 from there) against
// (long)(2.4 + 0.9) = 3 (0.5); x = 0.8 is 3 (0.5) against 4 (0.4);
// 11pt_avg is (7·1 + 2·0.5 + 2·0.4)/11 = 0.8 against (6·1 + 2·0.5 +
// 3·0.4)/11 = 0.74545… (effort's TestTrecInterpolationRules).
func TestTrecEvalCompat9(t *testing.T) {
	dir := t.TempDir()
	q, run := filepath.Join(dir, "h.qrels"), filepath.Join(dir, "h.run")
	mustWriteFile(t, q, "q 0 n0 0\nq 0 r0 1\nq 0 r1 1\nq 0 r2 1\nq 0 r3 1\n")
	var b strings.Builder
	for i, d := range strings.Fields("r0 r1 n0 n1 n2 r2 n3 n4 n5 r3") {
		b.WriteString("q Q0 " + d + " " + strconv.Itoa(i) + " " + strconv.Itoa(10-i) + " run\n")
	}
	mustWriteFile(t, run, b.String())
	nine := 0.0 // summed in m_11pt_avg.c's order, from recall 1 down
	for _, p := range []float64{0.4, 0.4, 0.4, 0.5, 0.5, 1, 1, 1, 1, 1, 1} {
		nine += p
	}
	te := []string{"trec_eval", "-m", "iprec_at_recall..6,.8", "-m", "11pt_avg"}
	ev := []string{"eval", "--qrels", q, "-m", "IPrec@0.6,iprec_at_recall_0.80,11pt_avg"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{append(te, q, run), "iprec_at_recall_0.60  \tall\t1.0000\niprec_at_recall_0.80  \tall\t0.5000\n11pt_avg              \tall\t0.8000\n"},
		{append(te, "--compat", "10", q, run), "iprec_at_recall_0.60  \tall\t1.0000\niprec_at_recall_0.80  \tall\t0.5000\n11pt_avg              \tall\t0.8000\n"},
		{append(te, "--compat=9", q, run), "iprec_at_recall_0.60  \tall\t0.5000\niprec_at_recall_0.80  \tall\t0.4000\n11pt_avg              \tall\t0.7455\n"},
		{append(ev, run), "runid\tall\trun\nIPrec@0.6\tall\t1\niprec_at_recall_0.80\tall\t0.5\n11pt_avg\tall\t0.8\n"},
		{append(ev, "--compat", "9", run), "runid\tall\trun\nIPrec@0.6\tall\t0.5\niprec_at_recall_0.80\tall\t0.4\n11pt_avg\tall\t" + strconv.FormatFloat(nine/11, 'g', -1, 64) + "\n"},
	} {
		status, stdout, stderr := runCLI(tc.args...)
		if status != 0 || stdout != tc.want {
			t.Errorf("%q: exit %d (%s)\n%s", tc.args, status, stderr, firstDiff(stdout, tc.want))
		}
	}
	// readsim measures says which measures --compat 9 changes, and IPrec@x's rule
	status, stdout, _ := runCLI("measures")
	checkText(t, "readsim measures", stdout, []string{"--compat 9 changes iprec_at_recall and 11pt_avg only", "IPrec@x", "x·R rounded as trec_eval 10 (--compat 9: trec_eval 9's x·R + 0.9"}, nil)
	if status != 0 {
		t.Errorf("readsim measures: exit %d", status)
	}
	for name, want := range map[string]bool{"IPrec@0.1": true, "iprec_at_recall_0.50": true, "11pt_avg": true, "Rprec_mult_2.00": false, "P@10": false, "AgP": false} {
		_, stdout, _ := runCLI("measures", "--format", "json", name)
		if got := strings.Contains(stdout, `"compat9":true`); got != want {
			t.Errorf("readsim measures %s: %s, want compat9 %v", name, stdout, want)
		}
	}
	for _, bad := range [][]string{
		append(te, "--compat", "8", q, run),
		append(te, "--comp", "9", q, run), // readsim's own options are never read from a prefix
	} {
		if status, _, stderr := runCLI(bad...); status != 2 || strings.Contains(stderr, "panic") {
			t.Errorf("%q: exit %d, want 2: %s", bad, status, stderr)
		}
	}
}
