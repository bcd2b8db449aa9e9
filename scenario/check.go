package scenario

import (
	"fmt"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// Use is what a kind of evaluation can give, and so which measures it
// accepts: the scores come from judged runs, from a simulated reader or
// from recorded readings, either as they are or compared topic by topic
// (where an official count, a sum over the topics, means nothing).
type Use int

// The uses. The command that asks for each is in parentheses.
const (
	UseAll               Use = iota // runs against judgments: every measure (eval)
	UsePerTopic                     // runs' per-topic scores: no official count (compare)
	UseSimulatedPerTopic            // a simulated reader's per-topic list scores of ranked whole articles: no focused, span or count measure (the fidelity suite)
	UseSimulated                    // a simulated reader's list scores of ranked whole articles: no focused or span measure (replay)
	UseRecorded                     // recorded readings of ranked articles by people: no focused or span measure (readings)
	UseRecordedPerTopic             // as UseRecorded, compared topic by topic: and no official count (readings compared)
)

// MeasureError is a measure that cannot serve the use or the judgments: a
// usage problem (exit status 2). Measure is empty when no measure can (the
// judgments cannot serve the use).
type MeasureError struct {
	Measure string
	Why     string
}

// Error returns "MEASURE: why" (or "why").
func (e *MeasureError) Error() string {
	if e.Measure == "" {
		return e.Why
	}
	return e.Measure + ": " + e.Why
}

// CheckMeasures tells whether ms can be computed for the use against q (q
// may be nil when the judgments are not read yet):
//
//   - the measures that need relevant passages (every document score, the
//     focused measures, the character counts, PASSAGE, ASPECT, PASSAGE2,
//     charAP) need judgments with passages (INEX FOL or span judgments, not
//     TREC qrels);
//   - the measures that simulate reading (T2Ip, T2Ir, T2If, ChP, aveChP and
//     the effort of CE, NCE, ANCE) need the documents' lengths as well:
//     span judgments give none without --lengths, and readsim never guesses
//     them;
//   - ASPECT needs judgments with aspects;
//   - compare compares per-topic scores (not the official counts), the
//     fidelity suite ranks articles (no focused, count or span measure) and
//     replay reads ranked articles (no focused or span measure); both
//     simulate a reader of whole articles, so they need the lengths
//     whatever the measures.
func CheckMeasures(ms []effort.Measure, use Use, q *inex.Qrels) error {
	if q != nil && (use == UseSimulated || use == UseSimulatedPerTopic) && q.Passages() && !q.Lengths() {
		return &MeasureError{Why: fmt.Sprintf("%s: %s give no document lengths, and the simulated reader reads whole documents: use readsim eval (with --lengths FILE for the reading measures)", q.File, q.Format)}
	}
	for _, m := range ms {
		why := ""
		switch {
		case q != nil && !q.Passages() && m.NeedsPassages():
			why = fmt.Sprintf("needs judgments of characters (passages and article lengths), and %s judges whole documents (TREC qrels): use a document measure (AP, P[k], map, P_10, nDCG@10, recip_rank, Rprec, num_rel_ret, DOCUMENT…)", q.File)
		case q != nil && !q.Lengths() && m.NeedsLengths():
			why = fmt.Sprintf("simulates reading each document to its end, and %s (%s) gives no document lengths: give --lengths FILE (`doc length` per line, in %s), or use a measure of the retrieved text (PASSAGE2, charAP, PASSAGE, DOCUMENT, iP[x], AiP, AgP\\F(0.25), char_prec…)", q.File, q.Format, q.Unit)
		case q != nil && !q.Aspects() && m.NeedsAspects():
			why = fmt.Sprintf("needs aspects, and %s gives none (span judgments: the aspects column, `topic doc offset length [grade] aspects`)", q.File)
		case (use == UsePerTopic || use == UseRecordedPerTopic) && m.IsCount():
			why = "an official count; compare compares per-topic scores"
		case use == UseSimulatedPerTopic && (m.IsFocused() || m.IsCount() || m.IsSpan()):
			why = "the suite's simulated runs are ranked articles; use a list score of eval"
		case use == UseSimulated && m.IsFocused():
			why = "a focused measure (ranked passages); the simulated reader reads ranked articles"
		case use == UseSimulated && m.IsSpan():
			why = "a span measure (ranked passages); the simulated reader reads ranked articles"
		case (use == UseRecorded || use == UseRecordedPerTopic) && (m.IsFocused() || m.IsSpan()):
			why = "a measure of ranked passages; a reading is of ranked articles"
		case use != UseRecorded && use != UseRecordedPerTopic && m.Doc.Kind == effort.DocRead:
			why = "Read scores what people read: evaluate recorded readings (eval --readings)"
		}
		if why != "" {
			return &MeasureError{Measure: m.String(), Why: why}
		}
	}
	return nil
}
