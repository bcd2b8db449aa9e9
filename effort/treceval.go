package effort

import (
	"errors"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"strings"
)

// trec_eval's measures, computed as trec_eval 10.0 computes them
// (docs/trec_eval.md): one table, TrecMeasures, in trec_eval's order, which
// is the order it prints them in. A topic's ranking is a TrecRels (what
// trec_eval calls RES_RELS): the relevance of each retrieved document in
// rank order and the topic's counts. Each measure gives one value or
// several (one per cutoff) from it; the summary is the mean over topics
// (the counts: the sum; gm_map and gm_bpref: the geometric mean). Every
// computation repeats trec_eval's arithmetic in its order, so that the
// values are trec_eval's to the last bit and print the same four decimals.

// Relevance values of a retrieved document that are not judgments.
const (
	// TrecNonpool is the relevance of a document absent from the judgments.
	TrecNonpool = -1
	// TrecUnjudged is the relevance of a document judged with a negative
	// value (in the pool but not judged: infAP's sample).
	TrecUnjudged = -2
)

// TrecJudgment is one judged document of a topic.
type TrecJudgment struct {
	Docno string
	Rel   int
}

// TrecDoc is one retrieved document of a topic.
type TrecDoc struct {
	Docno string
	Sim   float64
}

// TrecConfig is what trec_eval's options change in the measures.
type TrecConfig struct {
	// RelevanceLevel is -l: the least judgment that is relevant (1).
	RelevanceLevel int
	// NumDocsInColl is -N: the documents of the collection (utility).
	NumDocsInColl int
	// MaxDocs is -M: the documents of a topic kept after ranking (0: all).
	MaxDocs int
	// JudgedOnly is -J: unjudged documents are dropped after ranking.
	JudgedOnly bool
}

// TrecRels is a topic's ranking as trec_eval's measures see it.
type TrecRels struct {
	// Rel is the relevance of the document at each rank: its judgment,
	// TrecNonpool or TrecUnjudged.
	Rel []int
	// NumRet, NumRel, NumRelRet: documents ranked, relevant (judged at
	// least RelevanceLevel), relevant ranked.
	NumRet, NumRel, NumRelRet int
	// NumNonpool and NumUnjudged count the ranked documents that are
	// TrecNonpool and TrecUnjudged.
	NumNonpool, NumUnjudged int
	// RelLevels counts the topic's judgments at each level 0, 1…
	// (negative judgments are not counted); NumRelLevels is one more than
	// the highest level counted.
	RelLevels    []int
	NumRelLevels int

	// buffers reused from topic to topic
	judged         map[uint64]int32
	hashes, sorted []uint64
}

// TrecDuplicateError is trec_eval's refusal of a document ranked or judged
// twice for a topic.
type TrecDuplicateError struct {
	Docno  string
	Judged bool // in the judgments (else in the run)
}

// Error says which document is given twice, and where.
func (e *TrecDuplicateError) Error() string {
	if e.Judged {
		return fmt.Sprintf("document %s is judged twice for the topic (trec_eval refuses it: duplicate docs)", e.Docno)
	}
	return fmt.Sprintf("document %s is retrieved twice for the topic (trec_eval refuses it: duplicate docs)", e.Docno)
}

// TrecOrder compares two documents as trec_eval ranks them: by Sim,
// descending, then by Docno, descending in byte order.
func TrecOrder(a, b TrecDoc) int {
	switch {
	case a.Sim > b.Sim:
		return -1
	case a.Sim < b.Sim:
		return 1
	}
	return strings.Compare(b.Docno, a.Docno)
}

