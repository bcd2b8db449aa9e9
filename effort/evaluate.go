package effort

import (
	"math"
	"sort"
)

// RankedDoc is one document of a topic's ranked list (a relevant-in-context
// run grouped by article, or a document run).
type RankedDoc struct {
	// Judged tells whether the judgments list the document for the topic;
	// then L is its length and Rel its relevant text (normalised, in [0,L)).
	// An unjudged document is non-relevant and scores 0 (effort: NR).
	Judged bool
	L      int
	Rel    Spans
	// Ret is the retrieved text, normalised; for a judged document it must be
	// clipped to [0,L). For an unjudged document it is kept as given (its
	// length counts in ret_size).
	Ret Spans
	// Full marks full document retrieval (a document run): Ret = [0,L).
	Full bool
	// Entry is an entry point (best in context) for a document returned with
	// no passage, or -1. Such a document is read from Entry (EntryPoint).
	Entry int
	// Reading, when not nil, is a recorded reading: the spans of characters
	// in the order a person first read them (Orderer.Recorded). The
	// document's reading order is then this one, whatever Ret and Order say;
	// Ret (the passages the system showed) still gives F and the counts.
	Reading []Span
	// ID, Score and Grade serve the measures that rank as trec_eval does
	// (Measure.RanksByScore, when TopicInput.Scored): the document's id, its
	// score (rsv; a FOL run's article: its first line's) and its relevance
	// grade (a TREC qrels level; FOL judgments: 1 for a relevant document).
	ID    string
	Score float64
	Grade int
	// Unjudged marks a document judged with a negative relevance in TREC
	// qrels (Grade 0): trec_eval's "in the pool, not judged" (ListTrec).
	Unjudged bool
}

// relevant tells whether the document is relevant: judged with relevant
// text or a positive grade.
func (d *RankedDoc) relevant() bool {
	return d.Judged && (d.Grade > 0 || d.Rel.Len() > 0)
}

// TopicInput is everything the measures need of one topic of one run.
type TopicInput struct {
	// Trel is the number of relevant documents of the topic and TrelChars its
	// relevant characters (Σ NRC), both from the judgments.
	Trel, TrelChars int
	// Docs is the ranked list of documents (each article once), in the
	// run's line order.
	Docs []RankedDoc
	// Scored tells that Docs carry the run's scores (RankedDoc.Score): the
	// measures that rank by score (Measure.RanksByScore) then rank them as
	// trec_eval does. Without scores (a recorded reading, a simulated run)
	// every measure ranks Docs in their order.
	Scored bool
	// Passages is the ranked list of passages for the focused measures, in
	// the run's line order; it may be nil when no focused measure is asked.
	Passages []FocusedPassage
	// Ideal are the grades of the topic's relevant documents, highest first:
	// the ideal ranking of nDCG.
	Ideal []int
	// Ranked are the topic's retrieved passages for the span measures
	// (DOCUMENT, PASSAGE, ASPECT, PASSAGE2, charAP), in the run's line
	// order, each with its document's judgments; it may be nil when no span
	// measure is asked. RunDocs counts their distinct documents.
	Ranked  []RankedPassage
	RunDocs int
	// GoldPassages is the number of the topic's distinct relevant passages
	// (PASSAGE) and Aspects the number of its distinct aspects (ASPECT).
	GoldPassages, Aspects int
	// Levels counts the topic's judgments at each grade 0, 1, 2… (the
	// trec_eval measures of ListTrec need them: bpref's non-relevant
	// documents, the ideal gains); nil when no such measure is asked.
	Levels []int
}

// Config selects how documents are read.
type Config struct {
	// Order is the reading order after the retrieved passages.
	Order Order
	// DocBaseline reads every retrieved document in full from its beginning
	// (and scores F on the whole document): the run's own ranking with full
	// document retrieval.
	DocBaseline bool
	// CompatINEX repeats gP[n] for k > n, as the official INEX tool.
	CompatINEX bool
	// TrecCompat is the trec_eval version whose rules the trec_eval
	// measures follow where versions differ (TrecConfig.Compat): 9 for
	// trec_eval 9's (eval --compat 9, pytrec_eval's), 0 for trec_eval 10's.
	TrecCompat int
}

