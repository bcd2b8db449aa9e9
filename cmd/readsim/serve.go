package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/web/backend"
)

// runServe implements `readsim serve` (backend.Serve).
//
// Decisions where cli.md is silent: --topics gives the topic titles and
// the live system's own run (without it the simulation view offers the
// --run runs only); --articles overrides the articles folder recorded in the
// index (needed when the index was moved); --allow-origin widens the
// WebSocket's same-origin check ("*" for any); the default address is
// localhost:8080. Without --index, --qrels and --run serve the race and the
// simulation view alone (no search, no live run): the articles come from
// --articles when given, and every article without text is drawn as a
// schematic; start-up says which runs lack text and for how many articles.
// A running serve switches to a rebuilt index within
// backend.DefaultReloadEvery, with the article pages and the live run made
// from it (backend.Assembly.Watch).
func runServe(e *cli.Env, fs *flag.FlagSet, args []string) error {
	var cfg backend.ServeConfig
	var l backend.Listen
	fs.StringVar(&cfg.Index, "index", "", "the index folder (`IDX`) built by readsim index")
	fs.StringVar(&l.Addr, "addr", "localhost:8080", "listen address (`host:port`)")
	fs.StringVar(&cfg.Qrels, "qrels", "", "judgments (INEX FOL) for the simulation view")
	fs.StringVar(&cfg.Topics, "topics", "", "topics `FILE`: titles, and the live system's own run")
	fs.StringVar(&cfg.Articles, "articles", "", "articles folder (`DIR`); default: the one the index was built from")
	fs.IntVar(&cfg.LiveK, "k", 100, "articles per topic of the live system's run")
	fs.StringVar(&cfg.Study, "study", "", "run a reading study at /study, recording into `DIR` (needs --index and --topics)")
	fs.IntVar(&cfg.StudyTopics, "study-topics", backend.DefaultStudyTopics, "topics per participant of the study (`N`)")
	fs.Var((*cli.Strings)(&cfg.Runs), "run", "a run to replay (`R`, repeatable)")
	fs.Var((*cli.Strings)(&l.AllowOrigins), "allow-origin", "an extra Origin allowed to open the WebSocket (`O`, repeatable; * for any)")
	if err := cli.ParseFlagsOnly(fs, args); err != nil {
		return err
	}
	switch {
	case cfg.Index == "" && (cfg.Qrels == "" || len(cfg.Runs) == 0):
		return cli.Usagef("--index is required (or --qrels with --run, to race runs without an index)")
	case len(cfg.Runs) > 0 && cfg.Qrels == "":
		return cli.Usagef("--run needs --qrels")
	case cfg.LiveK < 1:
		return cli.Usagef("--k must be at least 1")
	case cfg.StudyTopics < 1:
		return cli.Usagef("--study-topics must be at least 1")
	case cfg.Study != "" && (cfg.Index == "" || cfg.Topics == ""):
		return cli.Usagef("--study needs --index (participants search) and --topics (they are given topics)")
	}
	return serve(context.Background(), e, cfg, l)
}

// serve is backend.Serve saying what it does on e: the URLs on standard
// output, the start-up lines, warnings and the server's log on standard
// error, each after "readsim: ".
func serve(ctx context.Context, e *cli.Env, cfg backend.ServeConfig, l backend.Listen) error {
	cfg.Say = func(s string) { fmt.Fprintf(e.Stderr, "readsim: %s\n", s) }
	cfg.Warn = func(s string) { fmt.Fprintf(e.Stderr, "readsim: warning: %s\n", s) }
	l.URLs = e.Stdout
	return backend.Serve(ctx, cfg, l)
}
