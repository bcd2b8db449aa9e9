package scenario

import (
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/readsim/readsim/effort"
)

// DefaultPermutations and DefaultSeed are the randomization test's defaults.
const (
	DefaultPermutations = 10000
	DefaultSeed         = 1
)

// Paired is the paired comparison of two runs a and b under one measure over
// the same topics (measures.md §9).
type Paired struct {
	// N is the number of topics; MeanA and MeanB the means; Diff = MeanA − MeanB.
	N            int
	MeanA, MeanB float64
	Diff         float64
	// Wins, Ties and Losses count the topics where a is better than, equal to
	// or worse than b. "Better" follows the measure: higher, except for the
	// effort measures CE, NCE and ANCE (lower is better). Values closer than
	// TieTolerance are a tie.
	Wins, Ties, Losses int
	// PT is the two-sided paired t-test p-value; PRand the two-sided paired
	// randomization test p-value (NaN when not computed).
	PT, PRand float64
}

// TieTolerance is the relative difference below which two per-topic values
// count as a tie: floating-point noise of equal readings computed in two ways
// (e.g. aveChP summed over differently cut segments). Tied topics count as a
// difference of exactly 0 in both tests.
const TieTolerance = 1e-12

// diff returns a − b, or 0 when a and b are tied.
func diff(a, b float64) float64 {
	d := a - b
	if math.Abs(d) <= TieTolerance*math.Max(1, math.Max(math.Abs(a), math.Abs(b))) {
		return 0
	}
	return d
}

// LowerIsBetter reports whether smaller values of m are better (the
// registry's direction: the cumulated effort measures CE, NCE and ANCE).
func LowerIsBetter(m effort.Measure) bool { return m.Better() == effort.Lower }

// ComparePaired compares the per-topic values a and b (same topics, same
// order). perms > 0 runs the randomization test with that many random sign
// assignments from seed; perms == 0 leaves PRand NaN.
func ComparePaired(a, b []float64, lowerBetter bool, perms int, seed uint64) Paired {
	if len(a) != len(b) {
		panic("scenario: ComparePaired on lists of different lengths")
	}
	p := Paired{N: len(a), PRand: math.NaN()}
	for i := range a {
		p.MeanA += a[i]
		p.MeanB += b[i]
		d := diff(a[i], b[i])
		if lowerBetter {
			d = -d
		}
		switch {
		case d == 0:
			p.Ties++
		case d > 0:
			p.Wins++
		default:
			p.Losses++
		}
	}
	if p.N > 0 {
		p.MeanA /= float64(p.N)
		p.MeanB /= float64(p.N)
	}
	p.Diff = p.MeanA - p.MeanB
	p.PT = PairedTTest(a, b)
	if perms > 0 {
		p.PRand = RandomizationTest(a, b, perms, seed)
	}
	return p
}

// PairedTTest returns the two-sided p-value of the paired t-test of a against
// b: t = mean(d)/(sd(d)/√n), d = a − b, with n−1 degrees of freedom (Student's
// t distribution of gonum). With fewer than two topics it is NaN; when every
// difference is the same it is 1 if they are 0 (no difference at all) and 0
// otherwise (a constant non-zero difference).
func PairedTTest(a, b []float64) float64 {
	n := len(a)
	if n < 2 {
		return math.NaN()
	}
	ds := make([]float64, n)
	mean := 0.0
	for i := range a {
		ds[i] = diff(a[i], b[i])
		mean += ds[i]
	}
	mean /= float64(n)
	ss := 0.0
	for _, d := range ds {
		ss += (d - mean) * (d - mean)
	}
	sd := math.Sqrt(ss / float64(n-1))
	if sd == 0 || sd <= 1e-14*math.Abs(mean) {
		if mean == 0 {
			return 1
		}
		return 0
	}
	t := mean / (sd / math.Sqrt(float64(n)))
	st := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}
	return math.Min(1, 2*st.Survival(math.Abs(t)))
}

