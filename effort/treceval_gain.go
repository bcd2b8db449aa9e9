package effort

import (
	"math"
	"slices"
	"strconv"
)

// The graded measures of trec_eval (ndcg, dcg, ideal_dcg, ndcg_rel,
// Rndcg, G, rbp): a gain per relevance level, the level itself unless a
// level=gain parameter sets it (trec_eval's gain_init.c).

type trecGain struct {
	level int
	gain  float64
	count int // the topic's judgments at the level
}

// trecGains is setup_gains: the parameters' levels first, then every level
// 0…NumRelLevels-1 not among them with its own value as gain, sorted by
// gain, increasing (compared as trec_eval does: the integer part of the
// difference).
func trecGains(m *TrecMeasure, r *TrecRels) []trecGain {
	gs := make([]trecGain, 0, r.NumRelLevels+len(m.pairs))
	for _, p := range m.pairs {
		if !validInt(p.name) {
			continue
		}
		lvl, _ := strconv.Atoi(p.name)
		gs = append(gs, trecGain{level: lvl, gain: p.value})
	}
	for i := 0; i < r.NumRelLevels; i++ {
		j := slices.IndexFunc(gs, func(g trecGain) bool { return g.level == i })
		if j >= 0 {
			gs[j].count = r.RelLevels[i]
		} else {
			gs = append(gs, trecGain{level: i, gain: float64(i), count: r.RelLevels[i]})
		}
	}
	slices.SortStableFunc(gs, func(a, b trecGain) int { return int(a.gain - b.gain) })
	return gs
}

