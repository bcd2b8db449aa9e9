package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/render"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
	"github.com/readsim/readsim/web"
)

// Search is the live system: fetch and browse over an index.
type Search struct {
	X   index.Searcher
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
		opt.SnippetWidth = index.DefaultSnippetWidth
	}
	// a little more than shown: wordSnippet drops the cut words at the ends
	opt.SnippetWidth += wordSlack
	rs, err := s.X.Hits(ctx, pq, k, opt)
	if err != nil {
		return nil, err
	}
	hits := make([]web.Hit, 0, len(rs))
	for i, r := range rs {
		hits = append(hits, web.Hit{Rank: i + 1, ID: r.ID, Title: r.Title, Lang: r.Lang, Score: r.Score, Passages: r.Passages, Lead: r.NoMatch, Snippet: wordSnippet(r.Snippet)})
	}
	return hits, nil
}

// wordSlack is how many characters a word cut at either end of a snippet
// may have: the index is asked for that much more text, and wordSnippet
// drops the cut words.
const wordSlack = 24

// wordSnippet cuts a snippet at word boundaries. index.Snippet cuts its
// text between characters, marking a cut with an ellipsis; the word at each
// cut end may be a fragment ("…ng the rings…"), so it is dropped, unless it
// is a marked query word (whole by construction) or no space is found within
// wordSlack characters (Chinese, Japanese and Korean text, which has no
// spaces between words: kept as it is).
func wordSnippet(s string) string {
	if rest, ok := strings.CutPrefix(s, "…"); ok {
		if i := strings.IndexByte(rest, ' '); i > 0 && utf8.RuneCountInString(rest[:i]) <= wordSlack && !strings.Contains(rest[:i], "[") {
			s = "…" + rest[i+1:]
		}
	}
	if rest, ok := strings.CutSuffix(s, "…"); ok {
		if i := strings.LastIndexByte(rest, ' '); i > 0 && utf8.RuneCountInString(rest[i:]) <= wordSlack+1 && !strings.Contains(rest[i:], "]") {
			s = strings.TrimRight(rest[:i], " ,;:–-") + "…"
		}
	}
	return s
}

// Passages browses article id for q, on one build of the index
// (index.Index.Passages) with the request's context. A query with no
// searchable word, or an article the index does not have, has no passages.
func (s *Search) Passages(ctx context.Context, q, id string) ([]effort.Span, error) {
	ps, err := s.X.Passages(ctx, q, id, s.Opt)
	if errors.Is(err, index.ErrNoTerms) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return passages(ps), nil
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
	if !p.Has(id) {
		return nil, web.ErrNoArticle
	}
	return p.cache.get(id, func() (*article.Article, error) { return p.dir.Parse(id) })
}

// Has reports whether the folder has article id, without reading it. The
// id must be the article's own (the index's): a path naming an article
// whose id is its plain file name is not one.
func (p *Pages) Has(id string) bool {
	canon, ok := p.dir.ID(id)
	return ok && canon == id
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
		ResultsLabel:  opt.ResultsLabel,
		IconURL:       opt.IconURL,
		ArticleURL:    opt.ArticleURL,
		StylesheetURL: opt.StylesheetURL,
		ScriptURL:     opt.ScriptURL,
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

	players   *cache[playerKey, *scenario.Replayer]
	summaries *cache[summaryKey, web.ReplaySummary]
}

type playerKey struct {
	run         int
	order       effort.Order
	t2i, screen int
	baseline    bool
}

type summaryKey struct {
	playerKey
	topic string
}

// maxSummaries bounds the cached replay summaries (one per run, reader and
// topic).
const maxSummaries = 256

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
	r := &Replays{q: q, runs: runs, players: newCache[playerKey, *scenario.Replayer](maxPlayers),
		summaries: newCache[summaryKey, web.ReplaySummary](maxSummaries)}
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

// key finds the run and reader of req.
func (r *Replays) key(req web.ReplayRequest) (playerKey, error) {
	run := -1
	for i, info := range r.infos {
		if info.ID == req.Run {
			run = i
			break
		}
	}
	if run < 0 {
		return playerKey{}, fmt.Errorf("no run %q", req.Run)
	}
	order, err := effort.ParseOrder(req.Order)
	if err != nil {
		return playerKey{}, err
	}
	return playerKey{run, order, req.T2I, req.Screen, req.DocBaseline}, nil
}

