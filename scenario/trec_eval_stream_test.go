package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// TrecEvalFile reads a large run in chunks at once, a small one or a run
// whose topics are apart line by line: every way gives the bytes of
// TrecEval on the run read whole (which TestTrecEvalBytes checks against
// trec_eval's), and a bad line is named by its line number in the file.
func TestTrecEvalFileChunks(t *testing.T) {
	dir := t.TempDir()
	qrels, run := trecBenchFiles(t, dir, 280_000) // 9 MB: read in chunks
	st, err := os.Stat(run)
	if err != nil || st.Size() < 8<<20 {
		t.Fatalf("the run is too small to be read in chunks: %v %v", st, err)
	}
	text, err := os.ReadFile(run)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(text), "\n")
	lines = lines[:len(lines)-1]
	// the first line moved to the end: topic 100000 is apart
	split := filepath.Join(dir, "split.run")
	mustWrite(t, split, strings.Join(append(lines[1:], lines[0]), ""))
	// a malformed line deep in the file
	bad := filepath.Join(dir, "bad.run")
	badLines := append([]string(nil), lines...)
	badLines[200_001] = "100200 Q0 D1 1 2.5\n"
	mustWrite(t, bad, strings.Join(badLines, ""))

	q, err := inex.OpenTrecEvalQrels(qrels)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := effort.TrecSelect([]string{"all_trec"})
	if err != nil {
		t.Fatal(err)
	}
	opt := TrecEvalOptions{Measures: ms, Config: effort.TrecConfig{RelevanceLevel: 1}, Query: true}
	for _, path := range []string{run, split} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			whole, err := inex.OpenTrecEvalRun(path)
			if err != nil {
				t.Fatal(err)
			}
			var want, got bytes.Buffer
			if err := TrecEval(&want, q, whole, opt); err != nil {
				t.Fatal(err)
			}
			if err := TrecEvalFile(&got, q, path, opt); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("read in chunks: %d bytes, read whole: %d bytes", got.Len(), want.Len())
			}
			if n := strings.Count(got.String(), "\n"); n < 280*90 {
				t.Errorf("%d lines printed", n)
			}
		})
	}
	err = TrecEvalFile(&bytes.Buffer{}, q, bad, opt)
	var ie *inex.Error
	if !errors.As(err, &ie) || ie.Line != 200_002 || !strings.Contains(err.Error(), "5 columns, want 6") {
		t.Errorf("malformed line 200002: %v", err)
	}
	// a topic apart is found within a chunk too
	if _, _, err := inex.StreamTrecEvalRun(split, nil, func(*inex.TrecRunBlock) {}); !errors.Is(err, inex.ErrTopicSplit) {
		t.Errorf("split run: %v, want ErrTopicSplit", err)
	}
}

func mustWrite(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The summary rules: num_q counts the topics, the
// counts sum, gm_map is the geometric mean (of values floored at 1e-5).
func TestTrecSummaryRules(t *testing.T) {
	ms, err := effort.TrecSelect([]string{"num_q", "num_ret", "map", "gm_map"})
	if err != nil {
		t.Fatal(err)
	}
	// two topics: num_ret 3 and 5; AP 0.5 and 0 (log floored at 1e-5)
	ln := math.Log
	sum := []float64{2, 8, 0.5, ln(0.5) + ln(0.00001)}
	effort.TrecSummary(ms, sum, 2)
	want := []float64{2, 8, 0.25, math.Sqrt(0.5 * 0.00001)}
	for i := range want {
		if d := sum[i] - want[i]; d > 1e-15 || d < -1e-15 {
			t.Errorf("%s: %v, want %v", fmt.Sprint(ms[i].Names), sum[i], want[i])
		}
	}
}