// TrecRank ranks docs as trec_eval does (by Sim, descending, then by docno,
// descending in byte order), keeps the first cfg.MaxDocs, and gives each its
// relevance from judged (sorted by Docno, as ReadTrec's judgments are). docs
// is reordered. r's slices are reused.
func TrecRank(cfg *TrecConfig, judged []TrecJudgment, docs []TrecDoc, r *TrecRels) error {
	slices.SortFunc(docs, TrecOrder)
	n := len(docs)
	if cfg.MaxDocs > 0 && n > cfg.MaxDocs {
		n = cfg.MaxDocs
	}
	docs = docs[:n]
	maxRel := 0
	for i, j := range judged {
		if i == 0 || j.Rel > maxRel {
			maxRel = j.Rel
		}
		if i > 0 && judged[i-1].Docno == j.Docno {
			return &TrecDuplicateError{Docno: strings.Clone(j.Docno), Judged: true}
		}
	}
	// documents are found by a hash of their name, checked by the name
	if r.judged == nil {
		r.judged = map[uint64]int32{}
	}
	clear(r.judged)
	for i, j := range judged {
		h := maphash.String(trecSeed, j.Docno)
		if k, dup := r.judged[h]; !dup || judged[k].Docno > j.Docno {
			r.judged[h] = int32(i) // on a collision, the search below goes on
		}
	}
	r.hashes = slices.Grow(r.hashes[:0], n)[:n]
	for i, d := range docs {
		r.hashes[i] = maphash.String(trecSeed, d.Docno)
	}
	if err := trecDuplicates(docs, r.hashes, &r.sorted); err != nil {
		return err
	}
	if maxRel < 0 {
		maxRel = -1
	}
	r.RelLevels = slices.Grow(r.RelLevels[:0], maxRel+1)[:maxRel+1]
	clear(r.RelLevels)
	for _, j := range judged {
		if j.Rel >= 0 {
			r.RelLevels[j.Rel]++
		}
	}
	r.Rel = slices.Grow(r.Rel[:0], n)[:0]
	r.NumRelRet, r.NumNonpool, r.NumUnjudged = 0, 0, 0
	for i, d := range docs {
		rel := TrecNonpool
		if k, ok := r.judged[r.hashes[i]]; ok {
			if judged[k].Docno != d.Docno {
				k, ok = searchJudged(judged, d.Docno)
			}
			if ok {
				rel = judged[k].Rel
				if rel < 0 {
					rel = TrecUnjudged
				}
			}
		}
		if cfg.JudgedOnly && rel < 0 {
			continue
		}
		r.rank(rel, cfg.RelevanceLevel)
	}
	r.NumRet = len(r.Rel)
	r.NumRel, r.NumRelLevels = 0, 0
	for lvl, c := range r.RelLevels {
		if c > 0 {
			r.NumRelLevels = lvl + 1
			if lvl >= cfg.RelevanceLevel {
				r.NumRel += c
			}
		}
	}
	return nil
}

var trecSeed = maphash.MakeSeed()

// searchJudged finds docno among judged (sorted by Docno).
func searchJudged(judged []TrecJudgment, docno string) (int32, bool) {
	k, ok := slices.BinarySearchFunc(judged, docno, func(j TrecJudgment, s string) int { return strings.Compare(j.Docno, s) })
	return int32(k), ok
}

// rank appends a document of relevance rel to r's ranking and counts it
// (level: the least relevant judgment).
func (r *TrecRels) rank(rel, level int) {
	r.Rel = append(r.Rel, rel)
	switch {
	case rel == TrecNonpool:
		r.NumNonpool++
	case rel == TrecUnjudged:
		r.NumUnjudged++
	case rel >= level:
		r.NumRelRet++
	}
}

// trecDuplicates reports a document of docs ranked twice: two equal
// hashes (h[i] is docs[i]'s) are two equal names, or a collision.
func trecDuplicates(docs []TrecDoc, h []uint64, buf *[]uint64) error {
	s := append((*buf)[:0], h...)
	*buf = s
	slices.Sort(s)
	for i := 1; i < len(s); i++ {
		if s[i] != s[i-1] {
			continue
		}
		seen := map[string]bool{}
		for k, d := range docs {
			if h[k] == s[i] {
				if seen[d.Docno] {
					return &TrecDuplicateError{Docno: strings.Clone(d.Docno)}
				}
				seen[d.Docno] = true
			}
		}
	}
	return nil
}

