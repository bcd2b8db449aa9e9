package scenario

import (
	"bufio"
	"fmt"
	"io"
	"iter"
	"sync"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// SimulatedReader configures the simulated reader of scenario.md.
//
// Decisions where the specification is silent:
//
//   - Entry points: a run result that is a best entry point with no text
//     (an INEX XML <bep>) is read from that point, exactly as `readsim eval`
//     reads it (effort.Orderer.EntryPoint); there is no separate switch.
//   - Depth cuts the ranked list: the reader looks at ranks 1…Depth only, and
//     every score (document and list) is that of the run cut at Depth. 0 means
//     the whole list.
//   - With a tolerance x the reader's effort is LE(s,NR,x): a relevant article
//     whose first relevant character lies past the T2I stop costs NR
//     (measures.md §6). The default measures use it; `readsim eval -m
//     'ANCE[100]\LE(s,NR,x)'` computes the same numbers, and an explicit
//     -m LE(s,NR) keeps the reading without a stop.
//   - An article that is not in the judgments has an unknown length: the
//     trace opens it with "len":0 and "judged":false and reads only its
//     retrieved passages (document baseline: [0, end of its last retrieved
//     passage)), all non-relevant; a full-article result of an unjudged article
//     reads nothing. Its scores are those of eval (0; LE = NR).
type SimulatedReader struct {
	// Config is what eval reads and scores too: the order read after the
	// retrieved passages, the document baseline (every article in full from
	// its beginning) and --compat inex (gP[n] repeated past the end of the
	// list).
	effort.Config
	// T2I is the tolerance to irrelevance x in characters; 0 means none (the
	// reader reads the whole article).
	T2I int
	// Screen is the screen size s in characters (default 300) and NR the
	// maximum effort (default 5).
	Screen, NR int
	// Depth is how many ranks the reader looks at (0: all).
	Depth int
	// Group and MergeOverlaps are eval's --group and --merge-overlaps.
	Group, MergeOverlaps bool
	// Measures are the list scores of the `done` event; their distinct
	// document scores are those of the `score` events. Nil means
	// effort.ReplayDefaults of the reader's T2I, Screen and NR.
	Measures []effort.Measure
}

func (r SimulatedReader) screen() int {
	if r.Screen <= 0 {
		return effort.DefaultScreen
	}
	return r.Screen
}

func (r SimulatedReader) nr() int {
	if r.NR <= 0 {
		return effort.DefaultNR
	}
	return r.NR
}

// Replayer replays the topics of one run against judgments. It is built once
// per run (the run is read and indexed by topic) and is then safe for
// concurrent use: a server can replay single topics of the same run on
// demand, each replay costing only that topic.
type Replayer struct {
	q        *inex.Qrels
	run      *inex.Run
	cfg      SimulatedReader
	ms       []effort.Measure
	ev       *effort.Evaluator
	docNames []string // distinct document scores, in the evaluator's order
	byID     map[string]*inex.RunTopic
	topics   []string
	needs    inputNeeds
	pool     sync.Pool
}

type work struct {
	ws   effort.Workspace
	in   effort.TopicInput
	rd   effort.Orderer
	segs []effort.Segment
	out  []float64
	ev   Event
	cl   clipCount
}

// NewReplayer prepares the replay of run against q. Topics of the run that
// are not in the judgments are not replayed. Judgments with passages but no
// lengths (span judgments without --lengths) are refused: the reader reads
// whole documents.
func NewReplayer(q *inex.Qrels, run *inex.Run, cfg SimulatedReader) (*Replayer, error) {
	if cfg.T2I < 0 || cfg.T2I > effort.MaxParam || cfg.Screen < 0 || cfg.Screen > effort.MaxParam || cfg.NR < 0 || cfg.NR > effort.MaxParam {
		return nil, fmt.Errorf("a reader's tolerance, screen and NR are from 0 to %d, not %d, %d and %d", effort.MaxParam, cfg.T2I, cfg.Screen, cfg.NR)
	}
	ms := cfg.Measures
	if ms == nil {
		ms = effort.ReplayDefaults(cfg.T2I, cfg.screen(), cfg.nr())
	}
	if q.Passages() && !q.Lengths() {
		return nil, CheckMeasures(nil, UseSimulated, q)
	}
	p := &Replayer{q: q, run: run, cfg: cfg, ms: ms, byID: map[string]*inex.RunTopic{}}
	p.needs = needsOf(ms, q, run, cfg.Group, cfg.MergeOverlaps)
	// The reader reads ranked articles, grouped only with --group.
	p.needs.docs, p.needs.group = true, cfg.Group
	p.ev = effort.NewEvaluator(ms, cfg.Config)
	p.docNames = docScoreNames(ms)
	for _, t := range run.Topics {
		if q.Topics[t.ID] != nil {
			p.byID[t.ID] = t
		}
	}
	for _, id := range q.IDs {
		if p.byID[id] != nil {
			p.topics = append(p.topics, id)
		}
	}
	p.pool.New = func() any { return new(work) }
	return p, nil
}

// docScoreNames returns the names of the distinct document scores of ms in
// order of first appearance: the order of effort.DocValues.Scores.
func docScoreNames(ms []effort.Measure) []string {
	var ds []effort.DocScore
	var names []string
	for _, m := range ms {
		if m.Doc.Kind == effort.DocNone {
			continue
		}
		dup := false
		for _, d := range ds {
			if d == m.Doc {
				dup = true
			}
		}
		if !dup {
			ds = append(ds, m.Doc)
			names = append(names, m.Doc.String())
		}
	}
	return names
}

// Topics returns the topics that can be replayed: those of the run that are
// in the judgments, in the judgments' order.
func (p *Replayer) Topics() []string { return p.topics }

// Measures returns the list scores of the `done` events.
func (p *Replayer) Measures() []effort.Measure { return p.ms }

// DocScoreNames returns the names of the document scores of the `score`
// events, in the order of TopicValues.DocScores.
func (p *Replayer) DocScoreNames() []string { return p.docNames }

// Run returns the replayed run.
func (p *Replayer) Run() *inex.Run { return p.run }

// TopicValues are the scores of one topic without its trace.
type TopicValues struct {
	Topic string
	// Trel is the number of relevant articles of the topic.
	Trel int
	// Docs are the ranked article ids (cut at the reader's depth).
	Docs []string
	// DocScores[i][r] is document score i (DocScoreNames) of the article at
	// 0-based rank r; IsRel[r] tells whether it is relevant.
	DocScores [][]float64
	IsRel     []bool
	// List[m] is measure m (Measures) for the topic.
	List []float64
}

// input builds the topic's effort input into w with eval's own code.
func (p *Replayer) input(id string, w *work) ([]inex.RankedArticle, *inex.TopicJudgments, error) {
	t := p.byID[id]
	j := p.q.Topics[id]
	if t == nil || j == nil {
		return nil, nil, fmt.Errorf("topic %s is not in both the run %s and the judgments %s", id, p.run.File, p.q.File)
	}
	// Count this topic's clipped results afresh (ClipWarning sums them).
	w.cl = clipCount{}
	docs, err := buildInput(&w.in, j, t, p.run.File, p.needs, &w.cl)
	if err != nil {
		return nil, nil, err
	}
	if d := p.cfg.Depth; d > 0 && len(w.in.Docs) > d {
		w.in.Docs = w.in.Docs[:d]
		docs = docs[:d]
	}
	return docs, j, nil
}

// ClipWarning returns the warning eval gives about the results of the
// given topics that run past their article's end (the replay clips them as
// eval does), or "" when none does.
func (p *Replayer) ClipWarning(ids []string) (string, error) {
	w := p.pool.Get().(*work)
	defer p.pool.Put(w)
	var cl clipCount
	for _, id := range ids {
		if _, _, err := p.input(id, w); err != nil {
			return "", err
		}
		cl.add(w.cl)
	}
	if cl.n == 0 {
		return "", nil
	}
	return cl.warning(p.run.File), nil
}

// Values returns the scores of topic id without building its trace.
func (p *Replayer) Values(id string) (*TopicValues, error) {
	w := p.pool.Get().(*work)
	defer p.pool.Put(w)
	docs, j, err := p.input(id, w)
	if err != nil {
		return nil, err
	}
	tv := &TopicValues{Topic: id, Trel: j.Trel}
	tv.List = p.ev.Topic(&w.in, &w.ws, nil)
	dv := p.ev.Docs(&w.in, &w.ws)
	tv.DocScores = make([][]float64, len(dv.Scores))
	for i, s := range dv.Scores {
		tv.DocScores[i] = append([]float64(nil), s...)
	}
	tv.IsRel = append([]bool(nil), dv.IsRel...)
	for _, d := range docs {
		tv.Docs = append(tv.Docs, d.Article)
	}
	return tv, nil
}

// Replay replays the given topics (all replayable topics when nil) in order,
// calling emit for every event; it stops at emit's first error.
func (p *Replayer) Replay(topics []string, emit func(*Event) error) error {
	if topics == nil {
		topics = p.topics
	}
	for _, id := range topics {
		if err := p.ReplayTopic(id, emit); err != nil {
			return err
		}
	}
	return nil
}

// SelectTopics returns the topics to replay: ids, each of which must be
// one of Topics, or every topic of Topics when ids is empty. The error (a
// RequestError) names the first topic that is not in both the run and the
// judgments.
func (p *Replayer) SelectTopics(ids []string) ([]string, error) {
	if len(ids) == 0 {
		return p.topics, nil
	}
	for _, id := range ids {
		if p.byID[id] == nil {
			return nil, requestErrorf("topic %s is not in both the run %s and the judgments %s", id, p.run.File, p.q.File)
		}
	}
	return ids, nil
}

// WriteTrace writes the trace of the topics ids (Replay) to w as JSON
// Lines, one event a line (Event.AppendJSON); done, when not nil, is called
// after each topic (a progress bar).
func (p *Replayer) WriteTrace(w io.Writer, ids []string, done func()) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	var line []byte
	for _, id := range ids {
		err := p.ReplayTopic(id, func(ev *Event) error {
			line = append(ev.AppendJSON(line[:0]), '\n')
			_, err := bw.Write(line)
			return err
		})
		if err != nil {
			return err
		}
		if done != nil {
			done()
		}
	}
	return bw.Flush()
}

