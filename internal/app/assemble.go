package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
	"github.com/readsim/readsim/web"
)

// ServeConfig says what a readsim server serves (readsim serve and demo).
//
// Decisions where cli.md is silent: Topics gives the topic titles and the
// live system's own run (without it the simulation view offers the given
// runs only); Articles overrides the articles folder recorded in the
// index (needed when the index was moved). Without an index, judgments and
// runs serve the race and the simulation view alone (no search, no live
// run): the articles come from Articles when given, and every article
// without text is drawn as a schematic; start-up says which runs lack text
// and for how many articles. A running server switches to a rebuilt index
// within DefaultReloadEvery, with the article pages and the live run made
// from it (Assembly.Watch).
type ServeConfig struct {
	Index    string   // the index: a folder or a URL (index.OpenAt); "" means no search and no live run
	Articles string   // the articles folder; "" means the one the index was built from
	Qrels    string   // judgments; "" means no simulation view and no race
	Topics   string   // topics: titles, the live run, the study's topics
	Runs     []string // runs given by the user (source "flag")
	Sample   []string // runs of the bundled sample (source "sample")
	LiveK    int      // articles per topic of the live run (default 100)
	// LiveRunID names the live system's own run (default "readsim-live").
	LiveRunID string
	// Study is the reading study's folder ("" means no study);
	// StudyTopics the topics per participant (default DefaultStudyTopics).
	Study       string
	StudyTopics int
	// Consent is the study's consent text (a file; "" the built-in text:
	// web.ParseConsent gives the format).
	Consent string
	// ParticipantParams are the recruitment platform's query parameters
	// kept with a consent; CompletionURL where a participant who finished
	// every topic is sent ("" none). web.StudyOptions' Params and
	// Completion.
	ParticipantParams []string
	CompletionURL     string
	// Demo: the demonstration of readsim demo, whose study runs on the
	// built-in consent text without a warning (the demo has no --consent).
	Demo bool
	// Say and Warn print what start-up tells and warns of (nil: nothing).
	Say, Warn func(string)
}

// Check tells whether c can be served: an index, or judgments with runs
// to race without one (no search, no live run); runs need judgments; a
// study needs an index (participants search) and topics (they are given
// topics). The error is a scenario.RequestError naming serve's flags.
func (c ServeConfig) Check() error {
	switch {
	case c.Index == "" && (c.Qrels == "" || len(c.Runs) == 0):
		return &scenario.RequestError{Err: errors.New("--index is required (or --qrels with --run, to race runs without an index)")}
	case len(c.Runs) > 0 && c.Qrels == "":
		return &scenario.RequestError{Err: errors.New("--run needs --qrels")}
	case c.Study != "" && (c.Index == "" || c.Topics == ""):
		return &scenario.RequestError{Err: errors.New("--study needs --index (participants search) and --topics (they are given topics)")}
	case c.Consent != "" && c.Study == "":
		return &scenario.RequestError{Err: errors.New("--consent needs --study (it is the study's consent text)")}
	case (len(c.ParticipantParams) > 0 || c.CompletionURL != "") && c.Study == "":
		return &scenario.RequestError{Err: errors.New("--participant-param and --completion-url need --study")}
	}
	if err := web.CheckParticipantParams(c.ParticipantParams); err != nil {
		return &scenario.RequestError{Err: fmt.Errorf("--participant-param: %w", err)}
	}
	if c.CompletionURL != "" {
		if err := web.CheckCompletionURL(c.CompletionURL, c.ParticipantParams); err != nil {
			return &scenario.RequestError{Err: fmt.Errorf("--completion-url: %w", err)}
		}
	}
	return nil
}

// DefaultStudyTopics is how many topics a study's participant gets by
// default.
const DefaultStudyTopics = 3

// InputError is a problem with what a server was asked to serve that no
// library error type names (two runs with one id, a study with no judged
// topic, a study folder that cannot be made): bad input, not a failure of
// the server.
type InputError struct{ Err error }

// BadInput reports that the error is bad input: readsim exits with
// status 2 (docs/cli.md, "Exit status").
func (e *InputError) BadInput() bool { return true }

