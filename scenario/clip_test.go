package scenario

import (
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
)

// TestClipWarning checks that results past their article's end are clipped
// with a warning for focused measures as for ranked-list ones (formats.md).
func TestClipWarning(t *testing.T) {
	// Topic 1: a has 100 characters, b 60.
	q := readQrels(t, "q", "1 Q0 a 10 100 0 0:10\n1 Q0 b 10 60 0 0:10\n")
	// Line 2 ([90,110) of a) and line 3 ([50,150) of b) run past the end;
	// line 1 does not.
	run := mustRun(t, "1 Q0 a 1 3 r 0 10\n1 Q0 a 2 2 r 90 20\n1 Q0 b 3 1 r 50 100\n")
	for _, tc := range []struct {
		name     string
		measures []string
		want     string
	}{
		// Focused: two passages clipped, the first at line 2.
		{"focused", []string{"AiP"}, "r:2: warning: 2 result(s) run past their article's end"},
		{"focused iP", []string{"iP[0.01]"}, "r:2: warning: 2 result(s) run past their article's end"},
		// Both kinds: the passages, each counted once.
		{"focused and list", []string{"AiP", `AgP\F(0.25)`}, "r:2: warning: 2 result(s) run past their article's end"},
		// Ranked list only: the same two passages.
		{"list", []string{`AgP\F(0.25)`}, "r:2: warning: 2 result(s) run past their article's end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ms []effort.Measure
			for _, n := range tc.measures {
				ms = append(ms, mustMeasure(t, n))
			}
			var warns []string
			opt := EvalOptions{Measures: ms, Warn: func(s string) { warns = append(warns, s) }}
			if _, err := Evaluate(q, run, opt, 1); err != nil {
				t.Fatal(err)
			}
			if len(warns) != 1 || !strings.Contains(warns[0], tc.want) {
				t.Errorf("warnings %q, want one with %q", warns, tc.want)
			}
		})
	}

	// Two passages of one article past its end count as two results.
	run2 := mustRun(t, "1 Q0 b 1 3 r 0 10\n1 Q0 a 2 3 r 95 10\n1 Q0 a 3 2 r 120 5\n")
	for _, n := range []string{"AiP", `AgP\F(0.25)`} {
		var warns []string
		opt := EvalOptions{Measures: []effort.Measure{mustMeasure(t, n)}, Warn: func(s string) { warns = append(warns, s) }}
		if _, err := Evaluate(q, run2, opt, 1); err != nil {
			t.Fatal(err)
		}
		if want := "r:2: warning: 2 result(s) run past"; len(warns) != 1 || !strings.Contains(warns[0], want) {
			t.Errorf("%s: warnings %q, want one with %q", n, warns, want)
		}
	}
}

// TestReplayClipPerTopic checks that the replayer's pooled workspace counts
// clipped results per topic, not across the topics it served before.
func TestReplayClipPerTopic(t *testing.T) {
	q := readQrels(t, "q", "1 Q0 a 10 100 0 0:10\n2 Q0 a 10 100 0 0:10\n")
	// Topic 1: [90,110) runs past a's 100 characters; topic 2: [0,10) does not.
	run := mustRun(t, "1 Q0 a 1 1 r 90 20\n2 Q0 a 1 1 r 0 10\n")
	p, err := NewReplayer(q, run, SimulatedReader{})
	if err != nil {
		t.Fatal(err)
	}
	w := new(work)
	for _, tc := range []struct {
		topic string
		n     int
	}{{"1", 1}, {"2", 0}, {"1", 1}} {
		docs, _, err := p.input(tc.topic, w)
		if err != nil {
			t.Fatal(err)
		}
		if len(docs) != 1 || docs[0].Article != "a" || len(w.in.Docs) != 1 {
			t.Errorf("topic %s: docs %+v, input %+v", tc.topic, docs, w.in.Docs)
		}
		if w.cl.n != tc.n {
			t.Errorf("topic %s: %d clipped, want %d", tc.topic, w.cl.n, tc.n)
		}
	}
}

// TestReplayClipWarning checks that the replayer warns as eval does about
// the results of the topics it replays that run past their article's end.
func TestReplayClipWarning(t *testing.T) {
	q := readQrels(t, "q", "1 Q0 a 10 100 0 0:10\n2 Q0 a 10 100 0 0:10\n")
	// Line 1 (topic 1) stays inside a's 100 characters; lines 2 and 3
	// (topics 1 and 2) run past them.
	run := mustRun(t, "1 Q0 a 1 2 r 0 10\n1 Q0 a 2 1 r 90 20\n2 Q0 a 1 1 r 95 10\n")
	p, err := NewReplayer(q, run, SimulatedReader{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		topics []string
		want   string
	}{
		{[]string{"1", "2"}, "r:2: warning: 2 result(s) run past their article's end"},
		{[]string{"2"}, "r:3: warning: 1 result(s) run past their article's end"},
	} {
		got, err := p.ClipWarning(tc.topics)
		if err != nil || !strings.Contains(got, tc.want) {
			t.Errorf("topics %v: %q %v, want %q", tc.topics, got, err, tc.want)
		}
	}
	run2 := mustRun(t, "1 Q0 a 1 1 r 0 10\n")
	p2, _ := NewReplayer(q, run2, SimulatedReader{})
	if got, err := p2.ClipWarning([]string{"1"}); got != "" || err != nil {
		t.Errorf("nothing clipped: %q %v", got, err)
	}
}
