package scenario

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article/shareddata"
	"github.com/readsim/readsim/scenario/inex"
)

// A reading worked by hand. Topic 1: a (100 characters, relevant [20,40)),
// b (50, judged non-relevant), c (30, relevant [0,10)); Trel = 2.
//
//	a: on screen [0,30) at 1000 ms, then [10,60) at 2000: read in order
//	   [0,30) then [30,60): 60 characters, 20 relevant (Read 1/3), 20 before
//	   the first relevant one (LE(300,5) = 1), first relevant at 1000 ms,
//	   500 ms after opening a.
//	b: [0,50): 50 read, none relevant (Read 0, LE = NR = 5).
//	c: [0,5): 5 read, all relevant (Read 1, LE 1).
//
// AgP\Read = ½·(gP[1] + gP[3]) = ½·(1/3 + (1/3+0+1)/3) = 7/18.
// ANCE[3]\LE(300,5): ES ⟨1,5,1⟩, IE ⟨1,1,5⟩: NCE ⟨0, 4, 4−0.8⟩, mean 2.4.
func TestReadingByHand(t *testing.T) {
	q, err := inex.OpenQrels(filepath.Join("testdata", "readings", "byhand.qrels"), nil)
	if err != nil {
		t.Fatal(err)
	}
	rds, err := OpenReadings([]string{filepath.Join("testdata", "readings", "byhand.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	rd := rds[0]
	if err != nil {
		t.Fatal(err)
	}
	if rd.ID != "p17" || len(rd.Topics) != 1 || len(rd.Topics[0].Articles) != 3 {
		t.Fatalf("reading %+v", rd)
	}
	ms := mustMeasures(t, `AgP\Read`, `ANCE[3]\LE(300,5)`, "AP", "num_ret")
	res, err := EvaluateReading(q, rd, EvalOptions{Measures: ms})
	if err != nil {
		t.Fatal(err)
	}
	// AP over the order opened: relevant at 1 and 3: ½·(1 + 2/3)
	for m, want := range []float64{7.0 / 18, 2.4, (1 + 2.0/3) / 2, 3} {
		if got := res.Values[m][0]; math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %v, want %v", ms[m], got, want)
		}
	}
	arts, tops := Figures(q, rd, 300, 5)
	wantArts := []ArticleFigures{
		{Topic: "1", Doc: "a", Rank: 1, Read: 60, RelRead: 20, Precision: 1.0 / 3, BeforeRel: 20, Effort: 1, MsToRel: 500},
		{Topic: "1", Doc: "b", Rank: 2, Read: 50, RelRead: 0, Precision: 0, BeforeRel: -1, Effort: 5, MsToRel: -1},
		{Topic: "1", Doc: "c", Rank: 3, Read: 5, RelRead: 5, Precision: 1, BeforeRel: 0, Effort: 1, MsToRel: 1000},
	}
	for i, w := range wantArts {
		if arts[i] != w {
			t.Errorf("article %d: %+v, want %+v", i, arts[i], w)
		}
	}
	// 25 relevant characters in 9 s: 25/0.15 per minute; the first relevant
	// character at 1000 ms
	if len(tops) != 1 || tops[0].Ms != 9000 || tops[0].MsToRel != 1000 || math.Abs(tops[0].RelPerMin-25/0.15) > 1e-9 || tops[0].Outcome != "found" {
		t.Errorf("topic figures %+v", tops)
	}
}

// A trace that readsim replay --t2i X writes, read back as a reading, scores
// as the replay: AgP\Read is the replay's AgP\T2Ip(X) and the effort over the
// order opened its ANCE\LE(s,NR,X), on every topic of the shared runs; AP,
// which ranks a run by score as trec_eval and a reading in the order opened,
// wherever the run's scores fall down its lines.
func TestReplayAsReading(t *testing.T) {
	dir := shareddata.INEX(t)
	q, err := inex.OpenQrels(filepath.Join(dir, "inex2009-2010.qrels"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"passage-run.ric.fol", "article-run.trec"} {
		run, err := inex.OpenRun(filepath.Join(dir, file), inex.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range []int{300, 2000} {
			rd := replayReading(t, q, run, SimulatedReader{T2I: x}, file+".jsonl")
			sim := mustMeasures(t, fmt.Sprintf(`AgP\T2Ip(%d)`, x), fmt.Sprintf(`ANCE[100]\LE(300,5,%d)`, x), "AP")
			want, err := Evaluate(q, run, EvalOptions{Measures: sim}, 2)
			if err != nil {
				t.Fatal(err)
			}
			got, err := EvaluateReading(q, rd, EvalOptions{Measures: mustMeasures(t, `AgP\Read`, `ANCE[100]\LE(300,5)`, "AP")})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got.Topics, " ") != strings.Join(want.Topics, " ") || len(got.Topics) < 100 {
				t.Fatalf("%s: topics %d, want %d", file, len(got.Topics), len(want.Topics))
			}
			for m := range sim {
				for i, id := range want.Topics {
					if sim[m].RanksByScore() && !inScoreOrder(t, run, id) {
						continue
					}
					if math.Abs(got.Values[m][i]-want.Values[m][i]) > 1e-12 {
						t.Fatalf("%s x=%d topic %s: reading %v, replay's %s %v", file, x, id, got.Values[m][i], sim[m], want.Values[m][i])
					}
				}
			}
		}
	}
}

// TestReadingTopicTimes: a topic's time runs from its topic event to its
// last event; the next topic's event (at 20 s here) is not the previous
// topic's end, and a topic resumed later extends its own end.
func TestReadingTopicTimes(t *testing.T) {
	q, err := inex.ReadQrels("q", strings.NewReader("1 Q0 a 10 100 0 0:10\n2 Q0 a 10 100 0 0:10\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	const trace = `{"ev":"topic","topic":"1","seq":1,"run":"p","t":1000}
{"ev":"done","topic":"1","seq":2,"outcome":"gave up","t":4000}
{"ev":"topic","topic":"2","seq":3,"t":20000}
{"ev":"done","topic":"2","seq":4,"outcome":"found","t":26000}
`
	rd, err := ReadReading("p.jsonl", strings.NewReader(trace))
	if err != nil {
		t.Fatal(err)
	}
	_, tops := Figures(q, rd, 300, 5)
	if len(tops) != 2 || tops[0].Ms != 3000 || tops[1].Ms != 6000 {
		t.Errorf("topic times %+v, want 3000 ms and 6000 ms", tops)
	}
}

// Bad readings are refused with the file, the line and the problem: each
// case is a good reading (a topic, an open of a 100-character article,
// a read) with one line changed or added.
func TestReadingErrors(t *testing.T) {
	const (
		topic = `{"ev":"topic","topic":"1","seq":1,"t":0}`
		open  = `{"ev":"open","topic":"1","doc":"a","seq":2,"len":100,"t":10}`
		read  = `{"ev":"read","topic":"1","doc":"a","seq":3,"from":0,"to":60,"t":20}`
	)
	lines := func(ls ...string) string { return strings.Join(ls, "\n") + "\n" }
	for _, tc := range []struct{ name, in, want string }{
		{"not JSON", "{nope\n", "r:1: not a trace event"},
		{"read before open", lines(topic, `{"ev":"read","topic":"1","doc":"a","seq":2,"from":0,"to":5}`), "r:2: a read event outside an opened article"},
		{"jump before open", lines(topic, `{"ev":"jump","topic":"1","doc":"a","seq":2,"to":5}`), "r:2: a jump event outside an opened article"},
		{"event before its topic", `{"ev":"open","topic":"1","doc":"a","seq":1}` + "\n", "r:1: a \"open\" event of topic 1 before its topic event"},
		{"reversed range", lines(topic, open, `{"ev":"read","topic":"1","doc":"a","seq":3,"from":9,"to":5}`), "r:3: a read event needs"},
		{"unknown event", lines(topic, `{"ev":"dance","topic":"1","seq":2}`), `r:2: unknown event "dance"`},
		{"empty", "\n", "r: no topic event"},
		{"negative time", `{"ev":"topic","topic":"1","seq":1,"t":-5}` + "\n", "r:1: t -5 is not from 0 to 31622400000"},
		// past the open's len (100)
		{"read past len", lines(topic, open, `{"ev":"read","topic":"1","doc":"a","seq":3,"from":50,"to":101}`), "r:3: read [50,101) of article a goes past its end: the open (line 2) gives len 100"},
		{"read far past len", lines(topic, open, `{"ev":"read","topic":"1","doc":"a","seq":3,"from":5000,"to":99999999}`), "r:3: read [5000,99999999) of article a goes past its end"},
		{"jump past len", lines(topic, open, read, `{"ev":"jump","topic":"1","doc":"a","seq":4,"to":101}`), "r:4: a jump to 101 of article a goes past its end"},
		{"jump without to", lines(topic, open, `{"ev":"jump","topic":"1","doc":"a","seq":3}`), "r:3: a jump event needs 0 ≤ to"},
		{"passage past len", lines(topic, `{"ev":"open","topic":"1","doc":"a","seq":2,"len":100,"passages":[[90,110]]}`), "r:2: passage [90,110) is not a span of the article"},
		{"negative len", lines(topic, `{"ev":"open","topic":"1","doc":"a","seq":2,"len":-1}`), "r:2: len -1 is not from 0 to 1073741824"},
		// the schema, strictly (issue 24): fields, once each, one object a line, values in range
		{"unknown field", lines(topic, `{"ev":"open","topic":"1","doc":"a","seq":2,"lenght":100}`), `r:2: not a trace event: `},
		{"a field of another kind", lines(topic, `{"ev":"open","topic":"1","doc":"a","seq":2,"from":3}`), "r:2: a open event has no field from"},
		{"duplicate key", lines(topic, `{"ev":"open","topic":"1","doc":"a","seq":2,"len":100,"len":50}`), `r:2: not a trace event: `},
		{"duplicate key, same value", lines(`{"ev":"topic","topic":"1","seq":1,"seq":1}`), `r:1: not a trace event: `},
		{"garbage after the object", lines(topic, open+` x`), `r:2: not a trace event: `},
		{"two objects on a line", lines(topic + topic), `r:1: not a trace event: `},
		{"an array", lines(`[` + topic + `]`), `r:1: not a trace event: `},
		{"a string for a number", lines(topic, `{"ev":"open","topic":"1","doc":"a","seq":2,"len":"100"}`), `r:2: not a trace event: `},
		{"a fraction for a number", lines(topic, `{"ev":"open","topic":"1","doc":"a","seq":2,"len":100.5}`), `r:2: not a trace event: `},
		{"a case-folded field", lines(`{"ev":"topic","Topic":"1","seq":1}`), `r:1: not a trace event: `},
		{"invalid UTF-8", lines("{\"ev\":\"topic\",\"topic\":\"1\xff\",\"seq\":1}"), `r:1: not a trace event: `},
		{"a NUL in an id", lines(`{"ev":"topic","topic":"1\u0000","seq":1}`), `r:1: an id with a NUL character`},
		{"unknown outcome", lines(topic, `{"ev":"done","topic":"1","seq":2,"outcome":"bored"}`), `r:2: unknown outcome "bored" (found, gave up)`},
		{"unknown stop reason", lines(topic, open, `{"ev":"stop","topic":"1","doc":"a","seq":3,"reason":"tired"}`), `r:3: unknown stop reason "tired"`},
		{"another source", lines(`{"ev":"topic","topic":"1","seq":1,"source":"simulated"}`), `r:1: source "simulated"`},
		{"a rank past 2^40", lines(topic, `{"ev":"open","topic":"1","doc":"a","seq":2,"rank":1099511627777}`), `r:2: rank 1099511627777 is not from 0 to 1099511627776`},
		{"a negative rank", lines(topic, `{"ev":"open","topic":"1","doc":"a","seq":2,"rank":-1}`), `r:2: rank -1 is not from 0`},
		{"a seq past 2^40", lines(`{"ev":"topic","topic":"1","seq":1099511627777}`), `r:1: seq 1099511627777 is not from 0 to 1099511627776`},
		{"a seq past int64", lines(`{"ev":"topic","topic":"1","seq":99999999999999999999}`), `r:1: not a trace event: `},
		{"a negative screen", lines(topic, open, `{"ev":"read","topic":"1","doc":"a","seq":3,"from":0,"to":5,"screen":-2}`), `r:3: screen -2 is not from 0`},
		{"the old found event", lines(topic, `{"ev":"found","topic":"1","seq":2}`), `r:2: unknown event "found"`},
		{"reopened with another len", lines(topic, open, read, `{"ev":"open","topic":"1","doc":"a","seq":4,"len":200}`), "r:4: article a opened again with len 200; its open at line 2 gives 100"},
		// seq
		{"no seq", lines(topic, `{"ev":"open","topic":"1","doc":"a","len":100}`), "r:2: an event without seq"},
		{"seq 0", `{"ev":"topic","topic":"1","seq":0}` + "\n", "r:1: seq 0 is not a step counter"},
		{"duplicate seq", lines(topic, open, read, `{"ev":"read","topic":"1","doc":"a","seq":3,"from":60,"to":90,"t":30}`), "r:4: seq 3 does not follow seq 3"},
		{"seq going back", lines(topic, open, read, `{"ev":"stop","topic":"1","doc":"a","seq":2,"t":30}`), "r:4: seq 2 does not follow seq 3"},
		{"an open restarting at 1", lines(topic, open, read, `{"ev":"open","topic":"1","doc":"b","seq":1,"t":30}`), "r:4: seq 1 does not follow seq 3"},
		{"a topic restarting at 2", lines(topic, open, read, `{"ev":"topic","topic":"2","seq":2,"t":30}`), "r:4: seq 2 does not follow seq 3"},
		// t
		{"t going back", lines(topic, open, `{"ev":"read","topic":"1","doc":"a","seq":3,"from":0,"to":60,"t":9}`), "r:3: time t 9 goes back (the previous event's is 10)"},
		{"t going back across topics", lines(topic, open, read, `{"ev":"topic","topic":"2","seq":4,"t":19}`), "r:4: time t 19 goes back"},
	} {
		_, err := ReadReading("r", strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// what is accepted: readsim replay's numbering (each topic from 1),
	// events without t among timed ones, an article opened again with its
	// length or none, a read up to len
	ok := lines(topic, open, `{"ev":"read","topic":"1","doc":"a","seq":3,"from":40,"to":100}`,
		`{"ev":"jump","topic":"1","doc":"a","seq":4,"to":100}`, `{"ev":"stop","topic":"1","doc":"a","seq":5}`,
		`{"ev":"open","topic":"1","doc":"a","seq":6}`, `{"ev":"open","topic":"1","doc":"a","seq":7,"len":100,"t":10}`,
		`{"ev":"topic","topic":"2","seq":1,"t":10}`, `{"ev":"open","topic":"2","doc":"a","seq":2,"len":0}`)
	if _, err := ReadReading("r", strings.NewReader(ok)); err != nil {
		t.Errorf("a good reading: %v", err)
	}
}

// Without len in the open (or with replay's 0 for an unjudged article),
// the judged length bounds the reads and jumps: eval and calibrate refuse
// one past it, naming the reading's line; one within it, or of an article
// not judged, is scored.
func TestReadingJudgedLength(t *testing.T) {
	q, err := inex.ReadQrels("q", strings.NewReader("1 Q0 a 20 100 20 20:20\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	ms := mustMeasures(t, `AgP\Read`)
	for _, tc := range []struct{ name, last, want string }{
		{"read past the judged length", `{"ev":"read","topic":"1","doc":"a","seq":4,"from":50,"to":101}`, "r:4: offset 101 is past the end of article a: 100 characters in the judgments q"},
		{"jump past the judged length", `{"ev":"jump","topic":"1","doc":"a","seq":4,"to":150}`, "r:4: offset 150 is past the end of article a"},
		{"read to the judged length", `{"ev":"read","topic":"1","doc":"a","seq":4,"from":50,"to":100}`, ""},
		{"opened again with a len other than the judged", `{"ev":"open","topic":"1","doc":"a","seq":4,"len":120}`, "r:4: article a is opened with len 120, but it has 100 characters in the judgments q"},
		{"opened again with the judged len", `{"ev":"open","topic":"1","doc":"a","seq":4,"len":100}`, ""},
		{"an unjudged article", `{"ev":"open","topic":"1","doc":"b","seq":4}` + "\n" + `{"ev":"read","topic":"1","doc":"b","seq":5,"from":0,"to":5000}`, ""},
	} {
		in := `{"ev":"topic","topic":"1","seq":1}` + "\n" + `{"ev":"open","topic":"1","doc":"a","seq":2,"len":0}` + "\n" +
			`{"ev":"read","topic":"1","doc":"a","seq":3,"from":0,"to":30}` + "\n" + tc.last + "\n"
		rd, err := ReadReading("r", strings.NewReader(in))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		_, eerr := EvaluateReading(q, rd, EvalOptions{Measures: ms})
		_, cerr := Calibrate(q, []*Reading{rd}, CalibrateOptions{Bootstrap: 10})
		for _, err := range []error{eerr, cerr} {
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
			}
		}
	}
}

// inScoreOrder tells whether the articles of topic id of run fall in
// trec_eval's order (score, then id, descending) down the run's lines.
func inScoreOrder(t *testing.T, run *inex.Run, id string) bool {
	for _, rt := range run.Topics {
		if rt.ID != id {
			continue
		}
		arts, err := rt.Group(run.File, true, true)
		if err != nil {
			t.Fatal(err)
		}
		docs := make([]effort.RankedDoc, len(arts))
		for i, a := range arts {
			docs[i] = effort.RankedDoc{ID: a.Article, Score: a.Score}
		}
		return effort.InScoreOrder(docs)
	}
	return true
}