// RandomizationTest returns the two-sided p-value of the paired randomization
// (permutation) test (Smucker, Allan & Carterette 2007): under the null
// hypothesis each topic's two values are exchangeable, so each difference
// d = a − b keeps or flips its sign with probability ½. The statistic is
// |Σd|; the p-value is (c+1)/(perms+1), c being the number of perms random
// sign assignments whose |Σ±d| reaches the observed one (the "+1" counts the
// observed assignment, so p is never 0). The signs come from a PCG generator
// seeded with seed: the result is reproducible, and the same for a measure
// whatever other measures are compared.
func RandomizationTest(a, b []float64, perms int, seed uint64) float64 {
	n := len(a)
	d := make([]float64, n)
	obs, scale := 0.0, 0.0
	for i := range a {
		d[i] = diff(a[i], b[i])
		obs += d[i]
		scale += math.Abs(d[i])
	}
	obs = math.Abs(obs)
	eps := 1e-9 * scale / math.Max(1, float64(n)) // summation-order noise
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	c := 0
	for k := 0; k < perms; k++ {
		s := 0.0
		var bits uint64
		for i := 0; i < n; i++ {
			if i&63 == 0 {
				bits = rng.Uint64()
			}
			if bits&1 != 0 {
				s += d[i]
			} else {
				s -= d[i]
			}
			bits >>= 1
		}
		if math.Abs(s) >= obs-eps {
			c++
		}
	}
	return float64(c+1) / float64(perms+1)
}

// EffectSize returns Cohen's d for paired samples (d_z): the mean of the
// differences a − b divided by their standard deviation (n − 1 in the
// denominator). It is NaN with fewer than two topics or when every difference
// is the same (no spread to measure the effect against).
func EffectSize(a, b []float64) float64 {
	mean, sd, n := diffStats(a, b)
	if n < 2 || sd == 0 {
		return math.NaN()
	}
	return mean / sd
}

// ConfidenceInterval returns the two-sided 95% confidence interval of the
// mean difference a − b: mean ± t(0.975, n−1)·sd/√n (Student's t). With fewer
// than two topics it is (NaN, NaN); with no spread it is the mean itself.
func ConfidenceInterval(a, b []float64) (lo, hi float64) {
	mean, sd, n := diffStats(a, b)
	if n < 2 {
		return math.NaN(), math.NaN()
	}
	st := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}
	h := st.Quantile(0.975) * sd / math.Sqrt(float64(n))
	return mean - h, mean + h
}

// diffStats returns the mean and standard deviation (n − 1) of a − b, ties
// counting 0 as in the tests.
func diffStats(a, b []float64) (mean, sd float64, n int) {
	n = len(a)
	if n == 0 {
		return math.NaN(), math.NaN(), 0
	}
	for i := range a {
		mean += diff(a[i], b[i])
	}
	mean /= float64(n)
	if n < 2 {
		return mean, math.NaN(), n
	}
	ss := 0.0
	for i := range a {
		d := diff(a[i], b[i]) - mean
		ss += d * d
	}
	sd = math.Sqrt(ss / float64(n-1))
	if sd <= 1e-14*math.Abs(mean) {
		sd = 0
	}
	return mean, sd, n
}

// Holm returns the Holm–Bonferroni adjusted p-values of a family of tests:
// with the p-values sorted ascending p₍₁₎ ≤ … ≤ p₍ₘ₎, the adjusted p₍ᵢ₎ is
// max over j ≤ i of min(1, (m − j + 1)·p₍ⱼ₎), in the input's order. Rejecting
// where the adjusted p is below α controls the family-wise error rate at α.
// NaN p-values stay NaN and do not count in m.
func Holm(ps []float64) []float64 {
	out := make([]float64, len(ps))
	idx := make([]int, 0, len(ps))
	for i, p := range ps {
		out[i] = math.NaN()
		if !math.IsNaN(p) {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(x, y int) bool { return ps[idx[x]] < ps[idx[y]] })
	m := len(idx)
	run := 0.0
	for j, i := range idx {
		v := math.Min(1, float64(m-j)*ps[i])
		run = math.Max(run, v)
		out[i] = run
	}
	return out
}
