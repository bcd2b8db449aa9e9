package scenario

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestPairedTTest(t *testing.T) {
	cases := []struct {
		name string
		a, b []float64
		want float64
	}{
		// d = (1,3): mean 2, sd √2, se 1, t = 2 with 1 degree of freedom
		// (Cauchy): p = 1 − (2/π)·atan(2).
		{"df1", []float64{2, 5}, []float64{1, 2}, 1 - 2/math.Pi*math.Atan(2)},
		// d = (1,2,3): mean 2, sd 1, t = 2√3 with 2 degrees of freedom, whose
		// two-sided tail is 1 − t/√(t²+2) = 1 − √(12/14).
		{"df2", []float64{1, 2, 3}, []float64{0, 0, 0}, 1 - math.Sqrt(12.0/14)},
		// The sign of the difference does not matter (two-sided).
		{"df2-neg", []float64{0, 0, 0}, []float64{1, 2, 3}, 1 - math.Sqrt(12.0/14)},
		{"identical", []float64{0.3, 0.5}, []float64{0.3, 0.5}, 1},
		{"constant shift", []float64{1, 2, 3}, []float64{0, 1, 2}, 0},
		{"one topic", []float64{1}, []float64{0}, math.NaN()},
	}
	for _, c := range cases {
		got := PairedTTest(c.a, c.b)
		if math.IsNaN(c.want) != math.IsNaN(got) || (!math.IsNaN(got) && math.Abs(got-c.want) > 1e-12) {
			t.Errorf("%s: p = %v, want %v", c.name, got, c.want)
		}
	}
	// Textbook (Student 1908, Cushny & Peebles' sleep data, as in R's
	// t.test(extra ~ group, paired = TRUE)): t = −4.0621, df = 9,
	// p-value = 0.002833.
	g1 := []float64{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0}
	g2 := []float64{1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4}
	if p := PairedTTest(g1, g2); math.Abs(p-0.002833) > 5e-7 {
		t.Errorf("sleep data: p = %v, want 0.002833", p)
	}
}

func TestRandomizationTest(t *testing.T) {
	// d = (1,2,3): of the 8 sign assignments, |Σ±d| ≥ 6 for +++ and −−− only,
	// so the exact p-value is 2/8 = 0.25; 200,000 random assignments estimate
	// it within ±0.003 (3 standard errors).
	a, b := []float64{1, 2, 3}, []float64{0, 0, 0}
	if p := RandomizationTest(a, b, 200000, DefaultSeed); math.Abs(p-0.25) > 0.003 {
		t.Errorf("p = %v, want 0.25", p)
	}
	// d = (1,1,1,1,1): only 2 of 32 assignments reach 5: p = 1/16.
	a = []float64{1, 1, 1, 1, 1}
	if p := RandomizationTest(a, make([]float64, 5), 200000, 7); math.Abs(p-1.0/16) > 0.0017 {
		t.Errorf("p = %v, want 0.0625", p)
	}
	// No difference: every assignment reaches 0.
	if p := RandomizationTest(a, a, 1000, 1); p != 1 {
		t.Errorf("identical: p = %v, want 1", p)
	}
	// Reproducible with a seed, different across seeds.
	r := rand.New(rand.NewPCG(3, 4))
	x, y := make([]float64, 120), make([]float64, 120)
	for i := range x {
		x[i], y[i] = r.Float64(), r.Float64()+0.05
	}
	p1, p2 := RandomizationTest(x, y, 10000, 1), RandomizationTest(x, y, 10000, 1)
	if p1 != p2 {
		t.Errorf("same seed: %v and %v", p1, p2)
	}
	if p3 := RandomizationTest(x, y, 10000, 2); p3 == p1 {
		t.Logf("seeds 1 and 2 gave the same p %v (possible but unlikely)", p1)
	}
	// With many topics the randomization and t-test p-values agree roughly.
	if pt := PairedTTest(x, y); math.Abs(pt-p1) > 0.03 {
		t.Errorf("t-test p %v and randomization p %v differ too much", pt, p1)
	}
}

