package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRowsCommand checks readsim rows and readsim measures NAME… from the
// command line: the sample's judgments and runs (their first rows copied
// by hand from corpus-sample), a bad line named by file and line with exit
// status 2, and the usage errors.
func TestRowsCommand(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.run")
	if err := os.WriteFile(bad, []byte("1 Q0 d1 1 2.0 r\n1 Q0 d2 x 1 r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args       []string
		status     int
		out, errIn string
	}{
		{[]string{"rows", "--qrels", "../../corpus-sample/judgments.qrels"}, 0,
			"query_id\tdoc_id\trelevance\tstart\tlength\tdoc_length\tbep\taspects\n2026001\t1001\t1\t76\t544\t4621\t76\t\n", ""},
		{[]string{"rows", "--run", "../../corpus-sample/runs/ric.fol"}, 0,
			"query_id\tdoc_id\trank\tscore\trun_id\tstart\tlength\tbep\n2026001\t1001\t1\t2.834854\treadsim-ric\t76\t544\t\n", ""},
		{[]string{"rows", "--run", "../../corpus-sample/runs/doc.trec"}, 0,
			"query_id\tdoc_id\trank\tscore\trun_id\tstart\tlength\tbep\n2026001\t1001\t1\t2.834854\treadsim-doc\t\t\t\n", ""},
		{[]string{"rows", "--run", bad}, 2, "", bad + ":2: rank \"x\""},
		{[]string{"rows"}, 2, "", "give one of --qrels FILE and --run FILE"},
		{[]string{"rows", "--run", bad, "--qrels", bad}, 2, "", "give one of"},
		{[]string{"rows", "--run", bad, "extra"}, 2, "", "rows takes no argument"},
		{[]string{"measures", "--format", "json", "map"}, 0,
			`{"name":"map","canonical":"AP","topic_name":"map","all_name":"map","summary_only":false,"kind":"document","better":"higher","all":"mean","ranks":"score","passages":false,"lengths":false}` + "\n", ""},
		{[]string{"measures", "Agp\\T2Ip(30"}, 2, "", "did you mean"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			status, out, errOut := runCLI(c.args...)
			if status != c.status {
				t.Errorf("exit %d, want %d; stderr %s", status, c.status, errOut)
			}
			if !strings.HasPrefix(out, c.out) {
				t.Errorf("stdout starts %.200q, want %q", out, c.out)
			}
			if !strings.Contains(errOut, c.errIn) {
				t.Errorf("stderr %q lacks %q", errOut, c.errIn)
			}
		})
	}
}

// TestTrecEvalFullPrecision checks readsim trec_eval --full_precision: the
// same lines as without it, each value at full precision (that value
// rounds to the four decimals trec_eval prints and equals readsim eval's),
// the counts as integers.
func TestTrecEvalFullPrecision(t *testing.T) {
	dir := t.TempDir()
	q, r := filepath.Join(dir, "q"), filepath.Join(dir, "r")
	// relevant d1, d3 of 3 judged; ranked d1 d2 d3: AP = (1/1 + 2/3) / 2
	if err := os.WriteFile(q, []byte("1 0 d1 1\n1 0 d2 0\n1 0 d3 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(r, []byte("1 Q0 d1 1 3 x\n1 Q0 d2 2 2 x\n1 Q0 d3 3 1 x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, plain, _ := runCLI("trec_eval", "-q", "-m", "map", "-m", "num_ret", q, r)
	status, full, stderr := runCLI("trec_eval", "-q", "--full_precision", "-m", "map", "-m", "num_ret", q, r)
	if status != 0 {
		t.Fatalf("exit %d: %s", status, stderr)
	}
	want := "num_ret               \t1\t3\nmap                   \t1\t0.8333333333333333\n" +
		"num_ret               \tall\t3\nmap                   \tall\t0.8333333333333333\n"
	if full != want {
		t.Errorf("--full_precision:\n%s\nwant:\n%s", full, want)
	}
	if !strings.Contains(plain, "map                   \tall\t0.8333\n") {
		t.Errorf("without it:\n%s", plain)
	}
}
