package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/readsim/readsim/scenario/trace"
)

// The events of a study batch (POST /study/events): what the page sends,
// how each is checked, and the line written for it.
//
// A batch is {"events":[…]}: at most MaxStudyBatchEvents events and
// MaxStudyBatchBytes bytes. Each event is an object with the fields below
// and no others; numbers must be integers. The server never copies the
// client's JSON: it writes its own line for each event, from the checked
// fields, adding `run` (the participant) to topic events, `len` (the
// article's length) to open events and `source: "recorded"` to all.
//
//	ev       topic, query, open, read, jump, stop or done (required)
//	topic    a topic assigned to the participant (required)
//	seq      1 … 2^40, increasing through the participant's file (required):
//	         a seq already recorded is a replay (409), one not above the
//	         event before it in the batch an error of the batch (400)
//	t        milliseconds since the session started, 0 … MaxStudyMillis,
//	         never less than the previous event's (required)
//	rank     open: the article's position in the result list seen (0: not
//	         from the list); ignored on read, jump and stop (the open's)
//	doc      open, read, jump, stop: an article of the server
//	from,to  read: 0 ≤ from ≤ to ≤ the article's length
//	to       jump: the offset jumped to, 0 … the article's length
//	passages open: the passages shown, [[from,to],…] within the article
//	q        query: the query, 1 … 300 characters, no control characters
//	outcome  done: "found" or "gave up"
//	reason   stop: "end" when a screen of this open reached the article's
//	         last visible character (the end of the last text drawn: what
//	         follows, trailing newlines or a folded block, is never on
//	         screen). Every later stop of the same article in the topic is
//	         written with "end" too, so that the reading's last stop, the
//	         one calibration reads, says it (docs/study.md: censoring).
//
// The order is that of scenario.ReadReading, so that every file the server
// writes is a reading: events of a topic follow its topic event (a topic is
// the current one from its topic event to its done event); read, jump and
// stop follow an open of the same article (stop closes it); a topic done is
// not started again. A batch with any event out of order, or any event
// invalid, is refused whole and nothing of it is written.

// Limits of study batches and recordings.
const (
	// MaxStudyBatchEvents is the most events one batch may hold.
	MaxStudyBatchEvents = 256
	// MaxStudyBatchBytes is the largest batch body.
	MaxStudyBatchBytes = 64 << 10
	// MaxStudyMillis is the largest time t: 30 days.
	MaxStudyMillis = 30 * 24 * 3600 * 1000
	// maxStudySeq is the largest seq: the trace schema's.
	maxStudySeq = trace.MaxSeq
	// maxStudyRank is the largest rank of an open event (the longest
	// result list is 100).
	maxStudyRank = 1000
)

// clientEvent is an event as the page sends it: pointers tell a field
// given from one left out.
type clientEvent struct {
	Ev       string   `json:"ev"`
	Topic    *string  `json:"topic"`
	Seq      *int64   `json:"seq"`
	T        *int64   `json:"t"`
	Rank     *int     `json:"rank"`
	Doc      *string  `json:"doc"`
	From     *int     `json:"from"`
	To       *int     `json:"to"`
	Passages *[][]int `json:"passages"`
	Q        *string  `json:"q"`
	Outcome  *string  `json:"outcome"`
	Reason   *string  `json:"reason"`
}

// recEvent is a checked event: what is written (trace.Recorded).
type recEvent = trace.Recorded

// batchError is a refused batch: the status, the message, the index of the
// event at fault (-1: the batch as a whole).
type batchError struct {
	status int
	event  int
	msg    string
}

func (e *batchError) Error() string {
	if e.event >= 0 {
		return fmt.Sprintf("event %d: %s", e.event+1, e.msg)
	}
	return e.msg
}

func badBatch(status, event int, format string, args ...any) *batchError {
	return &batchError{status: status, event: event, msg: fmt.Sprintf(format, args...)}
}