// Error returns the problem.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the problem.
func (e *InputError) Unwrap() error { return e.Err }

// Assembly is a server's parts, opened: the options of web.New (Pages,
// ArticleCSS, Searcher, Replayer, Snapshot, Study; the caller adds the
// rest) and what start-up reports. With an index, the pages, the search
// and the replays come from the collection in use (see collection), which
// Watch replaces when the index is rebuilt.
type Assembly struct {
	Options  web.Options
	Articles int // articles served at start-up
	Runs     int // runs to replay at start-up

	cfg ServeConfig
	// the judgments, topics and runs read at start-up (nil qrels: no
	// replays); each collection adds its own live run to the runs
	qrels  *inex.Qrels
	topics []inex.Topic
	runs   []Run

	cur     atomic.Pointer[collection]
	mu      sync.Mutex // serialises switching and closing
	closed  bool
	pending index.Searcher // a build opened but not yet served (its pages failed)
}

// collection is what one build of the index serves: the index, the article
// pages of the folder it was built from (or Config.Articles, listed
// again), the search over it and the replays with the live run made from
// it. A request takes one (acquire) and uses it throughout; a rebuilt
// index makes a new one (Watch), and the one it replaces is closed after
// its last request.
type collection struct {
	// refs counts the assembly's own reference and the requests using the
	// collection; the last one out closes its index.
	refs     atomic.Int64
	x        index.Searcher // nil without an index
	pages    web.Pages
	search   *Search  // nil without an index
	replays  *Replays // nil without judgments
	articles int
	runs     int
}

// release drops a reference; the last closes the collection's index.
func (c *collection) release() {
	if c.refs.Add(-1) == 0 && c.x != nil {
		c.x.Close()
	}
}

// acquire returns the collection in use with a reference taken (release
// it). After Close it is an empty collection: no articles, no search.
func (a *Assembly) acquire() *collection {
	for {
		c := a.cur.Load()
		if n := c.refs.Load(); n > 0 && c.refs.CompareAndSwap(n, n+1) {
			return c
		}
		// c is being replaced and released: load its successor
	}
}

// Assemble opens everything cfg names. Close the assembly when done.
//
// Decisions where cli.md is silent: without Articles the articles are the
// ones the index was built from (its manifest's absolute source); the
// runs' ids must differ; the live run (with an index and topics) joins the
// runs unless a run already has its id; a run whose articles have no text
// on this server is said at start-up (the views draw them as schematics).
func Assemble(cfg ServeConfig) (*Assembly, error) {
	cfg = cfg.withDefaults()
	a := &Assembly{cfg: cfg, Options: web.Options{ArticleCSS: CSS()}}
	var x index.Searcher
	if cfg.Index != "" {
		var err error
		if x, err = index.OpenAt(cfg.Index); err != nil {
			return nil, err
		}
	}
	var c *collection
	var err error
	if cfg.Qrels != "" {
		err = a.readRuns()
	} else if cfg.Topics != "" {
		err = checkUnusedTopics(cfg)
	}
	if err == nil {
		c, err = a.collection(context.Background(), x, cfg.Warn)
	}
	if err != nil {
		if x != nil {
			x.Close()
		}
		return nil, err
	}
	a.cur.Store(c)
	a.Articles, a.Runs = c.articles, c.runs
	a.Options.Pages = c.pages
	if c.replays != nil {
		if c.runs == 0 {
			cfg.Warn("no runs to replay: the simulation view is off (give --run or --topics)")
		} else {
			a.Options.Replayer = c.replays
			for _, n := range MissingText(a.qrels, c.replays.runs, c.pages.Has) {
				if n.None > 0 {
					cfg.Say(noTextLine(n))
				}
			}
		}
	}
	if x != nil {
		// the index can be rebuilt: every part is the collection in use
		a.Options.Pages, a.Options.Searcher = livePages{a}, liveSearch{a}
		if a.Options.Replayer != nil {
			a.Options.Replayer = liveReplays{a}
		}
		a.Options.Snapshot = func() (web.Pages, web.Searcher, func()) {
			c := a.acquire()
			var s web.Searcher
			if c.search != nil {
				s = c.search
			}
			return c.pages, s, c.release
		}
	}
	if cfg.Study != "" {
		if a.Options.Study, err = studyOptions(cfg, a.Options.Pages.Has); err != nil {
			a.Close()
			return nil, err
		}
	}
	return a, nil
}

