// Package backend wires readsim's real packages to the web server's
// interfaces: the Bleve index (index) as web.Searcher, the renderer (render)
// over the indexed articles as web.Pages, and the simulated reader (scenario)
// over judgments and runs as web.Replayer.
package backend

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/render"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
	"github.com/readsim/readsim/web"
)

// SnippetWidth is the length of a result's snippet in characters.
const SnippetWidth = 180

// Search is the live system: fetch and browse over an index.
type Search struct {
	X   *index.Index
	Opt index.Options
}

// Search fetches the k best articles for q, each with its passages and a
// snippet around its first passage. A query with no searchable word (only
// stop words, say) finds nothing rather than failing.
func (s *Search) Search(ctx context.Context, q string, k int) ([]web.Hit, error) {
	pq, err := s.X.Prepare(q)
	if errors.Is(err, index.ErrNoTerms) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	opt := s.Opt
	if opt.SnippetWidth == 0 {
		opt.SnippetWidth = SnippetWidth
	}
	rs, err := s.X.Search(ctx, pq, k, opt)
	if err != nil {
		return nil, err
	}
	hits := make([]web.Hit, 0, len(rs))
	for i, r := range rs {
		hits = append(hits, web.Hit{Rank: i + 1, ID: r.ID, Title: r.Title, Score: r.Score, Passages: passages(r.Passages), Snippet: r.Snippet})
	}
	return hits, nil
}

// Passages browses article id for q.
func (s *Search) Passages(ctx context.Context, q, id string) ([]effort.Span, error) {
	pq, err := s.X.Prepare(q)
	if errors.Is(err, index.ErrNoTerms) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	d, err := s.X.Article(id)
	if err != nil {
		return nil, err
	}
	return passages(s.X.Browse(d, pq, s.Opt)), nil
}

func passages(ps []index.Passage) []effort.Span {
	out := make([]effort.Span, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.Span)
	}
	return out
}

// Pages renders the articles of a collection folder. Parsed articles are
// kept in a small cache.
type Pages struct {
	dir   *article.Dir
	cache *cache[string, *article.Article]
}

// pageCache is how many parsed articles Pages keeps.
const pageCache = 256

// NewPages serves the articles of dir.
func NewPages(dir *article.Dir) *Pages {
	return &Pages{dir: dir, cache: newCache[string, *article.Article](pageCache)}
}

// load returns article id: web.ErrNoArticle when the folder has none, the
// parser's error (naming the file and line) when it cannot be read.
func (p *Pages) load(id string) (*article.Article, error) {
	if _, ok := p.dir.Path(id); !ok {
		return nil, web.ErrNoArticle
	}
	return p.cache.get(id, func() (*article.Article, error) { return p.dir.Parse(id) })
}

// Has reports whether the folder has article id, without reading it.
func (p *Pages) Has(id string) bool {
	_, ok := p.dir.Path(id)
	return ok
}

// Info describes article id.
func (p *Pages) Info(id string) (web.ArticleInfo, error) {
	a, err := p.load(id)
	if err != nil {
		return web.ArticleInfo{}, err
	}
	return web.ArticleInfo{ID: a.ID, Title: a.Title, Length: a.Len, Lang: a.Lang}, nil
}

// Render writes the anchored page of article id with the passages, in the
// article's language (render.Options.Lang left empty).
func (p *Pages) Render(id string, ps []effort.Span, opt web.PageOptions) ([]byte, error) {
	a, err := p.load(id)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = render.Page(&b, a, ps, render.Options{
		ResultsURL:    opt.ResultsURL,
		ArticleURL:    opt.ArticleURL,
		StylesheetURL: opt.StylesheetURL,
		NoHighlight:   !opt.Highlight,
	})
	return b.Bytes(), err
}

// CSS is the article pages' stylesheet.
func CSS() []byte { return []byte(render.CSS) }

