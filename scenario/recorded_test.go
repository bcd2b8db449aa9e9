package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// recording writes a recorded reading of topic 1: each visit is an
// article and its screens' read ranges (one screen per time t), then the
// topic's done event (outcome "": none, the topic abandoned).
func recording(outcome string, visits ...string) string {
	var b strings.Builder
	seq, tm := 0, 0
	line := func(format string, args ...any) {
		seq++
		tm += 10
		fmt.Fprintf(&b, `{"topic":"1","seq":%d,"t":%d,`+format+"}\n", append([]any{seq, tm}, args...)...)
	}
	line(`"ev":"topic"`)
	for _, v := range visits {
		f := strings.Fields(v)
		line(`"ev":"open","doc":%q`, f[0])
		for _, r := range f[1:] {
			var from, to int
			fmt.Sscanf(r, "%d-%d", &from, &to)
			line(`"ev":"read","doc":%q,"from":%d,"to":%d`, f[0], from, to)
		}
		line(`"ev":"stop","doc":%q`, f[0])
	}
	if outcome != "" {
		line(`"ev":"done","outcome":%q`, outcome)
	}
	return b.String()
}

// byHandQrels: articles a, b and c of 5,000 characters, nothing relevant
// but [4000,5000) of a.
const byHandQrels = "1 Q0 a 1000 5000 4000 4000:1000\n1 Q0 b 0 5000 0\n1 Q0 c 0 5000 0\n"

// Implausible screens by hand: screens of 600 and 650 characters and one
// of 4,621 (more than twice 650) flag article c; 600, 650 and 1,300 (not
// more than twice 650) flag nothing; two screens are too few to tell.
func TestImplausibleScreens(t *testing.T) {
	for _, tc := range []struct {
		visits []string
		want   string
	}{
		{[]string{"a 0-600", "b 0-650", "c 0-4621"}, "c:4621"},
		{[]string{"a 0-600", "b 0-650", "c 0-1300"}, ""},
		{[]string{"a 0-600 600-1200", "c 0-4621"}, "c:4621"},
		{[]string{"a 0-600", "c 0-4621"}, ""},
	} {
		rd, err := ReadReading("r", strings.NewReader(recording("gave up", tc.visits...)))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for a, n := range ImplausibleScreens(rd) {
			got = append(got, fmt.Sprintf("%s:%d", a.Doc, n))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%v: %v, want %s", tc.visits, got, tc.want)
		}
	}
}

