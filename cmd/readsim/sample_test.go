package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSampleRunsBeatDocBaseline indexes corpus-sample, makes the ric and doc
// runs again (they must equal the committed ones in corpus-sample/runs), and
// checks issue 5's claim: ric beats its document baseline on AgP\T2Ip(300)
// (higher is better) and on ANCE[20]\LE(300,5) (lower is better).
func TestSampleRunsBeatDocBaseline(t *testing.T) {
	root := "../../corpus-sample"
	if _, err := os.Stat(root + "/articles"); err != nil {
		t.Skip("no corpus-sample")
	}
	dir := t.TempDir()
	idx := filepath.Join(dir, "idx")
	if status, _, stderr := runCLI("index", "--articles", root+"/articles", "--index", idx); status != 0 {
		t.Fatalf("index: exit %d: %s", status, stderr)
	}
	runs := map[string]string{}
	for _, task := range []struct{ task, file string }{{"ric", "ric.fol"}, {"doc", "doc.trec"}} {
		out := filepath.Join(dir, task.file)
		status, _, stderr := runCLI("run", "--index", idx, "--topics", root+"/topics.xml", "--task", task.task, "--run-id", "readsim-"+task.task, "--out", out)
		if status != 0 {
			t.Fatalf("run %s: exit %d: %s", task.task, status, stderr)
		}
		got, _ := os.ReadFile(out)
		committed, _ := os.ReadFile(filepath.Join(root, "runs", task.file))
		if string(got) != string(committed) {
			t.Errorf("corpus-sample/runs/%s is out of date: regenerate it as corpus-sample/README.md says", task.file)
		}
		runs[task.task] = out
	}
	value := func(run, measure string) float64 {
		status, stdout, stderr := runCLI("eval", "--qrels", root+"/judgments.qrels", "-m", measure, run)
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		f := strings.Fields(lines[len(lines)-1])
		if status != 0 || len(f) != 3 || len(lines) != 2 {
			t.Fatalf("eval %s: exit %d, %q, %s", run, status, stdout, stderr)
		}
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if ric, doc := value(runs["ric"], `AgP\T2Ip(300)`), value(runs["doc"], `AgP\T2Ip(300)`); !(ric > doc) {
		t.Errorf(`AgP\T2Ip(300): ric %v, doc %v; want ric higher`, ric, doc)
	}
	if ric, doc := value(runs["ric"], `ANCE[20]\LE(300,5)`), value(runs["doc"], `ANCE[20]\LE(300,5)`); !(ric < doc) {
		t.Errorf(`ANCE[20]\LE(300,5): ric %v, doc %v; want ric lower`, ric, doc)
	}
}