// collection makes what the build x of the index serves (x nil: no
// index): the article pages, the search and the replays with x's live run.
// warn tells of a live run that cannot be made.
func (a *Assembly) collection(ctx context.Context, x index.Searcher, warn func(string)) (*collection, error) {
	c := &collection{x: x, pages: NoArticles{}}
	c.refs.Store(1)
	folder := a.cfg.Articles
	if x != nil && folder == "" {
		if folder = x.Source(); folder == "" {
			return nil, &InputError{fmt.Errorf("index %s: its manifest names no articles folder; give --articles", a.cfg.Index)}
		}
	}
	if folder != "" {
		dir, err := article.OpenDir(folder)
		if err != nil {
			return nil, err
		}
		dir.Reader.Warn = warn // a DTD refused or missing, when a page is read
		for _, s := range dir.Skipped() {
			warn("skipped " + s)
		}
		if w := article.ClashWarning(dir.Clashes()); w != "" {
			warn(w)
		}
		c.pages, c.articles = NewPages(dir), len(dir.IDs())
	}
	if x != nil {
		c.search = &Search{X: x}
		c.articles = x.Articles()
	}
	if a.qrels != nil {
		runs := a.runs
		if len(a.topics) > 0 && x != nil {
			live, err := LiveRun(ctx, x, a.topics, a.cfg.LiveK, a.cfg.LiveRunID)
			if err != nil {
				warn(fmt.Sprintf("no live run: %v", err))
			} else if !slices.ContainsFunc(runs, func(r Run) bool { return r.Run.ID == live.ID }) {
				runs = append(slices.Clip(runs), Run{Run: live, Source: "live"})
			}
		}
		c.replays, c.runs = NewReplays(a.qrels, a.topics, runs), len(runs)
	}
	return c, nil
}

func (cfg ServeConfig) withDefaults() ServeConfig {
	if cfg.LiveK <= 0 {
		cfg.LiveK = 100
	}
	if cfg.LiveRunID == "" {
		cfg.LiveRunID = "readsim-live"
	}
	if cfg.StudyTopics <= 0 {
		cfg.StudyTopics = DefaultStudyTopics
	}
	if cfg.Say == nil {
		cfg.Say = func(string) {}
	}
	if cfg.Warn == nil {
		cfg.Warn = func(string) {}
	}
	return cfg
}

// readRuns reads the judgments, the topics and the runs of the simulation
// view and the race (each collection adds its live run).
func (a *Assembly) readRuns() error {
	cfg := a.cfg
	q, err := inex.OpenQrels(cfg.Qrels, cfg.Warn)
	if err != nil {
		return err
	}
	if cfg.Topics != "" {
		if a.topics, err = inex.OpenTopics(cfg.Topics); err != nil {
			return err
		}
	}
	seen := map[string]string{}
	for i, p := range append(append([]string{}, cfg.Sample...), cfg.Runs...) {
		r, err := inex.OpenRun(p, inex.RunOptions{Warn: cfg.Warn})
		if err != nil {
			return err
		}
		if prev, dup := seen[r.ID]; dup {
			return &InputError{fmt.Errorf("%s: run id %q is also the id of %s", p, r.ID, prev)}
		}
		seen[r.ID] = p
		source := "flag"
		if i < len(cfg.Sample) {
			source = "sample"
		}
		a.runs = append(a.runs, Run{Run: r, Source: source})
	}
	a.qrels = q
	return nil
}

