package effort

import (
	"math"
	"strings"
	"testing"
)

// trecRels ranks docs ("name score" pairs) against judged ("name grade"
// pairs, sorted) as trec_eval does.
func trecRels(t *testing.T, cfg TrecConfig, judged, docs string) *TrecRels {
	t.Helper()
	var js []TrecJudgment
	for _, f := range strings.Fields(judged) {
		n, g, _ := strings.Cut(f, ":")
		js = append(js, TrecJudgment{Docno: n, Rel: cAtol(g)})
	}
	var ds []TrecDoc
	for _, f := range strings.Fields(docs) {
		n, s, _ := strings.Cut(f, ":")
		ds = append(ds, TrecDoc{Docno: n, Sim: cAtof(s)})
	}
	var r TrecRels
	if cfg.RelevanceLevel == 0 {
		cfg.RelevanceLevel = 1
	}
	if err := TrecRank(&cfg, js, ds, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// Values worked out by hand from trec_eval's definitions (its m_*.c):
// the ranking d9 > d10 > D8 (equal scores: names descending in byte
// order), then x (not judged), then u (judged -1: pooled, not judged).
func TestTrecMeasuresByHand(t *testing.T) {
	judged := "D8:0 a:1 d10:2 d9:0 u:-1" // sorted by name
	docs := "d10:5 D8:5 d9:5 x:4 u:3"
	r := trecRels(t, TrecConfig{}, judged, docs)
	if got := TrecRelString(r, 10); got != "020-." {
		t.Fatalf("relstring %q, want 020-.", got)
	}
	for _, tc := range []struct {
		measure string
		want    []float64
	}{
		// relevant: d10 (rank 2) and a (not retrieved): R = 2
		{"map", []float64{0.5 / 2}},
		{"recip_rank", []float64{0.5}},
		{"Rprec", []float64{0.5}},                 // 1 relevant in the first 2
		{"P.1,2,10", []float64{0, 0.5, 0.1}},      // beyond the ranking: / k
		{"success.1,2", []float64{0, 1}},          // a relevant in the first k
		{"relative_P.1,5", []float64{0, 1.0 / 2}}, // / min(k, R)
		// judged non-relevant: D8, d9 (2); d10 comes after one of them:
		// 1 − min(1, R)/min(2, R) = 0.5, over R = 2
		{"bpref", []float64{0.5 / 2}},
		// yaap: S = 1/2 (d10 at rank 2), R = 2: log((1 + 1/2) / (1 + 2 - 1/2))
		{"yaap", []float64{math.Log(1.5 / 2.5)}},
		{"num_nonrel_judged_ret", []float64{2}},
		{"unj.1,4,5,10", []float64{0, 1.0 / 4, 2.0 / 5, 2.0 / 10}}, // x at rank 4, u at 5
		{"set_P", []float64{1.0 / 5}},
		{"set_recall", []float64{1.0 / 2}},
		{"set_F", []float64{2 * (0.2 * 0.5) / (0.2 + 0.5)}},
		{"utility", []float64{1 - 4}}, // 1 relevant, 4 not, retrieved
		// infAP at d10 (j = 1): 1/2 + (1/2)·((0+1+0)/1)·((0+ε)/(0+1+2ε))
		{"infAP", []float64{(0.5 + 0.5*(0.00001/(1+0.00002))) / 2}},
		// ideal gains 2, 1: nDCG = (2/log2 3) / (2 + 1/log2 3)
		{"ndcg", []float64{(2 / math.Log2(3)) / (2 + 1/math.Log2(3))}},
		// rbp: gains 0, 1, 2 scaled by 2; d10 at rank 2: 0.1 · 1 · 0.9
		{"rbp", []float64{0.1 * 0.9}},
		// rbp_resid: x and u (ranks 4, 5): 0.9^5 + 0.1·(0.9^3 + 0.9^4)
		{"rbp_resid", []float64{math.Pow(0.9, 5) + 0.1*(math.Pow(0.9, 3)+math.Pow(0.9, 4))}},
	} {
		ms, err := TrecSelect([]string{tc.measure})
		if err != nil {
			t.Fatalf("%s: %v", tc.measure, err)
		}
		v := make([]float64, len(tc.want))
		if err := TrecTopic(&TrecConfig{RelevanceLevel: 1}, r, ms, v); err != nil {
			t.Fatal(err)
		}
		for i := range v {
			if math.Abs(v[i]-tc.want[i]) > 1e-12 {
				t.Errorf("%s: %s = %.17g, want %.17g", tc.measure, ms[0].Names[i], v[i], tc.want[i])
			}
		}
	}
}

// -M keeps the first documents after ranking; -J drops the unjudged;
// -l raises the relevance level; a document ranked or judged twice is
// refused.
func TestTrecRankOptions(t *testing.T) {
	judged := "D8:0 a:1 d10:2 d9:0 u:-1"
	docs := "d10:5 D8:5 d9:5 x:4 u:3"
	for _, tc := range []struct {
		name              string
		cfg               TrecConfig
		rel               string
		numRel, numRelRet int
	}{
		{"-M 2", TrecConfig{MaxDocs: 2}, "02", 2, 1},
		{"-J", TrecConfig{JudgedOnly: true}, "020", 2, 1},
		{"-l 2", TrecConfig{RelevanceLevel: 2}, "020-.", 1, 1},
	} {
		r := trecRels(t, tc.cfg, judged, docs)
		if got := TrecRelString(r, 10); got != tc.rel || r.NumRel != tc.numRel || r.NumRelRet != tc.numRelRet {
			t.Errorf("%s: %q num_rel %d num_rel_ret %d, want %q %d %d", tc.name, got, r.NumRel, r.NumRelRet, tc.rel, tc.numRel, tc.numRelRet)
		}
	}
	var r TrecRels
	cfg := TrecConfig{RelevanceLevel: 1}
	if err := TrecRank(&cfg, nil, []TrecDoc{{"a", 1}, {"b", 2}, {"a", 3}}, &r); err == nil || !strings.Contains(err.Error(), "a is retrieved twice") {
		t.Errorf("duplicate retrieved: %v", err)
	}
	if err := TrecRank(&cfg, []TrecJudgment{{"a", 1}, {"a", 0}}, []TrecDoc{{"a", 1}}, &r); err == nil || !strings.Contains(err.Error(), "a is judged twice") {
		t.Errorf("duplicate judged: %v", err)
	}
}

// C's atof and atol read the longest number at the start.
func TestCNumbers(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
	}{
		{"12.5", 12.5}, {"1.25e1", 12.5}, {"12abc", 12}, {"x", 0}, {".5", 0.5}, {"5.", 5},
		{"+0.5", 0.5}, {"-3e", -3}, {"1e+", 1}, {" 7", 7}, {"1_000", 1}, {"0x10", 16},
		// exponents as strtod reads them: either case, a sign, at least a digit
		{"1.5E2", 150}, {"2e-1", 0.2}, {"0x1p4", 16}, {"0x1P-1", 0.5}, {"0x1p", 1}, {"0x1p+x", 1},
	} {
		if got := cAtof(tc.in); got != tc.want {
			t.Errorf("atof(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct {
		in   string
		want int
	}{{"2.7", 2}, {"-1", -1}, {"x", 0}, {"+3", 3}, {" 4", 4}} {
		if got := cAtol(tc.in); got != tc.want {
			t.Errorf("atol(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// readsim's measure lists read trec_eval's names of ListTrec measures,
// with trec_eval's -m form of cutoffs (success.1,5,10), and ir_measures'.
func TestTrecNamesInLists(t *testing.T) {
	ms, err := ParseMeasureList([]string{"success.1,5,10", "map_cut_20,bpref,Bpref,IPrec@0.5,RBP(p=0.8),SetF"}, AllNames)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.String()+"="+m.Canonical())
	}
	want := "success_1=success_1 success_5=success_5 success_10=success_10 map_cut_20=map_cut_20 bpref=bpref Bpref=bpref IPrec@0.5=iprec_at_recall_0.50 RBP(p=0.8)=RBP(p=0.8) SetF=set_F"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	for _, bad := range []string{"success_0", "IPrec@1.5", "unj.x"} {
		if _, err := ParseMeasure(bad); err == nil {
			t.Errorf("%s read", bad)
		}
	}
}

// Interpolated precision by hand under both trec_eval rules for a recall
// level x: trec_eval 10 rounds x·R (lround), trec_eval 9 (Compat 9) adds
// 0.9 and truncates. R = 4, relevant documents at ranks 1, 2, 6, 10: the
// interpolated precision at k relevant documents is 1, 1, 0.5, 0.4 (k = 0:
// 1). x = 0.6: 2.4 → 2 (1) against 3.3 → 3 (0.5); x = 0.8: 3.2 → 3 (0.5)
// against 4.1 → 4 (0.4); the other levels agree. Rprec_mult adds 0.9 under
// both: x = 0.6 → 3 documents, precision 2/3.
func TestTrecInterpolationRules(t *testing.T) {
	judged := "n0:0 r0:1 r1:1 r2:1 r3:1"
	docs := "r0:10 r1:9 n0:8 n1:7 n2:6 r2:5 n3:4 n4:3 n5:2 r3:1"
	r := trecRels(t, TrecConfig{}, judged, docs)
	ten := []float64{1, 1, 1, 1, 1, 1, 1, 0.5, 0.5, 0.4, 0.4}
	nine := []float64{1, 1, 1, 1, 1, 1, 0.5, 0.5, 0.4, 0.4, 0.4}
	for _, tc := range []struct {
		measure string
		compat  int
		want    []float64
	}{
		{"iprec_at_recall", 0, ten},
		{"iprec_at_recall", 10, ten},
		{"iprec_at_recall", 9, nine},
		{"11pt_avg", 0, []float64{(7*1 + 2*0.5 + 2*0.4) / 11}},
		{"11pt_avg", 9, []float64{(6*1 + 2*0.5 + 3*0.4) / 11}},
		{"iprec_at_recall..6,.8", 0, []float64{1, 0.5}},
		{"iprec_at_recall..6,.8", 9, []float64{0.5, 0.4}},
		{"Rprec_mult.0.6", 0, []float64{2.0 / 3}},
		{"Rprec_mult.0.6", 9, []float64{2.0 / 3}},
	} {
		ms, err := TrecSelect([]string{tc.measure})
		if err != nil {
			t.Fatalf("%s: %v", tc.measure, err)
		}
		v := make([]float64, len(tc.want))
		if err := TrecTopic(&TrecConfig{RelevanceLevel: 1, Compat: tc.compat}, r, ms, v); err != nil {
			t.Fatal(err)
		}
		for i := range v {
			if math.Abs(v[i]-tc.want[i]) > 1e-12 {
				t.Errorf("%s (compat %d): %s = %v, want %v", tc.measure, tc.compat, ms[0].Names[i], v[i], tc.want[i])
			}
		}
	}
}
