package web

import (
	"context"
	"errors"
	"fmt"
	"github.com/readsim/readsim/effort"
	"html"
	"strings"
	"sync"
)

// fakeArticle is an article of the fakes: its text only.
type fakeArticle struct {
	title, text, lang string
}

var fakeArticles = map[string]fakeArticle{
	"101": {"Fresnel lens", "A Fresnel lens is a compact lens. It was made for lighthouses. Its rings bend the light.", "en"},
	"102": {"Lighthouse <keeper>", "A keeper tends the light & the lens. The lamp burns oil.", ""},
	"103": {"Coffee", "Coffee is brewed from roasted beans.", "en"},
}

// fakePages renders a minimal page that follows render's contract: the text
// inside .rs-doc (data-o="0"), passages in <mark>, UI in .rs-ui.
type fakePages struct {
	mu    sync.Mutex
	calls []string // ids passed to Info and Render
	last  struct {
		id       string
		passages []effort.Span
		opt      PageOptions
	}
}

func (p *fakePages) Has(id string) bool {
	_, ok := fakeArticles[id]
	return ok
}

func (p *fakePages) Info(id string) (ArticleInfo, error) {
	p.mu.Lock()
	p.calls = append(p.calls, id)
	p.mu.Unlock()
	if id == "broken" {
		return ArticleInfo{}, errors.New("broken.xml:3: unexpected end of file")
	}
	a, ok := fakeArticles[id]
	if !ok {
		return ArticleInfo{}, ErrNoArticle
	}
	return ArticleInfo{ID: id, Title: a.title, Length: len([]rune(a.text)), Lang: a.lang}, nil
}

