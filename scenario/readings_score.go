package scenario

// Scoring a recorded reading: its evaluation (EvaluateReading) and the
// per-article and per-topic figures of readings (Figures, WriteFigures).

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// ErrAllAbandoned is EvaluateReading's error (wrapped in an *inex.Error
// naming the file) for a reading whose every judged topic was abandoned: a
// participant who left, or is still reading, before any done event.
// EvaluateReadings passes over such a reading when others remain.
var ErrAllAbandoned = errors.New("every judged topic of the reading was abandoned (no done event): nothing to score")

// EvaluateReading scores a reading against q with the measures of opt (the
// evaluator of readsim eval): each topic's articles in the order first
// opened are the ranked list; an article's reading order is the order its
// characters were first on screen; the passages shown are its retrieved
// text. Topics read but not judged are left out (with a warning), and so
// are abandoned ones (ReadTopic.Abandoned: a topic left unfinished is not
// scored as a finished one); with opt.AllTopics, judged topics not read
// (or abandoned) score 0.
func EvaluateReading(q *inex.Qrels, rd *Reading, opt EvalOptions) (*Evaluation, error) {
	if err := CheckMeasures(opt.Measures, UseRecorded, q); err != nil {
		return nil, err
	}
	if err := checkLengths(q, rd); err != nil {
		return nil, err
	}
	byID := map[string]*ReadTopic{}
	var missing, abandoned []string
	for _, t := range rd.Topics {
		if q.Topics[t.ID] == nil {
			missing = append(missing, t.ID)
			continue
		}
		if t.Abandoned() {
			abandoned = append(abandoned, t.ID)
			continue
		}
		byID[t.ID] = t
	}
	if len(abandoned) > 0 && opt.Warn != nil {
		inex.SortTopics(abandoned)
		opt.Warn(fmt.Sprintf("%s: warning: %d topic(s) were abandoned (recorded without a done event: left before Found it or Give up, or still being read) and are not scored: %s", rd.File, len(abandoned), listTopics(abandoned, 20)))
	}
	if len(byID) == 0 && !opt.AllTopics {
		if len(abandoned) > 0 {
			return nil, &inex.Error{File: rd.File, Err: ErrAllAbandoned}
		}
		return nil, &inex.Error{File: rd.File, Err: fmt.Errorf("the reading shares no topic with the judgments %s", q.File)}
	}
	if len(missing) > 0 && opt.Warn != nil {
		inex.SortTopics(missing)
		opt.Warn(fmt.Sprintf("%s: warning: %d topic(s) read are not in the judgments %s and are not scored: %s", rd.File, len(missing), q.File, listTopics(missing, 20)))
	}
	res := &Evaluation{File: rd.File, RunID: rd.ID}
	for _, id := range q.IDs {
		if byID[id] != nil || opt.AllTopics {
			res.Topics = append(res.Topics, id)
		}
	}
	ev := effort.NewEvaluator(opt.Measures, opt.Config)
	res.Values = make([][]float64, len(opt.Measures))
	var ws effort.Workspace
	var in effort.TopicInput
	var out []float64
	for _, id := range res.Topics {
		readingInput(&in, q.Topics[id], byID[id])
		out = ev.Topic(&in, &ws, out[:0])
		for m, v := range out {
			res.Values[m] = append(res.Values[m], v)
		}
	}
	res.All = make([]float64, len(opt.Measures))
	for m, meas := range opt.Measures {
		res.All[m] = effort.Aggregate(meas, res.Values[m])
	}
	return res, nil
}

// readingInput fills in with the reading of a topic (nil: nothing read).
func readingInput(in *effort.TopicInput, j *inex.TopicJudgments, t *ReadTopic) {
	in.Trel, in.TrelChars, in.Ideal = j.Trel, j.RelChars, j.Ideal
	in.Docs, in.Passages = in.Docs[:0], in.Passages[:0]
	if t == nil {
		return
	}
	for _, a := range t.Articles {
		d := effort.RankedDoc{Ret: a.Shown, Entry: -1, ID: a.Doc, Reading: a.Order}
		if d.Reading == nil {
			d.Reading = []effort.Span{} // opened, nothing read
		}
		if jd := j.Docs[a.Doc]; jd != nil {
			d.Judged, d.L, d.Rel, d.Grade = true, jd.Length, jd.Rel, jd.Grade
			d.Ret = d.Ret.Clip(0, jd.Length)
		}
		in.Docs = append(in.Docs, d)
	}
}

// Abandoned reports whether the topic was abandoned: recorded (with times)
// without a done event, so that the participant left it before saying
// "found" or "gave up" (or is still reading it). A trace of readsim replay
// (no times) is never abandoned.
func (t *ReadTopic) Abandoned() bool { return t.Start >= 0 && t.Outcome == "" }

