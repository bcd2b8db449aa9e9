package main

import (
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestEvalResolvesElementPaths evaluates INEX XML submissions whose results
// are element paths, resolved through --articles.
func TestEvalResolvesElementPaths(t *testing.T) {
	dir := t.TempDir()
	// Text: "T" 0-1, p[1] "aaaa" 1-5, p[2] "bbbbbb" 5-11; length 11.
	mustWriteFile(t, filepath.Join(dir, "5.xml"), `<article><name>T</name><body><p>aaaa</p><p>bbbbbb</p></body></article>`)
	qrels := filepath.Join(dir, "q.qrels")
	mustWriteFile(t, qrels, "1 Q0 5 6 11 5 5:6\n") // p[2] is the relevant text
	submission := func(path string) string {
		f := filepath.Join(dir, strings.NewReplacer("/", "_", "[", "", "]", "").Replace(path)+".xml")
		mustWriteFile(t, f, `<inex-submission participant-id="1" run-id="x" task="RelevantInContext" query="automatic" result-type="element">
<topic topic-id="1"><result><file>5</file><rank>1</rank><rsv>1</rsv><path>`+path+`</path></result></topic>
</inex-submission>`)
		return f
	}
	tests := []struct {
		path string
		want float64
	}{
		// Ret = Rel = [5,11): P = R = 1, F = 1.
		{"/article[1]/body[1]/p[2]", 1},
		// Ret = [1,5) misses Rel: F = 0.
		{"/article/body/p", 0},
		// Ret = [0,11): P = 6/11, R = 1, F(0.25) = (1+β²)PR/(β²P+R) = 6.375/11.375 = 51/91.
		{"/article[1]", 51.0 / 91},
	}
	for _, tc := range tests {
		status, stdout, stderr := runCLI("eval", "--qrels", qrels, "--articles", dir, "-m", `AgP\F(0.25)`, submission(tc.path))
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		f := strings.Split(lines[len(lines)-1], "\t")
		if status != 0 || len(f) != 3 || f[0] != `AgP\F(0.25)` || f[1] != "all" {
			t.Fatalf("%s: exit %d, stdout %q; stderr %s", tc.path, status, stdout, stderr)
		}
		if v, err := strconv.ParseFloat(f[2], 64); err != nil || math.Abs(v-tc.want) > 1e-12 {
			t.Errorf("%s: AgP = %s, want %v", tc.path, f[2], tc.want)
		}
	}
	status, _, stderr := runCLI("eval", "--qrels", qrels, "--articles", dir, submission("/article[1]/body[1]/p[9]"))
	if status != 2 || !strings.Contains(stderr, "p[9]") {
		t.Errorf("unknown path: exit %d, stderr %q; want 2 naming the path", status, stderr)
	}
	status, _, stderr = runCLI("eval", "--qrels", qrels, "--articles", filepath.Join(dir, "nope"), submission("/article[1]"))
	if status != 2 || !strings.Contains(stderr, "nope") {
		t.Errorf("missing folder: exit %d, stderr %q; want 2 naming it", status, stderr)
	}
}
