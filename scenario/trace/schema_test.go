package trace

import (
	"strings"
	"testing"
)

// TestDecode checks the field rules of docs/scenario.md ("Trace events")
// on lines written by hand: "" when the line is an event, else a part of
// the problem's message.
func TestDecode(t *testing.T) {
	lim := Limits{Rank: 100, Length: 1000}
	for _, c := range []struct {
		line, want string
	}{
		{`{"ev":"topic","topic":"t1","rank":0,"doc":"","seq":1,"trel":3,"run":"r"}`, ""},
		{`{"ev":"open","topic":"t1","rank":2,"doc":"12","seq":2,"len":900,"nrc":5,"passages":[[1,4]]}`, ""},
		{`{"ev":"read","topic":"t1","rank":2,"doc":"12","seq":3,"from":0,"to":10,"t":40,"source":"recorded"}`, ""},
		{`{"ev":"stop","topic":"t1","rank":2,"doc":"12","seq":4,"reason":"end"}`, ""},
		{`{"ev":"done","topic":"t1","rank":0,"doc":"","seq":5,"outcome":"gave up"}`, ""},
		{`{"ev":"query","topic":"t1","seq":5,"q":"cats"}`, ""},
		{`{"ev":"look","topic":"t1","seq":1}`, `unknown event "look"`},
		{`{"ev":"jump","topic":"t1","seq":1,"from":3,"to":4}`, "a jump event has no field from"},
		{`{"ev":"topic","topic":"t1","seq":1,"q":"x"}`, "a topic event has no field q"},
		{`{"ev":"open","topic":"t1","seq":1,"rank":101}`, "rank 101 is not from 0 to 100"},
		{`{"ev":"read","topic":"t1","seq":1,"from":0,"to":1001}`, "to 1001 is not from 0 to 1000"},
		{`{"ev":"read","topic":"t1","seq":1099511627777}`, "seq 1099511627777 is not from 0 to 1099511627776"},
		{`{"ev":"stop","topic":"t1","seq":1,"reason":"bored"}`, `unknown stop reason "bored"`},
		{`{"ev":"done","topic":"t1","seq":1,"outcome":"won"}`, `unknown outcome "won"`},
		{`{"ev":"done","topic":"t1","seq":1,"source":"typed"}`, `source "typed"`},
		{`{"ev":"done","topic":"t\u0000","seq":1}`, "an id with a NUL character"},
		{`{"ev":"done","topic":"t1","seq":1,"colour":2}`, "not a trace event"},
		{`{"ev":"done","topic":"t1","seq":1} {}`, "not a trace event"},
	} {
		var e Line
		err := Decode([]byte(c.line), &e, lim)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want an event", c.line, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one saying %q", c.line, err, c.want)
		}
	}
}

// TestOrder checks the order rules on sequences of (kind, seq, t) written
// by hand: the index of the first event refused (-1: none).
func TestOrder(t *testing.T) {
	type ev struct {
		kind string
		seq  int64
		t    int64 // -1: left out
	}
	for _, c := range []struct {
		name string
		evs  []ev
		bad  int
	}{
		{"increasing", []ev{{"topic", 1, 0}, {"open", 2, 5}, {"read", 3, 5}}, -1},
		{"a topic starts again from 1", []ev{{"topic", 1, -1}, {"done", 2, -1}, {"topic", 1, -1}}, -1},
		{"seq repeated", []ev{{"topic", 1, 0}, {"open", 2, 1}, {"read", 2, 2}}, 2},
		{"seq 0", []ev{{"topic", 0, 0}}, 0},
		{"only a topic restarts", []ev{{"topic", 1, -1}, {"open", 2, -1}, {"open", 1, -1}}, 2},
		{"t goes back", []ev{{"topic", 1, 10}, {"open", 2, 9}}, 1},
		{"t left out keeps the last", []ev{{"topic", 1, 10}, {"open", 2, -1}, {"read", 3, 9}}, 2},
	} {
		o := Order{T: -1}
		bad := -1
		for i, e := range c.evs {
			seq := e.seq
			var tp *int64
			if e.t >= 0 {
				tv := e.t
				tp = &tv
			}
			if err := o.Next(e.kind, &seq, tp); err != nil {
				bad = i
				break
			}
		}
		if bad != c.bad {
			t.Errorf("%s: event %d refused, want %d", c.name, bad, c.bad)
		}
	}
}
