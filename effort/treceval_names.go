package effort

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The trec_eval measures that readsim's other commands (eval, compare…)
// read by name: every value trec_eval prints beyond the measures the
// registry has its own family for (map, P_k, recall_k, recip_rank, Rprec,
// ndcg, ndcg_cut_k and the counts), under trec_eval's name (bpref,
// iprec_at_recall_0.50, success_10, set_F…) and ir_measures' where it has
// one (Bpref, IPrec@0.5, Success@10, SetF, RBP(p=0.8)…). They rank as
// trec_eval does and give its values (ListTrec).

// trecValue is one value of a trec_eval measure: its name and the measure
// with the parameters that give it.
type trecValue struct {
	name string
	m    *TrecMeasure
	k    int // its index among m's values
}

// trecEvalNamed lists the trec_eval measures ListTrec reads by name, with
// their ir_measures names and meanings; the others have families.
var trecEvalNamed = []struct {
	name, irm, meaning string
}{
	{"gm_map", "", "geometric mean over topics of AP (each floored at 0.00001); per topic its logarithm"},
	{"bpref", "Bpref", "binary preference: for each relevant document, the share of the first R judged non-relevant documents ranked after it"},
	{"iprec_at_recall", "IPrec@x", "interpolated precision at recall level x (iprec_at_recall_0.50); x·R rounded as trec_eval 10 (--compat 9: trec_eval 9's x·R + 0.9, as pytrec_eval)"},
	{"infAP", "infAP", "inferred AP (Yilmaz & Aslam 2006): AP estimated from a sampled pool (judgments < 0: pooled, not judged)"},
	{"gm_bpref", "", "geometric mean over topics of bpref (floored at 0.00001); per topic its logarithm"},
	{"Rprec_mult", "", "precision at x·R documents (Rprec_mult_2.00)"},
	{"utility", "", "set utility: retrieved relevant − retrieved non-relevant documents"},
	{"11pt_avg", "", "interpolated precision averaged over the 11 recall levels 0, 0.1… 1; x·R rounded as trec_eval 10 (--compat 9: trec_eval 9's x·R + 0.9)"},
	{"binG", "", "binary G of trec_eval"},
	{"G", "", "G of trec_eval: gain discounted by the gain lost so far"},
	{"ndcg_rel", "", "nDCG averaged over the ranks of the relevant documents"},
	{"Rndcg", "", "nDCG averaged at the ranks where the ideal gain changes"},
	{"map_cut", "", "AP of the first k documents (map_cut_10)"},
	{"relative_P", "", "precision at k relative to the best possible: relevant documents in the first k / min(k, R)"},
	{"success", "Success@k", "1 when a relevant document is among the first k (success_10)"},
	{"set_P", "SetP", "precision of the whole ranking"},
	{"set_relative_P", "", "relevant retrieved / min(retrieved, R)"},
	{"set_recall", "SetR", "recall of the whole ranking"},
	{"set_map", "SetAP", "set_P × set_recall"},
	{"set_F", "SetF", "F1 of set_P and set_recall"},
	{"num_nonrel_judged_ret", "", "judged non-relevant documents retrieved (summed over topics)"},
	{"yaap", "", "Yet Another Average Precision (Robertson 2012): log((1 + S) / (1 + R − S)), S the sum of the precisions at the relevant documents retrieved (AP × R)"},
	{"rbp", "RBP(p=x)", "rank-biased precision (Moffat & Zobel 2008), persistence p = 0.9 (rbp, RBP) or x (RBP(p=0.8))"},
	{"rbp_resid", "", "RBP's residual: what the unjudged documents could add"},
	{"unj", "", "share of unjudged documents among the first k (unj_10)"},
	{"dcg", "", "discounted cumulative gain of the whole ranking"},
	{"ideal_dcg", "", "the ideal ranking's discounted cumulative gain"},
}

var (
	trecCutName   = regexp.MustCompile(`^(map_cut|relative_P|success|unj)[_.]([0-9]+)$`)
	trecLevelName = regexp.MustCompile(`^(iprec_at_recall|Rprec_mult)_([0-9]*\.?[0-9]+)$`)
	irmName       = regexp.MustCompile(`^(IPrec|Success)@([0-9]*\.?[0-9]+)$`)
	irmRBP        = regexp.MustCompile(`^RBP(\(p=([0-9]*\.?[0-9]+)\))?$`)
	irmJudged     = regexp.MustCompile(`(?i)^judged@([0-9]+)$`)
)

