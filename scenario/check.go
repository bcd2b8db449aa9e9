package scenario

import (
	"fmt"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// Use is what measures are asked for: each command accepts some of them.
type Use int

// The uses.
const (
	UseEval            Use = iota // eval: every measure
	UseCompare                    // compare: per-topic scores, not the official counts
	UseFidelity                   // the fidelity suite: ranked articles, no focused measure or count
	UseReplay                     // replay: list scores of ranked articles, no focused measure
	UseReadings                   // recorded readings: ranked articles read by people, no focused measure
	UseCompareReadings            // readings compared: as UseReadings, and no official count
)

// MeasureError is a measure that cannot serve the use or the judgments: a
// usage problem (exit status 2).
type MeasureError struct {
	Measure string
	Why     string
}

// Error returns "MEASURE: why".
func (e *MeasureError) Error() string { return e.Measure + ": " + e.Why }

// CheckMeasures tells whether ms can be computed for the use against q (q
// may be nil when the judgments are not read yet): measures that need
// character judgments need judgments with passages and lengths (INEX FOL,
// not TREC qrels), compare compares per-topic scores (not the official
// counts), the fidelity suite ranks articles (no focused measure or count)
// and replay reads ranked articles (no focused measure).
func CheckMeasures(ms []effort.Measure, use Use, q *inex.Qrels) error {
	for _, m := range ms {
		why := ""
		switch {
		case q != nil && !q.Characters() && m.NeedsCharacters():
			why = fmt.Sprintf("needs judgments of characters (passages and article lengths), and %s judges whole documents (TREC qrels): use a document measure (AP, P[k], map, P_10, nDCG@10, recip_rank, Rprec, num_rel_ret…)", q.File)
		case (use == UseCompare || use == UseCompareReadings) && m.IsCount():
			why = "an official count; compare compares per-topic scores"
		case use == UseFidelity && (m.IsFocused() || m.IsCount()):
			why = "the suite's simulated runs are ranked articles; use a list score of eval"
		case use == UseReplay && m.IsFocused():
			why = "a focused measure (ranked passages); the simulated reader reads ranked articles"
		case (use == UseReadings || use == UseCompareReadings) && m.IsFocused():
			why = "a focused measure (ranked passages); a reading is of ranked articles"
		case use != UseReadings && use != UseCompareReadings && m.Doc.Kind == effort.DocRead:
			why = "Read scores what people read: evaluate recorded readings (eval --readings)"
		}
		if why != "" {
			return &MeasureError{Measure: m.String(), Why: why}
		}
	}
	return nil
}
