package scenario

import (
	"math"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article/shareddata"
	"github.com/readsim/readsim/scenario/inex"
)

// The files of testdata/trec_eval are judgments and runs written for these
// tests and the output of the real trec_eval on them (see its README.md):
// readsim's trec_eval-named measures must give trec_eval's values, for every
// measure and topic, to trecEvalTol.

const (
	trecEvalDir = "testdata/trec_eval"
	trecEvalTol = 1e-12
)

// trecEvalRef is one trec_eval output (trec_eval -q): the value of every
// measure for every topic and for "all", and the run id.
type trecEvalRef struct {
	file     string
	values   map[string]map[string]float64 // measure → topic → value
	measures []string                      // in order of first appearance
	runID    string
}

// readTrecEval reads trec_eval's "measure<TAB>topic<TAB>value" lines (the
// measure name padded with spaces).
func readTrecEval(t testing.TB, path string) trecEvalRef {
	t.Helper()
	ref := trecEvalRef{file: path, values: map[string]map[string]float64{}}
	for _, l := range readEvalLines(t, path) {
		name, topic := l.name, l.topic
		if name == "runid" {
			ref.runID = l.value
			continue
		}
		if ref.values[name] == nil {
			ref.values[name] = map[string]float64{}
			ref.measures = append(ref.measures, name)
		}
		if _, dup := ref.values[name][topic]; dup {
			t.Fatalf("%s:%d: %s %s given twice", path, l.line, name, topic)
		}
		ref.values[name][topic] = l.number(t, path)
	}
	if len(ref.measures) == 0 {
		t.Fatalf("%s: no value", path)
	}
	return ref
}

// topics returns the topics trec_eval printed per-topic values for (it
// prints none for num_q).
func (r trecEvalRef) topics() []string {
	seen := map[string]bool{}
	for _, byTopic := range r.values {
		for topic := range byTopic {
			if topic != "all" {
				seen[topic] = true
			}
		}
	}
	var out []string
	for topic := range seen {
		out = append(out, topic)
	}
	sort.Strings(out)
	return out
}

// otherNames are the names readsim and ir_measures give trec_eval's
// measure name: each must give trec_eval's values too (AP is map, P[10]
// and P@10 are P_10, whatever the run's line order).
func otherNames(name string) []string {
	if k, ok := strings.CutPrefix(name, "P_"); ok {
		return []string{"P[" + k + "]", "P@" + k}
	}
	if k, ok := strings.CutPrefix(name, "recall_"); ok {
		return []string{"R[" + k + "]", "R@" + k}
	}
	if k, ok := strings.CutPrefix(name, "ndcg_cut_"); ok {
		return []string{"nDCG[" + k + "]", "nDCG@" + k}
	}
	return map[string][]string{
		"map": {"AP", "MAP"}, "recip_rank": {"RR", "rr"}, "Rprec": {"RPREC"}, "ndcg": {"nDCG"},
		"num_q": {"NumQ"}, "num_ret": {"NumRet"}, "num_rel": {"NumRel"}, "num_rel_ret": {"NumRelRet"},
	}[name]
}

