package scenario

import (
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/readsim/readsim/scenario/inex"
)

// streamed evaluates the runs against the judgments file qrels read a topic
// at a time (with the measures names, -c when all), and returns the
// evaluations and the warnings.
func streamed(t *testing.T, qrels string, runs []string, names []string, all bool) ([]*Evaluation, []string, error) {
	t.Helper()
	var warns []string
	warn := func(s string) { warns = append(warns, s) }
	st, err := inex.OpenQrelsStream(qrels, warn)
	if err != nil {
		return nil, warns, err
	}
	opt := EvalOptions{Measures: mustMeasures(t, names...), AllTopics: all, Warn: warn}
	evs, err := EvaluateJudged(st, nil, runs, opt)
	return evs, warns, err
}

// whole evaluates as streamed does, every judgment read first.
func whole(t *testing.T, qrels string, runs []string, names []string, all bool) ([]*Evaluation, []string, error) {
	t.Helper()
	var warns []string
	warn := func(s string) { warns = append(warns, s) }
	q, err := inex.OpenQrels(qrels, warn)
	if err != nil {
		return nil, warns, err
	}
	opt := EvalOptions{Measures: mustMeasures(t, names...), AllTopics: all, Warn: warn}
	evs, err := EvaluateFiles(q, runs, opt)
	return evs, warns, err
}