// The implausible visit is flagged in the figures (table and JSON) and left
// out of calibration with a warning naming the file, the article and its
// line: two visits of 600-character screens remain.
func TestImplausibleLeftOut(t *testing.T) {
	q, err := inex.ReadQrels("q", strings.NewReader(byHandQrels), nil)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := ReadReading("r.jsonl", strings.NewReader(recording("gave up", "a 0-600 600-1200", "b 0-600 600-1200", "c 0-4621")))
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	c, err := Calibrate(q, []*Reading{rd}, CalibrateOptions{Bootstrap: 10, Warn: func(s string) { warnings = append(warnings, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if c.Visits != 2 || c.Implausible != 1 || len(warnings) != 1 || !strings.Contains(warnings[0], "r.jsonl: warning: article c (line 10) shows 4621 characters on one screen") {
		t.Errorf("%d visits, %d implausible, warnings %q", c.Visits, c.Implausible, warnings)
	}
	var tbl, js bytes.Buffer
	if err := WriteFigures(&tbl, q, []*Reading{rd}, effort.DefaultScreen, effort.DefaultNR, FormatTable, 2); err != nil {
		t.Fatal(err)
	}
	if err := WriteFigures(&js, q, []*Reading{rd}, effort.DefaultScreen, effort.DefaultNR, FormatJSON, 2); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"implausible: a screen of 4621 characters (not calibrated)", "spaces and line breaks count as read characters", "relevant characters per minute"} {
		if !strings.Contains(tbl.String(), want) {
			t.Errorf("figures lack %q:\n%s", want, tbl.String())
		}
	}
	if !strings.Contains(js.String(), `"doc":"c"`) || strings.Count(js.String(), `"implausible_screen":4621`) != 1 || strings.Count(js.String(), `"implausible_screen":null`) != 2 {
		t.Errorf("JSON figures:\n%s", js.String())
	}
}

// An abandoned topic (recorded, no done event) is not scored as a finished
// one: eval leaves it out with a warning; the figures say "abandoned";
// calibration right-censors its last visit. Here b's visit alone: two
// screens of 600 non-relevant characters, x in (600, 1200] when the topic
// is given up, x > 600 when abandoned.
func TestAbandonedTopic(t *testing.T) {
	q, err := inex.ReadQrels("q", strings.NewReader(byHandQrels), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		outcome  string
		censored int
		bounded  bool
	}{{"gave up", 0, true}, {"", 1, false}} {
		rd, err := ReadReading("r.jsonl", strings.NewReader(recording(tc.outcome, "b 0-600 600-1200")))
		if err != nil {
			t.Fatal(err)
		}
		c, err := Calibrate(q, []*Reading{rd}, CalibrateOptions{Bootstrap: 10})
		if err != nil {
			t.Fatal(err)
		}
		if c.Censored != tc.censored || c.T2IBounded != tc.bounded || c.T2ILow != 601 {
			t.Errorf("outcome %q: %d censored, T2I %v [%v, %v] observed %v", tc.outcome, c.Censored, c.T2I, c.T2ILow, c.T2IHigh, c.T2IBounded)
		}
		_, tops := Figures(q, rd, effort.DefaultScreen, effort.DefaultNR)
		want := tc.outcome
		if want == "" {
			want = "abandoned"
		}
		if len(tops) != 1 || tops[0].Outcome != want {
			t.Errorf("outcome %q: figures %+v", tc.outcome, tops)
		}
		ms, _ := effort.ParseMeasures([]string{`AgP\Read`})
		var warnings []string
		_, err = EvaluateReading(q, rd, EvalOptions{Measures: ms, Warn: func(s string) { warnings = append(warnings, s) }})
		if tc.outcome != "" && (err != nil || len(warnings) != 0) {
			t.Errorf("a topic given up: %v %q", err, warnings)
		}
		if tc.outcome == "" && (err == nil || !strings.Contains(err.Error(), "abandoned") || len(warnings) != 1 || !strings.Contains(warnings[0], "1 topic(s) were abandoned")) {
			t.Errorf("an abandoned topic: %v %q", err, warnings)
		}
	}
}

// Among several readings, one whose every judged topic was abandoned (a
// participant still reading) is passed over with a warning naming its file,
// and the others are scored; alone, or with only such readings, it is an
// error (ErrAllAbandoned).
func TestEvaluateReadingsPassesOverAbandoned(t *testing.T) {
	q, err := inex.ReadQrels("q", strings.NewReader(byHandQrels), nil)
	if err != nil {
		t.Fatal(err)
	}
	read := func(name, outcome string) *Reading {
		rd, err := ReadReading(name, strings.NewReader(recording(outcome, "b 0-600 600-1200")))
		if err != nil {
			t.Fatal(err)
		}
		return rd
	}
	ms, _ := effort.ParseMeasures([]string{`AgP\Read`})
	for _, tc := range []struct {
		readings []*Reading
		wantFile []string // files of the evaluations, in order; nil: an error
		warnings int
	}{
		{[]*Reading{read("done.jsonl", "gave up"), read("left.jsonl", "")}, []string{"done.jsonl"}, 2},
		{[]*Reading{read("left.jsonl", ""), read("done.jsonl", "found")}, []string{"done.jsonl"}, 2},
		{[]*Reading{read("left.jsonl", "")}, nil, 1},
		{[]*Reading{read("a.jsonl", ""), read("b.jsonl", "")}, nil, 4},
	} {
		var warnings []string
		evs, err := EvaluateReadings(q, tc.readings, EvalOptions{Measures: ms, Warn: func(s string) { warnings = append(warnings, s) }})
		if tc.wantFile == nil {
			if !errors.Is(err, ErrAllAbandoned) {
				t.Errorf("%d readings, all abandoned: error %v, want ErrAllAbandoned", len(tc.readings), err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		var files []string
		for _, ev := range evs {
			files = append(files, ev.File)
		}
		if strings.Join(files, " ") != strings.Join(tc.wantFile, " ") || len(warnings) != tc.warnings {
			t.Errorf("evaluations of %v, warnings %q; want %v and %d warnings", files, warnings, tc.wantFile, tc.warnings)
		}
		if !strings.Contains(strings.Join(warnings, "\n"), "left.jsonl: warning: every judged topic was abandoned") {
			t.Errorf("no warning names the abandoned reading: %q", warnings)
		}
	}
}

// The simulated reader's own traces agree with the censoring rule: a
// replay of a reader who reads everything (no tolerance) stops every
// visit with reason "end", each right-censored at x ≥ the non-relevant
// characters of the whole article; so calibration says "more than N", N
// one less than the most non-relevant characters of a judged article of
// the run (worked out from the judgments and the run, not the trace). A
// reader of tolerance 1,000 stops with "t2i" where it reaches it: every
// visit that does is exact, and the others (articles with fewer
// non-relevant characters) end censored.
func TestCalibrateReplayReadsEverything(t *testing.T) {
	q, err := inex.OpenQrels("../corpus-sample/judgments.qrels", nil)
	if err != nil {
		t.Fatal(err)
	}
	run, err := inex.OpenRun("../corpus-sample/runs/ric.fol", inex.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	most, short := 0, 0
	seen := map[string]bool{}
	for _, rt := range run.Topics {
		for _, r := range rt.Results {
			j := q.Topics[rt.ID]
			if j == nil || j.Docs[r.Article] == nil || seen[rt.ID+" "+r.Article] {
				continue
			}
			seen[rt.ID+" "+r.Article] = true
			d := j.Docs[r.Article]
			nonrel := d.Length - d.NRC
			most = max(most, nonrel)
			if nonrel < 1000 {
				short++
			}
		}
	}
	rd := replayReading(t, q, run, SimulatedReader{Screen: 600}, "all.jsonl")
	c, err := Calibrate(q, []*Reading{rd}, CalibrateOptions{Bootstrap: 50})
	if err != nil {
		t.Fatal(err)
	}
	if c.T2IBounded || c.T2I != float64(most-1) || c.Censored != c.Visits || c.Visits != len(seen) {
		t.Errorf("reads everything: T2I %v (observed %v), %d of %d visits censored; want more than %d, all %d censored", c.T2I, c.T2IBounded, c.Censored, c.Visits, most-1, len(seen))
	}
	rd = replayReading(t, q, run, SimulatedReader{T2I: 1000, Screen: 600}, "x1000.jsonl")
	if c, err = Calibrate(q, []*Reading{rd}, CalibrateOptions{Bootstrap: 50}); err != nil {
		t.Fatal(err)
	}
	if !c.T2IBounded || c.T2I != 1000 || c.Exact != len(seen)-short || c.Censored != short {
		t.Errorf("x=1000: T2I %v (observed %v), %d exact, %d censored; want 1000, %d exact, %d censored", c.T2I, c.T2IBounded, c.Exact, c.Censored, len(seen)-short, short)
	}
}

// A reading whose last line (the sixth, after five whole ones) is torn (no
// newline: a batch cut short) is refused naming that line as torn and the
// repair; a bad last line that ends with its newline keeps the decoder's
// message.
func TestTornLastLine(t *testing.T) {
	dir := t.TempDir()
	whole := recording("gave up", "a 0-600")
	for _, tc := range []struct{ text, want string }{
		{whole + `{"ev":"topic","topic":"2","se`, ":6: the last line is torn (cut short without its newline"},
		{whole + `{"ev":"topic","topic":"2","se` + "\n", ":6: not a trace event"},
	} {
		path := filepath.Join(dir, "r.jsonl")
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := OpenReading(path); err == nil || !strings.Contains(err.Error(), path+tc.want) {
			t.Errorf("%v, want %q", err, path+tc.want)
		}
	}
}
