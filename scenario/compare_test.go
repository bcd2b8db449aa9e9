package scenario

import (
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// TestCompareSubsetAggregate checks that when runs are restricted to their
// common topics, each measure's `all` is still aggregated as eval does: a
// sum for the official counts, a mean otherwise.
func TestCompareSubsetAggregate(t *testing.T) {
	q, err := inex.ReadQrels("q", strings.NewReader(
		"1 Q0 x 10 100 0 0:10\n1 Q0 y 0 100 0\n2 Q0 x 10 100 0 0:10\n2 Q0 y 0 100 0\n3 Q0 x 10 100 0 0:10\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	read := func(name, s string) *inex.Run {
		r, err := inex.ReadRun(name, strings.NewReader(s), inex.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// a: topic 1 retrieves x, y; topic 2 x; topic 3 x. b: topic 1 x;
	// topic 2 x, y; no topic 3, so the comparison is over topics 1 and 2.
	a := read("a", "1 Q0 x 1 3 a 0 10\n1 Q0 y 2 2 a 0 10\n2 Q0 x 1 1 a 0 10\n3 Q0 x 1 1 a 0 10\n")
	b := read("b", "1 Q0 x 1 2 b 0 10\n2 Q0 x 1 2 b 0 10\n2 Q0 y 2 1 b 0 10\n")
	var ms []effort.Measure
	for _, n := range []string{"num_ret", "num_rel", "AP"} {
		ms = append(ms, mustMeasure(t, n))
	}
	var warns []string
	c, err := CompareRuns(q, a, b, CompareOptions{Eval: EvalOptions{Measures: ms, Warn: func(s string) { warns = append(warns, s) }}, Permutations: -1})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.Topics, ",") != "1,2" || len(warns) != 1 {
		t.Fatalf("topics %v, warnings %q", c.Topics, warns)
	}
	for _, tc := range []struct {
		m            int
		name         string
		wantA, wantB float64
	}{
		// num_ret: a 2+1, b 1+2 (sums over the two topics).
		{0, "num_ret", 3, 3},
		// num_rel: one relevant article in each topic: 1+1.
		{1, "num_rel", 2, 2},
		// AP: the relevant x is at rank 1 in every topic: mean 1.
		{2, "AP", 1, 1},
	} {
		if c.A.All[tc.m] != tc.wantA || c.B.All[tc.m] != tc.wantB {
			t.Errorf("%s: all %v and %v, want %v and %v", tc.name, c.A.All[tc.m], c.B.All[tc.m], tc.wantA, tc.wantB)
		}
	}
}