// TrecRelString is trec_eval's relstring of r: one character per ranked
// document among the first n: its judgment 0–9, '>' above 9, '-' not in
// the pool, '.' in the pool but unjudged, '<' any other.
func TrecRelString(r *TrecRels, n int) string {
	n = min(n, r.NumRet)
	if n < 0 {
		n = 0
	}
	b := make([]byte, n)
	for i, rel := range r.Rel[:n] {
		switch {
		case rel > 9:
			b[i] = '>'
		case rel >= 0:
			b[i] = byte('0' + rel)
		case rel == TrecNonpool:
			b[i] = '-'
		case rel == TrecUnjudged:
			b[i] = '.'
		default:
			b[i] = '<'
		}
	}
	return string(b)
}

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

// TrecSelect returns the measures that trec_eval's -m arguments args ask
// for (none: official), in trec_eval's order: a measure name, a nickname
// (official, all_trec, set…), or either with parameters after a period
// (P.5,10; ndcg.1=3,2=9; utility.2,-1,0,0). As in trec_eval, the first
// parameters given for a measure are its parameters, even when given with
// a nickname.
func TrecSelect(args []string) ([]*TrecMeasure, error) {
	if len(args) == 0 {
		args = []string{"official"}
	}
	marked := map[string]bool{}
	params := map[string]string{}
	for _, a := range args {
		name, p, hasP := strings.Cut(a, ".")
		if hasP {
			if p == "" {
				return nil, &TrecError{fmt.Sprintf("-m %s: no parameter after the period (trec_eval: improper measure in parameter)", a)}
			}
			if _, seen := params[name]; !seen {
				params[name] = p
			}
		}
		names := []string{name}
		for _, nn := range TrecNicknames {
			if nn.Name == name {
				names = nn.Measures
			}
		}
		for _, n := range names {
			if trecDefNamed(n) == nil {
				return nil, &TrecError{fmt.Sprintf("-m %s: no such measure or nickname of trec_eval (trec_eval: illegal measure); readsim trec_eval -h lists them", a)}
			}
			marked[n] = true
		}
	}
	var out []*TrecMeasure
	shared := map[string]string{} // a group's parameters set so far
	for i := range trecDefs {
		d := &trecDefs[i]
		if !marked[d.name] {
			continue
		}
		p, own := params[d.name]
		g := trecShared[d.name]
		if g != "" && !own {
			p = shared[g]
		}
		m, err := newTrecMeasure(d, p)
		if err != nil {
			return nil, err
		}
		if g != "" && own {
			shared[g] = p
		}
		out = append(out, m)
	}
	// the measures of a group compute with the parameters set last
	for _, m := range out {
		if g := trecShared[m.def.name]; g != "" && shared[g] != "" {
			last, _ := newTrecMeasure(m.def, shared[g])
			m.pairs = last.pairs
		}
	}
	return out, nil
}

// trecShared are the measures whose parameters trec_eval keeps in one
// variable: a measure given none prints and computes with those of one
// before it in the group, and every measure of the group computes with the
// parameters given last.
var trecShared = map[string]string{
	"rbp": "rbp", "rbp_resid": "rbp",
	"dcg": "ndcg", "ideal_dcg": "ndcg", "ndcg": "ndcg",
}

