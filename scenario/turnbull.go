package scenario

// The tolerance estimator of Calibrate: the nonparametric maximum-likelihood
// estimate (Turnbull) of an interval-censored distribution, its median and
// a bootstrap interval of the median.

import (
	"math"
	"math/rand/v2"
	"sort"
)

// turnbullMedian returns the median of the nonparametric maximum-likelihood
// estimate of the distribution of a tolerance observed in the intervals
// obs (weighted by w; nil: 1 each), the innermost interval it lies in (the
// recordings cannot place it more precisely), and whether it is bounded:
// when the median falls in an innermost interval (l, ∞) it returns l and
// false.
func turnbullMedian(obs []interval, w []float64) (int, interval, bool) {
	return turnbullQuantile(obs, w, 0.5)
}

// turnbullQuantile is turnbullMedian for the quantile p (0 < p < 1): the
// first character at which the estimated distribution reaches p.
func turnbullQuantile(obs []interval, w []float64, p float64) (int, interval, bool) {
	cells, mass := turnbull(obs, w)
	prev := 0.0
	for j, c := range cells {
		cum := prev + mass[j]
		if cum < p-1e-9 && j < len(cells)-1 {
			prev = cum
			continue
		}
		if c.Hi == unbounded {
			return c.Lo, c, false
		}
		// the cell's mass spread evenly over its characters Lo+1 … Hi
		width := c.Hi - c.Lo
		k := width
		if mass[j] > 0 {
			k = int(math.Ceil((p-prev)/mass[j]*float64(width) - 1e-9))
		}
		return c.Lo + min(max(k, 1), width), c, true
	}
	return 0, interval{}, false // no observation
}

// turnbull returns the innermost intervals of obs (w: their weights, nil
// for 1 each; an interval of weight 0 is left out) in increasing order and
// the mass the NPMLE gives each: rounds of a self-consistency (EM) step,
// in which every interval's weight is shared among the innermost intervals
// it holds in proportion to their mass, and an iterative convex minorant
// step (npmle.round).
func turnbull(obs []interval, w []float64) ([]interval, []float64) {
	cells, spans, total := innermost(obs, w)
	m := len(cells)
	if m == 0 {
		return nil, nil
	}
	mass := make([]float64, m)
	for j := range mass {
		mass[j] = 1 / float64(m)
	}
	if m == 1 {
		return cells, mass
	}
	n := newNPMLE(spans, m, total)
	for iter := 0; iter < 1000; iter++ {
		if n.round(mass) < 1e-10 {
			break
		}
	}
	return cells, mass
}

// cellSpan is an observed interval as the run [first, last] of innermost
// intervals it holds, with its weight.
type cellSpan struct {
	first, last int
	w           float64
}

// innermost returns the innermost intervals (Turnbull's cells) of obs in
// increasing order, each observation as its run of cells, and the total
// weight (w as turnbull's).
func innermost(obs []interval, w []float64) ([]interval, []cellSpan, float64) {
	type end struct {
		at    int
		right bool
	}
	ends := make([]end, 0, 2*len(obs))
	total := 0.0
	for i, o := range obs {
		if w != nil && w[i] == 0 {
			continue
		}
		ends = append(ends, end{o.Lo, false}, end{o.Hi, true})
		if w == nil {
			total++
		} else {
			total += w[i]
		}
	}
	// (l, r] and (r, …] do not meet: at a tie a right end comes first
	sort.Slice(ends, func(i, j int) bool {
		if ends[i].at != ends[j].at {
			return ends[i].at < ends[j].at
		}
		return ends[i].right && !ends[j].right
	})
	var cells []interval
	for i := 1; i < len(ends); i++ {
		if !ends[i-1].right && ends[i].right {
			cells = append(cells, interval{ends[i-1].at, ends[i].at})
		}
	}
	if len(cells) == 0 {
		return nil, nil, total
	}
	spans := make([]cellSpan, 0, len(obs))
	for i, o := range obs {
		wi := 1.0
		if w != nil {
			if wi = w[i]; wi == 0 {
				continue
			}
		}
		first := sort.Search(len(cells), func(k int) bool { return cells[k].Lo >= o.Lo })
		last := sort.Search(len(cells), func(k int) bool { return cells[k].Hi > o.Hi }) - 1
		spans = append(spans, cellSpan{first, last, wi})
	}
	return cells, spans, total
}

// npmle is the state of Turnbull's NPMLE over m cells: the observations as
// runs of cells and the buffers of its rounds.
//
// Each round is the hybrid of Wellner and Zhan (1997): an EM step, then an
// iterative convex minorant step (Groeneboom and Wellner 1992; Jongbloed
// 1998) on the distribution function F at the cells' right ends (F[0] = 0,
// F[m] = 1): a Newton step with the Hessian's diagonal, projected on the
// nondecreasing functions by weighted isotonic regression, halved until
// the likelihood grows enough. Until F moves by less than 1e-10 (EM alone
// can take thousands of rounds).
type npmle struct {
	spans                  []cellSpan
	m                      int
	total                  float64
	prefix, diff           []float64
	F, next, grad, hess, y []float64
	prob                   []float64
	pava                   isotonic
}

func newNPMLE(spans []cellSpan, m int, total float64) *npmle {
	return &npmle{spans: spans, m: m, total: total,
		prefix: make([]float64, m+1), diff: make([]float64, m+1),
		F: make([]float64, m+1), next: make([]float64, m+1), grad: make([]float64, m+1),
		hess: make([]float64, m+1), y: make([]float64, m+1), prob: make([]float64, len(spans))}
}