// parseBatch decodes a batch body: strict JSON ({"events":[…]} with no
// other field, no unknown event field, integers where numbers are asked),
// at most MaxStudyBatchEvents events.
func parseBatch(body []byte) ([]clientEvent, *batchError) {
	var b struct {
		Events []clientEvent `json:"events"`
	}
	if berr := duplicateName(body); berr != nil {
		return nil, berr
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, badBatch(400, -1, "not a batch of events: %s", jsonProblem(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, badBatch(400, -1, "not a batch of events: data after the object")
	}
	switch {
	case b.Events == nil:
		return nil, badBatch(400, -1, `not a batch of events: no "events" array`)
	case len(b.Events) == 0:
		return nil, badBatch(400, -1, "an empty batch")
	case len(b.Events) > MaxStudyBatchEvents:
		return nil, badBatch(413, -1, "%d events in one batch: at most %d", len(b.Events), MaxStudyBatchEvents)
	}
	return b.Events, nil
}

// duplicateName refuses a body holding an object with a name given twice
// (issue 33: encoding/json would keep the last), naming the name and the
// event (jsontext's strict decoding, which refuses duplicate names). Any
// other fault is left to the decoding that follows.
func duplicateName(body []byte) *batchError {
	_, err := jsontext.NewDecoder(bytes.NewReader(body)).ReadValue()
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) || !errors.Is(se.Err, jsontext.ErrDuplicateName) {
		return nil
	}
	name := se.JSONPointer.LastToken()
	parts := strings.Split(string(se.JSONPointer.Parent()), "/")
	if len(parts) == 3 && parts[1] == "events" {
		if i, err := strconv.Atoi(parts[2]); err == nil && i >= 0 {
			return badBatch(400, i, "field %q given twice", name)
		}
	}
	return badBatch(400, -1, "not a batch of events: field %q given twice", name)
}

// jsonProblem says what is wrong with a JSON body without Go type names.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		f := te.Field
		if i := strings.LastIndexByte(f, '.'); i >= 0 {
			f = f[i+1:]
		}
		if f == "" {
			return "a value of the wrong type (" + te.Value + ")"
		}
		return fmt.Sprintf("field %s: a %s where %s is wanted", f, te.Value, jsonKind(te.Type.Kind().String()))
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("malformed JSON at byte %d", se.Offset)
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "json: unknown field ") {
		return "unknown field " + strings.TrimPrefix(msg, "json: unknown field ")
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return "empty or cut short"
	}
	return strings.TrimPrefix(msg, "json: ")
}

func jsonKind(k string) string {
	switch {
	case strings.HasPrefix(k, "int"):
		return "an integer"
	case k == "string":
		return "a string"
	case k == "slice" || k == "array":
		return "an array"
	}
	return "a " + k
}

// recState is what the checks need of a participant's recording so far.
type recState struct {
	seq int64 // the last seq written (0: none)
	// base is the last seq on disk when a batch's check began (clone): a
	// seq at or below it replays what is recorded (409); one above it but
	// not above seq goes back within the batch (400).
	base    int64
	t       int64 // the last time written
	size    int64 // the file's size in bytes
	topic   string
	doc     string // the open article ("" none)
	rank    int    // its rank
	length  int    // its length
	started map[string]bool
	done    map[string]bool
	// ended holds topic+"\x00"+doc for each article whose end was seen
	ended map[string]bool
}

func (s *recState) clone() recState {
	c := *s
	c.base = s.seq
	c.started = make(map[string]bool, len(s.started)+1)
	for k, v := range s.started {
		c.started[k] = v
	}
	c.done = make(map[string]bool, len(s.done)+1)
	for k, v := range s.done {
		c.done[k] = v
	}
	c.ended = make(map[string]bool, len(s.ended)+1)
	for k, v := range s.ended {
		c.ended[k] = v
	}
	return c
}

// articleLength returns an article's length, or false when the server has
// no such article.
type articleLength func(doc string) (int, bool)

// check validates e (event i of its batch) against the state, for a
// participant with the topics assigned, and applies it to the state.
func (s *recState) check(i int, c *clientEvent, assigned map[string]bool, length articleLength) (recEvent, *batchError) {
	if status, msg := s.checkHead(c, assigned); msg != "" {
		return recEvent{}, badBatch(status, i, "%s", msg)
	}
	e := recEvent{Ev: c.Ev, Topic: *c.Topic, Seq: *c.Seq, T: *c.T}
	if msg := checkFields(c); msg != "" {
		return recEvent{}, badBatch(400, i, "%s", msg)
	}
	doc, rank := "", 0
	if c.Doc != nil {
		doc = *c.Doc
	}
	if c.Rank != nil {
		rank = *c.Rank
	}
	if msg := s.checkPlace(c, &e, doc, rank); msg != "" {
		return recEvent{}, badBatch(400, i, "%s", msg)
	}
	if msg := s.apply(c, &e, doc, rank, length); msg != "" {
		return recEvent{}, badBatch(400, i, "%s", msg)
	}
	s.seq, s.t = e.Seq, e.T
	return e, nil
}

