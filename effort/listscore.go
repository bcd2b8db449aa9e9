package effort

import "math"

// The list scores of measures.md §5–7. Ranks are 1-based in the names and
// 0-based in the slices: scores[0] is the score of the document at rank 1.

// GP returns gP[k] = Σ_{j≤k} S(d_j)/k. For k past the end of the list the
// standard definition still divides by k; compatINEX repeats gP[n] instead,
// as the official INEX tool does. gP of an empty list is 0.
func GP(scores []float64, k int, compatINEX bool) float64 {
	if k <= 0 {
		return 0
	}
	n := len(scores)
	if k > n && compatINEX {
		k = n
		if k == 0 {
			return 0
		}
	}
	s := 0.0
	for j := 0; j < k && j < n; j++ {
		s += scores[j]
	}
	return s / float64(k)
}

// GR returns gR[k] = Σ_{j≤k} isrel(d_j)/Trel (0 when trel is 0).
func GR(isrel []bool, trel, k int) float64 {
	if trel <= 0 {
		return 0
	}
	c := 0
	for j := 0; j < k && j < len(isrel); j++ {
		if isrel[j] {
			c++
		}
	}
	return float64(c) / float64(trel)
}

// AgP returns (1/Trel)·Σ_r isrel(d_r)·gP[r] (0 when trel is 0).
func AgP(scores []float64, isrel []bool, trel int) float64 {
	if trel <= 0 {
		return 0
	}
	cum, sum := 0.0, 0.0
	for r, s := range scores {
		cum += s
		if isrel[r] {
			sum += cum / float64(r+1)
		}
	}
	return sum / float64(trel)
}

// AgP1 returns Pehcevski & Thom's AgP' (their eq. 8):
// Σ_r (rsize(d_r)/Trel_chars)·isrel(d_r)·gP[r].
func AgP1(scores []float64, rsize []int, trelChars int) float64 {
	if trelChars <= 0 {
		return 0
	}
	cum, sum := 0.0, 0.0
	for r, s := range scores {
		cum += s
		if rsize[r] > 0 {
			sum += float64(rsize[r]) / float64(trelChars) * (cum / float64(r+1))
		}
	}
	return sum
}

// AgP2 returns Pehcevski & Thom's AgP” (their eq. 11):
// gR'[n]·Σ_r isrel·gP[r] / Σ_r isrel, with gR'[n] = Σ_r rsize(d_r)/Trel_chars.
func AgP2(scores []float64, rsize []int, trelChars int) float64 {
	if trelChars <= 0 {
		return 0
	}
	cum, sum, nrel, chars := 0.0, 0.0, 0, 0
	for r, s := range scores {
		cum += s
		if rsize[r] > 0 {
			sum += cum / float64(r+1)
			nrel++
			chars += rsize[r]
		}
	}
	if nrel == 0 {
		return 0
	}
	return float64(chars) / float64(trelChars) * sum / float64(nrel)
}

// esAt returns ES at 0-based rank j: es[j], or nr past the end of the run.
func esAt(es []float64, j, nr int) float64 {
	if j < len(es) {
		return es[j]
	}
	return float64(nr)
}

// CE returns the cumulated effort CE[k] = Σ_{j≤k} (ES(d_j) − minES), minES = 1;
// ranks past the end of the run count as ES = nr.
func CE(es []float64, k, nr int) float64 {
	s := 0.0
	for j := 0; j < k; j++ {
		s += esAt(es, j, nr) - 1
	}
	return s
}

// NCE returns the normalised cumulated effort NCE[k] = Σ_{j≤k} (ES_j − IE_j)/IE_j
// with the ideal effort IE_j = 1 for j ≤ trel and nr after.
func NCE(es []float64, trel, k, nr int) float64 {
	s := 0.0
	for j := 0; j < k; j++ {
		ie := 1.0
		if j >= trel {
			ie = float64(nr)
		}
		s += (esAt(es, j, nr) - ie) / ie
	}
	return s
}

// ANCE returns (1/k)·Σ_{i≤k} NCE[i].
func ANCE(es []float64, trel, k, nr int) float64 {
	if k <= 0 {
		return 0
	}
	nce, sum := 0.0, 0.0
	for j := 0; j < k; j++ {
		ie := 1.0
		if j >= trel {
			ie = float64(nr)
		}
		nce += (esAt(es, j, nr) - ie) / ie
		sum += nce
	}
	return sum / float64(k)
}

// P returns binary precision at k: relevant documents in the top k, over k.
func P(isrel []bool, k int) float64 {
	if k <= 0 {
		return 0
	}
	c := 0
	for j := 0; j < k && j < len(isrel); j++ {
		if isrel[j] {
			c++
		}
	}
	return float64(c) / float64(k)
}

// AP returns binary average precision: Σ_r isrel(d_r)·P[r] / Trel.
func AP(isrel []bool, trel int) float64 {
	if trel <= 0 {
		return 0
	}
	c, sum := 0, 0.0
	for r, ok := range isrel {
		if ok {
			c++
			sum += float64(c) / float64(r+1)
		}
	}
	return sum / float64(trel)
}

