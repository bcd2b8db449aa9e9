package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article/shareddata"
)

// The small topic of the hand-derived trace: article a (1,000 characters,
// relevant [500,510), retrieved [200,300)), article c (not in the judgments,
// retrieved [50,150)) and article b (judged non-relevant, 400 characters,
// retrieved [100,200)).
const (
	tinyQrels = "1 Q0 a 10 1000 100 500:10\n1 Q0 b 0 400 100\n"
	tinyRun   = "1 Q0 a 1 1.0 r 200 100\n1 Q0 c 2 0.5 r 50 100\n1 Q0 b 3 0.3 r 100 100\n"
)

func tinyReplayer(t *testing.T, cfg SimulatedReader) *Replayer {
	t.Helper()
	q := readQrels(t, "tiny.qrels", tinyQrels)
	p, err := NewReplayer(q, readRun(t, "tiny.fol", tinyRun), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func replayTrace(t *testing.T, p *Replayer, topics []string) []string {
	t.Helper()
	var lines []string
	err := p.Replay(topics, func(e *Event) error {
		lines = append(lines, string(e.AppendJSON(nil)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// wantEvent writes out one expected trace line of topic 1 in the field order
// of scenario.md: ev, topic, rank, doc, seq, then fields, the kind's own
// fields as written by hand (without the braces).
func wantEvent(kind string, rank int, doc string, seq int, fields string) string {
	return fmt.Sprintf(`{"ev":%q,"topic":"1","rank":%d,"doc":%q,"seq":%d,%s}`, kind, rank, doc, seq, fields)
}

// TestTraceByHand checks a full trace derived event by event from
// scenario.md and measures.md §2, §3, §6 (natural order, T2I 501, s = 300).
func TestTraceByHand(t *testing.T) {
	p := tinyReplayer(t, SimulatedReader{Config: effort.Config{Order: effort.Natural}, T2I: 501, Screen: 300, NR: 5,
		Measures: mustMeasures(t, `AgP\F(0.25)`, `AgP\T2Ip(501)`, `ANCE[4]\LE(300,5)`, `AP`)})
	// a: reading [200,300) then [0,200) [300,500) [500,510)rel [510,1000);
	// the 501st non-relevant character is 510, so 511 characters are read,
	// 10 relevant (measures.md §3). Characters read before the first relevant
	// one: 500 → LE = ⌊500/300⌋+1 = 2, the screen of the read holding it.
	// c: unjudged, its retrieved passage only. b: 400 non-relevant
	// characters < 501, read to the end; the 301st character read (offset 300)
	// starts screen 2.
	t2ip := strconv.FormatFloat(10.0/511, 'g', -1, 64)
	// done: Trel 1; AgP = gP[1] of a; ES = ⟨2,5,5⟩ then NR=5 at rank 4;
	// IE = ⟨1,5,5,5⟩; NCE = ⟨1,1,1,1⟩; ANCE[4] = 1; AP = 1.
	want := []string{
		wantEvent("topic", 0, "", 1, `"trel":1,"run":"r"`),
		wantEvent("open", 1, "a", 2, `"len":1000,"nrc":10,"passages":[[200,300]]`),
		wantEvent("jump", 1, "a", 3, `"to":200`),
		wantEvent("read", 1, "a", 4, `"from":200,"to":300,"rel":0,"nonrel":100,"screen":1`),
		wantEvent("jump", 1, "a", 5, `"to":0`),
		wantEvent("read", 1, "a", 6, `"from":0,"to":200,"rel":0,"nonrel":200,"screen":1`),
		wantEvent("jump", 1, "a", 7, `"to":300`),
		wantEvent("read", 1, "a", 8, `"from":300,"to":511,"rel":10,"nonrel":201,"screen":2`),
		wantEvent("stop", 1, "a", 9, `"reason":"t2i","read":511,"relread":10`),
		wantEvent("score", 1, "a", 10, `"scores":{"F(0.25)":0,"T2Ip(501)":`+t2ip+`,"LE(300,5)":2}`),
		wantEvent("open", 2, "c", 11, `"len":0,"nrc":0,"judged":false,"passages":[[50,150]]`),
		wantEvent("jump", 2, "c", 12, `"to":50`),
		wantEvent("read", 2, "c", 13, `"from":50,"to":150,"rel":0,"nonrel":100,"screen":1`),
		wantEvent("stop", 2, "c", 14, `"reason":"end","read":100,"relread":0`),
		wantEvent("score", 2, "c", 15, `"scores":{"F(0.25)":0,"T2Ip(501)":0,"LE(300,5)":5}`),
		wantEvent("open", 3, "b", 16, `"len":400,"nrc":0,"passages":[[100,200]]`),
		wantEvent("jump", 3, "b", 17, `"to":100`),
		wantEvent("read", 3, "b", 18, `"from":100,"to":200,"rel":0,"nonrel":100,"screen":1`),
		wantEvent("jump", 3, "b", 19, `"to":0`),
		wantEvent("read", 3, "b", 20, `"from":0,"to":100,"rel":0,"nonrel":100,"screen":1`),
		wantEvent("jump", 3, "b", 21, `"to":200`),
		wantEvent("read", 3, "b", 22, `"from":200,"to":300,"rel":0,"nonrel":100,"screen":1`),
		wantEvent("read", 3, "b", 23, `"from":300,"to":400,"rel":0,"nonrel":100,"screen":2`),
		wantEvent("stop", 3, "b", 24, `"reason":"end","read":400,"relread":0`),
		wantEvent("score", 3, "b", 25, `"scores":{"F(0.25)":0,"T2Ip(501)":0,"LE(300,5)":5}`),
		wantEvent("done", 0, "", 26, `"scores":{"AgP\\F(0.25)":0,"AgP\\T2Ip(501)":`+t2ip+`,"ANCE[4]\\LE(300,5)":1,"AP":1}`),
	}
	got := replayTrace(t, p, nil)
	for i := 0; i < len(want) || i < len(got); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("event %d:\n got %s\nwant %s", i+1, g, w)
		}
	}
	for _, l := range got {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Errorf("not JSON: %s: %v", l, err)
		}
	}
}

// TestTraceOrders checks the reading orders and the document baseline on
// article a alone (depth 1, no tolerance): which stretches are read, in order.
func TestTraceOrders(t *testing.T) {
	ms := mustMeasures(t, `AgP\F(0.25)`)
	cases := []struct {
		name string
		cfg  SimulatedReader
		want string // jumps "j<to>" and reads "from-to"
	}{
		// natural: [200,300), back to 0: [0,200), jump over the read part to 300, on to the end.
		{"natural", SimulatedReader{Config: effort.Config{Order: effort.Natural}}, "j200 200-300 j0 0-200 j300 300-600 600-900 900-1000"},
		// best: the retrieved passage, the unread relevant [500,510), then the
		// rest in order; 110 characters are read before offset 0, so screen 1
		// ends at offset 190, screen 2 (read 300…599) at offset 600.
		{"best", SimulatedReader{Config: effort.Config{Order: effort.Best}}, "j200 200-300 j500 500-510 j0 0-190 190-200 j300 300-500 j510 510-600 600-900 900-1000"},
		// worst: retrieved, unread non-relevant text, then the relevant text
		// last; 500 read before offset 510, so screen 2 ends at offset 610.
		{"worst", SimulatedReader{Config: effort.Config{Order: effort.Worst}}, "j200 200-300 j0 0-200 j300 300-500 j510 510-610 610-910 910-1000 j500 500-510"},
		// document baseline: 0…999 in screens of 300.
		{"baseline", SimulatedReader{Config: effort.Config{DocBaseline: true}}, "0-300 300-600 600-900 900-1000"},
		// a 2,000-character screen: one read per stretch.
		{"laptop", SimulatedReader{Screen: 2000}, "j200 200-300 j0 0-200 j300 300-1000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.Depth, c.cfg.Measures = 1, ms
			p := tinyReplayer(t, c.cfg)
			var parts []string
			rel := 0
			p.Replay(nil, func(e *Event) error {
				switch e.Kind {
				case EvJump:
					parts = append(parts, fmt.Sprintf("j%d", e.To))
				case EvRead:
					parts = append(parts, fmt.Sprintf("%d-%d", e.From, e.To))
					rel += e.Rel
				case EvOpen:
					if e.Rank != 1 {
						t.Errorf("depth 1 opened rank %d", e.Rank)
					}
				}
				return nil
			})
			if got := strings.Join(parts, " "); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			if rel != 10 {
				t.Errorf("relevant characters read %d, want 10", rel)
			}
		})
	}
}

// TestEventsIterator checks that the iterator yields the callback's events
// and stops early on request.
func TestEventsIterator(t *testing.T) {
	p := tinyReplayer(t, SimulatedReader{T2I: 501})
	n := 0
	for e, err := range p.Events("1") {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if e.Kind == EvStop {
			break
		}
	}
	if n != 9 {
		t.Errorf("%d events up to the first stop, want 9", n)
	}
	for _, err := range p.Events("nope") {
		if err == nil {
			t.Error("unknown topic: no error")
		}
	}
}

// TestReplayMatchesEval replays every topic of the shared runs and checks
// that (1) every done event equals `readsim eval`'s per-topic values, (2)
// every score event equals the evaluator's document scores, and (3) the
// trace itself agrees with them: T2Ip(x) = relread/read of the stop event
// and LE = the screen of the first relevant character read (whole reading).
func TestReplayMatchesEval(t *testing.T) {
	dir := shareddata.INEX(t)
	q := loadQrels(t, dir)
	for _, file := range []string{"passage-run.ric.fol", "article-run.trec"} {
		run := openRun(t, filepath.Join(dir, file))
		for _, cfg := range []SimulatedReader{
			{T2I: 300}, {Config: effort.Config{Order: effort.Best}, T2I: 2000}, {Config: effort.Config{Order: effort.Worst}, Screen: 2000}, {Config: effort.Config{DocBaseline: true}, T2I: 300},
		} {
			name := fmt.Sprintf("%s/%s/base=%v/t2i=%d/s=%d", file, cfg.Order, cfg.DocBaseline, cfg.T2I, cfg.Screen)
			t.Run(name, func(t *testing.T) {
				p, err := NewReplayer(q, run, cfg)
				if err != nil {
					t.Fatal(err)
				}
				ms := p.Measures()
				res, err := Evaluate(q, run, EvalOptions{Measures: ms, Config: cfg.Config}, 2)
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Topics) != len(p.Topics()) {
					t.Fatalf("%d topics replayed, eval has %d", len(p.Topics()), len(res.Topics))
				}
				checkTrace(t, p, res, cfg)
			})
		}
	}
}

func checkTrace(t *testing.T, p *Replayer, res *Evaluation, cfg SimulatedReader) {
	t.Helper()
	s, nr := cfg.screen(), cfg.nr()
	dv := map[string]*TopicValues{}
	for ti, id := range res.Topics {
		tv, err := p.Values(id)
		if err != nil {
			t.Fatal(err)
		}
		dv[id] = tv
		for m := range p.Measures() {
			if tv.List[m] != res.Values[m][ti] {
				t.Fatalf("topic %s %s: Values %v, eval %v", id, p.Measures()[m], tv.List[m], res.Values[m][ti])
			}
		}
	}
	ti := map[string]int{}
	for i, id := range res.Topics {
		ti[id] = i
	}
	var firstScreen int
	var stop Event
	bad := 0
	err := p.Replay(nil, func(e *Event) error {
		if bad > 10 {
			return fmt.Errorf("too many errors")
		}
		switch e.Kind {
		case EvOpen:
			firstScreen = 0
		case EvRead:
			if e.To-e.From != e.Rel+e.NonRel || e.To-e.From > s || e.To <= e.From {
				t.Errorf("%s rank %d: bad read %+v", e.Topic, e.Rank, *e)
				bad++
			}
			if e.Rel > 0 && firstScreen == 0 {
				firstScreen = e.Screen
			}
		case EvStop:
			stop = *e
		case EvScore:
			tv := dv[e.Topic]
			for i, sc := range e.Scores {
				if sc.Name != p.DocScoreNames()[i] || sc.Value != tv.DocScores[i][e.Rank-1] {
					t.Errorf("%s rank %d: score %v, eval %v", e.Topic, e.Rank, sc, tv.DocScores[i][e.Rank-1])
					bad++
				}
				if sc.Name == fmt.Sprintf("T2Ip(%d)", cfg.T2I) && stop.Read > 0 && tv.IsRel[e.Rank-1] {
					if want := float64(stop.RelRead) / float64(stop.Read); sc.Value != want {
						t.Errorf("%s rank %d: T2Ip %v, trace %d/%d", e.Topic, e.Rank, sc.Value, stop.RelRead, stop.Read)
						bad++
					}
				}
				if strings.HasPrefix(sc.Name, "LE(") && cfg.T2I == 0 {
					want := float64(nr)
					if firstScreen > 0 && firstScreen < nr {
						want = float64(firstScreen)
					}
					if sc.Value != want {
						t.Errorf("%s rank %d: LE %v, trace's first relevant screen %d", e.Topic, e.Rank, sc.Value, firstScreen)
						bad++
					}
				}
			}
		case EvDone:
			i := ti[e.Topic]
			for m, sc := range e.Scores {
				if sc.Name != p.Measures()[m].String() || sc.Value != res.Values[m][i] {
					t.Errorf("%s done: %v, eval %v", e.Topic, sc, res.Values[m][i])
					bad++
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// BenchmarkReplay replays all topics of passage-run.ric.fol with full traces
// written as JSON Lines into memory, and reports the trace size.
func BenchmarkReplay(b *testing.B) {
	dir := shareddata.INEX(b)
	q := openQrels(b, filepath.Join(dir, "inex2009-2010.qrels"))
	run := openRun(b, filepath.Join(dir, "passage-run.ric.fol"))
	for _, cfg := range []SimulatedReader{{}, {T2I: 300}} {
		b.Run(fmt.Sprintf("t2i=%d", cfg.T2I), func(b *testing.B) {
			p, _ := NewReplayer(q, run, cfg)
			var buf bytes.Buffer
			events := 0
			for i := 0; i < b.N; i++ {
				buf.Reset()
				events = 0
				var line []byte
				p.Replay(nil, func(e *Event) error {
					line = append(e.AppendJSON(line[:0]), '\n')
					buf.Write(line)
					events++
					return nil
				})
			}
			b.ReportMetric(float64(buf.Len())/1e6, "MB/trace")
			b.ReportMetric(float64(events), "events")
		})
	}
}

// TestEffortWithT2IStop: with T2I 500 the reader of article a stops after
// [200,300) [0,200) [300,500), 500 non-relevant characters, one short of the
// relevant text at 500, so a costs NR = 5 (measures.md §6) instead of the 2 of
// a reader without a stop. Every rank then costs 5; IE = ⟨1,5,5,…⟩, so
// NCE[i] = (5−1)/1 = 4 at every rank and ANCE[100] = 4. Without the stop
// ES(a) = 2 gives NCE[i] = 1 and ANCE[100] = 1.
func TestEffortWithT2IStop(t *testing.T) {
	tests := []struct {
		name   string
		reader SimulatedReader
		key    string
		want   float64
	}{
		{"default measures use the stop", SimulatedReader{T2I: 500, Screen: 300, NR: 5}, `ANCE[100]\LE(300,5,500)`, 4},
		{"explicit LE without a stop", SimulatedReader{T2I: 500, Screen: 300, NR: 5, Measures: mustMeasures(t, `ANCE[100]\LE(300,5)`)}, `ANCE[100]\LE(300,5)`, 1},
		{"a stop that reaches the relevant text", SimulatedReader{T2I: 501, Screen: 300, NR: 5}, `ANCE[100]\LE(300,5,501)`, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lines := replayTrace(t, tinyReplayer(t, tc.reader), nil)
			done := lines[len(lines)-1]
			want := `"` + strings.ReplaceAll(tc.key, `\`, `\\`) + `":` + strconv.FormatFloat(tc.want, 'g', -1, 64)
			if !strings.Contains(done, want) {
				t.Errorf("done event %s lacks %s", done, want)
			}
		})
	}
}

// SelectTopics keeps the topics asked for when the run and the judgments
// both have them; none asked is every replayable topic.
func TestSelectTopics(t *testing.T) {
	p := tinyReplayer(t, SimulatedReader{})
	for _, tc := range []struct {
		ids, want []string
		err       string
	}{
		{nil, []string{"1"}, ""},
		{[]string{"1"}, []string{"1"}, ""},
		{[]string{"1", "2"}, nil, "topic 2 is not in both the run tiny.fol and the judgments tiny.qrels"},
	} {
		got, err := p.SelectTopics(tc.ids)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("SelectTopics(%q): error %v, want %q", tc.ids, err, tc.err)
			}
			continue
		}
		if err != nil || strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("SelectTopics(%q) = %q, %v; want %q", tc.ids, got, err, tc.want)
		}
	}
}

// WriteTrace writes the events of Replay, one a line, and reports each
// topic done.
func TestWriteTrace(t *testing.T) {
	p := tinyReplayer(t, SimulatedReader{T2I: 501, Measures: mustMeasures(t, `AgP\T2Ip(501)`)})
	var b bytes.Buffer
	done := 0
	if err := p.WriteTrace(&b, []string{"1", "1"}, func() { done++ }); err != nil {
		t.Fatal(err)
	}
	one := strings.Join(replayTrace(t, p, []string{"1"}), "\n") + "\n"
	if b.String() != one+one || done != 2 {
		t.Errorf("WriteTrace: %d topics done, wrote\n%s\nwant twice\n%s", done, b.String(), one)
	}
	if err := p.WriteTrace(&b, []string{"2"}, nil); err == nil {
		t.Error("WriteTrace of a topic that is not replayable: no error")
	}
}
