package scenario

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// DefaultMeasureNames are the measures of eval and compare (use) without
// -m for the judgments q (effort.DefaultNamesFor): on judgments of whole
// documents (plain TREC qrels) trec_eval's usual measures
// (effort.DocumentNames; compare leaves out their counts); on span
// judgments (TREC Genomics and the like) the TREC Genomics measures (ASPECT
// only when q has aspects); otherwise effort.DefaultNames. Recorded
// readings have their own: effort.ReadingNames (UseRecorded) and
// effort.ReadingListNames (UseRecordedPerTopic), those q can give (on
// judgments of whole documents, AP and the counts).
func DefaultMeasureNames(q *inex.Qrels, use Use) []string {
	switch use {
	case UseRecorded:
		return usable(effort.ReadingNames, use, q)
	case UseRecordedPerTopic:
		return usable(effort.ReadingListNames, use, q)
	}
	j := judged(q)
	names := effort.DefaultNamesFor(j, q.Aspects())
	if j == effort.JudgedDocuments {
		return usable(names, use, q)
	}
	return names
}

// AllMeasureNames is what -m all asks for on the judgments q for use
// (eval, compare…): of effort.AllNamesFor the kind of q (effort.AllNames
// on INEX judgments, trec_eval's document measures on judgments of whole
// documents, the TREC Genomics measures and effort.AllNames on span
// judgments), those the judgments can give and the use accepts (compare:
// no count; span judgments: the reading measures only with --lengths). A
// measure asked by name that cannot be computed is still refused
// (CheckMeasures): `all` only leaves it out.
func AllMeasureNames(q *inex.Qrels, use Use) []string {
	return usable(effort.AllNamesFor(judged(q)), use, q)
}

// SelectMeasures reads the measures asked for use against the judgments q
// (a command's -m): names as effort.ParseMeasureList reads them, "all"
// standing for AllMeasureNames(q, use); no name asks for
// DefaultMeasureNames(q, use). An unknown name, or a list that names no
// measure, is an error. Whether q can give the measures is CheckMeasures'.
func SelectMeasures(names []string, use Use, q *inex.Qrels) ([]effort.Measure, error) {
	if len(names) == 0 {
		names = DefaultMeasureNames(q, use)
	}
	return effort.ParseMeasureList(names, AllMeasureNames(q, use))
}

// judged tells what kind of judgments q is.
func judged(q *inex.Qrels) effort.Judged {
	switch {
	case !q.Passages():
		return effort.JudgedDocuments
	case q.Format == inex.SpanQrels || q.Format == inex.GenomicsQrels:
		return effort.JudgedSpans
	}
	return effort.JudgedText
}

// usable returns the names of names whose measure can serve use on q.
func usable(names []string, use Use, q *inex.Qrels) []string {
	var out []string
	for _, n := range names {
		m, err := effort.ParseMeasure(n)
		if err == nil && CheckMeasures([]effort.Measure{m}, use, q) == nil {
			out = append(out, n)
		}
	}
	return out
}

// UnitNote returns a note for the measures ms on judgments whose offsets
// count bytes and that simulate reading: their parameters (T2I's x, ChP's
// n, LE's screen s) count bytes too. "" when there is nothing to say.
func UnitNote(q *inex.Qrels, ms []effort.Measure) string {
	if q.Unit != inex.Bytes || !q.Lengths() {
		return "" // without lengths such measures are refused
	}
	for _, m := range ms {
		if m.NeedsLengths() {
			return fmt.Sprintf("note: the offsets of %s count bytes: %s and the other reading measures count bytes read, not characters", q.File, m)
		}
	}
	return ""
}

// TrecGenMeasures checks that ms are TREC Genomics measures, which
// --compat trecgen writes (all four when ms is empty).
func TrecGenMeasures(ms []effort.Measure) ([]effort.Measure, error) {
	if len(ms) == 0 {
		return effort.ParseMeasures(effort.GenomicsNames)
	}
	for _, m := range ms {
		if !m.AllTopics() {
			return nil, &MeasureError{Measure: m.String(), Why: "--compat trecgen writes NIST's TREC Genomics measures only: " + strings.Join(effort.GenomicsNames, ", ")}
		}
	}
	return ms, nil
}

// TrecGenRunName is the name NIST's scorer gives a run: its file's name up
// to the first dot (york07-ga-01.txt → york07-ga-01); the run id for
// standard input.
func TrecGenRunName(r *Evaluation) string {
	if r.File == "" || r.File == inex.Stdin {
		return r.Name()
	}
	base := filepath.Base(r.File)
	if i := strings.IndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	return base
}

// WriteTrecGen writes evaluations as NIST's trecgen2007_score.py does:
// a header `RUN<TAB>MEASURE<TAB>TOPIC<TAB>SCORE`, then for each run and
// measure (in order) one line per topic and a `MAP` line, scores with 8
// decimals. The evaluations must cover every judged topic (the TREC
// Genomics measures do).
func WriteTrecGen(w io.Writer, results []*Evaluation, ms []effort.Measure) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("RUN\tMEASURE\tTOPIC\tSCORE\n")
	var line []byte
	for _, r := range results {
		name := TrecGenRunName(r)
		for m, meas := range ms {
			head := meas.Canonical()
			emit := func(topic string, v float64) {
				line = append(line[:0], name...)
				line = append(append(append(line, '\t'), head...), '\t')
				line = append(append(line, topic...), '\t')
				line = strconv.AppendFloat(line, v, 'f', 8, 64)
				bw.Write(append(line, '\n'))
			}
			for t, topic := range r.Topics {
				emit(topic, r.Values[m][t])
			}
			emit("MAP", r.All[m])
		}
	}
	return bw.Flush()
}