// checkUnusedTopics reads cfg.Topics when no judgments are given, so that
// a missing, unreadable or malformed file is refused as it is with them
// (it went unread and unsaid), and warns, without a study, that the topics
// are not used: the live run they make is replayed against judgments.
func checkUnusedTopics(cfg ServeConfig) error {
	if _, err := inex.OpenTopics(cfg.Topics); err != nil {
		return err
	}
	if cfg.Study == "" {
		cfg.Warn(fmt.Sprintf("--topics %s is not used without --qrels: its topics make the live run, which the simulation view replays against judgments", cfg.Topics))
	}
	return nil
}

// noTextLine is start-up's line about a run whose articles (some or all)
// have no text on the server, in English that agrees with the numbers.
func noTextLine(c TextCount) string {
	articles, have, them := "articles", "have", "them"
	if c.Articles == 1 {
		articles = "article"
	}
	if c.None == 1 {
		have, them = "has", "it"
	}
	return fmt.Sprintf("run %s: %d of its %d %s %s no text on this server: the race and the simulation view draw %s as a schematic", c.Run, c.None, c.Articles, articles, have, them)
}

// studyOptions is the reading study of cfg.Study: the topics of cfg.Topics,
// with their titles and descriptions, in the file's order; with judgments
// only those with a judged article the server has (has): a reading of any
// other topic could never be scored (issue 36: 120 topics were handed out
// when 1 had such an article). It reads the topics and judgments again
// rather than sharing the replays' copies, which keeps the study's wiring
// apart (the judgments are read twice only with a study).
//
// Decisions where the issue is silent: a study needs an index (participants
// search) and topics (they are given topics); the folder is created if
// missing; each participant gets cfg.StudyTopics topics. Start-up says how
// many of the study's topics are assigned, and refuses a study where none
// can be (issue 26). It warns when the study runs on the built-in consent
// text (but in the demo), when the consent text gives no retention date,
// and when a consent text of the folder is past its retention date.
func studyOptions(cfg ServeConfig, has func(string) bool) (*web.StudyOptions, error) {
	if cfg.Index == "" || cfg.Topics == "" {
		return nil, &InputError{fmt.Errorf("--study needs --index (participants search) and --topics (they are given topics)")}
	}
	ts, err := inex.OpenTopics(cfg.Topics)
	if err != nil {
		return nil, err
	}
	opt := &web.StudyOptions{Dir: cfg.Study, PerParticipant: cfg.StudyTopics, Params: cfg.ParticipantParams, Completion: cfg.CompletionURL}
	if cfg.Consent != "" {
		if opt.Consent, err = web.OpenConsent(cfg.Consent); err != nil {
			return nil, &InputError{err}
		}
	}
	if opt.Topics, err = studyTopics(cfg, ts, has); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.Study, 0o700); err != nil {
		return nil, &InputError{fmt.Errorf("--study: %w", err)}
	}
	studyWarnings(cfg, opt.Consent)
	abs, _ := filepath.Abs(cfg.Study)
	cfg.Say(fmt.Sprintf("reading study at /study: %d topics, %d per participant; recordings in %s",
		len(opt.Topics), min(cfg.StudyTopics, len(opt.Topics)), abs))
	return opt, nil
}

// studyTopics are the study's topics of ts: with judgments (cfg.Qrels)
// those with a judged article the server has (has), said at start-up.
func studyTopics(cfg ServeConfig, ts []inex.Topic, has func(string) bool) ([]web.StudyTopic, error) {
	var judged map[string]*inex.TopicJudgments
	if cfg.Qrels != "" {
		q, err := inex.OpenQrels(cfg.Qrels, nil)
		if err != nil {
			return nil, err
		}
		judged = q.Topics
	}
	var out []web.StudyTopic
	nJudged := 0
	for _, t := range ts {
		if judged != nil {
			j := judged[t.ID]
			if j == nil {
				continue
			}
			nJudged++
			if !slices.ContainsFunc(sortedDocs(j), has) {
				continue
			}
		}
		title, _ := t.Field("title")
		out = append(out, web.StudyTopic{ID: t.ID, Title: title, Description: t.Description})
	}
	switch {
	case len(ts) == 0:
		return nil, &InputError{fmt.Errorf("%s: no topic for the study: the file holds none", cfg.Topics)}
	case judged != nil && nJudged == 0:
		return nil, &InputError{fmt.Errorf("%s: no topic for the study (none is judged in %s)", cfg.Topics, cfg.Qrels)}
	case len(out) == 0:
		return nil, &InputError{fmt.Errorf("--study: none of the study's %d topics has a judged article in the index (the judgments %s and the index's articles do not meet): its readings could not be scored", nJudged, cfg.Qrels)}
	case judged == nil:
		cfg.Warn("the study has no judgments (--qrels): its readings cannot be scored until judgments are given to eval and calibrate")
	default:
		cfg.Say(fmt.Sprintf("reading study: %d of %d topics have a judged article in the index, and only those are assigned", len(out), nJudged))
	}
	return out, nil
}

