package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
	"github.com/readsim/readsim/scenario/trace"
)

// A recorded reading is a trace in the simulated reader's schema (Event:
// JSON Lines of `ev`, `topic`, `rank`, `doc`, `seq` and each kind's fields),
// written by the study mode of the web prototype, with two more fields on
// every event: `t`, milliseconds since the participant's session started,
// and `source`: "recorded". A `read` event is a range of characters
// [from,to) that was on the participant's screen; its `rel` and `nonrel`
// counts are not trusted: they are computed from the judgments when the
// reading is scored. A simulated trace (readsim replay) is a reading too
// (without `t`): scored as a reading it gives the replay's own numbers.
//
// Events of a topic: one `topic`, then for each article opened an `open`
// (rank: its position in the result list), `jump` and `read` events and a
// `stop`, and a `done` whose optional `outcome` says "found" or "gave up".
// Other kinds (`query`, `score`) are allowed and ignored by scoring.
//
// What ReadReading checks, naming the line of any problem: every event has
// a topic and a seq; seq increases strictly from one event to the next
// (a topic event may start again from 1: readsim replay numbers each
// topic's events from 1); t, where given, never goes back; events of a
// topic follow its topic event; read, jump and stop follow an open of the
// same article; a read [from,to) has 0 ≤ from ≤ to and a jump 0 ≤ to, both
// within the open's `len` when it is given (an article opened again keeps
// its length). Where `len` is absent (or 0, replay's unjudged article),
// the judged length bounds them: EvaluateReading and Calibrate check that.

// Limits on recorded readings.
const (
	// MaxReadingLine is the longest line of a reading file.
	MaxReadingLine = 1 << 20
	// MaxReadingEvents is the most events one reading file may hold.
	MaxReadingEvents = 1 << 22
	// MaxReadSpans is the most separate spans (neither overlapping nor
	// touching) read of one article: 16,384 screens read apart, where a
	// reader going down an article reads one.
	MaxReadSpans = 1 << 14
	// MaxReadingBytes is the largest reading file, as stored and once
	// decompressed: 256 MiB, some 2.4 million events (a replay's events
	// average 108 bytes on the sample, 69 to 278; a recording's 96). A
	// larger file is refused by its size before it is read.
	MaxReadingBytes = 256 << 20
)

// Reading is one reading file: a participant's (or a simulated reader's)
// reading of some topics.
type Reading struct {
	File string
	// ID names the reading: the `run` of its topic events (a participant id
	// or a run id), else the file's name.
	ID     string
	Topics []*ReadTopic
}

// ReadTopic is the reading of one topic.
type ReadTopic struct {
	ID string
	// Articles in the order first opened; an article opened again adds to
	// its first visit.
	Articles []*ReadArticle
	// Start is the time of the topic event, End of its last event (ms; -1
	// without times).
	Start, End int64
	// Outcome is the `done` event's outcome ("found", "gave up"), if any.
	Outcome string
	// Line is the topic event's line.
	Line int
}

// ReadArticle is what was read of one article.
type ReadArticle struct {
	Doc  string
	Rank int // position in the result list (the open event's rank)
	// Shown are the passages the system showed (the open event's).
	Shown effort.Spans
	// Order are the characters in the order first read: each span new,
	// read from its start.
	Order []effort.Span
	// Times[i] is when Order[i] was read (ms; -1 without times).
	Times []int64
	// OpenT is when the article was first opened (ms; -1 without times).
	OpenT int64
	Line  int // the first open event's line
	// Length is the open event's `len` (0: not given); reads and jumps lie
	// within it.
	Length int
	// Views are the read events in order: what calibration estimates the
	// screen size and the tolerance from.
	Views []View
	// Stop is the reason of the article's last stop event: readsim
	// replay's "t2i" (the reader stopped right after the last character
	// read) or "end" (it read to the end); in a recording "end" (the
	// participant saw the article's last visible character) or "".
	Stop string
	// Found tells that the topic's `done` said "found" while this was the
	// article last opened: the reader left it satisfied, not weary.
	Found bool
	// far is the furthest offset a read or jump reached, farLine its line:
	// checked against the judged length when the open gives none.
	far, farLine int
	// lenGiven is the len of a later open when the first gave none, lenAt
	// its line
	lenGiven, lenAt int
	seen            effort.Spans
}

