package trace

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/readsim/readsim/effort"
)

// Kind is the kind of a trace event (scenario.md, "Trace events").
type Kind uint8

// The trace events, in the order they occur for a topic: one EvTopic; per
// article EvOpen, then EvJump and EvRead events, EvStop and EvScore; one
// EvDone.
const (
	EvTopic Kind = iota // a topic's replay starts: Trel, Run
	EvOpen              // the reader opens the article at Rank: Len, NRC, Passages
	EvJump              // follows an arrow link to offset To
	EvRead              // reads [From,To): Rel, NonRel characters, on screen Screen
	EvStop              // stops reading the article: Reason, Read, RelRead
	EvScore             // the article's document scores
	EvDone              // the topic's list scores
)

var kindNames = [...]string{"topic", "open", "jump", "read", "stop", "score", "done"}

// String returns the event's `ev` name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Score is one named value of a `score` or `done` event.
type Score struct {
	Name  string
	Value float64
}

// Event is one trace event. Every event has Kind, Topic, Rank, Doc and Seq;
// the other fields belong to the kinds named in their comments and are
// written to JSON only for them.
//
// Rank is the 1-based rank of the article (0 for topic and done events, whose
// Doc is empty). Seq counts the events of a topic from 1 (the topic event).
type Event struct {
	Kind  Kind
	Topic string
	Rank  int
	Doc   string
	Seq   int

	Trel int    // topic: relevant articles of the topic
	Run  string // topic: the run id

	Len      int          // open: the article length (0 when unjudged)
	NRC      int          // open: relevant characters
	Judged   bool         // open: false for an article missing from the judgments
	Passages effort.Spans // open: the retrieved passages, as [from,to) pairs

	From, To int // read: [From,To); jump: To is the target offset
	Rel      int // read: relevant characters of [From,To)
	NonRel   int // read: non-relevant characters of [From,To)
	// Screen is the 1-based screen of the read: the reader has read
	// (Screen-1)·s … Screen·s-1 characters of the article when reading it.
	// An article's LE effort is the Screen of its first relevant character,
	// capped at NR.
	Screen int

	Reason  string // stop: "t2i" (tolerance reached) or "end" (nothing left)
	Read    int    // stop: characters read in the article
	RelRead int    // stop: relevant characters among them

	Scores []Score // score: document scores; done: list scores
}

// AppendJSON appends e as one JSON object (no newline) to b. The fields are
// those of scenario.md: ev, topic, rank, doc, seq, then the kind's own.
func (e *Event) AppendJSON(b []byte) []byte {
	b = append(b, `{"ev":"`...)
	b = append(b, e.Kind.String()...)
	b = append(b, `","topic":`...)
	b = appendString(b, e.Topic)
	b = append(b, `,"rank":`...)
	b = strconv.AppendInt(b, int64(e.Rank), 10)
	b = append(b, `,"doc":`...)
	b = appendString(b, e.Doc)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, int64(e.Seq), 10)
	num := func(name string, v int) {
		b = append(b, ',', '"')
		b = append(b, name...)
		b = append(b, '"', ':')
		b = strconv.AppendInt(b, int64(v), 10)
	}
	switch e.Kind {
	case EvTopic:
		num("trel", e.Trel)
		b = append(b, `,"run":`...)
		b = appendString(b, e.Run)
	case EvOpen:
		num("len", e.Len)
		num("nrc", e.NRC)
		if !e.Judged {
			b = append(b, `,"judged":false`...)
		}
		b = append(b, `,"passages":[`...)
		for i, p := range e.Passages {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(p.Start), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(p.End), 10)
			b = append(b, ']')
		}
		b = append(b, ']')
	case EvJump:
		num("to", e.To)
	case EvRead:
		num("from", e.From)
		num("to", e.To)
		num("rel", e.Rel)
		num("nonrel", e.NonRel)
		num("screen", e.Screen)
	case EvStop:
		b = append(b, `,"reason":`...)
		b = appendString(b, e.Reason)
		num("read", e.Read)
		num("relread", e.RelRead)
	case EvScore, EvDone:
		b = append(b, `,"scores":{`...)
		for i, s := range e.Scores {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, s.Name)
			b = append(b, ':')
			b = appendFloat(b, s.Value)
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *Event) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil), nil }

// appendFloat writes v with the fewest digits that read back exactly; NaN and
// infinities (never produced by the measures) become null.
func appendFloat(b []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}
