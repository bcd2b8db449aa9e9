package index

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strconv"
	"sync"
)

// Tasks are the run tasks: relevant in context, focused, best in context
// (FOL text, formats.md) and a document run (TREC).
var Tasks = []string{"ric", "focused", "bic", "doc"}

// TopicQuery is one topic's id and query text.
type TopicQuery struct {
	ID, Text string
}

// RunOptions configure WriteRun.
type RunOptions struct {
	Task  string // ric, focused, bic or doc
	K     int    // articles fetched per topic
	RunID string
	Options
	// Warn receives one message per topic that gets no result line.
	Warn func(string)
}

// WriteRun retrieves every topic and writes one run, topics in the order
// given. Within a topic the line order is the rank; the rank column is the
// line number and the rsv column never increases down a topic:
//
//   - ric: the fetched articles in rank order, each with its passages in
//     document order, rsv = the article's score;
//   - focused: the passages of the fetched articles ranked by their own score
//     (ties: the better article, then document order), rsv = passage score;
//   - bic: one line per fetched article, the best passage (its start is the
//     best entry point; its length is written too, so that the line is a
//     valid passage), rsv = the article's score;
//   - doc: a TREC run of the fetched articles.
//
// An article none of whose candidate elements matches (the query terms are
// only in its title, say) gets the whole article as its passage in ric and
// bic and nothing in focused.
func (x *Index) WriteRun(w io.Writer, topics []TopicQuery, opt RunOptions) error {
	switch opt.Task {
	case "ric", "focused", "bic", "doc":
	default:
		return fmt.Errorf("unknown task %q (ric, focused, bic, doc)", opt.Task)
	}
	if opt.RunID == "" {
		opt.RunID = "readsim-" + opt.Task
	}
	out := make([][]byte, len(topics))
	warns := make([]string, len(topics))
	errs := make([]error, len(topics))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i], warns[i], errs[i] = x.runTopic(topics[i], opt)
			}
		}()
	}
	for i := range topics {
		next <- i
	}
	close(next)
	wg.Wait()
	bw := bufio.NewWriterSize(w, 64<<10)
	for i := range topics {
		if errs[i] != nil {
			return fmt.Errorf("topic %s: %w", topics[i].ID, errs[i])
		}
		if warns[i] != "" && opt.Warn != nil {
			opt.Warn(warns[i])
		}
		bw.Write(out[i])
	}
	return bw.Flush()
}

func fmtScore(f float64) string { return strconv.FormatFloat(f, 'f', 6, 64) }

func (x *Index) runTopic(t TopicQuery, opt RunOptions) ([]byte, string, error) {
	q, err := x.Prepare(t.Text)
	if errors.Is(err, ErrNoTerms) {
		return nil, fmt.Sprintf("topic %s: query %q: %v; no results", t.ID, t.Text, err), nil
	}
	if err != nil {
		return nil, "", err
	}
	var b []byte
	line := 0
	fol := func(doc string, rsv float64, off, n int) {
		line++
		b = fmt.Appendf(b, "%s Q0 %s %d %s %s %d %d\n", t.ID, doc, line, fmtScore(rsv), opt.RunID, off, n)
	}
	if opt.Task == "doc" {
		hits, err := x.Fetch(q, opt.K, opt.Options)
		if err != nil {
			return nil, "", err
		}
		for i, h := range hits {
			b = fmt.Appendf(b, "%s Q0 %s %d %s %s\n", t.ID, h.ID, i+1, fmtScore(h.Score), opt.RunID)
		}
		if len(hits) == 0 {
			return nil, fmt.Sprintf("topic %s: no article matches %q", t.ID, t.Text), nil
		}
		return b, "", nil
	}
	res, err := x.Search(q, opt.K, opt.Options)
	if err != nil {
		return nil, "", err
	}
	switch opt.Task {
	case "ric":
		for _, r := range res {
			if len(r.Passages) == 0 {
				fol(r.ID, r.Score, 0, r.Doc.Len)
			}
			for _, p := range r.Passages {
				fol(r.ID, r.Score, p.Start, p.Len())
			}
		}
	case "bic":
		for _, r := range res {
			best := Passage{Start: 0, End: r.Doc.Len, Score: -1}
			for _, p := range r.Passages {
				if p.Score > best.Score {
					best = p
				}
			}
			fol(r.ID, r.Score, best.Start, best.Len())
		}
	case "focused":
		type fp struct {
			rank int
			doc  string
			p    Passage
		}
		var all []fp
		for i, r := range res {
			for _, p := range r.Passages {
				all = append(all, fp{i, r.ID, p})
			}
		}
		sort.SliceStable(all, func(i, j int) bool {
			if all[i].p.Score != all[j].p.Score {
				return all[i].p.Score > all[j].p.Score
			}
			return all[i].rank < all[j].rank // then document order (stable)
		})
		for _, f := range all {
			fol(f.doc, f.p.Score, f.p.Start, f.p.Len())
		}
	}
	if line == 0 {
		return nil, fmt.Sprintf("topic %s: no article matches %q", t.ID, t.Text), nil
	}
	return b, "", nil
}