// TrecCheckFormat refuses the measures that trec_eval cannot compute from
// the judgments' format (-R: "qrels", "qrels_jg", "prefs" or
// "qrels_prefs"): runid and num_q with any; the *_avgjg measures with
// judgment groups only; the prefs_* measures with preferences only; the
// others with qrels only.
func TrecCheckFormat(ms []*TrecMeasure, format string) error {
	prefs := format == "prefs" || format == "qrels_prefs"
	for _, m := range ms {
		switch {
		case m.def.name == "runid" || m.def.name == "num_q":
		case format == "qrels_jg" && m.def.jg == nil:
			return &TrecError{fmt.Sprintf("-m %s: trec_eval computes it from qrels, not from judgment groups (-R qrels_jg: runid, num_q, map_avgjg, P_avgjg, Rprec_mult_avgjg)", m.def.name)}
		case prefs && m.def.prefs == nil:
			return &TrecError{fmt.Sprintf("-m %s: trec_eval computes it from qrels, not from preferences (-R %s: runid, num_q and the prefs_* measures, as -m prefs or -m all_prefs)", m.def.name, format)}
		case m.def.jg != nil && format != "qrels_jg":
			return &TrecError{fmt.Sprintf("-m %s: a measure of judgment groups: give them with -R qrels_jg", m.def.name)}
		case m.def.prefs != nil && !prefs:
			return &TrecError{fmt.Sprintf("-m %s: a measure of preferences: give them with -R prefs or -R qrels_prefs", m.def.name)}
		}
	}
	return nil
}

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

// TrecMeasureNames lists the measures of trec_eval that readsim computes,
// in trec_eval's order.
func TrecMeasureNames() []string {
	out := make([]string, len(trecDefs))
	for i, d := range trecDefs {
		out[i] = d.name
	}
	return out
}

func trecDefNamed(name string) *trecDef {
	for i := range trecDefs {
		if trecDefs[i].name == name {
			return &trecDefs[i]
		}
	}
	return nil
}

// newTrecMeasure sets up d with the parameters p ("" for its defaults) as
// trec_eval's meas_init.c does.
func newTrecMeasure(d *trecDef, p string) (*TrecMeasure, error) {
	m := &TrecMeasure{def: d, longs: d.longs, doubles: d.doubles}
	bad := func(why string) error {
		return &TrecError{fmt.Sprintf("-m %s.%s: %s", d.name, p, why)}
	}
	switch d.kind {
	case tkCutLong:
		if p != "" {
			m.longs = nil
			for _, s := range strings.Split(p, ",") {
				m.longs = append(m.longs, cAtol(s))
			}
			slices.Sort(m.longs)
			if m.longs[0] <= 0 {
				return nil, bad("a cutoff is not positive (trec_eval: Negative cutoff detected)")
			}
			for i := 1; i < len(m.longs); i++ {
				if m.longs[i] == m.longs[i-1] {
					return nil, bad("a cutoff is given twice (trec_eval: duplicate cutoffs detected)")
				}
			}
		}
		for _, k := range m.longs {
			m.Names = append(m.Names, d.name+"_"+strconv.Itoa(k))
		}
	case tkCutDouble:
		if p != "" {
			m.doubles = nil
			for _, s := range strings.Split(p, ",") {
				m.doubles = append(m.doubles, cAtof(s))
			}
			slices.Sort(m.doubles)
			for i := 1; i < len(m.doubles); i++ {
				if m.doubles[i] == m.doubles[i-1] {
					return nil, bad("a cutoff is given twice (trec_eval: duplicate cutoffs detected)")
				}
			}
		}
		for _, x := range m.doubles {
			// snprintf into strlen(name)+10 bytes: at most 9 after the name
			s := fmt.Sprintf("_%3.2f", x)
			if len(s) > 9 {
				s = s[:9]
			}
			m.Names = append(m.Names, d.name+s)
		}
	case tkParams, tkRelString:
		m.Names = []string{d.name}
		if p != "" {
			m.doubles = nil
			for _, s := range strings.Split(p, ",") {
				m.doubles = append(m.doubles, cAtof(s))
			}
			m.Names[0] = d.name + "_" + p
		}
		if d.name == "utility" && len(m.doubles) != 4 {
			return nil, bad("utility takes 4 coefficients (trec_eval: improper number of coefficients)")
		}
	case tkPairs:
		m.Names = []string{d.name}
		if p != "" {
			if !validPairs(p) {
				return nil, bad("parameters must be level=gain pairs, comma-separated (trec_eval: malformed pair parameters)")
			}
			for _, s := range strings.Split(p, ",") {
				n, v, _ := strings.Cut(s, "=")
				m.pairs = append(m.pairs, trecPair{n, cAtof(v)})
			}
			m.Names[0] = d.name + "_" + p
		}
	default:
		m.Names = []string{d.name}
	}
	return m, nil
}