// checkTrecEval evaluates run against q with readsim (every measure of ref,
// by the name trec_eval prints and by readsim's and ir_measures' names for
// it: otherNames) and reports every value that differs from ref. It returns
// the number of values compared.
func checkTrecEval(t *testing.T, q *inex.Qrels, run *inex.Run, allTopics bool, ref trecEvalRef) int {
	t.Helper()
	var ms []effort.Measure
	var refName []string // per measure: trec_eval's name for it
	for _, name := range ref.measures {
		for _, n := range append([]string{name}, otherNames(name)...) {
			m, err := effort.ParseMeasure(n)
			if err != nil {
				t.Fatalf("%s: %s (trec_eval's %s): %v", ref.file, n, name, err)
			}
			counts := m.List == effort.CountNumQ || m.List == effort.CountNumRet || m.List == effort.CountNumRel || m.List == effort.CountNumRelRet
			if !m.RanksByScore() && !counts {
				t.Errorf("%s: %s (trec_eval's %s) does not rank as trec_eval does", ref.file, n, name)
			}
			ms, refName = append(ms, m), append(refName, name)
		}
		if len(otherNames(name)) == 0 {
			t.Errorf("%s: no other name for trec_eval's %s", ref.file, name)
		}
	}
	for i, m := range ms {
		if i > 0 && refName[i-1] == refName[i] {
			continue
		}
		if m.String() != refName[i] {
			t.Errorf("%s: readsim names trec_eval's %s %q", ref.file, refName[i], m.String())
		}
	}
	res, err := Evaluate(q, run, EvalOptions{Measures: ms, AllTopics: allTopics}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.RunID != ref.runID {
		t.Errorf("run id %q, trec_eval %q", res.RunID, ref.runID)
	}
	got := append([]string(nil), res.Topics...)
	sort.Strings(got)
	if want := ref.topics(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("topics evaluated: %v, trec_eval %v", got, want)
	}
	n := 0
	for i, m := range ms {
		name, as := refName[i], m.String()
		for j, topic := range res.Topics {
			want, ok := ref.values[name][topic]
			if !ok {
				if name == "num_q" && res.Values[i][j] == 1 {
					continue // trec_eval prints num_q for all only
				}
				t.Errorf("%s %s = %.17g, trec_eval prints no value", as, topic, res.Values[i][j])
				continue
			}
			if got := res.Values[i][j]; math.Abs(got-want) > trecEvalTol {
				t.Errorf("%s %s = %.17g, trec_eval's %s %.17g", as, topic, got, name, want)
			}
			n++
		}
		if got, want := res.All[i], ref.values[name]["all"]; math.Abs(got-want) > trecEvalTol {
			t.Errorf("%s all = %.17g, trec_eval's %s %.17g", as, got, name, want)
		}
		n++
	}
	return n
}

// TestTrecEvalSynthetic compares readsim with trec_eval on the small files of
// testdata/trec_eval: graded TREC qrels (0–3 and negative levels, a topic
// without relevant document, a judged topic absent from the run) against a run
// with tied scores (ties broken by docno, descending, as strcmp orders them),
// scores in exponent form, unjudged documents, a topic absent from the
// judgments and topics shorter than the cutoffs; and FOL judgments and a FOL
// run next to the TREC qrels and run trec_eval was given for them.
func TestTrecEvalSynthetic(t *testing.T) {
	for _, tc := range []struct {
		name, qrels, run, ref string
		allTopics             bool
	}{
		{"graded", "graded.qrels", "graded.run", "graded.trec_eval.txt", false},
		// Every judged topic of graded.qrels is in the run: trec_eval -c
		// prints the same values.
		{"graded -c", "graded.qrels", "graded.run", "graded.trec_eval.txt", true},
		{"missing -c", "missing.qrels", "graded.run", "missing.c.trec_eval.txt", true},
		{"FOL judgments, FOL run", "fol.qrels", "fol.run", "fol.trec_eval.txt", false},
		{"FOL judgments, FOL run -c", "fol.qrels", "fol.run", "fol.trec_eval.txt", true},
		{"TREC qrels, FOL run", "fol.trec.qrels", "fol.run", "fol.trec_eval.txt", false},
		{"TREC qrels, TREC run", "fol.trec.qrels", "fol.trec.run", "fol.trec_eval.txt", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref := readTrecEval(t, filepath.Join(trecEvalDir, tc.ref))
			q := openQrels(t, filepath.Join(trecEvalDir, tc.qrels))
			run := openRun(t, filepath.Join(trecEvalDir, tc.run))
			n := checkTrecEval(t, q, run, tc.allTopics, ref)
			t.Logf("%d values of trec_eval compared", n)
		})
	}
}

// TestTrecEvalRefusesDuplicates: trec_eval refuses a run that retrieves a
// document twice for a topic and judgments that judge one twice (see the
// README); so does readsim, unless asked to merge the run's repeats.
func TestTrecEvalRefusesDuplicates(t *testing.T) {
	ms := []effort.Measure{mustMeasure(t, "map"), mustMeasure(t, "num_ret")}
	q := openQrels(t, filepath.Join(trecEvalDir, "graded.qrels"))
	dup := filepath.Join(trecEvalDir, "dup.run")
	for _, tc := range []struct {
		name         string
		group, merge bool
		ok           bool
	}{
		{"plain", false, false, false},
		{"--group", true, false, false},
		{"--merge-overlaps", false, true, false},
		{"--group --merge-overlaps", true, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := EvaluateFiles(q, []string{dup}, EvalOptions{Measures: ms, Group: tc.group, MergeOverlaps: tc.merge, Workers: 1})
			switch {
			case tc.ok && err != nil:
				t.Fatal(err)
			case !tc.ok && err == nil:
				t.Fatalf("%s evaluated (map %v), want the repeated document refused", dup, res[0].All[0])
			case tc.ok && res[0].All[1] != 2:
				t.Errorf("num_ret %v after merging, want 2", res[0].All[1])
			}
		})
	}
	if _, err := inex.OpenQrels(filepath.Join(trecEvalDir, "dup.qrels"), nil); err == nil {
		t.Error("dup.qrels read, want the document judged twice refused")
	}
}