// Events returns the events of topic id as an iterator; the error, if any,
// comes last with a nil event. The event is only valid until the next one.
func (p *Replayer) Events(id string) iter.Seq2[*Event, error] {
	return func(yield func(*Event, error) bool) {
		stopped := errStopped{}
		err := p.ReplayTopic(id, func(e *Event) error {
			if !yield(e, nil) {
				return stopped
			}
			return nil
		})
		if err != nil && err != error(stopped) {
			yield(nil, err)
		}
	}
}

type errStopped struct{}

func (errStopped) Error() string { return "stopped" }

// ReplayTopic replays topic id, calling emit for every event in order: topic,
// then per article open, jump/read…, stop, score, and finally done. The
// event passed to emit (and its slices) is reused: it is valid only during
// the call. Scores come from the same effort.Evaluator as `readsim eval`.
func (p *Replayer) ReplayTopic(id string, emit func(*Event) error) error {
	w := p.pool.Get().(*work)
	defer p.pool.Put(w)
	docs, j, err := p.input(id, w)
	if err != nil {
		return err
	}
	w.out = p.ev.Topic(&w.in, &w.ws, w.out[:0])
	list := w.out
	dv := p.ev.Docs(&w.in, &w.ws)

	tr := &tracer{e: &w.ev, topic: id, emit: emit}
	e := tr.next(EvTopic, 0, "")
	e.Trel, e.Run = j.Trel, p.run.ID
	if err := emit(e); err != nil {
		return err
	}
	for r := range w.in.Docs {
		if err := p.replayDoc(tr, w, r, docs[r].Article, dv.Scores); err != nil {
			return err
		}
	}
	e = tr.next(EvDone, 0, "")
	for i, m := range p.ms {
		e.Scores = append(e.Scores, Score{Name: m.String(), Value: list[i]})
	}
	return emit(e)
}