// validInt is gain_init.c's valid_int: an optional sign, then digits.
func validInt(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func gainOf(rel int, gs []trecGain) float64 {
	for _, g := range gs {
		if g.level == rel {
			return g.gain
		}
	}
	return 0
}

// idealWalk steps through the ideal ranking's gains: next returns the gain
// at the next rank (0 once past the last positive one).
type idealWalk struct {
	gs    []trecGain
	level int
	n     int
	gain  float64
}

func newIdealWalk(gs []trecGain) *idealWalk {
	w := &idealWalk{gs: gs, level: len(gs) - 1}
	if w.level >= 0 {
		w.gain = gs[w.level].gain
	}
	return w
}

func (w *idealWalk) next() float64 {
	w.n++
	for w.level >= 0 && w.n > w.gs[w.level].count {
		w.n = 1
		w.level--
		w.gain = 0
		if w.level >= 0 {
			w.gain = w.gs[w.level].gain
		}
	}
	return w.gain
}

func calcNDCG(_ *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
	gs := trecGains(m, r)
	w := newIdealWalk(gs)
	dcg, ideal := 0.0, 0.0
	i := 0
	for ; i < r.NumRet && w.gain > 0; i++ {
		if g := gainOf(r.Rel[i], gs); g != 0 {
			dcg += g / math.Log2(float64(i+2))
		}
		if g := w.next(); g > 0 {
			ideal += g / math.Log2(float64(i+2))
		}
	}
	for ; i < r.NumRet; i++ {
		if g := gainOf(r.Rel[i], gs); g != 0 {
			dcg += g / math.Log2(float64(i+2))
		}
	}
	for ; w.gain > 0; i++ {
		if g := w.next(); g > 0 {
			ideal += g / math.Log2(float64(i+2))
		}
	}
	switch m.def.name {
	case "ndcg":
		if ideal > 0 {
			v[0] = dcg / ideal
		}
	case "dcg":
		v[0] = dcg
	default:
		v[0] = ideal
	}
	return nil
}

func calcNDCGRel(_ *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
	gs := trecGains(m, r)
	w := newIdealWalk(gs)
	dcg, ideal, sum := 0.0, 0.0, 0.0
	numRelRet, numRel := 0, 0
	i := 0
	for ; i < r.NumRet && w.gain > 0; i++ {
		g := gainOf(r.Rel[i], gs)
		if g != 0 {
			dcg += g / math.Log2(float64(i+2))
		}
		if ig := w.next(); ig > 0 {
			numRel++
			ideal += ig / math.Log2(float64(i+2))
		}
		if g > 0 {
			sum += dcg / ideal
			numRelRet++
		}
	}
	for ; i < r.NumRet; i++ {
		g := gainOf(r.Rel[i], gs)
		if g != 0 {
			dcg += g / math.Log2(float64(i+2))
		}
		if g > 0 {
			sum += dcg / ideal
			numRelRet++
		}
	}
	for ; w.gain > 0; i++ {
		if ig := w.next(); ig > 0 {
			numRel++
			ideal += ig / math.Log2(float64(i+2))
		}
	}
	sum += float64(numRel-numRelRet) * dcg / ideal
	if sum > 0 {
		v[0] = sum / float64(numRel)
	}
	return nil
}

func calcRNDCG(_ *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
	gs := trecGains(m, r)
	if r.NumRel == 0 {
		return nil
	}
	w := newIdealWalk(gs)
	dcg, ideal, sum := 0.0, 0.0, 0.0
	old := w.gain
	changed := 0
	i := 0
	for ; i < r.NumRet && w.gain > 0; i++ {
		g := gainOf(r.Rel[i], gs)
		ig := w.next()
		if old != ig {
			if ideal > 0 {
				sum += dcg / ideal
				changed++
			}
			old = ig
		}
		if g != 0 {
			dcg += g / math.Log2(float64(i+2))
		}
		if ig > 0 {
			ideal += ig / math.Log2(float64(i+2))
		}
	}
	if i < r.NumRet {
		for ; i < r.NumRet; i++ {
			if g := gainOf(r.Rel[i], gs); g != 0 {
				dcg += g / math.Log2(float64(i+2))
			}
		}
		if ideal > 0 {
			sum += dcg / ideal
			changed++
		}
	}
	for ; w.gain > 0; i++ {
		ig := w.next()
		if old != ig {
			if ideal > 0 {
				sum += dcg / ideal
				changed++
			}
			old = ig
		}
		if ig > 0 {
			ideal += ig / math.Log2(float64(i+2))
		}
	}
	v[0] = sum / float64(changed)
	return nil
}

func calcG(_ *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
	gs := trecGains(m, r)
	w := newIdealWalk(gs)
	resultsG, sumResults, sumIdeal, sumCost := 0.0, 0.0, 0.0, 0.0
	const minCost = 1.0
	i := 0
	for ; i < r.NumRet && w.gain > 0; i++ {
		g := gainOf(r.Rel[i], gs)
		sumResults += g
		ig := w.next()
		if ig > 0 {
			sumIdeal += ig
		}
		if ig >= minCost {
			sumCost += ig
		} else {
			sumCost += minCost
		}
		if g != 0 {
			resultsG += g / math.Log2(2+sumCost-sumResults)
		}
	}
	for ; i < r.NumRet; i++ {
		g := gainOf(r.Rel[i], gs)
		sumResults += g
		sumCost += minCost
		if g != 0 {
			resultsG += g / math.Log2(2+sumCost-sumResults)
		}
	}
	for ; w.gain > 0; i++ {
		if ig := w.next(); ig > 0 {
			sumIdeal += ig
		}
	}
	if sumIdeal > 0 {
		v[0] = resultsG / sumIdeal
	}
	return nil
}

// calcRBP is rbp: gains outside [0, 1] are scaled into it by the least and
// greatest gain (trec_eval starts both from an uninitialized variable;
// readsim from 0, what it holds in practice).
func calcRBP(_ *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
	p := m.persistence()
	gs := trecGains(m, r)
	lo, hi := 0.0, 0.0
	for _, g := range gs {
		lo, hi = min(lo, g.gain), max(hi, g.gain)
	}
	if lo < 0 || hi > 1 {
		for k := range gs {
			gs[k].gain = (gs[k].gain - lo) / (hi - lo)
		}
	}
	sum, cur := 0.0, 1.0
	for _, rel := range r.Rel {
		if g := gainOf(rel, gs); g != 0 {
			sum += g * cur
		}
		cur = cur * p
	}
	v[0] = (1.0 - p) * sum
	return nil
}

// persistence is rbp's and rbp_resid's p: the parameter p=x, 0.9 without.
func (m *TrecMeasure) persistence() float64 {
	p := 0.9
	for _, pr := range m.pairs {
		if pr.name == "p" {
			p = pr.value
		}
	}
	return p
}