// reader is the simulated reader of k, looking at depth ranks (0: all).
func (k playerKey) reader(depth int) scenario.SimulatedReader {
	return scenario.SimulatedReader{Config: effort.Config{Order: k.order, DocBaseline: k.baseline}, T2I: k.t2i, Screen: k.screen, Depth: depth}
}

func (r *Replays) player(req web.ReplayRequest) (*scenario.Replayer, error) {
	k, err := r.key(req)
	if err != nil {
		return nil, err
	}
	return r.players.get(k, func() (*scenario.Replayer, error) {
		return scenario.NewReplayer(r.q, r.runs[k.run].Run, k.reader(0))
	})
}

// MaxRunning bounds the ranks whose scores so far Summary computes: the
// run cut after rank d costs an evaluation of d articles, so n ranks cost
// about n²/2 (100 ranks of an INEX run: 14 ms; 500: about 0.35 s). Past it
// the pages keep showing the scores after rank MaxRunning until the `done`
// event brings the final ones.
const MaxRunning = 500

// Summary describes the replay of req: its measures (named by the
// registry, with their direction), its ranked articles, and the list scores
// of the run cut after every rank (the first MaxRunning), each computed by
// scenario exactly as `readsim eval` computes the run's (Reader.Depth), so
// that the last row of a list of at most MaxRunning articles is the `done`
// event's.
func (r *Replays) Summary(ctx context.Context, req web.ReplayRequest) (web.ReplaySummary, error) {
	k, err := r.key(req)
	if err != nil {
		return web.ReplaySummary{}, err
	}
	return r.summaries.get(summaryKey{k, req.Topic}, func() (web.ReplaySummary, error) {
		return r.summary(ctx, k, req.Topic)
	})
}

func (r *Replays) summary(ctx context.Context, k playerKey, topic string) (web.ReplaySummary, error) {
	p, err := r.players.get(k, func() (*scenario.Replayer, error) {
		return scenario.NewReplayer(r.q, r.runs[k.run].Run, k.reader(0))
	})
	if err != nil {
		return web.ReplaySummary{}, err
	}
	tv, err := p.Values(topic)
	if err != nil {
		return web.ReplaySummary{}, err
	}
	nr := k.reader(0).NR
	if nr <= 0 {
		nr = effort.DefaultNR
	}
	sum := web.ReplaySummary{Trel: tv.Trel, NR: nr, Docs: tv.Docs}
	// a document score is better the way the first list score over it is
	better := map[string]string{}
	for _, m := range p.Measures() {
		sum.Measures = append(sum.Measures, web.MeasureInfo{Name: m.String(), Better: m.Better().String()})
		if d := m.Doc.String(); m.Doc.Kind != effort.DocNone && better[d] == "" {
			better[d] = m.Better().String()
		}
	}
	for _, n := range p.DocScoreNames() {
		sum.DocScores = append(sum.DocScores, web.MeasureInfo{Name: n, Better: better[n]})
	}
	for d := 1; d <= min(len(tv.Docs), MaxRunning); d++ {
		if err := ctx.Err(); err != nil {
			return web.ReplaySummary{}, err
		}
		pd := p
		if d < len(tv.Docs) {
			if pd, err = scenario.NewReplayer(r.q, r.runs[k.run].Run, k.reader(d)); err != nil {
				return web.ReplaySummary{}, err
			}
		}
		v, err := pd.Values(topic)
		if err != nil {
			return web.ReplaySummary{}, err
		}
		sum.Running = append(sum.Running, v.List)
	}
	return sum, nil
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
// from the index's hits (MakeRun).
func LiveRun(ctx context.Context, x index.Searcher, ts []inex.Topic, k int, runID string) (*inex.Run, error) {
	tq := scenario.TopicQueries(ts, []string{"title"})
	run, err := MakeRun(ctx, x, tq, MakeRunOptions{Task: "ric", K: k, RunID: runID})
	if err != nil {
		return nil, err
	}
	run.File = runID
	return run, nil
}