// em writes into dst the self-consistency step from p.
func (n *npmle) em(dst, p []float64) {
	for j, v := range p {
		n.prefix[j+1] = n.prefix[j] + v
	}
	clear(n.diff)
	for _, s := range n.spans {
		if den := n.prefix[s.last+1] - n.prefix[s.first]; den > 0 {
			n.diff[s.first] += s.w / den
			n.diff[s.last+1] -= s.w / den
		}
	}
	run := 0.0
	for j, v := range p {
		run += n.diff[j]
		dst[j] = v * run / n.total
	}
}

// loglik is the log-likelihood of the distribution function F; it keeps
// each observation's probability in n.prob.
func (n *npmle) loglik(F []float64) float64 {
	ll := 0.0
	for i, s := range n.spans {
		p := F[s.last+1] - F[s.first]
		if p <= 0 {
			return math.Inf(-1)
		}
		n.prob[i] = p
		ll += s.w * math.Log(p)
	}
	return ll
}

// round updates mass by one EM step and one iterative convex minorant
// step, and returns how far F moved.
func (n *npmle) round(mass []float64) float64 {
	m, F, next := n.m, n.F, n.next
	n.em(mass, mass)
	for j, v := range mass {
		F[j+1] = F[j] + v
	}
	F[m] = 1
	ll := n.loglik(F)
	clear(n.grad)
	clear(n.hess)
	for i, s := range n.spans {
		d, h := s.w/n.prob[i], s.w/(n.prob[i]*n.prob[i])
		n.grad[s.last+1] += d
		n.hess[s.last+1] += h
		n.grad[s.first] -= d
		n.hess[s.first] += h
	}
	for k := 1; k < m; k++ {
		n.y[k] = F[k]
		if n.hess[k] > 0 {
			n.y[k] += n.grad[k] / n.hess[k]
		}
	}
	z := n.pava.fit(n.y[1:m], n.hess[1:m])
	slope := 0.0
	for k := 1; k < m; k++ {
		z[k-1] = min(max(z[k-1], 0), 1)
		slope += n.grad[k] * (z[k-1] - F[k])
	}
	moved := 0.0
	for lambda := 1.0; lambda > 1e-9; lambda /= 2 {
		next[0], next[m] = 0, 1
		moved = 0
		for k := 1; k < m; k++ {
			next[k] = F[k] + lambda*(z[k-1]-F[k])
			moved = max(moved, math.Abs(next[k]-F[k]))
		}
		if n.loglik(next) >= ll+1e-4*lambda*slope {
			break
		}
		moved = 0
		copy(next, F)
	}
	for j := range mass {
		mass[j] = max(next[j+1]-next[j], 0)
	}
	return moved
}

// isotonic is weighted isotonic regression by pool-adjacent-violators,
// with its buffers.
type isotonic struct {
	val, wt []float64
	size    []int
	out     []float64
}

// fit returns the nondecreasing sequence closest to y in the squares
// weighted by w (a weight of 0 counts as a tiny one).
func (r *isotonic) fit(y, w []float64) []float64 {
	r.val, r.wt, r.size = r.val[:0], r.wt[:0], r.size[:0]
	for i, v := range y {
		wi := max(w[i], 1e-300)
		r.val, r.wt, r.size = append(r.val, v), append(r.wt, wi), append(r.size, 1)
		for n := len(r.val); n > 1 && r.val[n-2] > r.val[n-1]; n = len(r.val) {
			tw := r.wt[n-2] + r.wt[n-1]
			r.val[n-2] = (r.val[n-2]*r.wt[n-2] + r.val[n-1]*r.wt[n-1]) / tw
			r.wt[n-2] = tw
			r.size[n-2] += r.size[n-1]
			r.val, r.wt, r.size = r.val[:n-1], r.wt[:n-1], r.size[:n-1]
		}
	}
	r.out = r.out[:0]
	for b, v := range r.val {
		for range r.size[b] {
			r.out = append(r.out, v)
		}
	}
	return r.out
}

// bootstrapMedian returns the 95% bootstrap interval of the median over b
// resamples of the visits: the 2.5th percentile of the first character of
// the innermost interval holding each resample's median, and the 97.5th
// of its last (+Inf when unbounded): the interval covers both the sampling
// variation and what the screens leave unresolved.
func bootstrapMedian(obs []interval, b int, seed uint64) (float64, float64) {
	// resample the distinct intervals' counts
	index := map[interval]int{}
	var uniq []interval
	of := make([]int, len(obs))
	for i, o := range obs {
		k, ok := index[o]
		if !ok {
			k = len(uniq)
			index[o] = k
			uniq = append(uniq, o)
		}
		of[i] = k
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	lows, highs := make([]float64, b), make([]float64, b)
	w := make([]float64, len(uniq))
	for i := range lows {
		clear(w)
		for range obs {
			w[of[rng.IntN(len(obs))]]++
		}
		_, cell, _ := turnbullMedian(uniq, w)
		lows[i], highs[i] = float64(cell.Lo+1), math.Inf(1)
		if cell.Hi != unbounded {
			highs[i] = float64(cell.Hi)
		}
	}
	sort.Float64s(lows)
	sort.Float64s(highs)
	return lows[int(0.025*float64(b-1))], highs[int(math.Ceil(0.975*float64(b-1)))]
}