// Evaluator computes a list of measures for topics. It is safe for
// concurrent use with one Workspace per goroutine.
type Evaluator struct {
	ms     []Measure
	cfg    Config
	docs   []DocScore // distinct document scores
	docIdx []int      // per measure: index in docs, or -1
	trec   bool       // some measure ranks by score, as trec_eval does
}

// NewEvaluator returns an evaluator of ms under cfg.
func NewEvaluator(ms []Measure, cfg Config) *Evaluator {
	e := &Evaluator{ms: ms, cfg: cfg, docIdx: make([]int, len(ms))}
	for i, m := range ms {
		e.docIdx[i] = -1
		e.trec = e.trec || m.RanksByScore()
		if m.Doc.Kind == DocNone {
			continue
		}
		for j, d := range e.docs {
			if d == m.Doc {
				e.docIdx[i] = j
			}
		}
		if e.docIdx[i] < 0 {
			e.docIdx[i] = len(e.docs)
			e.docs = append(e.docs, m.Doc)
		}
	}
	return e
}

// Measures returns the evaluator's measures.
func (e *Evaluator) Measures() []Measure { return e.ms }

// Workspace holds the reusable buffers of one goroutine.
type Workspace struct {
	r      Orderer
	scores [][]float64
	isrel  []bool
	rsize  []int
	grades []int
	full   Spans
	curve  FocusedCurve
	doc    Doc
	order  []int
	tIsRel []bool
	tGrade []int
	span   spanWork
	// the topic's ranking as trec_eval's measures see it (ListTrec), made
	// once per topic
	trec     TrecRels
	trecDone bool
	trecDocs []TrecDoc
	trecVals []float64
}

// DocValues holds the per-rank inputs of the list scores of one topic, as
// computed by Evaluator.Docs.
type DocValues struct {
	// Scores[i][r] is the i-th distinct document score of the document at
	// 0-based rank r.
	Scores [][]float64
	// IsRel[r], RSize[r] and Grade[r] are isrel, rsize (NRC) and the grade
	// of the document at rank r.
	IsRel []bool
	RSize []int
	Grade []int
	// TrecIsRel and TrecGrade are IsRel and Grade in trec_eval's order
	// (score descending, then id descending), when a measure ranks by score
	// and the topic's documents have scores (TopicInput.Scored); nil
	// otherwise.
	TrecIsRel []bool
	TrecGrade []int
	// RetLen and RetRel are Σ|Ret(d)| and Σ|Ret(d)∩Rel(d)|; NumRelRet counts
	// the relevant retrieved documents.
	RetLen, RetRel, NumRelRet int
}

// Docs computes the document scores of t's ranked documents into w and
// returns them (valid until the workspace's next use).
func (e *Evaluator) Docs(t *TopicInput, w *Workspace) DocValues {
	n := len(t.Docs)
	if len(w.scores) < len(e.docs) {
		w.scores = make([][]float64, len(e.docs))
	}
	for i := range e.docs {
		w.scores[i] = w.scores[i][:0]
	}
	w.isrel, w.rsize, w.grades = w.isrel[:0], w.rsize[:0], w.grades[:0]
	v := DocValues{}
	for r := 0; r < n; r++ {
		d := &t.Docs[r]
		nrc := 0
		if d.Judged {
			nrc = d.Rel.Len()
		}
		ret := d.Ret
		if d.Full || (e.cfg.DocBaseline && d.Judged) {
			w.full = w.full[:0]
			if d.Judged && d.L > 0 {
				w.full = append(w.full, Span{0, d.L})
			}
			ret = w.full
		}
		doc := &w.doc
		*doc = Doc{NRC: nrc, RetLen: ret.Len()}
		if d.relevant() {
			v.NumRelRet++
		}
		if nrc > 0 {
			doc.RetRel = IntersectLen(ret, d.Rel)
			if len(e.docs) > 0 {
				switch {
				case d.Reading != nil:
					doc.Segs = w.r.Recorded(d.Reading, d.Rel)
				case d.Full || e.cfg.DocBaseline:
					doc.Segs = w.r.Baseline(d.L, d.Rel)
				case len(ret) == 0 && d.Entry >= 0:
					doc.Segs = w.r.EntryPoint(d.L, d.Entry, d.Rel)
				default:
					doc.Segs = w.r.Read(e.cfg.Order, d.L, ret, d.Rel)
				}
			}
		}
		v.RetLen += doc.RetLen
		v.RetRel += doc.RetRel
		for i, ds := range e.docs {
			w.scores[i] = append(w.scores[i], ds.Of(doc))
		}
		rel := d.relevant()
		g := 0
		if rel {
			g = max(d.Grade, 1)
		}
		w.isrel = append(w.isrel, rel)
		w.rsize = append(w.rsize, nrc)
		w.grades = append(w.grades, g)
	}
	v.Scores, v.IsRel, v.RSize, v.Grade = w.scores[:len(e.docs)], w.isrel, w.rsize, w.grades
	if e.trec && t.Scored {
		v.TrecIsRel, v.TrecGrade = w.trecOrder(t.Docs)
	}
	return v
}

