package inex

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteRun writes run in its Format (formats.md):
//
//   - FOL: `topic Q0 article rank rsv run-id offset length`; every result
//     must be a passage (a whole article has no offsets: write it as a
//     TREC run); the rank column is the line's position in its topic;
//   - TREC: `topic Q0 article rank score run-id`, one line per result;
//   - Genomics: `topic doc rank score offset length run-id` (passages
//     only, as FOL);
//   - XML: an <inex-submission> with one <result> per article and its
//     passages as <fol offset length/> (or a <bep offset/>).
//
// Scores are written with six decimals; topics and results in their order.
func WriteRun(w io.Writer, run *Run) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	id := run.ID
	if id == "" {
		id = "readsim"
	}
	switch run.Format {
	case XML:
		if err := writeXMLRun(bw, run, id); err != nil {
			return err
		}
		return bw.Flush()
	}
	var b []byte
	for _, t := range run.Topics {
		for i, r := range t.Results {
			switch {
			case r.Full && run.Format == Genomics:
				return fmt.Errorf("topic %s, document %s: a whole-document result has no Genomics line (its length is unknown): write a TREC run", t.ID, r.Article)
			case r.Full && run.Format == FOL:
				return fmt.Errorf("topic %s, article %s: a whole-article result has no FOL line (its length is unknown): write a TREC run", t.ID, r.Article)
			}
			b = append(b[:0], t.ID...)
			if run.Format == Genomics {
				b = append(b, ' ')
				b = append(b, r.Article...)
				b = appendRankScore(b, i+1, r.Score)
				b = appendSpan(b, r.Start, r.End, ' ')
				b = append(b, ' ')
				b = append(b, id...)
			} else {
				b = append(b, " Q0 "...)
				b = append(b, r.Article...)
				b = appendRankScore(b, i+1, r.Score)
				b = append(b, ' ')
				b = append(b, id...)
				if run.Format == FOL {
					b = appendSpan(b, r.Start, r.End, ' ')
				}
			}
			b = append(b, '\n')
			bw.Write(b)
		}
	}
	return bw.Flush()
}

func writeXMLRun(w *bufio.Writer, run *Run, id string) error {
	esc := func(s string) string {
		var b strings.Builder
		xml.EscapeText(&b, []byte(s))
		return b.String()
	}
	fmt.Fprintf(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<inex-submission participant-id=\"readsim\" run-id=\"%s\" task=\"RelevantInContext\" query=\"automatic\" result-type=\"passage\">\n", esc(id))
	for _, t := range run.Topics {
		fmt.Fprintf(w, "  <topic topic-id=\"%s\">\n", esc(t.ID))
		rank := 0
		for i := 0; i < len(t.Results); {
			r := t.Results[i]
			rank++
			fmt.Fprintf(w, "    <result><file>%s</file><rank>%d</rank><rsv>%s</rsv>", esc(r.Article), rank, strconv.FormatFloat(r.Score, 'f', 6, 64))
			// the consecutive passages of one article make one result
			for ; i < len(t.Results) && t.Results[i].Article == r.Article; i++ {
				p := t.Results[i]
				switch {
				case p.Entry >= 0 && p.End <= p.Start:
					fmt.Fprintf(w, "<bep offset=\"%d\"/>", p.Entry)
				case !p.Full:
					fmt.Fprintf(w, "<fol offset=\"%d\" length=\"%d\"/>", p.Start, p.End-p.Start)
				}
			}
			w.WriteString("</result>\n")
		}
		w.WriteString("  </topic>\n")
	}
	w.WriteString("</inex-submission>\n")
	return nil
}

// WriteJudgments writes judgments as INEX FOL lines, in the order given:
// `topic Q0 article rsize length bep offset:length…`, rsize being the
// relevant characters (NRC) and the passages those of Rel.
func WriteJudgments(w io.Writer, js []*Judgment) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var b []byte
	for _, j := range js {
		b = append(b[:0], j.Topic...)
		b = append(b, " Q0 "...)
		b = append(b, j.Article...)
		for _, n := range []int{j.NRC, j.Length, j.BEP} {
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(n), 10)
		}
		for _, p := range j.Rel {
			b = appendSpan(b, p.Start, p.End, ':')
		}
		b = append(b, '\n')
		bw.Write(b)
	}
	return bw.Flush()
}

// appendRankScore appends " rank score", the score with six decimals.
func appendRankScore(b []byte, rank int, score float64) []byte {
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(rank), 10)
	b = append(b, ' ')
	return strconv.AppendFloat(b, score, 'f', 6, 64)
}

// appendSpan appends the span [start, end) as " offset<sep>length".
func appendSpan(b []byte, start, end int, sep byte) []byte {
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(start), 10)
	b = append(b, sep)
	return strconv.AppendInt(b, int64(end-start), 10)
}