// TestTrecEvalArticleRun compares readsim, with the shared FOL judgments, on
// the shared article-run.trec (120 topics, 77 tied scores) with trec_eval's
// output for the same run against those judgments turned into TREC qrels
// (see the README). The run retrieves every judged topic, so -c changes
// nothing.
func TestTrecEvalArticleRun(t *testing.T) {
	dir := shareddata.INEX(t)
	q := loadQrels(t, dir)
	run := openRun(t, filepath.Join(dir, "article-run.trec"))
	ref := readTrecEval(t, filepath.Join(trecEvalDir, "article-run.trec_eval.txt"))
	for _, allTopics := range []bool{false, true} {
		n := checkTrecEval(t, q, run, allTopics, ref)
		t.Logf("-c %v: %d values of trec_eval compared", allTopics, n)
	}
}

// irMeasuresNames are ir_measures' names for trec_eval's measures that
// readsim reads beside trec_eval's (ListTrec).
var irMeasuresNames = map[string]string{
	"bpref": "Bpref", "infAP": "infAP", "iprec_at_recall_0.50": "IPrec@0.5", "iprec_at_recall_0.10": "IPrec@0.1",
	"success_1": "Success@1", "success_5": "Success@5", "success_10": "Success@10",
	"set_P": "SetP", "set_recall": "SetR", "set_F": "SetF", "set_map": "SetAP", "rbp": "RBP",
}

// readsim eval reads every measure of trec_eval's all_trec by the name
// trec_eval prints (bpref, iprec_at_recall_0.50, success_10, set_F, gm_map,
// unj_5…) and by ir_measures' (Bpref, IPrec@0.5, Success@10, SetF, RBP),
// and gives trec_eval's values: every topic's and the summary, to the four
// decimals trec_eval prints (graded.a.txt: trec_eval -q -m all_trec;
// graded.yaap.txt: yaap, in no nickname; the judgments have negative grades, which trec_eval takes as pooled but not
// judged).
func TestEvalTrecEvalNames(t *testing.T) {
	q := openQrels(t, filepath.Join(trecEvalDir, "graded.qrels"))
	run := openRun(t, filepath.Join(trecEvalDir, "graded.run"))
	want := map[string]map[string]float64{} // name → topic → value
	var names []string
	for _, f := range []string{"graded.a.txt", "graded.yaap.txt"} {
		path := filepath.Join(trecEvalDir, f)
		for _, l := range readEvalLines(t, path) {
			if l.name == "runid" || strings.HasPrefix(l.name, "relstring") {
				continue
			}
			if want[l.name] == nil {
				want[l.name] = map[string]float64{}
				names = append(names, l.name)
			}
			want[l.name][l.topic] = l.number(t, path)
		}
	}
	var ms []effort.Measure
	var of []string // trec_eval's name of each measure
	for _, n := range names {
		for _, as := range []string{n, irMeasuresNames[n]} {
			if as == "" {
				continue
			}
			m, err := effort.ParseMeasure(as)
			if err != nil {
				t.Errorf("%s: %v", as, err)
				continue
			}
			ms, of = append(ms, m), append(of, n)
		}
	}
	if len(ms) < 90 {
		t.Fatalf("%d measures of all_trec read", len(ms))
	}
	res, err := Evaluate(q, run, EvalOptions{Measures: ms}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range ms {
		w := want[of[i]]
		for j, topic := range res.Topics {
			if v, ok := w[topic]; ok && math.Abs(res.Values[i][j]-v) > 0.00005 {
				t.Errorf("%s %s = %.6f, trec_eval's %s %.4f", m, topic, res.Values[i][j], of[i], v)
			}
		}
		if v := w["all"]; math.Abs(res.All[i]-v) > 0.00005 {
			t.Errorf("%s all = %.6f, trec_eval's %s %.4f", m, res.All[i], of[i], v)
		}
	}
}