// ArticleFigures are the figures of one article of a reading.
type ArticleFigures struct {
	Topic, Doc string
	Rank       int // position in the order opened
	// Read and RelRead count the characters read and the relevant ones;
	// Precision is RelRead/Read (the document score Read).
	Read, RelRead int
	Precision     float64
	// BeforeRel is the characters read before the first relevant one (-1:
	// no relevant character read); Effort is LE(s,NR) of that.
	BeforeRel int
	Effort    int
	// MsToRel is the time from opening the article to reading its first
	// relevant character (-1 without times or without relevant text read).
	MsToRel int64
	// Implausible is the size of the article's implausible screen (0:
	// none; ImplausibleScreens): calibration leaves the visit out.
	Implausible int
}

// TopicFigures are the time figures of one topic of a reading.
type TopicFigures struct {
	Topic string
	// Read and RelRead over the topic's articles.
	Read, RelRead int
	// Ms is the time spent on the topic; MsToRel the time from its start to
	// the first relevant character read (-1 when unknown or never).
	Ms, MsToRel int64
	// RelPerMin is the relevant characters read per minute (-1 without times).
	RelPerMin float64
	// Outcome is the done event's ("found", "gave up"), or "abandoned"
	// (ReadTopic.Abandoned).
	Outcome string
}

// Figures computes the per-article and per-topic figures of a reading
// against q, with screen size s and NR for the effort.
func Figures(q *inex.Qrels, rd *Reading, s, nr int) ([]ArticleFigures, []TopicFigures) {
	var arts []ArticleFigures
	var tops []TopicFigures
	var o effort.Orderer
	odd := ImplausibleScreens(rd)
	for _, t := range rd.Topics {
		j := q.Topics[t.ID]
		if j == nil {
			continue
		}
		tf := TopicFigures{Topic: t.ID, Ms: -1, MsToRel: -1, RelPerMin: -1, Outcome: t.Outcome}
		if t.Abandoned() {
			tf.Outcome = "abandoned"
		}
		if t.Start >= 0 && t.End >= t.Start {
			tf.Ms = t.End - t.Start
		}
		for r, a := range t.Articles {
			af := ArticleFigures{Topic: t.ID, Doc: a.Doc, Rank: r + 1, BeforeRel: -1, MsToRel: -1, Implausible: odd[a]}
			var rel effort.Spans
			if jd := j.Docs[a.Doc]; jd != nil {
				rel = jd.Rel
			}
			segs := o.Recorded(a.Order, rel)
			tally := effort.T2I(segs, 0)
			af.Read, af.RelRead, af.BeforeRel = tally.Read, tally.RelRead, tally.FirstRel
			if af.Read > 0 {
				af.Precision = float64(af.RelRead) / float64(af.Read)
			}
			af.Effort = effort.LEOf(af.BeforeRel, s, nr)
			if rel.Len() == 0 {
				af.Effort = nr
			}
			// the first relevant character's time
			for i, sp := range a.Order {
				if effort.SpanIntersectLen(sp, rel) > 0 {
					if a.Times[i] >= 0 && a.OpenT >= 0 {
						af.MsToRel = a.Times[i] - a.OpenT
					}
					if a.Times[i] >= 0 && t.Start >= 0 && (tf.MsToRel < 0 || a.Times[i]-t.Start < tf.MsToRel) {
						tf.MsToRel = a.Times[i] - t.Start
					}
					break
				}
			}
			tf.Read += af.Read
			tf.RelRead += af.RelRead
			arts = append(arts, af)
		}
		if tf.Ms > 0 {
			tf.RelPerMin = float64(tf.RelRead) / (float64(tf.Ms) / 60000)
		}
		tops = append(tops, tf)
	}
	sort.SliceStable(tops, func(i, k int) bool { return inex.TopicLess(tops[i].Topic, tops[k].Topic) })
	return arts, tops
}

