package scenario

import (
	"bufio"
	"io"
	"sort"
	"strconv"

	"github.com/readsim/readsim/scenario/inex"
)

// QrelsRowsHeader and RunRowsHeader are the header lines of WriteQrelsRows
// and WriteRunRows: the columns' names are ir_measures' (query_id, doc_id,
// relevance, score, run_id), with start and length for passages
// (python.md, "Reading files").
const (
	QrelsRowsHeader = "query_id\tdoc_id\trelevance\tstart\tlength\tdoc_length\tbep\taspects"
	RunRowsHeader   = "query_id\tdoc_id\trank\tscore\trun_id\tstart\tlength\tbep"
)

// WriteQrelsRows writes judgments q as tab-separated rows under
// QrelsRowsHeader, for other programs (the Python package): topics in
// q.IDs order, a topic's documents by their first line, one row per
// relevant passage (FOL: the normalised union Rel; span judgments: each
// distinct passage as read), or one row with empty start and length for a
// document without passage (TREC qrels, a non-relevant article).
// relevance is the grade (-1 for a negative TREC grade: in the pool, not
// judged); doc_length and bep are empty where the judgments give none;
// aspects are a span judgment's aspects, numbered per topic from 0 and
// joined by "|" (readsim keeps their numbers, not their names). Offsets
// count what q.Unit counts.
func WriteQrelsRows(w io.Writer, q *inex.Qrels) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString(QrelsRowsHeader + "\n")
	var b []byte
	for _, id := range q.IDs {
		t := q.Topics[id]
		docs := make([]*inex.Judgment, 0, len(t.Docs))
		for _, j := range t.Docs {
			docs = append(docs, j)
		}
		sort.Slice(docs, func(a, c int) bool { return docs[a].Line < docs[c].Line })
		for _, j := range docs {
			grade := j.Grade
			if j.Unjudged {
				grade = -1
			}
			head := func() {
				b = append(b[:0], j.Topic...)
				b = append(b, '\t')
				b = append(b, j.Article...)
				b = append(b, '\t')
				b = strconv.AppendInt(b, int64(grade), 10)
				b = append(b, '\t')
			}
			tail := func(aspects []int) {
				b = append(b, '\t')
				if q.Lengths() {
					b = strconv.AppendInt(b, int64(j.Length), 10)
				}
				b = append(b, '\t')
				if q.Format == inex.FOLQrels {
					b = strconv.AppendInt(b, int64(j.BEP), 10)
				}
				b = append(b, '\t')
				for i, a := range aspects {
					if i > 0 {
						b = append(b, '|')
					}
					b = strconv.AppendInt(b, int64(a), 10)
				}
				b = append(b, '\n')
				bw.Write(b)
			}
			n := 0
			emit := func(start, end int, aspects []int) {
				head()
				b = strconv.AppendInt(b, int64(start), 10)
				b = append(b, '\t')
				b = strconv.AppendInt(b, int64(end-start), 10)
				tail(aspects)
				n++
			}
			if q.Format == inex.FOLQrels {
				for _, s := range j.Rel {
					emit(s.Start, s.End, nil)
				}
			} else {
				for _, g := range j.Passages {
					emit(g.Start, g.End, g.Aspects)
				}
			}
			if n == 0 {
				head()
				b = append(b, '\t')
				tail(nil)
			}
		}
	}
	return bw.Flush()
}

// WriteRunRows writes a run's results as tab-separated rows under
// RunRowsHeader, in the run's line order within each topic, topics in
// order of first appearance (run.Topics): the line order is the ranking
// of the INEX measures, so the rows keep it. rank is empty when the run
// has no rank column (Run.Ranked: an XML submission); score is the
// shortest decimal that reads back as the same float64; start and length
// are empty for a whole document and for an entry point, whose offset is
// bep (empty otherwise).
func WriteRunRows(w io.Writer, run *inex.Run) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString(RunRowsHeader + "\n")
	var b []byte
	for _, t := range run.Topics {
		for i := range t.Results {
			r := &t.Results[i]
			b = append(b[:0], t.ID...)
			b = append(b, '\t')
			b = append(b, r.Article...)
			b = append(b, '\t')
			if run.Ranked {
				b = strconv.AppendInt(b, int64(r.Rank), 10)
			}
			b = append(b, '\t')
			b = strconv.AppendFloat(b, r.Score, 'g', -1, 64)
			b = append(b, '\t')
			b = append(b, run.ID...)
			b = append(b, '\t')
			if !r.Full && r.Entry < 0 {
				b = strconv.AppendInt(b, int64(r.Start), 10)
				b = append(b, '\t')
				b = strconv.AppendInt(b, int64(r.End-r.Start), 10)
			} else {
				b = append(b, '\t')
			}
			b = append(b, '\t')
			if r.Entry >= 0 {
				b = strconv.AppendInt(b, int64(r.Entry), 10)
			}
			b = append(b, '\n')
			bw.Write(b)
		}
	}
	return bw.Flush()
}