// Run is a run offered by the simulation view.
type Run struct {
	Run    *inex.Run
	Source string // "sample", "flag" or "live"
}

// Replays replays runs against judgments.
type Replays struct {
	q      *inex.Qrels
	topics []web.Topic
	runs   []Run
	infos  []web.RunInfo

	players *cache[playerKey, *scenario.Replayer]
}

type playerKey struct {
	run         int
	order       effort.Order
	t2i, screen int
}

// maxPlayers bounds the cached replayers (one per run and reader).
const maxPlayers = 64

// NewReplays offers runs against q. Topic titles come from ts (which may be
// nil); the topics listed are those of the judgments.
func NewReplays(q *inex.Qrels, ts []inex.Topic, runs []Run) *Replays {
	titles := map[string]string{}
	for _, t := range ts {
		title, _ := t.Field("title")
		titles[t.ID] = title
	}
	r := &Replays{q: q, runs: runs, players: newCache[playerKey, *scenario.Replayer](maxPlayers)}
	for _, id := range q.IDs {
		r.topics = append(r.topics, web.Topic{ID: id, Title: titles[id]})
	}
	for _, run := range runs {
		info := web.RunInfo{ID: run.Run.ID, Source: run.Source, Topics: []string{}}
		for _, t := range run.Run.Topics {
			if _, ok := q.Topics[t.ID]; ok {
				info.Topics = append(info.Topics, t.ID)
			}
		}
		inex.SortTopics(info.Topics)
		r.infos = append(r.infos, info)
	}
	return r
}

// Topics are the judged topics.
func (r *Replays) Topics() []web.Topic { return r.topics }

// Runs are the runs with the judged topics each answers.
func (r *Replays) Runs() []web.RunInfo { return r.infos }

func (r *Replays) player(req web.ReplayRequest) (*scenario.Replayer, error) {
	run := -1
	for i, info := range r.infos {
		if info.ID == req.Run {
			run = i
			break
		}
	}
	if run < 0 {
		return nil, fmt.Errorf("no run %q", req.Run)
	}
	order, err := effort.ParseOrder(req.Order)
	if err != nil {
		return nil, err
	}
	return r.players.get(playerKey{run, order, req.T2I, req.Screen}, func() (*scenario.Replayer, error) {
		return scenario.NewReplayer(r.q, r.runs[run].Run, scenario.Reader{Order: order, T2I: req.T2I, Screen: req.Screen})
	})
}

// Replay streams the trace of one topic of one run.
func (r *Replays) Replay(ctx context.Context, req web.ReplayRequest, emit func([]byte) error) error {
	p, err := r.player(req)
	if err != nil {
		return err
	}
	return p.ReplayTopic(req.Topic, func(ev *scenario.Event) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return emit(ev.AppendJSON(nil))
	})
}

// Relevant returns the judged passages of doc for topic.
func (r *Replays) Relevant(topic, doc string) []effort.Span {
	tj, ok := r.q.Topics[topic]
	if !ok {
		return nil
	}
	j, ok := tj.Docs[doc]
	if !ok {
		return nil
	}
	out := make([]effort.Span, 0, len(j.Rel))
	for _, s := range j.Rel {
		out = append(out, s)
	}
	return out
}

// LiveRun is the live system's own run over the topics: relevant in context
// (the fetched articles with their passages), k articles per topic, built
// from the index's hits (scenario.MakeRun).
func LiveRun(ctx context.Context, x *index.Index, ts []inex.Topic, k int, runID string) (*inex.Run, error) {
	var tq []scenario.TopicQuery
	for _, t := range ts {
		title, err := t.Field("title")
		if err != nil || title == "" {
			continue
		}
		tq = append(tq, scenario.TopicQuery{ID: t.ID, Text: title})
	}
	run, err := scenario.MakeRun(ctx, x, tq, scenario.RunOptions{Task: "ric", K: k, RunID: runID})
	if err != nil {
		return nil, err
	}
	run.File = runID
	return run, nil
}
