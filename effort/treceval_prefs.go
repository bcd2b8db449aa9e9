package effort

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// TrecPref is one line of trec_eval's preference judgments (-R prefs:
// "topic group subgroup document level"; -R qrels_prefs: TREC qrels whose
// second column is the group, every line in subgroup "0"). Within a
// subgroup (JSG) a document is preferred to every document of a lower
// level; the subgroups of a group (JG) are one assessor's partial order,
// closed under transitivity; level 0 means non-relevant (docs/trec_eval.md).
type TrecPref struct {
	JG, JSG string
	Level   float64
	Docno   string
}

// TrecPrefError is a topic's preferences that trec_eval refuses (or on
// which it aborts): a document at two levels of one subgroup, at level 0
// and above 0 in one group, or preferences of a group in a cycle.
type TrecPrefError struct{ Msg string }

func (e *TrecPrefError) Error() string { return e.Msg }

// trecPrefJG is one judgment group's preferences against a ranking, as
// trec_eval's form_prefs_counts.c counts them. Documents are numbered by
// their "docid rank": the judged documents retrieved in rank order
// (0…njr-1), then those not retrieved in byte order of their names.
type trecPrefJG struct {
	// ecs, for a group of one subgroup, are its equivalence classes
	// (documents of one level, by decreasing level), each its docid ranks
	// in increasing order; nil for a group of several subgroups.
	ecs [][]int
	// pa (n×n) is the preference array of a group of several subgroups:
	// pa[i*n+j] when i is preferred to j; rel the level of each document
	// in the group (-1: not in it).
	pa  []bool
	rel []float64

	fulRet, possRet, fulImp, possImp, notOccur int
	nonrel, nonrelRet, numRel, relRet          int
}

// trecPrefCounts are a topic's preferences counted against its ranking.
type trecPrefCounts struct {
	jgs     []trecPrefJG
	nj, njr int
	// ca[i*nj+j] counts the groups preferring i to j.
	ca []int
}

type trecPrefRanked struct {
	TrecPref
	rank int
}

