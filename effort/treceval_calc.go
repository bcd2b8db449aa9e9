package effort

import (
	"math"
	"strings"
)

// TrecTopicGroups computes the measures ms of one topic judged by groups
// (-R qrels_jg: groups[g] is its ranking against group g's judgments)
// into v, zeroing it first. Only runid, num_q and the measures of
// TrecCheckFormat's judgment groups are computed.
func TrecTopicGroups(c *TrecConfig, groups []TrecRels, ms []*TrecMeasure, v []float64) {
	clear(v)
	k := 0
	for _, m := range ms {
		switch {
		case m.def.jg != nil:
			m.def.jg(c, groups, m, v[k:k+len(m.Names)])
		case m.def.name == "num_q":
			v[k] = 1
		}
		k += len(m.Names)
	}
}

// avgJG divides the sums over n judgment groups by n, when more than one.
func avgJG(v []float64, n int) {
	if n > 1 {
		for i := range v {
			v[i] /= float64(n)
		}
	}
}

func calcMapJG(c *TrecConfig, groups []TrecRels, _ *TrecMeasure, v []float64) {
	for g := range groups {
		r := &groups[g]
		relSoFar, sum := 0, 0.0
		for i, rel := range r.Rel {
			if rel >= c.RelevanceLevel {
				relSoFar++
				sum += float64(relSoFar) / float64(i+1)
			}
		}
		if relSoFar > 0 {
			v[0] += sum / float64(r.NumRel)
		}
	}
	avgJG(v, len(groups))
}

func calcPJG(c *TrecConfig, groups []TrecRels, m *TrecMeasure, v []float64) {
	for g := range groups {
		k, relSoFar := 0, 0
		for i, rel := range groups[g].Rel {
			if i == m.longs[k] {
				v[k] += float64(relSoFar) / float64(i)
				if k++; k == len(m.longs) {
					break
				}
			}
			if rel >= c.RelevanceLevel {
				relSoFar++
			}
		}
		for ; k < len(m.longs); k++ {
			v[k] += float64(relSoFar) / float64(m.longs[k])
		}
	}
	avgJG(v, len(groups))
}

func calcRprecMultJG(c *TrecConfig, groups []TrecRels, m *TrecMeasure, v []float64) {
	for g := range groups {
		r := &groups[g]
		cut := recallCutoffs(m.doubles, r.NumRel)
		cur := len(cut) - 1
		for cur >= 0 && cut[cur] > r.NumRet {
			v[cur] += float64(r.NumRelRet) / float64(cut[cur])
			cur--
		}
		relSoFar := r.NumRelRet
		for i := r.NumRet; i > 0 && relSoFar > 0; i-- {
			precis := float64(relSoFar) / float64(i)
			for cur >= 0 && i == cut[cur] {
				v[cur] += precis
				cur--
			}
			if r.Rel[i-1] >= c.RelevanceLevel {
				relSoFar--
			}
		}
	}
	avgJG(v, len(groups))
}

// TrecValues returns the number of values the measures give per topic and
// the index of each measure's first.
func TrecValues(ms []*TrecMeasure) (n int, at []int) {
	at = make([]int, len(ms))
	for i, m := range ms {
		at[i] = n
		n += len(m.Names)
	}
	return n, at
}

// TrecTopic computes the measures ms of one topic into v (len: TrecValues'
// n), zeroing it first.
func TrecTopic(c *TrecConfig, r *TrecRels, ms []*TrecMeasure, v []float64) error {
	clear(v)
	k := 0
	for _, m := range ms {
		if m.def.calc != nil {
			if err := m.def.calc(c, r, m, v[k:k+len(m.Names)]); err != nil {
				return err
			}
		}
		k += len(m.Names)
	}
	return nil
}

// TrecMissing zeroes, in the values v that TrecTopic computed for the
// placeholder ranking of a judged topic absent from the run (-c), the
// values trec_eval zeroes there, found by the value's name as trec_eval
// finds them: num_ret, utility, unj_*, rbp_resid (utility_2,-1,0,0 and
// rbp_resid_p=0.5, whose names carry parameters, are kept).
func TrecMissing(ms []*TrecMeasure, v []float64) {
	k := 0
	for _, m := range ms {
		for _, name := range m.Names {
			// trec_eval compares the value's name, parameters and all:
			// utility_2,-1,0,0 and rbp_resid_p=0.5 keep their values
			if name == "num_ret" || name == "utility" || name == "rbp_resid" || strings.HasPrefix(name, "unj") {
				v[k] = 0
			}
			k++
		}
	}
}