// checkHead checks the fields every event has (topic, seq, t) and returns
// the status and message of a refusal ("" when none).
func (s *recState) checkHead(c *clientEvent, assigned map[string]bool) (int, string) {
	switch {
	case c.Topic == nil || c.Seq == nil || c.T == nil:
		return 400, "ev, topic, seq and t are required"
	case *c.Seq < 1 || *c.Seq > maxStudySeq:
		return 400, fmt.Sprintf("seq %d is not from 1 to 2^40", *c.Seq)
	case *c.Seq <= s.base:
		return 409, fmt.Sprintf("seq %d is already recorded: the last seq recorded is %d", *c.Seq, s.base)
	case *c.Seq <= s.seq:
		return 400, fmt.Sprintf("seq %d does not follow seq %d of the event before it: seqs increase through a batch", *c.Seq, s.seq)
	case *c.T < 0 || *c.T > MaxStudyMillis:
		return 400, fmt.Sprintf("time t %d is not from 0 to %d ms", *c.T, MaxStudyMillis)
	case *c.T < s.t:
		return 400, fmt.Sprintf("time t %d goes back (the last is %d)", *c.T, s.t)
	case !assigned[*c.Topic]:
		return 400, fmt.Sprintf("unknown topic %q: not a topic of this participant", *c.Topic)
	}
	return 0, ""
}

// eventFields are the optional fields each kind of event takes from the
// page: every kind is one of trace.Fields, and every field but rank and doc
// one its kind has there (TestEventFieldsInSchema).
var eventFields = map[string]string{
	"topic": "rank doc",
	"query": "q rank doc",
	"open":  "rank doc passages",
	"read":  "rank doc from to",
	"jump":  "rank doc to",
	"stop":  "rank doc reason",
	"done":  "outcome rank doc",
}

// checkFields refuses an unknown kind of event and fields its kind does
// not take.
func checkFields(c *clientEvent) string {
	allowed, ok := eventFields[c.Ev]
	if !ok {
		return fmt.Sprintf("unknown event %q (topic, query, open, read, jump, stop, done)", c.Ev)
	}
	for _, f := range []struct {
		name  string
		given bool
	}{{"from", c.From != nil}, {"to", c.To != nil}, {"passages", c.Passages != nil}, {"q", c.Q != nil}, {"outcome", c.Outcome != nil}, {"reason", c.Reason != nil}} {
		if f.given && !strings.Contains(" "+allowed+" ", " "+f.name+" ") {
			return fmt.Sprintf("a %s event has no field %s", c.Ev, f.name)
		}
	}
	return ""
}

// checkPlace checks that the event belongs where the participant is: its
// topic open, and for read, jump and stop its article open (whose doc and
// rank e takes).
func (s *recState) checkPlace(c *clientEvent, e *recEvent, doc string, rank int) string {
	if c.Ev != "topic" && s.topic != e.Topic {
		if s.topic == "" {
			return fmt.Sprintf("a %s event of topic %s before its topic event", c.Ev, e.Topic)
		}
		return fmt.Sprintf("a %s event of topic %s while topic %s is open", c.Ev, e.Topic, s.topic)
	}
	switch c.Ev {
	case "topic", "query", "done":
		if doc != "" || rank != 0 {
			return fmt.Sprintf("a %s event has rank 0 and no doc", c.Ev)
		}
	case "read", "jump", "stop":
		if s.doc == "" || doc != s.doc {
			return fmt.Sprintf("a %s event of article %q, which is not open", c.Ev, doc)
		}
		e.Doc, e.Rank = s.doc, s.rank
	}
	return ""
}