// tracer numbers and emits the events of one topic's replay, reusing one
// Event.
type tracer struct {
	e     *Event
	topic string
	seq   int
	emit  func(*Event) error
}

// next resets the event to the next one, of kind k, and returns it.
func (t *tracer) next(k Kind, rank int, doc string) *Event {
	t.seq++
	e := t.e
	*e = Event{Kind: k, Topic: t.topic, Rank: rank, Doc: doc, Seq: t.seq, Passages: e.Passages[:0], Scores: e.Scores[:0]}
	return e
}

// replayDoc emits the events of the article at 0-based rank r, name:
// open, jump/read…, stop and score (scores: the topic's document scores,
// effort.DocValues.Scores).
func (p *Replayer) replayDoc(tr *tracer, w *work, r int, name string, scores [][]float64) error {
	d := &w.in.Docs[r]
	rank := r + 1
	segs := p.segments(d, w)
	e := tr.next(EvOpen, rank, name)
	e.Len, e.Judged = d.L, d.Judged
	if d.Judged {
		e.NRC = d.Rel.Len()
	}
	e.Passages = append(e.Passages, p.shownPassages(d)...)
	if err := tr.emit(e); err != nil {
		return err
	}
	t := effort.T2I(segs, p.cfg.T2I)
	if err := p.walk(tr, segs, t, rank, name); err != nil {
		return err
	}
	e = tr.next(EvStop, rank, name)
	e.Reason = "end"
	if t.Stopped {
		e.Reason = "t2i"
	}
	e.Read, e.RelRead = t.Read, t.RelRead
	if err := tr.emit(e); err != nil {
		return err
	}
	e = tr.next(EvScore, rank, name)
	for i, n := range p.docNames {
		e.Scores = append(e.Scores, Score{Name: n, Value: scores[i][r]})
	}
	return tr.emit(e)
}