// validPairs is get_param_pairs' check: every comma-separated item holds
// an '=', none two.
func validPairs(p string) bool {
	last := byte(',')
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case ',':
			if last == ',' {
				return false
			}
			last = ','
		case '=':
			if last == '=' {
				return false
			}
			last = '='
		}
	}
	return last == '='
}

// cAtol is C's atol: leading white space, a sign, digits; 0 without.
func cAtol(s string) int {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	i, neg := 0, false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	n := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		n = n*10 + int(s[i]-'0')
		if n > math.MaxInt32*1024 {
			break
		}
	}
	if neg {
		return -n
	}
	return n
}

// cAtof is C's atof: the longest prefix of s (after white space) that is
// a number; 0 without.
func cAtof(s string) float64 {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	if v, err := strconv.ParseFloat(s, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		if !strings.ContainsAny(s, "_xXpP") {
			return v
		}
	}
	return CAtofPrefix(s)
}

// CAtofPrefix is C's strtod on the decimal prefix of s: an optional sign,
// digits with an optional point, an optional exponent; inf and nan in any
// case. 0 when s starts with no number.
func CAtofPrefix(s string) float64 {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	rest := strings.ToLower(s[i:])
	for _, w := range []string{"infinity", "inf", "nan"} {
		if strings.HasPrefix(rest, w) {
			v, _ := strconv.ParseFloat(s[:i+len(w)], 64)
			return v
		}
	}
	if len(rest) > 2 && rest[0] == '0' && rest[1] == 'x' && isHex(rest[2]) {
		return hexPrefix(s[:i], s[i+2:])
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i = j
		}
	}
	v, _ := strconv.ParseFloat(s[:i], 64)
	return v
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// hexPrefix is strtod of a hexadecimal number: sign, then the digits after
// 0x (hex digits, a point, more, an optional p exponent).
func hexPrefix(sign, s string) float64 {
	i := 0
	for i < len(s) && isHex(s[i]) {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isHex(s[i]) {
			i++
		}
	}
	exp := "p0"
	if i < len(s) && (s[i] == 'p' || s[i] == 'P') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			exp, i = s[i:j], j
		}
	}
	v, _ := strconv.ParseFloat(sign+"0x"+s[:i]+exp, 64)
	return v
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
// values trec_eval zeroes there: num_ret, utility, unj_*, rbp_resid.
func TrecMissing(ms []*TrecMeasure, v []float64) {
	k := 0
	for _, m := range ms {
		switch m.def.name {
		case "num_ret", "utility", "unj", "rbp_resid":
			clear(v[k : k+len(m.Names)])
		}
		k += len(m.Names)
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
// documents: trec_eval's (long)(x·R + 0.9).
func recallCutoffs(xs []float64, numRel int) []int {
	cut := make([]int, len(xs))
	for i, x := range xs {
		cut[i] = int(x*float64(numRel) + 0.9)
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
	interpolated(c, r, recallCutoffs(m.doubles, r.NumRel), func(k int, p float64) { v[k] = p })
	return nil
}

func calc11pt(c *TrecConfig, r *TrecRels, m *TrecMeasure, v []float64) error {
	if len(m.doubles) == 0 {
		return &TrecError{"11pt_avg: no cutoff"}
	}
	sum := 0.0
	interpolated(c, r, recallCutoffs(m.doubles, r.NumRel), func(_ int, p float64) { sum += p })
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