// TrecSummary turns sum, the sum of the topics' values of ms over n
// topics, into trec_eval's summary values in place: the mean, the sum
// for the counts, the geometric mean for gm_map and gm_bpref, n for num_q.
func TrecSummary(ms []*TrecMeasure, sum []float64, n int) {
	k := 0
	for _, m := range ms {
		v := sum[k : k+len(m.Names)]
		k += len(m.Names)
		if n == 0 {
			continue
		}
		switch m.def.avg {
		case avgMean:
			for i := range v {
				v[i] /= float64(n)
			}
		case avgGM:
			v[0] = math.Exp(v[0] / float64(n))
		case avgNumQ:
			v[0] = float64(n)
		}
	}
}

// TrecCompleteNumRel sets num_rel's summary in sum (after TrecSummary) as
// trec_eval does under -c: numRel, the judgments above 0 of every judged
// topic and judgment group, whatever -l says (trec_eval counts them again
// from the judgments, and -Z does not convert the count).
func TrecCompleteNumRel(ms []*TrecMeasure, sum []float64, numRel int) {
	k := 0
	for _, m := range ms {
		if m.def.name == "num_rel" {
			sum[k] = float64(numRel)
		}
		k += len(m.Names)
	}
}

// trecPrecSum is the sum of the precision at each relevant document of r
// (AP before its division by R) and the number of those documents.
func trecPrecSum(c *TrecConfig, r *TrecRels) (sum float64, relSoFar int) {
	for i, rel := range r.Rel {
		if rel >= c.RelevanceLevel {
			relSoFar++
			sum += float64(relSoFar) / float64(i+1)
		}
	}
	return sum, relSoFar
}

// trecAP is map's value of r.
func trecAP(c *TrecConfig, r *TrecRels) float64 {
	sum, relSoFar := trecPrecSum(c, r)
	if relSoFar > 0 {
		sum /= float64(r.NumRel)
	}
	return sum
}

// trecYAAP is yaap's value of r (trec_eval's m_yaap.c, after Robertson,
// "On Smoothing Average Precision", ECIR 2012): log((1 + S) / (1 + R - S)),
// S the sum of the precision at each relevant document retrieved (AP's sum
// before its division by R), R the relevant documents judged.
func trecYAAP(c *TrecConfig, r *TrecRels) float64 {
	sum, _ := trecPrecSum(c, r)
	return math.Log((1 + sum) / (1 + float64(r.NumRel) - sum))
}

// trecBpref is bpref's value of r.
func trecBpref(c *TrecConfig, r *TrecRels) float64 {
	numNonrel := 0
	for j := 0; j < c.RelevanceLevel && j < len(r.RelLevels); j++ {
		numNonrel += r.RelLevels[j]
	}
	nonrel, bpref := 0, 0.0
	for _, rel := range r.Rel {
		if rel < 0 {
			continue
		}
		if rel < c.RelevanceLevel {
			nonrel++
			continue
		}
		if nonrel > 0 {
			bpref += 1.0 - float64(min(nonrel, r.NumRel))/float64(min(numNonrel, r.NumRel))
		} else {
			bpref += 1.0
		}
	}
	if r.NumRel > 0 {
		bpref /= float64(r.NumRel)
	}
	return bpref
}

func calcRprec(c *TrecConfig, r *TrecRels, _ *TrecMeasure, v []float64) error {
	relSoFar := 0
	for j := 0; j < r.NumRel && j < r.NumRet; j++ {
		if r.Rel[j] >= c.RelevanceLevel {
			relSoFar++
		}
	}
	if r.NumRel > 0 {
		v[0] = float64(relSoFar) / float64(r.NumRel)
	}
	return nil
}

func calcRecipRank(c *TrecConfig, r *TrecRels, _ *TrecMeasure, v []float64) error {
	for i, rel := range r.Rel {
		if rel >= c.RelevanceLevel {
			v[0] = 1.0 / float64(i+1)
			break
		}
	}
	return nil
}