func (p *fakePages) Render(id string, passages []effort.Span, opt PageOptions) ([]byte, error) {
	p.mu.Lock()
	p.calls = append(p.calls, id)
	p.last.id, p.last.passages, p.last.opt = id, passages, opt
	p.mu.Unlock()
	a := fakeArticles[id]
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>%s</title><link rel="stylesheet" href="%s"/></head><body>
<div id="top" class="rs-ui"><a href="%s">←</a></div><article class="rs-doc" data-o="0"><p data-o="0">%s</p></article></body></html>`,
		html.EscapeString(a.title), html.EscapeString(opt.StylesheetURL), html.EscapeString(opt.ResultsURL), html.EscapeString(a.text))
	return []byte(b.String()), nil
}

// fakeSearcher matches articles whose text contains the query's first word.
type fakeSearcher struct{}

func (fakeSearcher) Search(ctx context.Context, q string, k int) ([]Hit, error) {
	w := strings.ToLower(strings.Fields(q)[0])
	var hits []Hit
	for _, id := range []string{"101", "102", "103"} {
		a := fakeArticles[id]
		if strings.Contains(strings.ToLower(a.text+" "+a.title), w) {
			ps, _ := fakeSearcher{}.Passages(ctx, q, id)
			hits = append(hits, Hit{Rank: len(hits) + 1, ID: id, Title: a.title, Lang: a.lang, Snippet: "…" + a.text[:20] + "…", Passages: ps})
		}
	}
	if len(hits) > k {
		hits = hits[:k]
	}
	return hits, nil
}

// Passages returns one passage per sentence containing the query's first word.
func (fakeSearcher) Passages(ctx context.Context, q, id string) ([]effort.Span, error) {
	w := strings.ToLower(strings.Fields(q)[0])
	var ps []effort.Span
	off := 0
	for _, s := range strings.SplitAfter(fakeArticles[id].text, ". ") {
		n := len([]rune(s))
		if strings.Contains(strings.ToLower(s), w) {
			ps = append(ps, effort.Span{Start: off, End: off + n})
		}
		off += n
	}
	return ps, nil
}

// fakeReplayer emits a fixed trace per topic; endless topics never stop.
type fakeReplayer struct {
	mu   sync.Mutex
	reqs []ReplayRequest
	sums []ReplayRequest // the requests of Summary
	// eventSize pads the events of the "endless" topic.
	eventSize int
	// gate, when set, makes the first replay of topic T1 stop after three
	// events and wait for its context to end (a dropped connection).
	gate chan struct{}
}

func (r *fakeReplayer) Topics() []Topic {
	return []Topic{{"T1", "lighthouse lens"}, {"T2", "coffee <beans>"}, {"endless", "never ends"}}
}

func (r *fakeReplayer) Runs() []RunInfo {
	return []RunInfo{
		{ID: "runA", Source: "sample", Topics: []string{"T1", "T2"}},
		{ID: "runB", Source: "flag", Topics: []string{"T2", "endless"}},
	}
}

// fakeTrace is the trace of topic for run: topic, then per article open,
// read, stop, score, then done.
func fakeTrace(topic, run string) []string {
	evs := []string{fmt.Sprintf(`{"ev":"topic","topic":%q,"rank":0,"doc":"","seq":1,"trel":1,"run":%q}`, topic, run)}
	seq := 2
	for rank, doc := range []string{"101", "102"} {
		n := len([]rune(fakeArticles[doc].text))
		evs = append(evs,
			fmt.Sprintf(`{"ev":"open","topic":%q,"rank":%d,"doc":%q,"seq":%d,"len":%d,"nrc":10,"passages":[[0,10]]}`, topic, rank+1, doc, seq, n),
			fmt.Sprintf(`{"ev":"read","topic":%q,"rank":%d,"doc":%q,"seq":%d,"from":0,"to":%d,"rel":10,"nonrel":%d,"screen":1}`, topic, rank+1, doc, seq+1, n, n-10),
			fmt.Sprintf(`{"ev":"stop","topic":%q,"rank":%d,"doc":%q,"seq":%d,"reason":"end","read":%d,"relread":10}`, topic, rank+1, doc, seq+2, n),
			fmt.Sprintf(`{"ev":"score","topic":%q,"rank":%d,"doc":%q,"seq":%d,"scores":{"T2Ip(300)":0.5,"LE(300,5)":1}}`, topic, rank+1, doc, seq+3))
		seq += 4
	}
	evs = append(evs, fmt.Sprintf(`{"ev":"done","topic":%q,"rank":0,"doc":"","seq":%d,"scores":{"AgP\\T2Ip(300)":0.5}}`, topic, seq))
	return evs
}

func (r *fakeReplayer) Replay(ctx context.Context, req ReplayRequest, emit func([]byte) error) error {
	r.mu.Lock()
	r.reqs = append(r.reqs, req)
	r.mu.Unlock()
	if req.Topic == "endless" {
		pad := strings.Repeat("x", r.eventSize)
		for seq := 1; ; seq++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			ev := fmt.Sprintf(`{"ev":"read","topic":"endless","rank":1,"doc":"101","seq":%d,"pad":%q}`, seq, pad)
			if err := emit([]byte(ev)); err != nil {
				return err
			}
		}
	}
	r.mu.Lock()
	gated := r.gate != nil && req.Topic == "T1" && len(r.reqs) == 1
	r.mu.Unlock()
	for i, ev := range fakeTrace(req.Topic, req.Run) {
		if gated && i == 3 {
			close(r.gate)
			<-ctx.Done()
			return ctx.Err()
		}
		if err := emit([]byte(ev)); err != nil {
			return err
		}
	}
	return nil
}

func (r *fakeReplayer) Relevant(topic, doc string) []effort.Span {
	if topic == "T1" && doc == "101" {
		return []effort.Span{{Start: 0, End: 10}}
	}
	return nil
}

func (r *fakeReplayer) requests() []ReplayRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]ReplayRequest(nil), r.reqs...)
}

// Summary describes the fake traces: two articles, one measure.
func (r *fakeReplayer) Summary(ctx context.Context, req ReplayRequest) (ReplaySummary, error) {
	if req.Topic == "endless" {
		return ReplaySummary{Trel: 1, NR: 5, Docs: []string{"101"}}, nil
	}
	r.mu.Lock()
	r.sums = append(r.sums, req)
	r.mu.Unlock()
	docs := []string{"101", "102"}
	if req.Topic == "T2" {
		docs = []string{"101", "999"} // 999: no text on the server
	}
	return ReplaySummary{
		Trel: 1, NR: 5,
		Measures:  []MeasureInfo{{`AgP\T2Ip(300)`, "higher"}},
		DocScores: []MeasureInfo{{"T2Ip(300)", "higher"}, {"LE(300,5)", "lower"}},
		Docs:      docs,
		Running:   [][]float64{{0.25}, {0.5}},
	}, nil
}