// trecOrder returns isrel and the grades of docs ranked as trec_eval ranks
// them: by score, descending, ties broken by id, descending (its
// comp_sim_docno), whatever the line order.
func (w *Workspace) trecOrder(docs []RankedDoc) ([]bool, []int) {
	if InScoreOrder(docs) {
		return w.isrel, w.grades
	}
	w.order = w.order[:0]
	for i := range docs {
		w.order = append(w.order, i)
	}
	sort.SliceStable(w.order, func(a, b int) bool { return scoreBefore(&docs[w.order[a]], &docs[w.order[b]]) })
	w.tIsRel, w.tGrade = w.tIsRel[:0], w.tGrade[:0]
	for _, i := range w.order {
		w.tIsRel = append(w.tIsRel, w.isrel[i])
		w.tGrade = append(w.tGrade, w.grades[i])
	}
	return w.tIsRel, w.tGrade
}

// scoreBefore tells whether trec_eval ranks x before y: a larger score, or
// the same score and a larger id (strcmp).
func scoreBefore(x, y *RankedDoc) bool {
	if x.Score != y.Score {
		return x.Score > y.Score
	}
	return x.ID > y.ID
}

// InScoreOrder tells whether docs, in their order, are ranked as trec_eval
// ranks them (score descending, then id descending): then the measures
// that rank by score and those that rank by line order see one ranking.
// Tied scores keep it only when the ids fall too.
func InScoreOrder(docs []RankedDoc) bool {
	for i := 1; i < len(docs); i++ {
		if !scoreBefore(&docs[i-1], &docs[i]) {
			return false
		}
	}
	return true
}

// Topic appends to out the value of every measure for topic t, in the order
// of the evaluator's measures, and returns the extended slice.
func (e *Evaluator) Topic(t *TopicInput, w *Workspace, out []float64) []float64 {
	v := e.Docs(t, w)
	w.trecDone = false
	focusedDone := false
	w.span.ordered = false
	for i, m := range e.ms {
		var s []float64
		if j := e.docIdx[i]; j >= 0 {
			s = v.Scores[j]
		}
		if m.IsFocused() && !focusedDone {
			w.curve.fill(t.Passages, t.TrelChars)
			focusedDone = true
		}
		out = append(out, e.value(m, t, &v, s, w))
	}
	return out
}

func (e *Evaluator) value(m Measure, t *TopicInput, v *DocValues, s []float64, w *Workspace) float64 {
	f := m.family()
	return f.value(&valueArgs{m: m, t: t, v: v, s: s, w: w, compat: e.cfg.CompatINEX, trecCompat: e.cfg.TrecCompat, byScore: f.byScore})
}

// Aggregate returns the `all` value of m over per-topic values: the sum for
// the counts (num_ret …, as the official tool), the arithmetic mean otherwise
// (0 for no topic).
func Aggregate(m Measure, vals []float64) float64 {
	s := 0.0
	for _, v := range vals {
		s += v
	}
	if m.List == ListTrec && m.trec != nil && len(vals) > 0 {
		switch m.trec.m.def.avg {
		case avgSum:
			return s
		case avgGM:
			return math.Exp(s / float64(len(vals)))
		}
	}
	if m.IsSum() || len(vals) == 0 {
		return s
	}
	return s / float64(len(vals))
}