// atCutoffs walks r's ranks and sets v[k] to at(i, relSoFar) at each
// cutoff i = cut[k] reached (i documents seen), then the cutoffs beyond
// the ranking with at(cut[k], relSoFar) for the whole ranking: the loop
// every cutoff measure of trec_eval shares. rel tells whether a
// document counts.
func atCutoffs(r *TrecRels, cut []int, v []float64, count func(rel int) bool, at, past func(i, relSoFar int) float64) {
	k, relSoFar := 0, 0
	for i, rel := range r.Rel {
		if i == cut[k] {
			v[k] = at(i, relSoFar)
			if k++; k == len(cut) {
				break
			}
		}
		if count(rel) {
			relSoFar++
		}
	}
	for ; k < len(cut); k++ {
		v[k] = past(cut[k], relSoFar)
	}
}

func calcP(c *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
	f := func(i, n int) float64 { return float64(n) / float64(i) }
	atCutoffs(r, m.longs, v, func(rel int) bool { return rel >= c.RelevanceLevel }, f, f)
	return nil
}

func calcRecall(c *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
	if r.NumRel == 0 {
		return nil
	}
	f := func(_, n int) float64 { return float64(n) / float64(r.NumRel) }
	atCutoffs(r, m.longs, v, func(rel int) bool { return rel >= c.RelevanceLevel }, f, f)
	return nil
}

func calcSuccess(c *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
	f := func(_, n int) float64 {
		if n > 0 {
			return 1
		}
		return 0
	}
	atCutoffs(r, m.longs, v, func(rel int) bool { return rel >= c.RelevanceLevel }, f, f)
	return nil
}

func calcRelP(c *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
	if r.NumRel == 0 {
		return nil
	}
	f := func(i, n int) float64 { return float64(n) / float64(min(i, r.NumRel)) }
	atCutoffs(r, m.longs, v, func(rel int) bool { return rel >= c.RelevanceLevel }, f, f)
	return nil
}

func calcUnj(_ *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
	f := func(i, n int) float64 { return float64(n) / float64(i) }
	atCutoffs(r, m.longs, v, func(rel int) bool { return rel == TrecNonpool || rel == TrecUnjudged }, f, f)
	return nil
}

func calcMapCut(c *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
	if r.NumRel == 0 {
		return nil
	}
	k, relSoFar, sum := 0, 0, 0.0
	cut := m.longs
	for i, rel := range r.Rel {
		if i == cut[k] {
			v[k] = sum / float64(r.NumRel)
			if k++; k == len(cut) {
				return nil
			}
		}
		if rel >= c.RelevanceLevel {
			relSoFar++
			sum += float64(relSoFar) / float64(i+1)
		}
	}
	for ; k < len(cut); k++ {
		v[k] = sum / float64(r.NumRel)
	}
	return nil
}

func calcNDCGCut(_ *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
	cut := m.longs
	k, sum := 0, 0.0
	for i, rel := range r.Rel {
		if i == cut[k] {
			v[k] = sum
			if k++; k == len(cut) {
				break
			}
		}
		if gain := float64(rel); gain > 0 {
			sum += gain / math.Log2(float64(i+2))
		}
	}
	for ; k < len(cut); k++ {
		v[k] = sum
	}
	k = 0
	lvl, count, ideal := r.NumRelLevels-1, 0, 0.0
	for i := 0; ; i++ {
		count++
		for lvl > 0 && count > r.RelLevels[lvl] {
			lvl--
			count = 1
		}
		if lvl <= 0 {
			break
		}
		if i == cut[k] {
			if ideal > 0 {
				v[k] /= ideal
			}
			if k++; k == len(cut) {
				break
			}
		}
		ideal += float64(lvl) / math.Log2(float64(i+2))
	}
	for ; k < len(cut); k++ {
		if ideal > 0 {
			v[k] /= ideal
		}
	}
	return nil
}

// recallCutoffs turns the recall levels of m into numbers of relevant
// documents as Rprec_mult does in every trec_eval: (long)(x·R + 0.9).
func recallCutoffs(xs []float64, numRel int) []int {
	cut := make([]int, len(xs))
	for i, x := range xs {
		cut[i] = int(x*float64(numRel) + 0.9)
	}
	return cut
}

// recallLevels turns the recall levels of iprec_at_recall and 11pt_avg
// into numbers of relevant documents: trec_eval 10 rounds, lround(x·R)
// (half away from zero); trec_eval 9 and before (c.Compat 9) added 0.9
// and truncated, (long)(x·R + 0.9).
func recallLevels(c *TrecConfig, xs []float64, numRel int) []int {
	if c.Compat == 9 {
		return recallCutoffs(xs, numRel)
	}
	cut := make([]int, len(xs))
	for i, x := range xs {
		cut[i] = int(math.Round(x * float64(numRel)))
	}
	return cut
}

