package scenario

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article/shareddata"
	"github.com/readsim/readsim/scenario/inex"
)

type refValue struct {
	name, topic string
	value       float64
	line        int
}

// readRef reads the values of an official output (readEvalLines).
func readRef(t testing.TB, path string) []refValue {
	t.Helper()
	var out []refValue
	for _, l := range readEvalLines(t, path) {
		out = append(out, refValue{l.name, l.topic, l.number(t, path), l.line})
	}
	return out
}

// evaluator computes any official or readsim value of one run.
type evaluator struct {
	t     testing.TB
	q     *inex.Qrels
	run   *inex.Run
	opt   EvalOptions
	cache map[string]*Evaluation
}

func (e *evaluator) value(m effort.Measure, topic string) (float64, bool) {
	key := m.String()
	r := e.cache[key]
	if r == nil {
		opt := e.opt
		opt.Measures = []effort.Measure{m}
		var err error
		r, err = Evaluate(e.q, e.run, opt, 2)
		if err != nil {
			e.t.Fatal(err)
		}
		e.cache[key] = r
	}
	if topic == "all" {
		return r.All[0], true
	}
	for i, id := range r.Topics {
		if id == topic {
			return r.Values[0][i], true
		}
	}
	return 0, false
}

// TestOfficialINEX reproduces every value of the official inex_eval
// outputs, each asked by the name the tool prints: the -r output's as
// printed (MAgP, gP[k], ircl_prn.x are AgP, gP[k] and igP[x] with
// F(0.25)), the -i output's with \T2Ip(300) after the names that take a
// document score (MAgP\T2Ip(300), gP[10]\T2Ip(300),
// ircl_prn.0.50\T2Ip(300)), the -f output's as printed but ircl_prn.x, which
// is iP[x] there (readsim's ircl_prn.x is -r's). -r and -i are reproduced
// with --compat inex (gP[k] for k > n repeats gP[n]; num_rel and rel_size
// sum over every judged topic), -f without.
func TestOfficialINEX(t *testing.T) {
	dir := shareddata.INEX(t)
	q := loadQrels(t, dir)
	for _, tc := range []struct {
		file, run string
		doc       string // document score appended to the names of -i's output
		focused   bool
	}{
		{"passage-run.ric.RiC-F0.25.txt", "passage-run.ric.fol", "", false},
		{"passage-run.ric.T2I-300.txt", "passage-run.ric.fol", `T2Ip(300)`, false},
		{"passage-run.focused.Focused.txt", "passage-run.focused.fol", "", true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			run := openRun(t, filepath.Join(dir, tc.run))
			opt := EvalOptions{Config: effort.Config{CompatINEX: !tc.focused}}
			e := &evaluator{t: t, q: q, run: run, opt: opt, cache: map[string]*Evaluation{}}
			checked := 0
			for _, ref := range readRef(t, filepath.Join(dir, "expected", tc.file)) {
				name := ref.name
				switch {
				case tc.focused && strings.HasPrefix(name, "ircl_prn."):
					name = "iP[" + strings.TrimPrefix(name, "ircl_prn.") + "]"
				case tc.doc != "" && (strings.HasPrefix(name, "gP[") || strings.HasPrefix(name, "ircl_prn.") || name == "AgP" || name == "MAgP"):
					name += `\` + tc.doc
				}
				got, ok := e.value(mustMeasure(t, name), ref.topic)
				if !ok {
					t.Fatalf("line %d: topic %s not evaluated", ref.line, ref.topic)
				}
				if math.Abs(got-ref.value) > 1e-9 {
					t.Errorf("line %d: %s %s = %.17g, official %.17g", ref.line, name, ref.topic, got, ref.value)
				}
				checked++
			}
			if checked == 0 {
				t.Fatalf("%s: no official value checked", tc.file)
			}
			t.Logf("%d official values reproduced", checked)
		})
	}
}

// TestEffortReference reproduces the independent implementation's values of
// the spec's measures in the four reading modes.
func TestEffortReference(t *testing.T) {
	dir := shareddata.INEX(t)
	q := loadQrels(t, dir)
	run := openRun(t, filepath.Join(dir, "passage-run.ric.fol"))
	for _, tc := range []struct {
		file string
		cfg  effort.Config
	}{
		{"passage-run.ric.effort-natural.tsv", effort.Config{Order: effort.Natural}},
		{"passage-run.ric.effort-best.tsv", effort.Config{Order: effort.Best}},
		{"passage-run.ric.effort-worst.tsv", effort.Config{Order: effort.Worst}},
		{"passage-run.ric.effort-docbaseline.tsv", effort.Config{DocBaseline: true}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			e := &evaluator{t: t, q: q, run: run, opt: EvalOptions{Config: tc.cfg}, cache: map[string]*Evaluation{}}
			n := 0
			for _, ref := range readRef(t, filepath.Join(dir, "expected", tc.file)) {
				m := mustMeasure(t, ref.name)
				if m.String() != ref.name {
					t.Errorf("line %d: canonical name %q, reference %q", ref.line, m.String(), ref.name)
				}
				got, ok := e.value(m, ref.topic)
				if !ok {
					t.Fatalf("line %d: topic %s not evaluated", ref.line, ref.topic)
				}
				if math.Abs(got-ref.value) > 1e-9 {
					t.Errorf("line %d: %s %s = %.17g, reference %.17g", ref.line, ref.name, ref.topic, got, ref.value)
				}
				n++
			}
			if n == 0 {
				t.Fatal("no reference value")
			}
			t.Log(fmt.Sprint(n, " reference values reproduced"))
		})
	}
}

// EvaluateReadings scores each reading as EvaluateReading does, in order,
// and tells apart two readings with one id by their files.
func TestEvaluateReadings(t *testing.T) {
	p := tinyReplayer(t, SimulatedReader{T2I: 501})
	var trace bytes.Buffer
	if err := p.WriteTrace(&trace, p.Topics(), nil); err != nil {
		t.Fatal(err)
	}
	var rds []*Reading
	for _, name := range []string{"p1.jsonl", "p2.jsonl"} {
		rd, err := ReadReading(name, bytes.NewReader(trace.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		rds = append(rds, rd)
	}
	// the one topic: a is read first and holds all 10 relevant characters
	// of 511 read; c and b are not relevant (Trel 1), so AP = 1
	opt := EvalOptions{Measures: mustMeasures(t, `AgP\Read`, "AP")}
	var warned []string
	opt.Warn = func(s string) { warned = append(warned, s) }
	evs, err := EvaluateReadings(p.q, rds, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{10.0 / 511, 1}
	for i, ev := range evs {
		if ev.Label == "" || (i > 0 && ev.Label == evs[0].Label) || len(ev.Topics) != 1 {
			t.Errorf("reading %d: label %q, topics %v", i, ev.Label, ev.Topics)
		}
		for m, w := range want {
			if got := ev.Values[m][0]; math.Abs(got-w) > 1e-12 {
				t.Errorf("reading %d: %s = %v, want %v", i, opt.Measures[m], got, w)
			}
		}
	}
	if len(warned) == 0 {
		t.Error("no warning that two readings were renamed")
	}
}