// sortedDocs are the judged articles of a topic, in order (a start-up
// that says the same whatever the map's order).
func sortedDocs(j *inex.TopicJudgments) []string {
	docs := make([]string, 0, len(j.Docs))
	for d := range j.Docs {
		docs = append(docs, d)
	}
	slices.Sort(docs)
	return docs
}

// studyWarnings warns of a study on the built-in consent text (but in the
// demo), of a consent text without a retention date, and of the consent
// texts of the folder past their retention date.
func studyWarnings(cfg ServeConfig, c *web.Consent) {
	now := time.Now()
	switch {
	case web.DefaultConsent(c):
		if !cfg.Demo {
			cfg.Warn("the study runs on the built-in consent text, which names no researcher, contact, ethics approval or retention: fine for a try-out, not for a study with people (--consent FILE; docs/study.md)")
		}
	case c.RetentionDate.IsZero():
		cfg.Warn(fmt.Sprintf("%s: the Retention field gives no date (YYYY-MM-DD): readsim cannot say when the recordings are due for deletion (readsim study clear --expired)", cfg.Consent))
	case c.Expired(now):
		cfg.Warn(fmt.Sprintf("%s: the retention date %s is past: the recordings of those who agreed were to be deleted (readsim study clear --expired %s deletes them)", cfg.Consent, c.RetentionDate.Format(time.DateOnly), cfg.Study))
	}
	expired, err := web.ExpiredConsents(cfg.Study, now)
	if err != nil {
		return // the server's start reads the folder and says what is wrong
	}
	for _, e := range expired {
		cfg.Warn(fmt.Sprintf("%s: %d participant(s) agreed to keep their recordings until %s, now past: readsim study clear --expired %s deletes them",
			filepath.Join(cfg.Study, e.File), e.Participants, e.Date.Format(time.DateOnly), cfg.Study))
	}
}

