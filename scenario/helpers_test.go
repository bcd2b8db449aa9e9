package scenario

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// The helpers of this file read the inputs of the package's tests (measure
// names, judgments and runs given as text or as files) and fail the test on
// any error, so that each test states only what it checks.

// mustMeasure parses one measure name.
func mustMeasure(tb testing.TB, s string) effort.Measure {
	tb.Helper()
	m, err := effort.ParseMeasure(s)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// mustMeasures parses measure names, in order.
func mustMeasures(tb testing.TB, names ...string) []effort.Measure {
	tb.Helper()
	ms := make([]effort.Measure, 0, len(names))
	for _, n := range names {
		ms = append(ms, mustMeasure(tb, n))
	}
	return ms
}

// readQrels reads judgments given as text; name is the file name their
// errors and warnings give.
func readQrels(tb testing.TB, name, text string) *inex.Qrels {
	tb.Helper()
	q, err := inex.ReadQrels(name, strings.NewReader(text), nil)
	if err != nil {
		tb.Fatal(err)
	}
	return q
}

// readRun reads a run given as text; name is its file name (the run's id
// when the text gives none).
func readRun(tb testing.TB, name, text string) *inex.Run {
	tb.Helper()
	r, err := inex.ReadRun(name, strings.NewReader(text), inex.RunOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// mustRun reads a run given as text, named "r".
func mustRun(tb testing.TB, text string) *inex.Run {
	tb.Helper()
	return readRun(tb, "r", text)
}

// openQrels reads a judgments file.
func openQrels(tb testing.TB, path string) *inex.Qrels {
	tb.Helper()
	q, err := inex.OpenQrels(path, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return q
}

// openRun reads a run file.
func openRun(tb testing.TB, path string) *inex.Run {
	tb.Helper()
	r, err := inex.OpenRun(path, inex.RunOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

var cachedQrels *inex.Qrels

// loadQrels reads the INEX 2009–2010 judgments of the shared data (dir is
// shareddata.INEX's folder) once for every test.
func loadQrels(tb testing.TB, dir string) *inex.Qrels {
	tb.Helper()
	if cachedQrels == nil {
		cachedQrels = openQrels(tb, filepath.Join(dir, "inex2009-2010.qrels"))
	}
	return cachedQrels
}

// evaluate evaluates run on q with the measures ms (one worker).
func evaluate(tb testing.TB, q *inex.Qrels, run *inex.Run, ms ...effort.Measure) *Evaluation {
	tb.Helper()
	res, err := Evaluate(q, run, EvalOptions{Measures: ms}, 1)
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

// evalLine is a line of an evaluation output (readsim's, trec_eval's or
// inex_eval's): a measure name, a topic (or "all") and a value, with the
// line's number.
type evalLine struct {
	name, topic, value string
	line               int
}

// readEvalLines reads the name<TAB>topic<TAB>value lines of an evaluation
// output (tabs or spaces, doubled or not), skipping empty lines and those
// of the <eval> wrapper of the official files; a line of another number of
// fields fails the test.
func readEvalLines(tb testing.TB, path string) []evalLine {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var out []evalLine
	for i, line := range strings.Split(string(b), "\n") {
		fs := strings.Fields(line)
		if len(fs) == 0 || strings.HasPrefix(fs[0], "<") {
			continue
		}
		if len(fs) != 3 {
			tb.Fatalf("%s:%d: %d fields, want 3", path, i+1, len(fs))
		}
		out = append(out, evalLine{fs[0], fs[1], fs[2], i + 1})
	}
	return out
}

// number is the line's value, failing the test when it is not a number.
func (l evalLine) number(tb testing.TB, path string) float64 {
	tb.Helper()
	v, err := strconv.ParseFloat(l.value, 64)
	if err != nil {
		tb.Fatalf("%s:%d: %v", path, l.line, err)
	}
	return v
}

// wantError checks err against want ("": no error; else an error whose
// message holds want) and tells whether the test case is done: an error
// was wanted (and checked) or came unwanted (fatal).
func wantError(tb testing.TB, err error, want string) bool {
	tb.Helper()
	if want != "" {
		if err == nil || !strings.Contains(err.Error(), want) {
			tb.Errorf("error %v, want %q", err, want)
		}
		return true
	}
	if err != nil {
		tb.Fatal(err)
	}
	return false
}