// View is one read event of an article: the characters [From,To) on
// screen at time T (-1 without times); Screen is a replay's screen number
// (0 in a recording). Order[First:First+Added] are the spans it added to
// the reading order (the characters not read before).
type View struct {
	From, To     int
	T            int64
	Screen       int
	First, Added int
	Line         int
}

// OpenReading reads a reading file ("-": standard input), gzip or not: a
// file larger than MaxReadingBytes is refused by its size before it is
// read (inex.Open).
func OpenReading(path string) (*Reading, error) {
	f, err := inex.Open(path, MaxReadingBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rd, err := ReadReading(path, f)
	if err != nil && path != inex.Stdin {
		err = tornLine(path, err)
	}
	return rd, err
}

// tornLine names a torn last line: when the error is at the file's last
// line and that line has no newline (a batch of the study cut short by a
// crash), the error says so and how to repair it, instead of the JSON
// decoder's "unexpected EOF". The file is at most MaxReadingBytes (Open
// checked); a gzip file is left as it is.
func tornLine(path string, err error) error {
	var ie *inex.Error
	if !errors.As(err, &ie) || ie.Line == 0 {
		return err
	}
	b, rerr := os.ReadFile(path)
	if rerr != nil || len(b) == 0 || b[len(b)-1] == '\n' || bytes.HasPrefix(b, []byte{0x1f, 0x8b}) || bytes.Count(b, []byte{'\n'})+1 != ie.Line {
		return err
	}
	return &inex.Error{File: path, Line: ie.Line, Err: errors.New("the last line is torn (cut short without its newline: a batch interrupted by a crash); readsim study repair DIR cuts it, readsim study export leaves it out")}
}

// OpenReadings opens every file of paths with OpenReading, in order; the
// first error stops it.
func OpenReadings(paths []string) ([]*Reading, error) {
	rds := make([]*Reading, 0, len(paths))
	for _, p := range paths {
		rd, err := OpenReading(p)
		if err != nil {
			return nil, err
		}
		rds = append(rds, rd)
	}
	return rds, nil
}

// ReadReading reads a reading (JSON Lines, gzip or not: inex.Decode) from
// r; name names it in errors. Every problem is an *inex.Error naming the
// line, found when the line is read.
func ReadReading(name string, r io.Reader) (*Reading, error) {
	p := &readingParser{rd: &Reading{File: name}, byID: map[string]*ReadTopic{}, arts: map[*ReadTopic]map[string]*ReadArticle{}, order: trace.Order{T: -1}}
	events := 0
	err := inex.TextLinesLimit(name, r, MaxReadingBytes, MaxReadingLine, func(ln int, b []byte) error {
		p.line = ln
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			return nil
		}
		if events++; events > MaxReadingEvents {
			return p.bad("more than %d events: not a reading readsim reads", MaxReadingEvents)
		}
		return p.event(b)
	})
	if err != nil {
		return nil, err
	}
	rd := p.rd
	if len(rd.Topics) == 0 {
		return nil, &inex.Error{File: name, Err: errors.New("no topic event: not a reading")}
	}
	if rd.ID == "" {
		rd.ID = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	}
	return rd, nil
}

// readingParser is the state of ReadReading between lines.
type readingParser struct {
	rd   *Reading
	byID map[string]*ReadTopic
	// arts are each topic's articles by id
	arts  map[*ReadTopic]map[string]*ReadArticle
	cur   *ReadTopic   // the topic of the last event
	art   *ReadArticle // the article last opened in cur, if any
	last  *ReadArticle // the article last opened in cur, still after its stop
	line  int
	order trace.Order // the last seq and time t
}

// bad returns the error of the line being read.
func (p *readingParser) bad(format string, args ...any) error {
	return &inex.Error{File: p.rd.File, Line: p.line, Err: fmt.Errorf(format, args...)}
}

// Bounds of a trace event's numbers (trace.MaxSeq, trace.MaxMillis),
// beside inex.MaxLength for offsets and lengths and inex.MaxRank for ranks.
const (
	// MaxReadingSeq is the largest seq (the study's bound, 2^40).
	MaxReadingSeq = trace.MaxSeq
	// MaxReadingMillis is the largest time t: a year, in milliseconds.
	MaxReadingMillis = trace.MaxMillis
)

// traceLimits bound a reading's ranks and offsets: those of the
// evaluation files.
var traceLimits = trace.Limits{Rank: inex.MaxRank, Length: inex.MaxLength}