// judgedDef is ir_measures' Judged@k, which trec_eval does not have (its
// unj_k counts the other documents, and divides by k even when fewer are
// retrieved). trecListValue computes it (judgedValue).
var judgedDef = trecDef{name: "Judged", kind: tkCutLong, single: true, longs: []int{10}}

// judgedValue is Judged@k as ir_measures' judged provider computes it: the
// share of the first min(k, retrieved) documents that are in the
// judgments, whatever their grade (negative ones included); 0 for an empty
// ranking. It ranks as that provider does: by score, ties by document id
// increasing (trec_eval breaks them the other way: docs is in trec_eval's
// order, so each run of tied scores is read backwards); a ranking without
// scores in its order. rel[i] is docs[i]'s relevance (TrecNonpool: not
// judged).
func judgedValue(docs []TrecDoc, rel []int, scored bool, k int) float64 {
	n := min(k, len(docs))
	if n == 0 {
		return 0
	}
	judged := 0
	for i := 0; i < n; {
		j := i + 1
		if scored {
			for j < len(docs) && docs[j].Sim == docs[i].Sim {
				j++
			}
		}
		// docs[i:j] tie: ir_measures takes them from docs[j-1] down
		for p := j - 1; p >= i && n-i > j-1-p; p-- {
			if rel[p] != TrecNonpool {
				judged++
			}
		}
		i = j
	}
	return float64(judged) / float64(n)
}

// parseTrecName reads the name of a ListTrec measure; ok is false for a
// name that is none.
func parseTrecName(name string) (Measure, bool, error) {
	head, param := name, ""
	switch {
	case trecCutName.MatchString(name):
		sub := trecCutName.FindStringSubmatch(name)
		head, param = sub[1], sub[2]
		if k, err := strconv.Atoi(param); err != nil || k < 1 || k > MaxRank {
			return Measure{}, true, fmt.Errorf("the cutoff must be an integer from 1 to %d", MaxRank)
		}
	case trecLevelName.MatchString(name):
		sub := trecLevelName.FindStringSubmatch(name)
		head, param = sub[1], sub[2]
	case irmName.MatchString(name):
		sub := irmName.FindStringSubmatch(name)
		head, param = map[string]string{"IPrec": "iprec_at_recall", "Success": "success"}[sub[1]], sub[2]
		if head == "success" {
			if k, err := strconv.Atoi(param); err != nil || k < 1 || k > MaxRank {
				return Measure{}, true, fmt.Errorf("the cutoff must be an integer from 1 to %d", MaxRank)
			}
		}
	case irmJudged.MatchString(name):
		k := irmJudged.FindStringSubmatch(name)[1]
		if _, err := atoiRank(k); err != nil {
			return Measure{}, true, err
		}
		tm, err := newTrecMeasure(&judgedDef, k)
		if err != nil {
			return Measure{}, true, err
		}
		return Measure{List: ListTrec, Name: name, trec: &trecValue{name: name, m: tm}}, true, nil
	case irmRBP.MatchString(name):
		head = "rbp"
		if sub := irmRBP.FindStringSubmatch(name); sub[2] != "" {
			param = "p=" + sub[2]
		}
	default:
		for _, n := range trecEvalNamed {
			if n.irm != "" && n.irm == name && !strings.ContainsAny(n.irm, "@(") {
				head = n.name
			}
		}
		if d := trecDefNamed(head); d != nil && d.prefs != nil {
			return Measure{}, true, errors.New("a measure of trec_eval's preference judgments: readsim trec_eval -R prefs (or -R qrels_prefs) computes it")
		} else if d != nil && d.jg != nil {
			return Measure{}, true, errors.New("a measure of trec_eval's judgment groups: readsim trec_eval -R qrels_jg computes it")
		}
		if !slices.ContainsFunc(trecEvalNamed, func(n struct{ name, irm, meaning string }) bool { return n.name == head }) {
			return Measure{}, false, nil
		}
		if d := trecDefNamed(head); d == nil || d.kind == tkCutLong || d.kind == tkCutDouble {
			return Measure{}, false, nil
		}
	}
	d := trecDefNamed(head)
	if d == nil {
		return Measure{}, false, nil
	}
	if d.kind == tkCutDouble {
		x, err := strconv.ParseFloat(param, 64)
		if err != nil || x < 0 || (head == "iprec_at_recall" && x > 1) || x > 1000 {
			return Measure{}, true, fmt.Errorf("the level must be a number from 0 to %s", map[bool]string{true: "1", false: "1000"}[head == "iprec_at_recall"])
		}
	}
	tm, err := newTrecMeasure(d, param)
	if err != nil {
		return Measure{}, true, err
	}
	value := tm.Names[0]
	if d.kind == tkPairs && param != "" {
		value = name // RBP(p=0.8)
	}
	if trecCutName.MatchString(name) {
		name = value // success.10 (trec_eval's -m form) prints as success_10
	}
	return Measure{List: ListTrec, Name: name, trec: &trecValue{name: value, m: tm}}, true, nil
}

