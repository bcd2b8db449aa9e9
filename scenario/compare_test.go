package scenario

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// TestCompareSubsetAggregate checks that when runs are restricted to their
// common topics, each measure's `all` is still aggregated as eval does: a
// sum for the official counts, a mean otherwise.
func TestCompareSubsetAggregate(t *testing.T) {
	q := readQrels(t, "q", "1 Q0 x 10 100 0 0:10\n1 Q0 y 0 100 0\n2 Q0 x 10 100 0 0:10\n2 Q0 y 0 100 0\n3 Q0 x 10 100 0 0:10\n")
	// a: topic 1 retrieves x, y; topic 2 x; topic 3 x. b: topic 1 x;
	// topic 2 x, y; no topic 3, so the comparison is over topics 1 and 2.
	a := readRun(t, "a", "1 Q0 x 1 3 a 0 10\n1 Q0 y 2 2 a 0 10\n2 Q0 x 1 1 a 0 10\n3 Q0 x 1 1 a 0 10\n")
	b := readRun(t, "b", "1 Q0 x 1 2 b 0 10\n2 Q0 x 1 2 b 0 10\n2 Q0 y 2 1 b 0 10\n")
	ms := mustMeasures(t, "num_ret", "num_rel", "AP")
	var warns []string
	c, err := Compare(q, []*inex.Run{a, b}, CompareOptions{Eval: EvalOptions{Measures: ms, Warn: func(s string) { warns = append(warns, s) }}, Permutations: -1})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.Topics, ",") != "1,2" || len(warns) != 1 || strings.Join(c.Dropped, ",") != "3" {
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
		if c.Runs[0].All[tc.m] != tc.wantA || c.Runs[1].All[tc.m] != tc.wantB {
			t.Errorf("%s: all %v and %v, want %v and %v", tc.name, c.Runs[0].All[tc.m], c.Runs[1].All[tc.m], tc.wantA, tc.wantB)
		}
	}
}

// Three runs over eight topics, each with one relevant article x: run a
// ranks x first (AP 1), run b second after y (AP 1/2), run c not at all
// (AP 0). Every paired difference is the same positive number, so only the
// two all-equal sign assignments of the 2⁸ reach the observed |Σd|: the
// randomization p is about 2/256 ≈ 0.0078; Holm multiplies it by 2 (two
// comparisons per measure against the baseline c) or 3 (all pairs): still
// under 0.05, so every better run is marked.
func TestCompareThreeRuns(t *testing.T) {
	var qs, ra, rb, rc strings.Builder
	for topic := 1; topic <= 8; topic++ {
		fmt.Fprintf(&qs, "%d Q0 x 10 100 0 0:10\n%d Q0 y 0 100 0\n", topic, topic)
		fmt.Fprintf(&ra, "%d Q0 x 1 2 a\n", topic)
		fmt.Fprintf(&rb, "%d Q0 y 1 2 b\n%d Q0 x 2 1 b\n", topic, topic)
		fmt.Fprintf(&rc, "%d Q0 y 1 1 c\n", topic)
	}
	q := readQrels(t, "q", qs.String())
	var runs []*inex.Run
	for name, s := range map[string]string{"a": ra.String(), "b": rb.String(), "c": rc.String()} {
		runs = append(runs, readRun(t, name, s))
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].ID < runs[j].ID })
	ms := []effort.Measure{mustMeasure(t, "AP")}
	for _, tc := range []struct {
		allPairs bool
		marks    []string // per run a, b, c
		pairs    int
		factor   float64
	}{
		{false, []string{"c", "c", ""}, 2, 2},
		{true, []string{"bc", "c", ""}, 3, 3},
	} {
		c, err := Compare(q, runs, CompareOptions{Eval: EvalOptions{Measures: ms}, Baseline: -1, AllPairs: tc.allPairs, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Pairs) != tc.pairs {
			t.Fatalf("all pairs %v: %d comparisons, want %d", tc.allPairs, len(c.Pairs), tc.pairs)
		}
		for _, p := range c.Pairs {
			if math.Abs(p.PRand-2.0/256) > 0.003 || math.Abs(p.PHolm-tc.factor*p.PRand) > 1e-12 && p.PHolm < 1 {
				t.Errorf("%s vs %s: p %v, Holm %v; want about %v and ×%v", c.Names[p.A], c.Names[p.B], p.PRand, p.PHolm, 2.0/256, tc.factor)
			}
		}
		tab := c.MeansTable()
		for i, want := range tc.marks {
			if got := tab.Rows[i][1].Sup; got != want {
				t.Errorf("all pairs %v: run %s marked %q, want %q", tc.allPairs, c.Names[i], got, want)
			}
		}
		// the means: AP 1, 1/2, 0
		for i, want := range []float64{1, 0.5, 0} {
			if c.Runs[i].All[0] != want {
				t.Errorf("run %s: AP %v, want %v", c.Names[i], c.Runs[i].All[0], want)
			}
		}
	}
}

// compare --baseline names a run by position (the document baseline is the
// position after the runs), file or id, in that order.
func TestFindRun(t *testing.T) {
	files := []string{"a.fol", "b.trec", "7"}
	runs := []*inex.Run{{ID: "x"}, {ID: "b.trec"}, {ID: "y"}}
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"1", 0}, {"3", 2}, {"4", 3}, {"5", -1}, {"0", -1}, {"-1", -1},
		{"7", -1},     // a number is a position, never a file
		{"07", -1},    // not a position as written, nor a file or id
		{"b.trec", 1}, // the file before the id
		{"y", 2}, {"x", 0}, {"z", -1}, {"", -1},
	} {
		if got := FindRun(tc.s, files, runs); got != tc.want {
			t.Errorf("FindRun(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

// compare --readings --baseline: the first reading whose id, file or
// position is s.
func TestFindReading(t *testing.T) {
	files := []string{"p1.jsonl", "p2.jsonl"}
	rds := []*Reading{{ID: "2"}, {ID: "P-2"}}
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"2", 0}, // reading 1's id before reading 2's position
		{"1", 0}, {"P-2", 1}, {"p2.jsonl", 1}, {"3", -1}, {"x", -1},
	} {
		if got := FindReading(tc.s, files, rds); got != tc.want {
			t.Errorf("FindReading(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

// Compare with the document baseline evaluates the first run twice; what
// it warns of that run (here: two articles of one score, which trec_eval
// ranks by descending id, the run's lines by ascending: AP and gR see two
// rankings) is said once.
func TestCompareWarnsOnce(t *testing.T) {
	q := readQrels(t, "q", "1 Q0 a 10 100 0 0:10\n1 Q0 b 0 100 0\n")
	r := mustRun(t, "1 Q0 a 1 1.0 r 0 10\n1 Q0 b 2 1.0 r 0 10\n")
	var warnings []string
	opt := CompareOptions{Eval: EvalOptions{Measures: mustMeasures(t, "AP", "gR[1]"), Warn: func(s string) { warnings = append(warnings, s) }}, DocBaseline: true, Baseline: -1, Permutations: 10}
	if _, err := Compare(q, []*inex.Run{r}, opt); err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "the two rankings differ there: 1") {
		t.Errorf("warnings %q, want the tie warning once", warnings)
	}
}
