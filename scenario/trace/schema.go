package trace

import (
	"errors"
	"fmt"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
)

// The kinds of event a recorded reading may hold beside the Kind values:
// a participant's query. Every kind's name is in Fields.
const KindQuery = "query"

// Outcomes of a `done` event in a recording.
const (
	OutcomeFound  = "found"   // the participant found what the topic asks
	OutcomeGaveUp = "gave up" // the participant gave up
)

// Stop reasons of a `stop` event.
const (
	StopT2I = "t2i" // readsim replay: the tolerance to irrelevance was reached
	StopEnd = "end" // nothing left: the article's end was reached (or seen)
)

// SourceRecorded is the `source` of every event of a recording.
const SourceRecorded = "recorded"

// Bounds of a trace event's numbers; ranks and offsets are bounded by the
// caller's Limits (the evaluation files' bounds).
const (
	// MaxSeq is the largest seq (the study's bound, 2^40).
	MaxSeq = 1 << 40
	// MaxMillis is the largest time t: a year, in milliseconds.
	MaxMillis = 366 * 24 * 3600 * 1000
)

// Fields are the fields each kind of event may have besides ev, topic,
// rank, doc, seq, t and source, separated by spaces: the schema of
// docs/scenario.md ("Trace events") and a recording's `q` and `outcome`.
var Fields = map[string]string{
	"topic":   "trel run",
	KindQuery: "q",
	"open":    "len nrc judged passages",
	"jump":    "to",
	"read":    "from to rel nonrel screen",
	"stop":    "reason read relread",
	"score":   "scores",
	"done":    "scores outcome",
}

// Allowed reports whether an event of kind ev may have the field name
// (one of Fields; the fields every event has are not asked).
func Allowed(ev, name string) bool {
	return strings.Contains(" "+Fields[ev]+" ", " "+name+" ")
}

// Line is the JSON of one event as a reader accepts it: the trace
// schema's fields and a recording's `t`, `source`, `q` and `outcome`, each
// once; a pointer tells a field given from one left out (Fields says
// which kinds may have which).
type Line struct {
	Ev       string             `json:"ev"`
	Topic    *string            `json:"topic"`
	Rank     *int64             `json:"rank"`
	Doc      *string            `json:"doc"`
	Seq      *int64             `json:"seq"`
	T        *int64             `json:"t"`
	Source   *string            `json:"source"`
	Run      *string            `json:"run"`
	Trel     *int64             `json:"trel"`
	Q        *string            `json:"q"`
	Len      *int64             `json:"len"`
	NRC      *int64             `json:"nrc"`
	Judged   *bool              `json:"judged"`
	Passages *[][2]int64        `json:"passages"`
	From     *int64             `json:"from"`
	To       *int64             `json:"to"`
	Rel      *int64             `json:"rel"`
	NonRel   *int64             `json:"nonrel"`
	Screen   *int64             `json:"screen"`
	Reason   *string            `json:"reason"`
	Read     *int64             `json:"read"`
	RelRead  *int64             `json:"relread"`
	Scores   map[string]float64 `json:"scores"`
	Outcome  *string            `json:"outcome"`
}

// Limits bound the ranks and the offsets and lengths of an event.
type Limits struct {
	Rank   int64 // the largest rank
	Length int64 // the largest offset, length or count of characters
}