func TestComparePaired(t *testing.T) {
	a := []float64{0.5, 0.2, 0.3, 0.9}
	b := []float64{0.4, 0.2, 0.6, 0.1}
	p := ComparePaired(a, b, false, 0, 1)
	if p.Wins != 2 || p.Ties != 1 || p.Losses != 1 || p.N != 4 {
		t.Errorf("higher is better: %+v, want 2/1/1", p)
	}
	if math.Abs(p.MeanA-0.475) > 1e-15 || math.Abs(p.MeanB-0.325) > 1e-15 || math.Abs(p.Diff-0.15) > 1e-15 {
		t.Errorf("means: %+v", p)
	}
	if !math.IsNaN(p.PRand) {
		t.Errorf("PRand without permutations: %v", p.PRand)
	}
	// Differences at the level of rounding noise are ties, and exactly 0 for
	// both tests.
	noisy := []float64{0.1 + 0.2, 92.85 + 1e-14, 0.5}
	p = ComparePaired(noisy, []float64{0.3, 92.85, 0.5}, false, 1000, 1)
	if p.Ties != 3 || p.PT != 1 || p.PRand != 1 {
		t.Errorf("rounding noise: %+v, want 3 ties and p = 1", p)
	}
	p = ComparePaired(a, b, true, 0, 1)
	if p.Wins != 1 || p.Ties != 1 || p.Losses != 2 {
		t.Errorf("lower is better: %+v, want 1/1/2", p)
	}
}

// BenchmarkCompare is the target: 10,000 permutations × 120 topics
// × 10 measures.
func BenchmarkCompare(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var xs, ys [10][]float64
	for m := range xs {
		xs[m], ys[m] = make([]float64, 120), make([]float64, 120)
		for i := range xs[m] {
			xs[m][i], ys[m][i] = r.Float64(), r.Float64()
		}
	}
	for i := 0; i < b.N; i++ {
		for m := range xs {
			ComparePaired(xs[m], ys[m], false, 10000, DefaultSeed)
		}
	}
}

// Holm–Bonferroni by hand: sorted 0.01, 0.03, 0.04 → 3·0.01 = 0.03,
// 2·0.03 = 0.06, max(0.06, 1·0.04) = 0.06; back in the input's order.
func TestHolm(t *testing.T) {
	for _, tc := range []struct{ in, want []float64 }{
		{[]float64{0.01, 0.04, 0.03}, []float64{0.03, 0.06, 0.06}},
		{[]float64{0.5}, []float64{0.5}},
		{[]float64{0.4, 0.3}, []float64{0.6, 0.6}}, // 2·0.3, max(0.6, 0.4)
		{[]float64{0.9, 0.8}, []float64{1, 1}},     // capped at 1
	} {
		got := Holm(tc.in)
		for i := range tc.want {
			if math.Abs(got[i]-tc.want[i]) > 1e-15 {
				t.Errorf("Holm(%v) = %v, want %v", tc.in, got, tc.want)
				break
			}
		}
	}
	if got := Holm([]float64{math.NaN(), 0.02}); !math.IsNaN(got[0]) || got[1] != 0.02 {
		t.Errorf("a NaN p-value counts: %v", got)
	}
}

// Differences 1, 2, 3, 4: mean 2.5, sd √(5/3); d = 2.5/√(5/3); the 95% CI is
// 2.5 ± t(0.975, 3)·sd/2 with t(0.975, 3) = 3.182446305284263 (tables).
func TestEffectSizeAndCI(t *testing.T) {
	a, b := []float64{1, 2, 3, 4}, []float64{0, 0, 0, 0}
	sd := math.Sqrt(5.0 / 3)
	if got, want := EffectSize(a, b), 2.5/sd; math.Abs(got-want) > 1e-12 {
		t.Errorf("d = %v, want %v", got, want)
	}
	lo, hi := ConfidenceInterval(a, b)
	h := 3.182446305284263 * sd / 2
	if math.Abs(lo-(2.5-h)) > 1e-9 || math.Abs(hi-(2.5+h)) > 1e-9 {
		t.Errorf("CI [%v, %v], want [%v, %v]", lo, hi, 2.5-h, 2.5+h)
	}
	if d := EffectSize([]float64{1, 1}, []float64{1, 1}); !math.IsNaN(d) {
		t.Errorf("no spread: d = %v, want NaN", d)
	}
	if lo, hi := ConfidenceInterval([]float64{2, 2}, []float64{1, 1}); lo != 1 || hi != 1 {
		t.Errorf("constant difference 1: CI [%v, %v], want [1, 1]", lo, hi)
	}
}
