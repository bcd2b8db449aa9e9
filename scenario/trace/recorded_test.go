package trace

import "testing"

// TestRecordedLine checks the line written for each kind of recorded
// event against lines written by hand from docs/scenario.md (the trace
// fields, then t and source), and that Decode takes each.
func TestRecordedLine(t *testing.T) {
	for _, c := range []struct {
		e    Recorded
		want string
	}{
		{Recorded{Ev: "topic", Topic: "t1", Seq: 1},
			`{"ev":"topic","topic":"t1","rank":0,"doc":"","seq":1,"run":"p7","t":0,"source":"recorded"}`},
		{Recorded{Ev: "query", Topic: "t1", Seq: 2, T: 5, Q: "cats & dogs"},
			`{"ev":"query","topic":"t1","rank":0,"doc":"","seq":2,"q":"cats \u0026 dogs","t":5,"source":"recorded"}`},
		{Recorded{Ev: "open", Topic: "t1", Seq: 3, T: 9, Rank: 2, Doc: "12", Length: 80},
			`{"ev":"open","topic":"t1","rank":2,"doc":"12","seq":3,"len":80,"passages":[],"t":9,"source":"recorded"}`},
		{Recorded{Ev: "open", Topic: "t1", Seq: 3, Rank: 2, Doc: "12", Length: 80, Passages: [][2]int{{4, 9}}},
			`{"ev":"open","topic":"t1","rank":2,"doc":"12","seq":3,"len":80,"passages":[[4,9]],"t":0,"source":"recorded"}`},
		{Recorded{Ev: "read", Topic: "t1", Seq: 4, T: 10, Rank: 2, Doc: "12", From: 0, To: 40},
			`{"ev":"read","topic":"t1","rank":2,"doc":"12","seq":4,"from":0,"to":40,"t":10,"source":"recorded"}`},
		{Recorded{Ev: "jump", Topic: "t1", Seq: 5, T: 11, Rank: 2, Doc: "12", To: 60},
			`{"ev":"jump","topic":"t1","rank":2,"doc":"12","seq":5,"to":60,"t":11,"source":"recorded"}`},
		{Recorded{Ev: "stop", Topic: "t1", Seq: 6, T: 12, Rank: 2, Doc: "12"},
			`{"ev":"stop","topic":"t1","rank":2,"doc":"12","seq":6,"t":12,"source":"recorded"}`},
		{Recorded{Ev: "stop", Topic: "t1", Seq: 6, T: 12, Rank: 2, Doc: "12", Reason: StopEnd},
			`{"ev":"stop","topic":"t1","rank":2,"doc":"12","seq":6,"reason":"end","t":12,"source":"recorded"}`},
		{Recorded{Ev: "done", Topic: "t1", Seq: 7, T: 13, Outcome: OutcomeGaveUp},
			`{"ev":"done","topic":"t1","rank":0,"doc":"","seq":7,"outcome":"gave up","t":13,"source":"recorded"}`},
	} {
		got := string(c.e.AppendLine(nil, "p7"))
		if got != c.want+"\n" {
			t.Errorf("%s event:\n got %s want %s", c.e.Ev, got, c.want)
		}
		var l Line
		if err := Decode([]byte(c.want), &l, Limits{Rank: 100, Length: 100}); err != nil {
			t.Errorf("%s: %v", c.want, err)
		}
	}
}