// event reads one event, the non-blank line b.
func (p *readingParser) event(b []byte) error {
	var e trace.Line
	if err := trace.Decode(b, &e, traceLimits); err != nil {
		return p.bad("%v", err)
	}
	if e.Topic == nil {
		return p.bad("an event without a topic")
	}
	if err := p.order.Next(e.Ev, e.Seq, e.T); err != nil {
		return p.bad("%v", err)
	}
	t := int64(-1)
	if e.T != nil {
		t = *e.T
	}
	if e.Ev != "topic" && (p.cur == nil || p.cur.ID != *e.Topic) {
		if p.cur = p.byID[*e.Topic]; p.cur == nil {
			return p.bad("a %q event of topic %s before its topic event", e.Ev, *e.Topic)
		}
		p.art, p.last = nil, nil
	}
	// a topic event ends nothing: the topic it opens takes its time
	if e.Ev != "topic" && p.cur != nil && t >= 0 {
		p.cur.End = max(p.cur.End, t)
	}
	doc := ""
	if e.Doc != nil {
		doc = *e.Doc
	}
	switch e.Ev {
	case "topic":
		return p.topic(&e, t)
	case "open":
		return p.open(&e, t)
	case "read":
		art := p.art
		if art == nil || art.Doc != doc {
			return p.bad("a read event outside an opened article")
		}
		if e.From == nil || e.To == nil || *e.To < *e.From {
			return p.bad("a read event needs 0 ≤ from ≤ to ≤ %d", inex.MaxLength)
		}
		if err := p.within(art, fmt.Sprintf("read [%d,%d)", *e.From, *e.To), int(*e.To)); err != nil {
			return err
		}
		scr := 0
		if e.Screen != nil {
			scr = int(*e.Screen)
		}
		art.add(effort.Span{Start: int(*e.From), End: int(*e.To)}, t, scr, p.line)
		if len(art.seen) > MaxReadSpans {
			return p.bad("more than %d separate spans read in article %s: not a reading readsim reads", MaxReadSpans, art.Doc)
		}
	case "jump":
		art := p.art
		if art == nil || art.Doc != doc {
			return p.bad("a jump event outside an opened article")
		}
		if e.To == nil {
			return p.bad("a jump event needs 0 ≤ to ≤ %d", inex.MaxLength)
		}
		return p.within(art, fmt.Sprintf("a jump to %d", *e.To), int(*e.To))
	case "stop":
		if p.art != nil && p.art.Doc == doc && e.Reason != nil {
			p.art.Stop = *e.Reason
		}
	case "done":
		if e.Outcome != nil {
			p.cur.Outcome = *e.Outcome
			if *e.Outcome == "found" && p.last != nil {
				p.last.Found = true
			}
		}
	}
	return nil
}

// within checks that what (a read or a jump) reaching offset end stays in
// the article's length, when its open gave one, and otherwise notes the
// furthest offset reached for checkLengths.
func (p *readingParser) within(art *ReadArticle, what string, end int) error {
	if art.Length > 0 && end > art.Length {
		return p.bad("%s of article %s goes past its end: the open (line %d) gives len %d", what, art.Doc, art.Line, art.Length)
	}
	if end > art.far {
		art.far, art.farLine = end, p.line
	}
	return nil
}

// topic reads a topic event at time t: a new topic, or one resumed.
func (p *readingParser) topic(e *trace.Line, t int64) error {
	if strings.ContainsFunc(*e.Topic, isSpace) || *e.Topic == "" {
		return p.bad("topic id %q is empty or holds white space", *e.Topic)
	}
	if p.byID[*e.Topic] != nil {
		p.cur = p.byID[*e.Topic] // a topic resumed (a study session interrupted)
		if t >= 0 {
			p.cur.End = max(p.cur.End, t)
		}
	} else {
		p.cur = &ReadTopic{ID: *e.Topic, Start: t, End: t, Line: p.line}
		p.byID[p.cur.ID] = p.cur
		p.rd.Topics = append(p.rd.Topics, p.cur)
	}
	if p.rd.ID == "" && e.Run != nil && *e.Run != "" {
		p.rd.ID = *e.Run
	}
	p.art, p.last = nil, nil
	return nil
}