// WriteFigures writes the per-article and per-topic figures of readings (in
// the order given) as two tables in format f; FormatJSON writes JSON Lines
// instead, one object per article then per topic (writeFiguresJSON).
func WriteFigures(w io.Writer, q *inex.Qrels, readings []*Reading, s, nr int, f ReportFormat, digits int) error {
	if f == FormatJSON {
		return writeFiguresJSON(w, q, readings, s, nr)
	}
	arts := &Table{Title: fmt.Sprintf("Articles read, in characters (spaces and line breaks count as read characters; LE with a %d-character screen, NR %d)", s, nr), Columns: []Column{
		{Name: "reading"}, {Name: "topic"}, {Name: "rank", Num: true}, {Name: "doc"}, {Name: "read", Num: true}, {Name: "relevant read", Num: true},
		{Name: "Read", Num: true}, {Name: "before relevant", Num: true}, {Name: "LE", Num: true}, {Name: "ms to relevant", Num: true}, {Name: "flag"}}}
	tops := &Table{Title: "Topics read, in characters (an abandoned topic has no done event and is not scored)", Columns: []Column{
		{Name: "reading"}, {Name: "topic"}, {Name: "read", Num: true}, {Name: "relevant read", Num: true}, {Name: "ms", Num: true},
		{Name: "ms to relevant", Num: true}, {Name: "relevant characters per minute", Num: true}, {Name: "outcome"}}}
	opt := func(v int64) Cell {
		if v < 0 {
			return Text("")
		}
		return Int(int(v))
	}
	for _, rd := range readings {
		as, ts := Figures(q, rd, s, nr)
		for _, a := range as {
			before := Text("")
			if a.BeforeRel >= 0 {
				before = Int(a.BeforeRel)
			}
			flag := ""
			if a.Implausible > 0 {
				flag = fmt.Sprintf("implausible: a screen of %d characters (not calibrated)", a.Implausible)
			}
			arts.Rows = append(arts.Rows, []Cell{Text(rd.ID), Text(a.Topic), Int(a.Rank), Text(a.Doc), Int(a.Read), Int(a.RelRead),
				Num(a.Precision), before, Int(a.Effort), opt(a.MsToRel), Text(flag)})
		}
		for _, t := range ts {
			rpm := Text("")
			if t.RelPerMin >= 0 {
				rpm = Num(t.RelPerMin)
			}
			tops.Rows = append(tops.Rows, []Cell{Text(rd.ID), Text(t.Topic), Int(t.Read), Int(t.RelRead), opt(t.Ms), opt(t.MsToRel), rpm, Text(t.Outcome)})
		}
	}
	if err := arts.Write(w, f, digits); err != nil {
		return err
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return err
	}
	return tops.Write(w, f, digits)
}

// writeFiguresJSON writes the figures of WriteFigures as JSON Lines, so
// that they follow eval's own JSON lines on one output: per article
// {"figures":"article","reading","topic","rank","doc","read",
// "relevant_read","read_precision","before_relevant","LE","screen","nr",
// "ms_to_relevant","implausible_screen"}, per topic {"figures":"topic",
// "reading","topic","read","relevant_read","ms","ms_to_relevant",
// "relevant_per_minute" (relevant characters a minute),"outcome"
// ("found", "gave up", "abandoned" or "")}; a figure that is unknown (no
// relevant character read, no times, no implausible screen) is null.
func writeFiguresJSON(w io.Writer, q *inex.Qrels, readings []*Reading, s, nr int) error {
	type article struct {
		Figures        string  `json:"figures"`
		Reading        string  `json:"reading"`
		Topic          string  `json:"topic"`
		Rank           int     `json:"rank"`
		Doc            string  `json:"doc"`
		Read           int     `json:"read"`
		RelevantRead   int     `json:"relevant_read"`
		Precision      float64 `json:"read_precision"`
		BeforeRelevant *int    `json:"before_relevant"`
		LE             int     `json:"LE"`
		Screen         int     `json:"screen"`
		NR             int     `json:"nr"`
		MsToRelevant   *int64  `json:"ms_to_relevant"`
		Implausible    *int    `json:"implausible_screen"`
	}
	type topic struct {
		Figures      string   `json:"figures"`
		Reading      string   `json:"reading"`
		Topic        string   `json:"topic"`
		Read         int      `json:"read"`
		RelevantRead int      `json:"relevant_read"`
		Ms           *int64   `json:"ms"`
		MsToRelevant *int64   `json:"ms_to_relevant"`
		RelPerMin    *float64 `json:"relevant_per_minute"`
		Outcome      string   `json:"outcome"`
	}
	known := func(v int64) *int64 {
		if v < 0 {
			return nil
		}
		return &v
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	var tops []topic
	for _, rd := range readings {
		as, ts := Figures(q, rd, s, nr)
		for _, a := range as {
			o := article{"article", rd.ID, a.Topic, a.Rank, a.Doc, a.Read, a.RelRead, a.Precision, nil, a.Effort, s, nr, known(a.MsToRel), nil}
			if a.BeforeRel >= 0 {
				o.BeforeRelevant = &a.BeforeRel
			}
			if a.Implausible > 0 {
				o.Implausible = &a.Implausible
			}
			if err := enc.Encode(o); err != nil {
				return err
			}
		}
		for _, t := range ts {
			o := topic{"topic", rd.ID, t.Topic, t.Read, t.RelRead, known(t.Ms), known(t.MsToRel), nil, t.Outcome}
			if t.RelPerMin >= 0 {
				o.RelPerMin = &t.RelPerMin
			}
			tops = append(tops, o)
		}
	}
	for _, o := range tops {
		if err := enc.Encode(o); err != nil {
			return err
		}
	}
	return bw.Flush()
}