// trecFormPrefs counts prefs (one topic's) against docs as trec_eval's
// form_prefs_counts does: docs ranked by score, ties by document name
// increasing, cut to c.MaxDocs.
func trecFormPrefs(c *TrecConfig, prefs []TrecPref, docs []TrecDoc) (*trecPrefCounts, error) {
	d := slices.Clone(docs)
	slices.SortFunc(d, func(a, b TrecDoc) int {
		if a.Sim != b.Sim {
			if a.Sim > b.Sim {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Docno, b.Docno)
	})
	if c.MaxDocs > 0 && len(d) > c.MaxDocs {
		d = d[:c.MaxDocs]
	}
	seen := make(map[string]bool, len(d))
	for _, x := range d {
		if seen[x.Docno] {
			return nil, &TrecDuplicateError{Docno: x.Docno}
		}
		seen[x.Docno] = true
	}
	judged, nj, njr := trecPrefRanks(prefs, d)
	par := make([]trecPrefRanked, len(prefs))
	for i, p := range prefs {
		par[i] = trecPrefRanked{p, judged[p.Docno]}
	}
	slices.SortStableFunc(par, func(a, b trecPrefRanked) int {
		if c := strings.Compare(a.JG, b.JG); c != 0 {
			return c
		}
		if c := strings.Compare(a.JSG, b.JSG); c != 0 {
			return c
		}
		if a.Level != b.Level {
			if a.Level > b.Level {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.rank, b.rank)
	})
	pc := &trecPrefCounts{nj: nj, njr: njr, ca: make([]int, nj*nj)}
	for start := 0; start < len(par); {
		end, subgroups := start, 0
		for ; end < len(par) && par[end].JG == par[start].JG; end++ {
			if end == start || par[end].JSG != par[end-1].JSG {
				subgroups++
			}
		}
		var jg trecPrefJG
		var err error
		if subgroups > 1 {
			err = pc.formPA(&jg, par[start:end])
		} else {
			err = pc.formEC(&jg, par[start:end])
		}
		if err != nil {
			return nil, err
		}
		pc.jgs = append(pc.jgs, jg)
		start = end
	}
	return pc, nil
}

// trecPrefRanks numbers the judged documents of prefs as trec_eval's
// form_prefs_counts does: those retrieved (in d) first, in ranking order,
// then the others by name. It returns each document's number, how many
// are judged (nj) and how many of them are retrieved (njr).
func trecPrefRanks(prefs []TrecPref, d []TrecDoc) (judged map[string]int, nj, njr int) {
	judged = make(map[string]int, len(prefs))
	for _, p := range prefs {
		judged[p.Docno] = -1
	}
	njr = 0
	for _, x := range d {
		if r, ok := judged[x.Docno]; ok && r < 0 {
			judged[x.Docno] = njr
			njr++
		}
	}
	var unret []string
	for name, r := range judged {
		if r < 0 {
			unret = append(unret, name)
		}
	}
	slices.Sort(unret)
	for i, name := range unret {
		judged[name] = njr + i
	}
	return judged, njr + len(unret), njr
}

// formEC counts a group of one subgroup (trec_eval's form_jg_ec and
// add_ec_pref_to_jg).
func (pc *trecPrefCounts) formEC(jg *trecPrefJG, ps []trecPrefRanked) error {
	for i, p := range ps {
		if i == 0 || p.Level != ps[i-1].Level {
			jg.ecs = append(jg.ecs, nil)
		}
		jg.ecs[len(jg.ecs)-1] = append(jg.ecs[len(jg.ecs)-1], p.rank)
	}
	levels := make([]float64, 0, len(jg.ecs))
	for i, p := range ps {
		if i == 0 || p.Level != ps[i-1].Level {
			levels = append(levels, p.Level)
		}
	}
	// trec_eval counts a group's classes as the changes of level from -3
	// (its "illegal" level), so a group whose highest level is -3 loses
	// its last class
	if ps[0].Level == -3 {
		jg.ecs, levels = jg.ecs[:len(jg.ecs)-1], levels[:len(levels)-1]
	}
	njr := pc.njr
	for e1, ec1 := range jg.ecs {
		ret := 0
		for ret < len(ec1) && ec1[ret] < njr {
			ret++
		}
		if levels[e1] > 0 {
			jg.relRet += ret
			jg.numRel += len(ec1)
		} else {
			jg.nonrelRet += ret
			jg.nonrel += len(ec1)
		}
		for _, ec2 := range jg.ecs[e1+1:] {
			for _, r1 := range ec1 {
				for _, r2 := range ec2 {
					pc.ca[r1*pc.nj+r2]++
					if r1 == r2 {
						return &TrecPrefError{fmt.Sprintf("group %s: document %s at two levels of one subgroup (trec_eval: Internal docid %d occurs with different rel_level in same jsg)", ps[0].JG, pc.docName(ps, r1), r1)}
					}
					jg.add(r1, r2, njr)
				}
			}
		}
	}
	jg.finish()
	return nil
}

// add counts the preference of the document of docid rank p to that of
// rank q (njr: the judged documents retrieved): fulfilled when p is first,
// among the retrieved (both retrieved) or by implication (q not
// retrieved); failed when q is first and retrieved; neither when neither
// is retrieved.
func (jg *trecPrefJG) add(p, q, njr int) {
	switch {
	case p < q && q < njr:
		jg.fulRet++
	case p < q && p < njr:
		jg.fulImp++
	case p > q && p < njr:
		jg.possRet++
	case p > q && q < njr:
		jg.possImp++
	default:
		jg.notOccur++
	}
}

// finish makes the possible counts include the fulfilled ones.
func (jg *trecPrefJG) finish() {
	jg.possRet += jg.fulRet
	jg.possImp += jg.fulImp
}

func (pc *trecPrefCounts) docName(ps []trecPrefRanked, rank int) string {
	for _, p := range ps {
		if p.rank == rank {
			return p.Docno
		}
	}
	return "?"
}

// formPA counts a group of several subgroups (trec_eval's form_jg_pa,
// add_transitives and add_pa_pref_to_jg): the transitive closure of the
// subgroups' preferences.
func (pc *trecPrefCounts) formPA(jg *trecPrefJG, ps []trecPrefRanked) error {
	n := pc.nj
	jg.pa = make([]bool, n*n)
	jg.rel = make([]float64, n)
	for i := range jg.rel {
		jg.rel[i] = -1
	}
	for i, p := range ps {
		cur := jg.rel[p.rank]
		if (cur > 0 && p.Level == 0) || (cur == 0 && p.Level > 0) {
			return &TrecPrefError{fmt.Sprintf("group %s: document %s at level 0 and above 0 (trec_eval: has both 0 and non-0 rel_level assigned)", p.JG, p.Docno)}
		}
		jg.rel[p.rank] = p.Level
		j := i + 1
		for j < len(ps) && ps[j].JSG == p.JSG && ps[j].Level == p.Level {
			j++
		}
		for ; j < len(ps) && ps[j].JSG == p.JSG; j++ {
			jg.pa[p.rank*n+ps[j].rank] = true
		}
	}
	// transitive closure (Warshall): what trec_eval's repeated products
	// of the array with itself reach
	a := jg.pa
	for k := range n {
		for i := range n {
			if !a[i*n+k] || i == k {
				continue
			}
			for j := range n {
				if a[k*n+j] {
					a[i*n+j] = true
				}
			}
		}
	}
	for i := range n {
		a[i*n+i] = false
	}
	for i := range n {
		for j := range n {
			if i != j && a[i*n+j] && a[j*n+i] {
				return &TrecPrefError{fmt.Sprintf("group %s: documents %s and %s are each preferred to the other (trec_eval: Pref inconsistency found, and aborts)", ps[0].JG, pc.docName(ps, i), pc.docName(ps, j))}
			}
		}
	}
	njr := pc.njr
	for i, r := range jg.rel {
		switch {
		case r > 0:
			jg.numRel++
			if i < njr {
				jg.relRet++
			}
		case r == 0:
			jg.nonrel++
			if i < njr {
				jg.nonrelRet++
			}
		}
	}
	for i := range n {
		for j := range n {
			if i == j || !a[i*n+j] {
				continue
			}
			pc.ca[i*n+j]++
			jg.add(i, j, njr)
		}
	}
	jg.finish()
	return nil
}

// trecPrefKind selects which preferences a measure counts: all (pairs
// neither retrieved count as failures), ret (both retrieved), imp (at
// least one retrieved).
type trecPrefKind int

const (
	prefAll trecPrefKind = iota
	prefRet
	prefImp
)

func (jg *trecPrefJG) fulPoss(k trecPrefKind) (ful, poss int) {
	ful, poss = jg.fulRet, jg.possRet
	if k != prefRet {
		ful += jg.fulImp
		poss += jg.possImp
	}
	if k == prefAll {
		poss += jg.notOccur
	}
	return ful, poss
}

func prefsSimp(k trecPrefKind) func(*trecPrefCounts, []float64) {
	return func(pc *trecPrefCounts, v []float64) {
		ful, poss := 0, 0
		for i := range pc.jgs {
			f, p := pc.jgs[i].fulPoss(k)
			ful += f
			poss += p
		}
		if poss != 0 {
			v[0] = float64(ful) / float64(poss)
		}
	}
}

func prefsAvgJG(k trecPrefKind) func(*trecPrefCounts, []float64) {
	return func(pc *trecPrefCounts, v []float64) {
		sum := 0.0
		for i := range pc.jgs {
			if f, p := pc.jgs[i].fulPoss(k); p != 0 {
				sum += float64(f) / float64(p)
			}
		}
		if sum > 0 {
			v[0] = sum / float64(len(pc.jgs))
		}
	}
}

func prefsPair(k trecPrefKind) func(*trecPrefCounts, []float64) {
	return func(pc *trecPrefCounts, v []float64) {
		n, njr, ca := pc.nj, pc.njr, pc.ca
		sum, pairs := 0.0, 0
		add := func(i, j int, count bool) {
			if ca[i*n+j] != 0 || ca[j*n+i] != 0 {
				pairs++
				if count {
					sum += float64(ca[i*n+j]) / float64(ca[i*n+j]+ca[j*n+i])
				}
			}
		}
		for i := range njr {
			for j := i + 1; j < njr; j++ {
				add(i, j, true)
			}
		}
		if k != prefRet {
			for i := range njr {
				for j := njr; j < n; j++ {
					add(i, j, true)
				}
			}
		}
		if k == prefAll {
			for i := njr; i < n; i++ {
				for j := i + 1; j < n; j++ {
					add(i, j, false)
				}
			}
		}
		if pairs != 0 {
			v[0] = sum / float64(pairs)
		}
	}
}

// prefsAvgJGRnonrel is prefs_avgjg_Rnonrel (retOnly false) and
// prefs_avgjg_Rnonrel_ret: each group's non-relevant documents counted as
// many as its relevant ones.
func prefsAvgJGRnonrel(retOnly bool) func(*trecPrefCounts, []float64) {
	return func(pc *trecPrefCounts, v []float64) {
		sum := 0.0
		for i := range pc.jgs {
			jg := &pc.jgs[i]
			R, N := jg.numRel, jg.nonrel
			kind := prefAll
			if retOnly {
				R, N, kind = jg.relRet, jg.nonrelRet, prefRet
			}
			var ful, poss int
			if R >= N {
				ful, poss = jg.fulPoss(kind)
				ful += jg.relRet * (R - N)
				poss += jg.numRel * (R - N)
			} else {
				ful, poss = pc.recalculate(jg, retOnly)
			}
			sum += float64(ful) / float64(poss)
		}
		if sum > 0 {
			v[0] = sum / float64(len(pc.jgs))
		}
	}
}

// recalculate counts a group's preferences keeping only its first R
// non-relevant documents (trec_eval's recalculate of m_prefs_avgjg_Rnonrel.c
// and m_prefs_avgjg_Rnonrel_ret.c, their quirks included: the equivalence
// classes of a group pair the last class, cut to R, with every class,
// itself included). Where trec_eval reads past the last class (R larger
// than it: with levels below 0) readsim stops at its end.
func (pc *trecPrefCounts) recalculate(jg *trecPrefJG, retOnly bool) (ful, poss int) {
	njr := pc.njr
	if jg.ecs != nil {
		if len(jg.ecs) == 0 {
			return 0, 0 // never reached: such a group has R = N = 0
		}
		last := jg.ecs[len(jg.ecs)-1]
		r := jg.numRel
		if retOnly {
			r = jg.relRet
		}
		nonrel := last[:min(r, len(last))]
		count := func(ec1, ec2 []int) {
			for _, r1 := range ec1 {
				if retOnly && r1 >= njr {
					break
				}
				for _, r2 := range ec2 {
					if retOnly && r2 >= njr {
						break
					}
					if r1 < r2 && (retOnly || r1 < njr) {
						ful++
					} else {
						poss++
					}
				}
			}
		}
		for e1 := range jg.ecs {
			for e2 := e1 + 1; e2 < len(jg.ecs)-1; e2++ {
				count(jg.ecs[e1], jg.ecs[e2])
			}
		}
		for e1 := range jg.ecs {
			count(jg.ecs[e1], nonrel)
		}
		return ful, poss + ful
	}
	n := pc.nj
	limit := n
	if retOnly {
		limit = njr
	}
	first, seen := 0, 0
	for first = 0; first < limit; first++ {
		if jg.rel[first] == 0 {
			seen++
			if seen == jg.numRel+1 {
				break
			}
		}
	}
	skip := func(x int) bool { return x >= first && jg.rel[x] == 0 }
	rows := n
	if retOnly {
		rows = njr
	}
	for i := range rows {
		if skip(i) {
			continue
		}
		for j := range rows {
			if i == j || skip(j) || !jg.pa[i*n+j] {
				continue
			}
			switch {
			case i < njr && j < i:
				poss++
			case i < njr:
				ful++
			default:
				poss++
			}
		}
	}
	return ful, poss + ful
}

// trecPrefMeasures are the measures of -R prefs and -R qrels_prefs.
var trecPrefMeasures = map[string]func(*trecPrefCounts, []float64){
	"prefs_num_prefs_poss": func(pc *trecPrefCounts, v []float64) {
		for i := range pc.jgs {
			_, p := pc.jgs[i].fulPoss(prefAll)
			v[0] += float64(p)
		}
	},
	"prefs_num_prefs_ful": func(pc *trecPrefCounts, v []float64) {
		for i := range pc.jgs {
			f, _ := pc.jgs[i].fulPoss(prefAll)
			v[0] += float64(f)
		}
	},
	"prefs_num_prefs_ful_ret": func(pc *trecPrefCounts, v []float64) {
		for i := range pc.jgs {
			v[0] += float64(pc.jgs[i].fulRet)
		}
	},
	"prefs_simp":              prefsSimp(prefAll),
	"prefs_pair":              prefsPair(prefAll),
	"prefs_avgjg":             prefsAvgJG(prefAll),
	"prefs_avgjg_Rnonrel":     prefsAvgJGRnonrel(false),
	"prefs_simp_ret":          prefsSimp(prefRet),
	"prefs_pair_ret":          prefsPair(prefRet),
	"prefs_avgjg_ret":         prefsAvgJG(prefRet),
	"prefs_avgjg_Rnonrel_ret": prefsAvgJGRnonrel(true),
	"prefs_simp_imp":          prefsSimp(prefImp),
	"prefs_pair_imp":          prefsPair(prefImp),
	"prefs_avgjg_imp":         prefsAvgJG(prefImp),
}

// TrecTopicPrefs computes the measures ms of one topic judged by
// preferences (-R prefs, -R qrels_prefs) against its results docs into v,
// zeroing it first. Only runid, num_q and the prefs_* measures are
// computed (TrecCheckFormat).
func TrecTopicPrefs(c *TrecConfig, prefs []TrecPref, docs []TrecDoc, ms []*TrecMeasure, v []float64) error {
	clear(v)
	pc, err := trecFormPrefs(c, prefs, docs)
	if err != nil {
		return err
	}
	k := 0
	for _, m := range ms {
		switch {
		case m.def.prefs != nil:
			m.def.prefs(pc, v[k:k+len(m.Names)])
		case m.def.name == "num_q":
			v[k] = 1
		}
		k += len(m.Names)
	}
	return nil
}

func init() {
	for i := range trecDefs {
		if f, ok := trecPrefMeasures[trecDefs[i].name]; ok {
			trecDefs[i].prefs = f
		}
	}
}