// open reads an open event at time t: an article opened for the first
// time, with the passages shown, or again.
func (p *readingParser) open(e *trace.Line, t int64) error {
	if e.Doc == nil || *e.Doc == "" || strings.ContainsFunc(*e.Doc, isSpace) {
		return p.bad("an open event without an article id (doc)")
	}
	doc := *e.Doc
	n := 0
	if e.Len != nil {
		n = int(*e.Len)
	}
	p.art = p.arts[p.cur][doc]
	if p.art != nil {
		p.last = p.art
		if n > 0 && p.art.Length > 0 && n != p.art.Length {
			return p.bad("article %s opened again with len %d; its open at line %d gives %d", doc, n, p.art.Line, p.art.Length)
		}
		if n > 0 && p.art.Length == 0 && p.art.lenGiven == 0 {
			p.art.lenGiven, p.art.lenAt = n, p.line
		}
		return nil
	}
	rank := 0
	if e.Rank != nil {
		rank = int(*e.Rank)
	}
	art := &ReadArticle{Doc: doc, Rank: rank, OpenT: t, Line: p.line, Length: n}
	if e.Passages != nil {
		for _, s := range *e.Passages {
			if s[0] < 0 || s[1] < s[0] || s[1] > inex.MaxLength || n > 0 && s[1] > int64(n) {
				return p.bad("passage [%d,%d) is not a span of the article", s[0], s[1])
			}
			art.Shown = append(art.Shown, effort.Span{Start: int(s[0]), End: int(s[1])})
		}
	}
	art.Shown = effort.Normalize(art.Shown)
	p.cur.Articles = append(p.cur.Articles, art)
	if p.arts[p.cur] == nil {
		p.arts[p.cur] = map[string]*ReadArticle{}
	}
	p.arts[p.cur][doc] = art
	p.art, p.last = art, art
	return nil
}

// checkLengths checks the articles of rd against their judged length in
// q (when q gives one): an open's len must be it, and the reads and jumps
// of articles opened without a length must stay within it.
func checkLengths(q *inex.Qrels, rd *Reading) error {
	for _, t := range rd.Topics {
		j := q.Topics[t.ID]
		if j == nil {
			continue
		}
		for _, a := range t.Articles {
			jd := j.Docs[a.Doc]
			if jd == nil || jd.Length == 0 {
				continue
			}
			if line, n := a.lenLine(); n > 0 && n != jd.Length {
				return &inex.Error{File: rd.File, Line: line, Err: fmt.Errorf("article %s is opened with len %d, but it has %d characters in the judgments %s", a.Doc, n, jd.Length, q.File)}
			}
			if a.Length == 0 && a.far > jd.Length {
				return &inex.Error{File: rd.File, Line: a.farLine, Err: fmt.Errorf("offset %d is past the end of article %s: %d characters in the judgments %s (the open gives no len)", a.far, a.Doc, jd.Length, q.File)}
			}
		}
	}
	return nil
}

// lenLine returns the line and len of the first open of a that gives a
// len (0, 0 when none does).
func (a *ReadArticle) lenLine() (int, int) {
	if a.Length > 0 {
		return a.Line, a.Length
	}
	return a.lenAt, a.lenGiven
}

func isSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

// add records that span s was on screen at time t (a read event of
// screen number scr at line line): its characters not read before join the
// reading order, in document order. It finds the spans read before that s
// meets by binary search, so that a reading of many reads costs n log n.
func (a *ReadArticle) add(s effort.Span, t int64, scr, line int) {
	seen := a.seen
	// seen is normalised (ordered, neither overlapping nor touching):
	// seen[i:j] are the spans that overlap or touch s
	i := sort.Search(len(seen), func(k int) bool { return seen[k].End >= s.Start })
	j := sort.Search(len(seen), func(k int) bool { return seen[k].Start > s.End })
	fresh := effort.AppendDifference(nil, effort.Spans{s}, seen[i:j])
	a.Views = append(a.Views, View{From: s.Start, To: s.End, T: t, Screen: scr, First: len(a.Order), Added: len(fresh), Line: line})
	for _, f := range fresh {
		a.Order = append(a.Order, f)
		a.Times = append(a.Times, t)
	}
	if len(fresh) > 0 {
		merged := s
		if j > i {
			merged = effort.Span{Start: min(s.Start, seen[i].Start), End: max(s.End, seen[j-1].End)}
		}
		a.seen = slices.Replace(seen, i, j, merged)
	}
}

// Read returns the characters read (their union).
func (a *ReadArticle) Read() effort.Spans { return a.seen }
