package trace

import "encoding/json"

// Recorded is one checked event of a recording, as the study recorder in
// web writes it: a participant's event of the trace schema with its time
// T. Fields of other kinds than Ev's are not written.
type Recorded struct {
	Ev       string
	Topic    string
	Seq      int64
	T        int64 // milliseconds since the participant's session started
	Rank     int
	Doc      string
	From, To int      // read: [From,To); jump: To
	Length   int      // open: the article's length (`len`)
	Passages [][2]int // open: the passages shown
	Q        string   // query: the query
	Outcome  string   // done: OutcomeFound or OutcomeGaveUp
	Reason   string   // stop: StopEnd or "" (left out)
}

// recordedLine is a recorded event as written: readsim replay's trace
// event (ev, topic, rank, doc, seq and the fields of its kind) with t and
// source, in that order. A field of another kind is nil, left out.
type recordedLine struct {
	Ev       string    `json:"ev"`
	Topic    string    `json:"topic"`
	Rank     int       `json:"rank"`
	Doc      string    `json:"doc"`
	Seq      int64     `json:"seq"`
	Run      *string   `json:"run,omitempty"`      // topic
	Q        *string   `json:"q,omitempty"`        // query
	Len      *int      `json:"len,omitempty"`      // open
	Passages *[][2]int `json:"passages,omitempty"` // open
	From     *int      `json:"from,omitempty"`     // read
	To       *int      `json:"to,omitempty"`       // read, jump
	Outcome  *string   `json:"outcome,omitempty"`  // done
	Reason   *string   `json:"reason,omitempty"`   // stop
	T        int64     `json:"t"`
	Source   string    `json:"source"`
}

// AppendLine appends e's line (JSON and a newline) for participant run
// (the `run` of a topic event), with source SourceRecorded: a line that
// Decode takes.
func (e *Recorded) AppendLine(b []byte, run string) []byte {
	l := recordedLine{Ev: e.Ev, Topic: e.Topic, Rank: e.Rank, Doc: e.Doc, Seq: e.Seq, T: e.T, Source: SourceRecorded}
	switch e.Ev {
	case "topic":
		l.Run = &run
	case KindQuery:
		l.Q = &e.Q
	case "open":
		ps := e.Passages
		if ps == nil {
			ps = [][2]int{}
		}
		l.Len, l.Passages = &e.Length, &ps
	case "read":
		l.From, l.To = &e.From, &e.To
	case "jump":
		l.To = &e.To
	case "done":
		l.Outcome = &e.Outcome
	case "stop":
		if e.Reason != "" {
			l.Reason = &e.Reason
		}
	}
	j, _ := json.Marshal(l) // ints and strings always marshal
	return append(append(b, j...), '\n')
}