// IGP returns the interpolated generalized precision at recall level x:
// the largest gP[r] over the ranks r whose gR[r] ≥ x, or 0 when gR never
// reaches x (and when trel is 0). Averaged over topics it is the official
// INEX tool's ircl_prn.x of a relevant-in-context evaluation (-r with
// F(0.25), -i with T2Ip(300)).
func IGP(scores []float64, isrel []bool, trel int, x float64) float64 {
	if trel <= 0 {
		return 0
	}
	cum, nrel, best := 0.0, 0, 0.0
	for r, s := range scores {
		cum += s
		if isrel[r] {
			nrel++
		}
		if gp := cum / float64(r+1); float64(nrel)/float64(trel) >= x && gp > best {
			best = gp
		}
	}
	return best
}

// InterpolatedGP returns IGP at the recall levels x = i/(points-1), i =
// 0…points-1: the official INEX tool's ircl_prn points of a
// relevant-in-context evaluation (its -r and -i outputs use 11 points).
// points == 1 gives the single level x = 0; points < 1 gives no point.
func InterpolatedGP(scores []float64, isrel []bool, trel, points int) []float64 {
	out := make([]float64, max(points, 0))
	den := float64(max(points-1, 1))
	for i := range out {
		out[i] = IGP(scores, isrel, trel, float64(i)/den)
	}
	return out
}

// FocusedPassage is one passage of a focused run: its length and how many of its
// characters are relevant.
type FocusedPassage struct {
	Len, RelLen int
}

// FocusedCurve holds the precision and recall after each rank of a focused run
// (measures.md §7).
type FocusedCurve struct {
	P, R []float64
}

// NewFocusedCurve computes the curve of the ranked passages ps against a topic
// with relChars relevant characters.
func NewFocusedCurve(ps []FocusedPassage, relChars int) FocusedCurve {
	c := FocusedCurve{P: make([]float64, len(ps)), R: make([]float64, len(ps))}
	c.fill(ps, relChars)
	return c
}

func (c *FocusedCurve) fill(ps []FocusedPassage, relChars int) {
	c.P, c.R = c.P[:0], c.R[:0]
	a, b := 0, 0
	for _, p := range ps {
		a += p.RelLen
		b += p.Len
		pr, rc := 0.0, 0.0
		if b > 0 {
			pr = float64(a) / float64(b)
		}
		if relChars > 0 {
			rc = float64(a) / float64(relChars)
		}
		c.P, c.R = append(c.P, pr), append(c.R, rc)
	}
}

// IP returns the interpolated precision iP[x] = max P[r] over the ranks with
// R[r] ≥ x, or 0 if recall x is never reached.
func (c FocusedCurve) IP(x float64) float64 {
	best := 0.0
	for r, rc := range c.R {
		if rc >= x && c.P[r] > best {
			best = c.P[r]
		}
	}
	return best
}

// AiP returns the mean of iP[x] over x = 0.00, 0.01, …, 1.00. The levels are
// computed as i/100, the double nearest to the decimal, as the official tool.
func (c FocusedCurve) AiP() float64 {
	pts := c.Interpolated(101)
	s := 0.0
	for _, v := range pts {
		s += v
	}
	return s / 101
}

// Interpolated returns iP at x = i/(points-1), i = 0…points-1, in O(ranks +
// points): the official -f output's ircl_prn uses 101 points. points == 1
// gives the single level x = 0; points < 1 gives no point.
func (c FocusedCurve) Interpolated(points int) []float64 {
	out := make([]float64, max(points, 0))
	den := float64(max(points-1, 1))
	// Walk ranks from the last: the running max of P over ranks with recall
	// ≥ x, for x descending.
	best := 0.0
	r := len(c.R) - 1
	for i := points - 1; i >= 0; i-- {
		x := float64(i) / den
		for ; r >= 0 && c.R[r] >= x; r-- {
			if c.P[r] > best {
				best = c.P[r]
			}
		}
		// Ranks with R[r] < x may still be followed by later ranks with
		// R ≥ x; recall is non-decreasing, so once R[r] < x all earlier ranks
		// are below x too.
		out[i] = best
	}
	return out
}

// RR returns the reciprocal rank of the first relevant document (0 when none
// is retrieved): trec_eval's recip_rank.
func RR(isrel []bool) float64 {
	for r, rel := range isrel {
		if rel {
			return 1 / float64(r+1)
		}
	}
	return 0
}

// Rprec returns the precision after R = trel documents: the relevant
// documents among the first R, divided by R (0 when trel is 0): trec_eval's
// Rprec.
func Rprec(isrel []bool, trel int) float64 {
	if trel <= 0 {
		return 0
	}
	c := 0
	for r := 0; r < trel && r < len(isrel); r++ {
		if isrel[r] {
			c++
		}
	}
	return float64(c) / float64(trel)
}

// NDCG returns the normalized discounted cumulative gain of the first k
// documents (k = 0: all), as trec_eval's ndcg and ndcg_cut compute it
// (Järvelin & Kekäläinen 2002): the gain of a document is its grade and the
// document at rank r is discounted by log₂(r+1) (rank 1 by log₂ 2 = 1, rank 2
// by log₂ 3, …); the ideal ranking orders the topic's relevant documents by
// grade (ideal, highest first). 0 when the topic has no relevant document.
func NDCG(grades []int, ideal []int, k int) float64 {
	dcg := func(g []int) float64 {
		s := 0.0
		for i, x := range g {
			if k > 0 && i >= k {
				break
			}
			if x <= 0 {
				continue
			}
			s += float64(x) / math.Log2(float64(i+2))
		}
		return s
	}
	id := dcg(ideal)
	if id <= 0 {
		return 0
	}
	return dcg(grades) / id
}
