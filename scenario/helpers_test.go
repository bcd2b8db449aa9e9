package scenario

import (
	"path/filepath"
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
