package app

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

// Tasks are the run tasks: relevant in context, focused, best in context
// (FOL passages, formats.md) and a document run (TREC).
var Tasks = []string{"ric", "focused", "bic", "doc"}

// MakeRunOptions configure MakeRun.
type MakeRunOptions struct {
	Task  string // ric, focused, bic or doc
	K     int    // articles fetched per topic
	RunID string // "" means readsim-TASK
	// Search tunes fetch and browse.
	Search index.Options
	// Warn receives one message per topic that gets no result.
	Warn func(string)
}

// Check tells whether the options make a run: a task of Tasks and a run
// id without white space (a run file's column). The error is a
// RequestError.
func (o MakeRunOptions) Check() error {
	switch {
	case !slices.Contains(Tasks, o.Task):
		return requestErrorf("unknown task %q: want one of %s", o.Task, strings.Join(Tasks, ", "))
	case strings.ContainsAny(o.RunID, " \t\n"):
		return requestErrorf("--run-id must not contain white space")
	}
	return nil
}

// MakeRun asks the index for every topic's hits and builds one run, topics
// in the order given (a FOL run for ric, focused and bic; a TREC run for
// doc). Within a topic the result order is the rank, and the score never
// increases down a topic:
//
//   - ric: the fetched articles in rank order, each with its passages in
//     document order, score = the article's;
//   - focused: the passages of the fetched articles ranked by their own score
//     (ties: the better article, then document order), score = the passage's;
//   - bic: one result per fetched article, its best passage (its start is
//     the best entry point; its length is kept, so that the line is a valid
//     passage), score = the article's;
//   - doc: the fetched articles, whole.
//
// An article none of whose candidate elements matches (the query terms are
// only in its title, say) gets the whole article as its passage in ric and
// bic and nothing in focused. Topics are searched on every core.
func MakeRun(ctx context.Context, x index.Searcher, topics []scenario.TopicQuery, opt MakeRunOptions) (*inex.Run, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	format := inex.FOL
	if opt.Task == "doc" {
		format = inex.TREC
	}
	if opt.RunID == "" {
		opt.RunID = "readsim-" + opt.Task
	}
	run := &inex.Run{ID: opt.RunID, Format: format, Topics: make([]*inex.RunTopic, len(topics))}
	warns := make([]string, len(topics))
	errs := make([]error, len(topics))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				run.Topics[i], warns[i], errs[i] = runTopic(ctx, x, topics[i], opt)
			}
		}()
	}
	for i := range topics {
		next <- i
	}
	close(next)
	wg.Wait()
	kept := run.Topics[:0]
	for i, t := range run.Topics {
		if errs[i] != nil {
			return nil, fmt.Errorf("topic %s: %w", topics[i].ID, errs[i])
		}
		if warns[i] != "" && opt.Warn != nil {
			opt.Warn(warns[i])
		}
		if len(t.Results) > 0 {
			kept = append(kept, t)
			run.Lines += len(t.Results)
		}
	}
	run.Topics = kept
	return run, nil
}

// runTopic retrieves one topic's results.
func runTopic(ctx context.Context, x index.Searcher, t scenario.TopicQuery, opt MakeRunOptions) (*inex.RunTopic, string, error) {
	rt := &inex.RunTopic{ID: t.ID}
	q, err := x.Prepare(t.Text)
	if errors.Is(err, index.ErrNoTerms) {
		return rt, fmt.Sprintf("topic %s: query %q: %v; no results", t.ID, t.Text, err), nil
	}
	if err != nil {
		return nil, "", err
	}
	add := func(doc string, score float64, start, end int, full bool) {
		rt.Results = append(rt.Results, inex.Result{Article: doc, Span: effort.Span{Start: start, End: end}, Full: full, Entry: -1, Score: score, Line: len(rt.Results) + 1})
	}
	if opt.Task == "doc" {
		hits, err := x.Fetch(ctx, q, opt.K, opt.Search)
		if err != nil {
			return nil, "", err
		}
		for _, h := range hits {
			add(h.ID, h.Score, 0, 0, true)
		}
	} else {
		res, err := x.Search(ctx, q, opt.K, opt.Search)
		if err != nil {
			return nil, "", err
		}
		switch opt.Task {
		case "ric":
			for _, r := range res {
				if len(r.Passages) == 0 {
					add(r.ID, r.Score, 0, r.Doc.Len, false)
				}
				for _, p := range r.Passages {
					add(r.ID, r.Score, p.Start, p.End, false)
				}
			}
		case "bic":
			for _, r := range res {
				best := index.Passage{Span: effort.Span{Start: 0, End: r.Doc.Len}, Score: -1}
				for _, p := range r.Passages {
					if p.Score > best.Score {
						best = p
					}
				}
				add(r.ID, r.Score, best.Start, best.End, false)
			}
		case "focused":
			type fp struct {
				rank int
				doc  string
				p    index.Passage
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
				add(f.doc, f.p.Score, f.p.Start, f.p.End, false)
			}
		}
	}
	if len(rt.Results) == 0 {
		return rt, fmt.Sprintf("topic %s: no article matches %q", t.ID, t.Text), nil
	}
	return rt, "", nil
}

// requestErrorf is a scenario.RequestError formatted as fmt.Errorf does:
// a problem with what the command asked, which main reports as bad usage.
func requestErrorf(format string, a ...any) error {
	return &scenario.RequestError{Err: fmt.Errorf(format, a...)}
}
