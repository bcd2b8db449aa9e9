package effort

import (
	"math"
)

// trecKind is how a measure is parameterized, named and printed.
type trecKind uint8

const (
	tkLong      trecKind = iota // one count, printed as an integer
	tkDouble                    // one value, no parameter
	tkCutLong                   // one value per integer cutoff: P_5, P_10…
	tkCutDouble                 // one value per real cutoff: iprec_at_recall_0.10…
	tkParams                    // one value, real parameters: utility, set_F…
	tkPairs                     // one value, level=gain parameters: ndcg…
	tkRunID                     // the run's id, summary only
	tkRelString                 // relstring: per topic only
)

// trecAvg is how a measure's summary is made from the topics' values.
type trecAvg uint8

const (
	avgMean trecAvg = iota
	avgSum
	avgGM   // geometric mean of the topics' logarithms
	avgNumQ // the topics evaluated
	avgNone
)

// trecDef is one row of TrecMeasures.
type trecDef struct {
	name    string
	kind    trecKind
	avg     trecAvg
	single  bool // printed per topic (-q)
	longs   []int
	doubles []float64
	// calc sets the measure's values (zero on entry) for one topic.
	calc func(c *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error
	// jg, for the measures of judgment groups (-R qrels_jg), sets them
	// from the topic's ranking against each group's judgments.
	jg func(c *TrecConfig, groups []TrecRels, m *TrecMeasure, v []float64)
	// prefs, for the measures of preferences (-R prefs, qrels_prefs),
	// sets them from the topic's preferences counted against its ranking.
	prefs func(pc *trecPrefCounts, v []float64)
}

var (
	trecCuts    = []int{5, 10, 15, 20, 30, 100, 200, 500, 1000}
	trecRecalls = []float64{0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0}
)

// trecDefs are trec_eval 10.0's measures in its order (measures.c).
var trecDefs = []trecDef{
	{name: "runid", kind: tkRunID, avg: avgNone},
	{name: "num_q", kind: tkLong, avg: avgNumQ, calc: func(_ *TrecConfig, _ *TrecRels, _ *TrecMeasure, v []float64) error { v[0] = 1; return nil }},
	{name: "num_ret", kind: tkLong, avg: avgSum, single: true, calc: func(_ *TrecConfig, r *TrecRels, _ *TrecMeasure, v []float64) error {
		v[0] = float64(r.NumRet)
		return nil
	}},
	{name: "num_rel", kind: tkLong, avg: avgSum, single: true, calc: func(_ *TrecConfig, r *TrecRels, _ *TrecMeasure, v []float64) error {
		v[0] = float64(r.NumRel)
		return nil
	}},
	{name: "num_rel_ret", kind: tkLong, avg: avgSum, single: true, calc: func(_ *TrecConfig, r *TrecRels, _ *TrecMeasure, v []float64) error {
		v[0] = float64(r.NumRelRet)
		return nil
	}},
	{name: "map", kind: tkDouble, single: true, calc: func(c *TrecConfig, r *TrecRels, _ *TrecMeasure, v []float64) error {
		v[0] = trecAP(c, r)
		return nil
	}},
	{name: "gm_map", kind: tkDouble, avg: avgGM, calc: func(c *TrecConfig, r *TrecRels, _ *TrecMeasure, v []float64) error {
		v[0] = math.Log(math.Max(trecAP(c, r), trecMinGeoMean))
		return nil
	}},
	{name: "Rprec", kind: tkDouble, single: true, calc: calcRprec},
	{name: "bpref", kind: tkDouble, single: true, calc: func(c *TrecConfig, r *TrecRels, _ *TrecMeasure, v []float64) error {
		v[0] = trecBpref(c, r)
		return nil
	}},
	{name: "recip_rank", kind: tkDouble, single: true, calc: calcRecipRank},
	{name: "iprec_at_recall", kind: tkCutDouble, single: true, doubles: trecRecalls, calc: calcIprec},
	{name: "P", kind: tkCutLong, single: true, longs: trecCuts, calc: calcP},
	{name: "relstring", kind: tkRelString, avg: avgNone, single: true, doubles: []float64{10}},
	{name: "recall", kind: tkCutLong, single: true, longs: trecCuts, calc: calcRecall},
	{name: "infAP", kind: tkDouble, single: true, calc: calcInfAP},
	{name: "gm_bpref", kind: tkDouble, avg: avgGM, calc: func(c *TrecConfig, r *TrecRels, _ *TrecMeasure, v []float64) error {
		v[0] = math.Log(math.Max(trecBpref(c, r), trecMinGeoMean))
		return nil
	}},
	{name: "Rprec_mult", kind: tkCutDouble, single: true, doubles: []float64{0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0}, calc: calcRprecMult},
	{name: "utility", kind: tkParams, single: true, doubles: []float64{1, -1, 0, 0}, calc: calcUtility},
	{name: "11pt_avg", kind: tkParams, single: true, doubles: trecRecalls, calc: calc11pt},
	{name: "binG", kind: tkDouble, single: true, calc: calcBinG},
	{name: "G", kind: tkPairs, single: true, calc: calcG},
	{name: "dcg", kind: tkPairs, single: true, calc: calcNDCG},
	{name: "ideal_dcg", kind: tkPairs, single: true, calc: calcNDCG},
	{name: "ndcg", kind: tkPairs, single: true, calc: calcNDCG},
	{name: "ndcg_rel", kind: tkPairs, single: true, calc: calcNDCGRel},
	{name: "Rndcg", kind: tkPairs, single: true, calc: calcRNDCG},
	{name: "ndcg_cut", kind: tkCutLong, single: true, longs: trecCuts, calc: calcNDCGCut},
	{name: "map_cut", kind: tkCutLong, single: true, longs: trecCuts, calc: calcMapCut},
	{name: "relative_P", kind: tkCutLong, single: true, longs: trecCuts, calc: calcRelP},
	{name: "success", kind: tkCutLong, single: true, longs: []int{1, 5, 10}, calc: calcSuccess},
	{name: "set_P", kind: tkDouble, single: true, calc: func(_ *TrecConfig, r *TrecRels, _ *TrecMeasure, v []float64) error {
		if r.NumRet > 0 {
			v[0] = float64(r.NumRelRet) / float64(r.NumRet)
		}
		return nil
	}},
	{name: "set_relative_P", kind: tkDouble, single: true, calc: func(_ *TrecConfig, r *TrecRels, _ *TrecMeasure, v []float64) error {
		if r.NumRet > 0 && r.NumRel > 0 {
			v[0] = float64(r.NumRelRet) / float64(min(r.NumRet, r.NumRel))
		}
		return nil
	}},
	{name: "set_recall", kind: tkDouble, single: true, calc: func(_ *TrecConfig, r *TrecRels, _ *TrecMeasure, v []float64) error {
		if r.NumRel > 0 {
			v[0] = float64(r.NumRelRet) / float64(r.NumRel)
		}
		return nil
	}},
	{name: "set_map", kind: tkDouble, single: true, calc: func(_ *TrecConfig, r *TrecRels, _ *TrecMeasure, v []float64) error {
		if r.NumRet > 0 && r.NumRel > 0 {
			v[0] = (float64(r.NumRelRet) * float64(r.NumRelRet)) / (float64(r.NumRet) * float64(r.NumRel))
		}
		return nil
	}},
	{name: "set_F", kind: tkParams, single: true, doubles: []float64{1}, calc: func(_ *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
		if r.NumRelRet > 0 {
			p := float64(r.NumRelRet) / float64(r.NumRet)
			rc := float64(r.NumRelRet) / float64(r.NumRel)
			x := m.doubles[0]
			v[0] = (x + 1.0) * p * rc / (x*p + rc)
		}
		return nil
	}},
	{name: "num_nonrel_judged_ret", kind: tkLong, avg: avgSum, single: true, calc: func(_ *TrecConfig, r *TrecRels, _ *TrecMeasure, v []float64) error {
		v[0] = float64(r.NumRet - r.NumNonpool - r.NumUnjudged - r.NumRelRet)
		return nil
	}},
	{name: "prefs_num_prefs_poss", kind: tkLong, avg: avgSum, single: true},
	{name: "prefs_num_prefs_ful", kind: tkLong, avg: avgSum, single: true},
	{name: "prefs_num_prefs_ful_ret", kind: tkLong, avg: avgSum, single: true},
	{name: "prefs_simp", kind: tkDouble, single: true},
	{name: "prefs_pair", kind: tkDouble, single: true},
	{name: "prefs_avgjg", kind: tkDouble, single: true},
	{name: "prefs_avgjg_Rnonrel", kind: tkDouble, single: true},
	{name: "prefs_simp_ret", kind: tkDouble, single: true},
	{name: "prefs_pair_ret", kind: tkDouble, single: true},
	{name: "prefs_avgjg_ret", kind: tkDouble, single: true},
	{name: "prefs_avgjg_Rnonrel_ret", kind: tkDouble, single: true},
	{name: "prefs_simp_imp", kind: tkDouble, single: true},
	{name: "prefs_pair_imp", kind: tkDouble, single: true},
	{name: "prefs_avgjg_imp", kind: tkDouble, single: true},
	{name: "map_avgjg", kind: tkDouble, single: true, jg: calcMapJG},
	{name: "P_avgjg", kind: tkCutLong, single: true, longs: trecCuts, jg: calcPJG},
	{name: "Rprec_mult_avgjg", kind: tkCutDouble, single: true, doubles: []float64{0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0}, jg: calcRprecMultJG},
	{name: "yaap", kind: tkDouble, single: true, calc: func(c *TrecConfig, r *TrecRels, _ *TrecMeasure, v []float64) error {
		v[0] = trecYAAP(c, r)
		return nil
	}},
	{name: "rbp", kind: tkPairs, single: true, calc: calcRBP},
	{name: "rbp_resid", kind: tkPairs, single: true, calc: calcRBPResid},
	{name: "unj", kind: tkCutLong, single: true, longs: []int{5, 10, 20}, calc: calcUnj},
}

// trecMinGeoMean is the least value whose logarithm gm_map and gm_bpref
// average (trec_eval's MIN_GEO_MEAN).
const trecMinGeoMean = 0.00001

// infAP's epsilon (trec_eval's INFAP_EPSILON).
const trecInfAPEpsilon = 0.00001

// TrecNicknames are trec_eval's names for sets of measures, in its order.
var TrecNicknames = []struct {
	Name     string
	Measures []string
}{
	{"official", []string{"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"}},
	{"set", []string{"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall", "set_relative_P", "set_map", "set_F"}},
	{"all_trec", []string{"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P", "relstring",
		"recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success",
		"map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall", "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret"}},
	{"all_prefs", []string{"runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg",
		"prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp"}},
	{"prefs", []string{"runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg"}},
	{"qrels_jg", []string{"runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"}},
}

// TrecMeasure is one measure of trec_eval asked for, with its parameters.
type TrecMeasure struct {
	def *trecDef
	// Names are the names its values print under (P_5, P_10…).
	Names   []string
	longs   []int
	doubles []float64
	pairs   []trecPair
}

// Single tells whether the measure prints a line per topic under -q.
func (m *TrecMeasure) Single() bool { return m.def.single }

// IsCount tells whether its values print as integers.
func (m *TrecMeasure) IsCount() bool { return m.def.kind == tkLong }

// IsRunID tells whether it is runid.
func (m *TrecMeasure) IsRunID() bool { return m.def.kind == tkRunID }

// IsRelString tells whether it is relstring (RelStringLen gives its length).
func (m *TrecMeasure) IsRelString() bool { return m.def.kind == tkRelString }

// RelStringLen is the number of documents relstring shows.
func (m *TrecMeasure) RelStringLen() int { return int(m.doubles[0]) }

// Name is the measure's name in trec_eval's table (P for P_5, P_10…).
func (m *TrecMeasure) Name() string { return m.def.name }

type trecPair struct {
	name  string
	value float64
}

// TrecError is a measure request trec_eval refuses.
type TrecError struct{ Msg string }

// Error returns the message.
func (e *TrecError) Error() string { return e.Msg }