// Judgments read a topic at a time give the evaluation, and the warnings,
// of judgments read whole, for INEX and TREC judgments, runs that miss
// judged topics or hold unjudged ones, and judgments not grouped by topic
// (read again whole).
func TestEvaluateStreamAsWhole(t *testing.T) {
	dir := t.TempDir()
	shuffled := filepath.Join(dir, "shuffled.qrels")
	// topic 1 comes back after topic 2
	mustWrite(t, shuffled, "1 0 d1 1\n2 0 d2 1\n1 0 d3 2\n")
	trecRun := filepath.Join(dir, "r.trec")
	mustWrite(t, trecRun, "1 Q0 d3 1 2.0 r\n1 Q0 d1 2 1.0 r\n3 Q0 d1 1 1.0 r\n")
	for _, tc := range []struct {
		name, qrels string
		runs, ms    []string
		all         bool
	}{
		{"INEX sample, default-like measures", "../corpus-sample/judgments.qrels", []string{"../corpus-sample/runs/ric.fol", "../corpus-sample/runs/doc.trec"}, []string{"AgP", "gP[5]", "map", "P_10", "num_rel"}, false},
		{"INEX sample, -c", "../corpus-sample/judgments.qrels", []string{"../corpus-sample/runs/ric.fol"}, []string{"AgP", "iP[0.01]", "ndcg"}, true},
		{"TREC qrels", "testdata/trec_eval/fol.trec.qrels", []string{"testdata/trec_eval/fol.trec.run"}, []string{"map", "P_5", "ndcg_cut_10", "bpref", "recip_rank"}, false},
		{"not grouped by topic", shuffled, []string{trecRun}, []string{"map", "P_2", "num_rel"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, gw, gerr := streamed(t, tc.qrels, tc.runs, tc.ms, tc.all)
			want, ww, werr := whole(t, tc.qrels, tc.runs, tc.ms, tc.all)
			if gerr != nil || werr != nil {
				t.Fatalf("errors %v, %v", gerr, werr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("streamed %+v\nwhole    %+v", got[0], want[0])
			}
			// several runs are read concurrently when whole: their warnings
			// come in any order
			slices.Sort(gw)
			slices.Sort(ww)
			if !reflect.DeepEqual(gw, ww) {
				t.Errorf("warnings streamed %q\nwhole %q", gw, ww)
			}
		})
	}
}

// The values of a streamed evaluation, by hand: topic 1 judges d1 (1) and
// d3 (2), topic 2 judges d2; the run ranks d3 then d1 for topic 1 (P_2 = 1,
// AP = 1) and misses topic 2, which scores 0 with -c; its topic 3 is not
// judged and not evaluated.
func TestEvaluateStreamValues(t *testing.T) {
	dir := t.TempDir()
	q := filepath.Join(dir, "q")
	mustWrite(t, q, "1 0 d1 1\n1 0 d3 2\n2 0 d2 1\n")
	run := filepath.Join(dir, "r")
	mustWrite(t, run, "1 Q0 d3 1 2.0 r\n1 Q0 d1 2 1.0 r\n3 Q0 d1 1 1.0 r\n")
	evs, warns, err := streamed(t, q, []string{run}, []string{"P_2", "map", "num_rel"}, true)
	if err != nil {
		t.Fatal(err)
	}
	ev := evs[0]
	if !reflect.DeepEqual(ev.Topics, []string{"1", "2"}) {
		t.Fatalf("topics %v", ev.Topics)
	}
	want := [][]float64{{1, 0}, {1, 0}, {2, 1}}
	if !reflect.DeepEqual(ev.Values, want) {
		t.Errorf("values %v, want %v", ev.Values, want)
	}
	if ev.All[0] != 0.5 || ev.All[1] != 0.5 || ev.All[2] != 3 {
		t.Errorf("all %v, want [0.5 0.5 3]", ev.All)
	}
	if len(warns) != 2 || !strings.Contains(warns[0], "1 topic(s) of the run are not in the judgments") || !strings.Contains(warns[1], "score 0 in `all` (-c): 2") {
		t.Errorf("warnings %q", warns)
	}
}

// A stream returns each topic complete, drops the judgments of the one
// before, and finds a bad line when it reads it: the topics before it
// have been returned. A topic that comes back is ErrNotGrouped at its line.
func TestQrelsStream(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text string
		topics     []string // returned before the error (or the end)
		err        string   // "" at the end
		notGrouped bool
	}{
		{"grouped", "1 0 a 1\n1 0 b 0\n\n2 0 a 1\n3 0 c 1\n", []string{"1", "2", "3"}, "", false},
		{"bad line 4", "1 0 a 1\n1 0 b 0\n2 0 a 1\n2 0 b x\n3 0 c 1\n", []string{"1"}, ":4: relevance \"x\"", false},
		{"topic 1 comes back at line 3", "1 0 a 1\n2 0 a 1\n1 0 b 1\n", []string{"1"}, ":3: topic 1 comes back after other topics", true},
		{"repeated pair", "1 0 a 1\n1 0 a 0\n", nil, ":2: topic 1, article a judged twice", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
			mustWrite(t, path, tc.text)
			st, err := inex.OpenQrelsStream(path, nil)
			var got []string
			var prev *inex.TopicJudgments
			for err == nil {
				var j *inex.TopicJudgments
				if j, err = st.Next(); j == nil {
					break
				}
				if prev != nil && prev.Docs != nil {
					t.Errorf("topic %s still held when %s is returned", prev.ID, j.ID)
				}
				if len(j.Docs) == 0 {
					t.Errorf("topic %s returned without its judgments", j.ID)
				}
				got, prev = append(got, j.ID), j
			}
			if !reflect.DeepEqual(got, tc.topics) {
				t.Errorf("topics %v, want %v", got, tc.topics)
			}
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("error %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), path+tc.err)):
				t.Errorf("error %v, want %q", err, path+tc.err)
			case errors.Is(err, inex.ErrNotGrouped) != tc.notGrouped:
				t.Errorf("error %v: ErrNotGrouped %v, want %v", err, !tc.notGrouped, tc.notGrouped)
			}
		})
	}
}

// A large judgments file is read a topic at a time by eval; a small one,
// one given with --lengths or on standard input, whole.
func TestJudgmentStreamWhen(t *testing.T) {
	dir := t.TempDir()
	q := filepath.Join(dir, "q")
	mustWrite(t, q, "1 0 a 1\n")
	defer func(n int64) { StreamQrelsBytes = n }(StreamQrelsBytes)
	for _, tc := range []struct {
		name  string
		bound int64
		r     MeasureRequest
		want  bool
	}{
		{"larger than the bound", 4, MeasureRequest{Qrels: q}, true},
		{"smaller", 1 << 20, MeasureRequest{Qrels: q}, false},
		{"--lengths", 4, MeasureRequest{Qrels: q, Lengths: q}, false},
		{"standard input", 0, MeasureRequest{Qrels: "-"}, false},
		{"missing", 0, MeasureRequest{Qrels: filepath.Join(dir, "none")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			StreamQrelsBytes = tc.bound
			st, err := tc.r.JudgmentStream(nil)
			if err != nil || (st != nil) != tc.want {
				t.Errorf("stream %v, %v; want %v", st != nil, err, tc.want)
			}
			if st != nil {
				st.Close()
			}
		})
	}
}