// apply checks the fields of e's kind, fills e with them and moves the
// state on (a topic opened or done, an article opened or left).
func (s *recState) apply(c *clientEvent, e *recEvent, doc string, rank int, length articleLength) string {
	switch c.Ev {
	case "topic":
		if s.done[e.Topic] {
			return fmt.Sprintf("topic %s is done", e.Topic)
		}
		s.topic, s.doc = e.Topic, ""
		s.started[e.Topic] = true
	case "query":
		if c.Q == nil {
			return "a query event needs q"
		}
		q := strings.TrimSpace(*c.Q)
		if q == "" || !utf8.ValidString(q) || utf8.RuneCountInString(q) > maxQueryChars || strings.ContainsFunc(q, unicode.IsControl) {
			return fmt.Sprintf("q must be 1 to %d characters of text", maxQueryChars)
		}
		e.Q = q
	case "open":
		return s.open(c, e, doc, rank, length)
	case "read":
		if c.From == nil || c.To == nil {
			return "a read event needs from and to"
		}
		if *c.From < 0 || *c.To < *c.From || *c.To > s.length {
			return fmt.Sprintf("read [%d,%d) is not 0 ≤ from ≤ to ≤ %d (the article's length)", *c.From, *c.To, s.length)
		}
		e.From, e.To = *c.From, *c.To
	case "jump":
		if c.To == nil || *c.To < 0 || *c.To > s.length {
			return fmt.Sprintf("a jump event needs to, from 0 to %d (the article's length)", s.length)
		}
		e.To = *c.To
	case "stop":
		if c.Reason != nil && *c.Reason != trace.StopEnd {
			return `a stop's reason is "end" (the article's last visible character seen) or none`
		}
		if s.ended == nil {
			s.ended = map[string]bool{}
		}
		key := e.Topic + "\x00" + e.Doc
		if c.Reason != nil || s.ended[key] {
			s.ended[key] = true
			e.Reason = trace.StopEnd
		}
		s.doc = ""
	case "done":
		if c.Outcome == nil || !trace.ValidOutcome(*c.Outcome) {
			return `a done event needs outcome "found" or "gave up"`
		}
		e.Outcome = *c.Outcome
		s.done[e.Topic] = true
		s.topic, s.doc = "", ""
	}
	return ""
}

// open checks an open event (an article the server has, a rank, passages
// within the article) and opens the article.
func (s *recState) open(c *clientEvent, e *recEvent, doc string, rank int, length articleLength) string {
	if !validID(doc) {
		return "an open event needs the id of an article (doc)"
	}
	n, ok := length(doc)
	if !ok {
		return fmt.Sprintf("unknown article %q", doc)
	}
	if rank < 0 || rank > maxStudyRank {
		return fmt.Sprintf("rank %d is not from 0 to %d", rank, maxStudyRank)
	}
	e.Doc, e.Rank, e.Length = doc, rank, n
	e.Passages = [][2]int{}
	if c.Passages != nil {
		if len(*c.Passages) > maxPassages {
			return fmt.Sprintf("more than %d passages", maxPassages)
		}
		for _, p := range *c.Passages {
			if len(p) != 2 || p[0] < 0 || p[1] < p[0] || p[1] > n {
				return fmt.Sprintf("passage %v is not [from,to] within the article's %d characters", p, n)
			}
			e.Passages = append(e.Passages, [2]int{p[0], p[1]})
		}
	}
	s.doc, s.rank, s.length = doc, rank, n
	return ""
}

// replayLine applies one line of a participant's own file to the state
// (recovering it after a restart). The lines are the server's; they are
// checked again, against the topics assigned but not the articles (which
// may have changed since): a line that fails is a file edited by hand.
func (s *recState) replayLine(line []byte, assigned map[string]bool) error {
	var c struct {
		clientEvent
		Run    *string `json:"run"`
		Source *string `json:"source"`
		Len    *int    `json:"len"`
	}
	if err := json.Unmarshal(line, &c); err != nil {
		return errors.New(jsonProblem(err))
	}
	ce := c.clientEvent
	// an open line's article length is the one recorded (`len`), not
	// the article's today
	n := 0
	if c.Len != nil {
		n = *c.Len
	}
	if _, err := s.check(0, &ce, assigned, func(string) (int, bool) { return n, true }); err != nil {
		return errors.New(err.msg)
	}
	return nil
}
