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
			"query_id\tdoc_id\trank\tscore\trun_id\tstart\tlength\tbep\n2026001\t1001\t1\t2.835335\treadsim-ric\t76\t544\t\n", ""},
		{[]string{"rows", "--run", "../../corpus-sample/runs/doc.trec"}, 0,
			"query_id\tdoc_id\trank\tscore\trun_id\tstart\tlength\tbep\n2026001\t1001\t1\t2.835335\treadsim-doc\t\t\t\n", ""},
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