// Watch makes the server switch to a rebuilt index in its folder
// (readsim index run while the server runs) within every, without a
// restart or a dropped request, logging each switch and failure; stop ends
// the watch. The article pages (their folder from the new build's manifest,
// listed again, with an empty cache), the search and the live run switch
// together: a request that began before goes on with the previous ones,
// whose index is closed after its last request. Without an index it does
// nothing.
//
// Decisions where cli.md is silent: the server polls the manifest (a rebuilt
// or updated index is a new manifest file) rather than use file-system
// notifications, which a rename of the whole index folder does not always
// reach and which differ between systems. A rebuilt index whose articles
// folder cannot be read is not served (the previous one goes on, and the
// folder is tried again at every poll).
func (a *Assembly) Watch(ctx context.Context, every time.Duration, logf func(string, ...any)) (stop func()) {
	if a.cur.Load().x == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		var failed string
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			switched, err := a.reload(ctx, logf)
			switch {
			case ctx.Err() != nil:
				return // stopped while making a collection: not a failure
			case err != nil && err.Error() != failed:
				failed = err.Error()
				logf("index %s was rebuilt but cannot be served (still serving the previous one): %v", a.cfg.Index, err)
			case switched:
				failed = ""
				logf("index %s was rebuilt: now serving %d articles", a.cfg.Index, a.cur.Load().articles)
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// errClosed is the answer of a closed assembly.
var errClosed = errors.New("the server is closed")

// reload switches to the build of the index now in its folder when it is
// another (index.Searcher.Rebuilt: a folder rebuilt, a cluster's alias
// moved), with the pages, search and live run made
// from it. It reports whether it switched.
func (a *Assembly) reload(ctx context.Context, logf func(string, ...any)) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	old := a.cur.Load()
	if a.closed || old.x == nil {
		return false, errClosed
	}
	from := old.x
	if a.pending != nil {
		from = a.pending
	}
	x, err := from.Rebuilt()
	if err != nil {
		return false, err
	}
	if x != nil {
		if a.pending != nil {
			a.pending.Close()
		}
		a.pending = x
	}
	if a.pending == nil {
		return false, nil
	}
	c, err := a.collection(ctx, a.pending, func(s string) { logf("%s", s) })
	if err == nil {
		err = ctx.Err() // stopped meanwhile: the live run may be cut short
	}
	if err != nil {
		return false, err
	}
	a.pending = nil
	a.cur.Store(c)
	old.release()
	return true, nil
}

// Close closes the index (the build in use is closed when its last request
// ends). Closing again does nothing.
func (a *Assembly) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.pending != nil {
		a.pending.Close()
		a.pending = nil
	}
	if a.closed {
		return nil
	}
	a.closed = true
	old := a.cur.Load()
	// the replays hold no index: they stay for the replays still running
	closed := &collection{pages: NoArticles{}, replays: old.replays}
	closed.refs.Store(1)
	a.cur.Store(closed)
	old.release()
	return nil
}

// livePages, liveSearch and liveReplays are the web interfaces over the
// collection in use: each call uses the collection of its moment (an
// article request takes one for the whole request: Options.Snapshot).
type (
	livePages   struct{ a *Assembly }
	liveSearch  struct{ a *Assembly }
	liveReplays struct{ a *Assembly }
)

// Has reports whether the collection in use has article id.
func (p livePages) Has(id string) bool {
	c := p.a.acquire()
	defer c.release()
	return c.pages.Has(id)
}

// Info describes article id of the collection in use.
func (p livePages) Info(id string) (web.ArticleInfo, error) {
	c := p.a.acquire()
	defer c.release()
	return c.pages.Info(id)
}

// Render renders article id of the collection in use.
func (p livePages) Render(id string, ps []effort.Span, opt web.PageOptions) ([]byte, error) {
	c := p.a.acquire()
	defer c.release()
	return c.pages.Render(id, ps, opt)
}

// Search searches the collection in use.
func (s liveSearch) Search(ctx context.Context, q string, k int) ([]web.Hit, error) {
	c := s.a.acquire()
	defer c.release()
	if c.search == nil {
		return nil, errClosed
	}
	return c.search.Search(ctx, q, k)
}

// Passages browses article id of the collection in use.
func (s liveSearch) Passages(ctx context.Context, q, id string) ([]effort.Span, error) {
	c := s.a.acquire()
	defer c.release()
	if c.search == nil {
		return nil, errClosed
	}
	return c.search.Passages(ctx, q, id)
}

// replays returns the replays in use. They hold no index, so a replay
// takes no reference: a long replay does not keep a replaced index open.
func (r liveReplays) replays() *Replays { return r.a.cur.Load().replays }

// Topics lists the judged topics.
func (r liveReplays) Topics() []web.Topic { return r.replays().Topics() }

// Runs lists the runs in use (the live run of the index in use).
func (r liveReplays) Runs() []web.RunInfo { return r.replays().Runs() }

// Replay streams a replay of the runs in use.
func (r liveReplays) Replay(ctx context.Context, req web.ReplayRequest, emit func([]byte) error) error {
	return r.replays().Replay(ctx, req, emit)
}

// Relevant returns the judged passages of doc for topic.
func (r liveReplays) Relevant(topic, doc string) []effort.Span {
	return r.replays().Relevant(topic, doc)
}

// Summary describes a replay of the runs in use.
func (r liveReplays) Summary(ctx context.Context, req web.ReplayRequest) (web.ReplaySummary, error) {
	return r.replays().Summary(ctx, req)
}