// interpolated calls set(k, p) with the interpolated precision at each
// cutoff k of cut (numbers of relevant documents, increasing), as
// iprec_at_recall and 11pt_avg compute it.
func interpolated(c *TrecConfig, r *TrecRels, cut []int, set func(k int, p float64)) {
	cur := len(cut) - 1
	for cur >= 0 && cut[cur] > r.NumRelRet {
		cur--
	}
	precis := float64(r.NumRelRet) / float64(r.NumRet)
	ip := precis
	relSoFar := r.NumRelRet
	for i := r.NumRet; i > 0 && relSoFar > 0; i-- {
		precis = float64(relSoFar) / float64(i)
		if ip < precis {
			ip = precis
		}
		if r.Rel[i-1] >= c.RelevanceLevel {
			for cur >= 0 && relSoFar == cut[cur] {
				set(cur, ip)
				cur--
			}
			relSoFar--
		}
	}
	for ; cur >= 0; cur-- {
		set(cur, ip)
	}
}

func calcIprec(c *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
	interpolated(c, r, recallLevels(c, m.doubles, r.NumRel), func(k int, p float64) { v[k] = p })
	return nil
}

func calc11pt(c *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
	if len(m.doubles) == 0 {
		return &TrecError{"11pt_avg: no cutoff"}
	}
	sum := 0.0
	interpolated(c, r, recallLevels(c, m.doubles, r.NumRel), func(_ int, p float64) { sum += p })
	v[0] = sum / float64(len(m.doubles))
	return nil
}

func calcRprecMult(c *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
	cut := recallCutoffs(m.doubles, r.NumRel)
	cur := len(cut) - 1
	for cur >= 0 && cut[cur] > r.NumRet {
		v[cur] = float64(r.NumRelRet) / float64(cut[cur])
		cur--
	}
	relSoFar := r.NumRelRet
	for i := r.NumRet; i > 0 && relSoFar > 0; i-- {
		precis := float64(relSoFar) / float64(i)
		for cur >= 0 && i == cut[cur] {
			v[cur] = precis
			cur--
		}
		if r.Rel[i-1] >= c.RelevanceLevel {
			relSoFar--
		}
	}
	return nil
}

func calcUtility(c *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
	p := m.doubles
	v[0] = p[0]*float64(r.NumRelRet) +
		p[1]*float64(r.NumRet-r.NumRelRet) +
		p[2]*float64(r.NumRel-r.NumRelRet) +
		p[3]*float64(c.NumDocsInColl+r.NumRelRet-r.NumRet-r.NumRel)
	return nil
}

func calcInfAP(c *TrecConfig, r *TrecRels, _ *TrecMeasure, v []float64) error {
	nonrel, rel, unjudged := 0, 0, 0
	ap := 0.0
	for j, x := range r.Rel {
		switch {
		case x == TrecNonpool:
			continue
		case x == TrecUnjudged:
			unjudged++
			continue
		case x >= 0 && x < c.RelevanceLevel:
			nonrel++
			continue
		}
		rel++
		if j == 0 {
			ap += 1.0
			continue
		}
		fj := float64(j)
		ap += 1.0/(fj+1.0) +
			(fj/(fj+1.0))*
				(float64(rel-1+nonrel+unjudged)/fj)*
				((float64(rel-1)+trecInfAPEpsilon)/(float64(rel-1+nonrel)+2*trecInfAPEpsilon))
	}
	if r.NumRel > 0 {
		ap /= float64(r.NumRel)
	}
	v[0] = ap
	return nil
}

func calcBinG(c *TrecConfig, r *TrecRels, _ *TrecMeasure, v []float64) error {
	relSoFar, sum := 0, 0.0
	for i, rel := range r.Rel {
		if rel >= c.RelevanceLevel {
			relSoFar++
			sum += 1.0 / math.Log2(float64(3+i-relSoFar))
		}
	}
	if relSoFar > 0 {
		v[0] = sum / float64(r.NumRel)
	}
	return nil
}

func calcRBPResid(_ *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
	p := m.persistence()
	unj, sum, cur := 0, 0.0, 1.0
	for _, rel := range r.Rel {
		if rel < 0 {
			unj++
			sum += cur
		}
		cur = cur * p
	}
	if unj > 0 {
		v[0] = cur + (1-p)*sum
	}
	return nil
}
