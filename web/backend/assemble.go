package backend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/scenario/inex"
	"github.com/readsim/readsim/web"
)

// Config says what a readsim server serves (readsim serve and demo).
type Config struct {
	Index    string   // the index folder; "" means no search and no live run
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
	// Say and Warn print what start-up tells and warns of (nil: nothing).
	Say, Warn func(string)
}

// DefaultStudyTopics is how many topics a study's participant gets by
// default.
const DefaultStudyTopics = 3

// InputError is a problem with what a server was asked to serve that no
// library error type names (two runs with one id, a study with no judged
// topic, a study folder that cannot be made): bad input, not a failure of
// the server.
type InputError struct{ Err error }

// Error returns the problem.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the problem.
func (e *InputError) Unwrap() error { return e.Err }

// Assembly is a server's parts, opened: the options of web.New (Pages,
// ArticleCSS, Searcher, Replayer, Study; the caller adds the rest) and what
// start-up reports.
type Assembly struct {
	Options  web.Options
	Index    *index.Index // nil without an index
	Articles int          // articles served
	Runs     int          // runs to replay
}

// Assemble opens everything cfg names. Close the assembly when done.
//
// Decisions where cli.md is silent: without Articles the articles are the
// ones the index was built from (its manifest's absolute source); the
// runs' ids must differ; the live run (with an index and topics) joins the
// runs unless a run already has its id; a run whose articles have no text
// on this server is said at start-up (the views draw them as schematics).
func Assemble(cfg Config) (*Assembly, error) {
	cfg = cfg.withDefaults()
	a := &Assembly{Options: web.Options{Pages: NoArticles{}, ArticleCSS: CSS()}}
	ok := false
	defer func() {
		if !ok {
			a.Close()
		}
	}()
	if cfg.Index != "" {
		x, err := index.Open(cfg.Index)
		if err != nil {
			return nil, err
		}
		a.Index = x
		if cfg.Articles == "" {
			if cfg.Articles = x.Source(); cfg.Articles == "" {
				return nil, &InputError{fmt.Errorf("index %s: its manifest names no articles folder; give --articles", cfg.Index)}
			}
		}
	}
	if cfg.Articles != "" {
		dir, err := article.OpenDir(cfg.Articles)
		if err != nil {
			return nil, err
		}
		if w := article.ClashWarning(dir.Clashes()); w != "" {
			cfg.Warn(w)
		}
		a.Options.Pages, a.Articles = NewPages(dir), len(dir.IDs())
	}
	if cfg.Qrels != "" {
		if err := a.replays(cfg); err != nil {
			return nil, err
		}
	}
	if a.Index != nil {
		a.Options.Searcher = &Search{X: a.Index}
		a.Articles = a.Index.Articles()
	}
	if cfg.Study != "" {
		var err error
		if a.Options.Study, err = studyOptions(cfg); err != nil {
			return nil, err
		}
	}
	ok = true
	return a, nil
}

func (cfg Config) withDefaults() Config {
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

// replays reads the judgments, topics and runs, adds the live run, and sets
// the simulation view's and the race's Replayer.
func (a *Assembly) replays(cfg Config) error {
	q, err := inex.OpenQrels(cfg.Qrels, cfg.Warn)
	if err != nil {
		return err
	}
	var ts []inex.Topic
	if cfg.Topics != "" {
		if ts, err = inex.OpenTopics(cfg.Topics); err != nil {
			return err
		}
	}
	var runs []Run
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
		runs = append(runs, Run{Run: r, Source: source})
	}
	if len(ts) > 0 && a.Index != nil {
		live, err := LiveRun(context.Background(), a.Index, ts, cfg.LiveK, cfg.LiveRunID)
		if err != nil {
			cfg.Warn(fmt.Sprintf("no live run: %v", err))
		} else if _, dup := seen[live.ID]; !dup {
			runs = append(runs, Run{Run: live, Source: "live"})
		}
	}
	a.Runs = len(runs)
	if len(runs) == 0 {
		cfg.Warn("no runs to replay: the simulation view is off (give --run or --topics)")
		return nil
	}
	a.Options.Replayer = NewReplays(q, ts, runs)
	for _, c := range MissingText(q, runs, a.Options.Pages.Has) {
		if c.None > 0 {
			cfg.Say(fmt.Sprintf("run %s: %d of its %d articles have no text on this server: the race and the simulation view draw them as a schematic", c.Run, c.None, c.Articles))
		}
	}
	return nil
}

// studyOptions is the reading study of cfg.Study: the topics of cfg.Topics,
// with their titles and descriptions, in the file's order; with judgments
// only the judged ones (a reading of an unjudged topic could not be
// scored). It reads the topics and judgments again rather than sharing the
// replays' copies, which keeps the study's wiring apart (the judgments are
// read twice only with a study).
//
// Decisions where the issue is silent: a study needs an index (participants
// search) and topics (they are given topics); the folder is created if
// missing; each participant gets cfg.StudyTopics topics.
func studyOptions(cfg Config) (*web.StudyOptions, error) {
	if cfg.Index == "" || cfg.Topics == "" {
		return nil, &InputError{fmt.Errorf("--study needs --index (participants search) and --topics (they are given topics)")}
	}
	ts, err := inex.OpenTopics(cfg.Topics)
	if err != nil {
		return nil, err
	}
	var judged map[string]*inex.TopicJudgments
	if cfg.Qrels != "" {
		q, err := inex.OpenQrels(cfg.Qrels, nil)
		if err != nil {
			return nil, err
		}
		judged = q.Topics
	}
	opt := &web.StudyOptions{Dir: cfg.Study, PerParticipant: cfg.StudyTopics}
	for _, t := range ts {
		if judged != nil && judged[t.ID] == nil {
			continue
		}
		title, _ := t.Field("title")
		opt.Topics = append(opt.Topics, web.StudyTopic{ID: t.ID, Title: title, Description: t.Description})
	}
	if len(opt.Topics) == 0 {
		return nil, &InputError{fmt.Errorf("%s: no topic for the study (none is judged in %s)", cfg.Topics, cfg.Qrels)}
	}
	if err := os.MkdirAll(cfg.Study, 0o700); err != nil {
		return nil, &InputError{fmt.Errorf("--study: %w", err)}
	}
	abs, _ := filepath.Abs(cfg.Study)
	cfg.Say(fmt.Sprintf("reading study at /study: %d topics, %d per participant; recordings in %s",
		len(opt.Topics), min(cfg.StudyTopics, len(opt.Topics)), abs))
	return opt, nil
}

// Watch makes the assembly's index switch to a rebuilt one in its folder
// (readsim index run while the server runs) within every, without a
// restart or a dropped request (index.Index.Watch), logging each switch;
// stop ends the watch. Without an index it does nothing.
//
// Decision where cli.md is silent: the server polls the manifest (a rebuilt
// or updated index is a new manifest file) rather than use file-system
// notifications, which a rename of the whole index folder does not always
// reach and which differ between systems.
func (a *Assembly) Watch(ctx context.Context, every time.Duration, logf func(string, ...any)) (stop func()) {
	if a.Index == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.Index.Watch(ctx, every, logf)
	}()
	return func() {
		cancel()
		<-done
	}
}

// Close closes the index.
func (a *Assembly) Close() error {
	if a.Index != nil {
		return a.Index.Close()
	}
	return nil
}
