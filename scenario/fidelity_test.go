package scenario

import (
	"math"
	"testing"

	"github.com/readsim/readsim/index/article"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// TestFidelityJudgmentsOnly derives the suite's values by hand for a topic
// with two relevant articles: a (100 characters, relevant [0,50)) and b
// (200 characters, relevant [150,170)); R = a, b.
func TestFidelityJudgmentsOnly(t *testing.T) {
	q := readQrels(t, "t.qrels", "1 Q0 a 50 100 0 0:50\n1 Q0 b 20 200 0 150:20\n")
	ms := mustMeasures(t, `AgP\F(1)`, `AP`, `ANCE[3]\LE(300,5)`)
	f, err := RunFidelity(q, FidelityOptions{Measures: ms})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Runs) != 8 {
		t.Fatalf("%d runs without articles, want 8 (S, SLD × R, RS, RI, RSI)", len(f.Runs))
	}
	// F(1) of SLD: a: P = 50/100, R = 1 → 2/3; b: P = 20/200, R = 1 → 2/11.
	fa, fb := 2.0/3, 2.0/11
	// ES under SLD (whole article from 0, s = 300): a's first relevant
	// character is read first → 1; b's after 150 characters → 1. Under S:
	// 1, 1. With a non-relevant article on top: ⟨5,1,1⟩.
	// NCE for ⟨1,1,·⟩ with Trel 2: IE = ⟨1,1,5⟩, rank 3 past the run: ES 5 →
	// 0; ANCE[3] = 0. RI: ES ⟨5,1,1⟩: NCE ⟨4,4,4−4/5⟩ → (4+4+3.2)/3.
	want := map[string][3]float64{
		"SR":    {1, 1, 0},
		"SRS":   {1, 1, 0},
		"SRI":   {0.5 * (1.0/2 + 2.0/3), 0.5 * (1.0/2 + 2.0/3), (4 + 4 + 3.2) / 3},
		"SLDR":  {0.5 * (fa + (fa+fb)/2), 1, 0},
		"SLDRS": {0.5 * (fb + (fa+fb)/2), 1, 0},
	}
	for name, w := range want {
		r := f.Run(name)
		if r == nil {
			t.Fatalf("no run %s", name)
		}
		for m := range ms {
			if !near(r.Means[m], w[m]) {
				t.Errorf("%s %s = %v, want %v", name, ms[m], r.Means[m], w[m])
			}
		}
	}
	// Every expectation holds for these measures except R ≥ RS and S ≥ SLD
	// under AP, AP being blind to passages and order of relevant articles
	// (ties: not failures), and R ≥ RS under F is a tie.
	for _, c := range f.Checks {
		if c.Fail {
			t.Errorf("%s fails %s: %+v", ms[c.Measure], c.Label, c.Paired)
		}
	}
	labels := map[string]bool{}
	for _, c := range f.Checks {
		labels[c.Label] = true
	}
	for _, l := range []string{"S ≥ SS", "SS ≥ SL", "SL ≥ SLD", "S ≥ SST"} {
		if labels[l] {
			t.Errorf("%s checked without articles", l)
		}
	}
}

// TestFidelityElements checks the element answer sets on a 15-character
// article "xxaaayybbbccccc": sec [0,10) holding p [2,5) and p [7,10), then p
// [10,15); the judged passage is [0,12).
func TestFidelityElements(t *testing.T) {
	q := readQrels(t, "t.qrels", "7 Q0 x 12 15 0 0:12\n")
	dir, err := article.OpenDir("testdata/articles")
	if err != nil {
		t.Fatal(err)
	}
	ms := mustMeasures(t, `AgP\F(1)`)
	f, err := RunFidelity(q, FidelityOptions{Measures: ms, Articles: dir})
	if err != nil {
		t.Fatal(err)
	}
	// SL: the smallest element containing [0,12) is the article, [0,15):
	// P = 12/15, R = 1 → F = 8/9. SS: the largest element inside is sec,
	// [0,10): P = 1, R = 10/12 → 10/11. SST: the leaves inside are the two p,
	// 6 characters: P = 1, R = 1/2 → 2/3. SLD: [0,15) → 8/9. One article:
	// AgP = F.
	want := map[string]float64{"SR": 1, "SSR": 10.0 / 11, "SLR": 8.0 / 9, "SLDR": 8.0 / 9, "SSTR": 2.0 / 3}
	for name, w := range want {
		if r := f.Run(name); r == nil || !near(r.Means[0], w) {
			t.Errorf("%s = %v, want %v", name, r, w)
		}
	}
	if len(f.Runs) != 20 {
		t.Errorf("%d runs, want 20", len(f.Runs))
	}
	// R > RI holds; R ≥ RS, SL ≥ SLD tie; RS > RSI holds.
	for _, c := range f.Checks {
		if c.Fail {
			t.Errorf("%s fails %s", ms[c.Measure], c.Label)
		}
	}
	// A recall-oriented F(4) prefers the larger SL to SS: SS: P = 1,
	// R = 5/6 → 17·(5/6)/(16 + 5/6) = 85/101; SL: P = 4/5, R = 1 →
	// 17·0.8/(12.8 + 1) = 13.6/13.8. So F(4) fails "SS ≥ SL" and nothing else.
	f, err = RunFidelity(q, FidelityOptions{Measures: mustMeasures(t, `AgP\F(4)`), Articles: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Checks {
		wantFail := c.Label == "SS ≥ SL"
		if c.Fail != wantFail {
			t.Errorf("F(4) %s: fail = %v, want %v (%+v)", c.Label, c.Fail, wantFail, c.Paired)
		}
		if wantFail && (!near(c.MeanA, 85.0/101) || !near(c.MeanB, 13.6/13.8) || c.Losses != 1) {
			t.Errorf("F(4) SS ≥ SL: %+v", c.Paired)
		}
	}
}