// Decode decodes the line b into e: one JSON object of the schema's
// fields (an unknown field, a field given twice, a value of the wrong type
// or anything after the object is refused), of a known kind with its
// kind's fields only, every number in its range, a known source, stop
// reason and outcome, no id with a NUL character. The error says what is
// wrong, without the file or line.
func Decode(b []byte, e *Line, lim Limits) error {
	if err := jsonv2.Unmarshal(b, e, jsonv2.RejectUnknownMembers(true)); err != nil {
		return fmt.Errorf("not a trace event: %s", jsonProblem(err))
	}
	if _, ok := Fields[e.Ev]; !ok {
		return fmt.Errorf("unknown event %q (topic, query, open, jump, read, stop, score, done)", e.Ev)
	}
	for _, f := range []struct {
		name  string
		given bool
	}{
		{"trel", e.Trel != nil}, {"run", e.Run != nil}, {"q", e.Q != nil},
		{"len", e.Len != nil}, {"nrc", e.NRC != nil}, {"judged", e.Judged != nil}, {"passages", e.Passages != nil},
		{"from", e.From != nil}, {"to", e.To != nil}, {"rel", e.Rel != nil}, {"nonrel", e.NonRel != nil}, {"screen", e.Screen != nil},
		{"reason", e.Reason != nil}, {"read", e.Read != nil}, {"relread", e.RelRead != nil},
		{"scores", e.Scores != nil}, {"outcome", e.Outcome != nil},
	} {
		if f.given && !Allowed(e.Ev, f.name) {
			return fmt.Errorf("a %s event has no field %s", e.Ev, f.name)
		}
	}
	for _, n := range []struct {
		name  string
		v     *int64
		limit int64
	}{
		{"rank", e.Rank, lim.Rank}, {"seq", e.Seq, MaxSeq}, {"t", e.T, MaxMillis},
		{"trel", e.Trel, lim.Length}, {"len", e.Len, lim.Length}, {"nrc", e.NRC, lim.Length},
		{"from", e.From, lim.Length}, {"to", e.To, lim.Length}, {"rel", e.Rel, lim.Length},
		{"nonrel", e.NonRel, lim.Length}, {"screen", e.Screen, lim.Length},
		{"read", e.Read, lim.Length}, {"relread", e.RelRead, lim.Length},
	} {
		if n.v != nil && (*n.v < 0 || *n.v > n.limit) {
			return fmt.Errorf("%s %d is not from 0 to %d", n.name, *n.v, n.limit)
		}
	}
	switch {
	case e.Source != nil && *e.Source != SourceRecorded:
		return fmt.Errorf("source %q: a reading's source is \"recorded\" (or left out)", *e.Source)
	case e.Reason != nil && *e.Reason != StopT2I && *e.Reason != StopEnd && *e.Reason != "":
		return fmt.Errorf("unknown stop reason %q (t2i, end)", *e.Reason)
	case e.Outcome != nil && !ValidOutcome(*e.Outcome):
		return fmt.Errorf("unknown outcome %q (found, gave up)", *e.Outcome)
	}
	for _, id := range []*string{e.Topic, e.Doc, e.Run} {
		if id != nil && strings.ContainsRune(*id, 0) {
			return fmt.Errorf("an id with a NUL character: %q", *id)
		}
	}
	return nil
}

// ValidOutcome reports whether s is the outcome of a `done` event.
func ValidOutcome(s string) bool { return s == OutcomeFound || s == OutcomeGaveUp }

// jsonProblem is what is wrong with a line that is no trace event, without
// the package's prefix.
func jsonProblem(err error) string {
	s := err.Error()
	for _, prefix := range []string{"json: ", "jsontext: "} {
		s = strings.TrimPrefix(s, prefix)
	}
	return s
}

// Order checks the order rules of a trace, one event after another: seq
// increases strictly (a topic event may start again from 1: readsim
// replay numbers each topic's events from 1) and t, where given, never
// goes back. The zero Order has seen no event; set T to -1 before the
// first (no time yet).
type Order struct {
	Seq int64 // the last seq (0: none yet)
	T   int64 // the last time t (-1: none yet)
}

// Next checks the event of kind ev with seq (nil: left out) and time t
// (nil: left out) against the events before it and, if it is in order,
// makes it the last.
func (o *Order) Next(ev string, seq, t *int64) error {
	switch {
	case seq == nil:
		return errors.New("an event without seq")
	case *seq < 1:
		return fmt.Errorf("seq %d is not a step counter (1, 2, …)", *seq)
	case *seq <= o.Seq && (ev != "topic" || *seq != 1):
		return fmt.Errorf("seq %d does not follow seq %d: seq must increase strictly (a topic event may start again from 1)", *seq, o.Seq)
	}
	o.Seq = *seq
	if t != nil {
		if *t < o.T {
			return fmt.Errorf("time t %d goes back (the previous event's is %d)", *t, o.T)
		}
		o.T = *t
	}
	return nil
}