// TrecCompat9 tells whether --compat 9 (Config.TrecCompat 9) changes the
// measure's value: it is one of TrecCompat9Measures (IPrec@x,
// iprec_at_recall_x, 11pt_avg).
func (m Measure) TrecCompat9() bool {
	return m.trec != nil && slices.Contains(TrecCompat9Measures, m.trec.m.def.name)
}

// trecListValue is a ListTrec measure's value for the topic of a: the
// topic's documents ranked as trec_eval ranks them (once per topic), then
// the measure's computation.
func trecListValue(a *valueArgs) float64 {
	w, t := a.w, a.t
	if !w.trecDone {
		w.trecDocs = w.trecDocs[:0]
		rels := map[string]int{}
		for _, d := range t.Docs {
			w.trecDocs = append(w.trecDocs, TrecDoc{Docno: d.ID, Sim: d.Score})
			rel := TrecNonpool
			if d.Judged {
				rel = d.Grade
				if rel < 0 || d.Unjudged {
					rel = TrecUnjudged
				}
			}
			rels[d.ID] = rel
		}
		r := &w.trec
		if t.Scored {
			slices.SortStableFunc(w.trecDocs, TrecOrder)
		}
		r.Rel = r.Rel[:0]
		r.NumRelRet, r.NumNonpool, r.NumUnjudged = 0, 0, 0
		for _, d := range w.trecDocs {
			r.rank(rels[d.Docno], 1)
		}
		r.NumRet = len(r.Rel)
		r.RelLevels = append(r.RelLevels[:0], t.Levels...)
		r.NumRel, r.NumRelLevels = 0, 0
		for lvl, c := range r.RelLevels {
			if c > 0 {
				r.NumRelLevels = lvl + 1
				if lvl >= 1 {
					r.NumRel += c
				}
			}
		}
		w.trecDone = true
	}
	tv := a.m.trec
	if tv == nil {
		return 0
	}
	if tv.m.def == &judgedDef {
		return judgedValue(w.trecDocs, w.trec.Rel, t.Scored, tv.m.longs[0])
	}
	w.trecVals = slices.Grow(w.trecVals[:0], len(tv.m.Names))[:len(tv.m.Names)]
	clear(w.trecVals)
	if tv.m.def.calc == nil || tv.m.def.calc(&TrecConfig{RelevanceLevel: 1, Compat: a.trecCompat}, &w.trec, tv.m, w.trecVals) != nil {
		return 0
	}
	return w.trecVals[tv.k]
}

// trecCatalogue are the catalogue's entries of the ListTrec measures.
func trecCatalogue() []Entry {
	var out []Entry
	for _, n := range trecEvalNamed {
		d := trecDefNamed(n.name)
		form := n.name
		switch d.kind {
		case tkCutLong:
			form += "_k"
		case tkCutDouble:
			form += "_x"
		}
		e := Entry{Form: form, Kind: "trec_eval", Meaning: n.meaning + " (ranked by score as trec_eval)", Better: Higher, Source: srcTREC, Sum: d.avg == avgSum}
		switch n.name {
		case "num_nonrel_judged_ret", "rbp_resid", "unj":
			e.Better = Neutral
		}
		if n.irm != "" {
			e.Aliases = []string{n.irm}
		}
		out = append(out, e)
	}
	return append(out, Entry{Form: "Judged@k", Kind: "ir_measures", Better: Neutral, Source: "ir_measures (judged provider)",
		Meaning: "share of the first min(k, retrieved) documents that are judged, at any grade (ranked by score as trec_eval)"})
}