// walk emits the jump and read events of the reading segs up to its stop
// t, one read event per screen at most.
func (p *Replayer) walk(tr *tracer, segs []effort.Segment, t effort.Tally, rank int, name string) error {
	s := p.cfg.screen()
	pos, read := 0, 0
	var cur Event
	open := false
	flush := func() error {
		if !open {
			return nil
		}
		open = false
		e := tr.next(EvRead, rank, name)
		e.From, e.To, e.Rel, e.NonRel, e.Screen = cur.From, cur.To, cur.Rel, cur.NonRel, cur.Screen
		return tr.emit(e)
	}
	for i := 0; i < t.End; i++ {
		sg := segs[i]
		end := sg.To
		if i == t.End-1 {
			end = t.EndAt
		}
		if sg.From != pos {
			if err := flush(); err != nil {
				return err
			}
			e := tr.next(EvJump, rank, name)
			e.To = sg.From
			if err := tr.emit(e); err != nil {
				return err
			}
			pos = sg.From
		}
		for pos < end {
			scr := read/s + 1
			if open && scr != cur.Screen {
				if err := flush(); err != nil {
					return err
				}
			}
			n := min(end-pos, scr*s-read)
			if !open {
				cur = Event{From: pos, To: pos, Screen: scr}
				open = true
			}
			cur.To = pos + n
			if sg.Rel {
				cur.Rel += n
			} else {
				cur.NonRel += n
			}
			pos += n
			read += n
		}
	}
	return flush()
}

// shownPassages returns the retrieved passages of d as shown to the reader:
// the best-matching passages the arrows chain (the whole article for full
// retrieval and the document baseline).
func (p *Replayer) shownPassages(d *effort.RankedDoc) effort.Spans {
	if d.Judged && (d.Full || p.cfg.DocBaseline) {
		if d.L > 0 {
			return effort.Spans{{Start: 0, End: d.L}}
		}
		return nil
	}
	return d.Ret
}

// segments returns the reading of d in the order `readsim eval` uses
// (effort.Evaluator.Docs): the document baseline for full retrieval or
// --doc-baseline, the entry point for a <bep> result, otherwise the retrieved
// passages then the configured order. An unjudged article reads its retrieved
// passages only (see Reader).
func (p *Replayer) segments(d *effort.RankedDoc, w *work) []effort.Segment {
	if !d.Judged {
		w.segs = w.segs[:0]
		if p.cfg.DocBaseline {
			if n := len(d.Ret); n > 0 {
				w.segs = append(w.segs, effort.Segment{From: 0, To: d.Ret[n-1].End, Retrieved: true})
			}
			return w.segs
		}
		for _, s := range d.Ret {
			w.segs = append(w.segs, effort.Segment{From: s.Start, To: s.End, Retrieved: true})
		}
		return w.segs
	}
	switch {
	case d.Full || p.cfg.DocBaseline:
		return w.rd.Baseline(d.L, d.Rel)
	case len(d.Ret) == 0 && d.Entry >= 0:
		return w.rd.EntryPoint(d.L, d.Entry, d.Rel)
	default:
		return w.rd.Read(p.cfg.Order, d.L, d.Ret, d.Rel)
	}
}
