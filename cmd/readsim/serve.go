package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"time"

	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/web"
	"github.com/readsim/readsim/web/backend"
)

// serveConfig is what serve and demo serve: backend.Config's files and
// folders, and how to listen.
type serveConfig struct {
	backend.ServeConfig
	addr  string   // listen address
	allow []string // extra WebSocket origins
	demo  bool     // print the LAN URL and its QR code
	// rate is the request rate allowed per client address (0: the web
	// package's default; < 0: no limit). Tests raise it.
	rate float64
	// ctx stops the server (tests); nil means until SIGINT/SIGTERM.
	ctx context.Context
	// ready is called with the bound address (tests).
	ready func(net.Addr)
	// ln, when not nil, is the listener to serve on, already bound and its
	// URLs printed (demo prints them before indexing).
	ln net.Listener
}

// reloadEvery is how often serve looks for a rebuilt index (tests lower
// it).
var reloadEvery = 2 * time.Second

// runServe implements `readsim serve`.
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
// A running serve switches to a rebuilt index within reloadEvery, with
// the article pages and the live run made from it (backend.Assembly.Watch).
func runServe(e *cli.Env, fs *flag.FlagSet, args []string) error {
	var cfg serveConfig
	fs.StringVar(&cfg.Index, "index", "", "the index folder (`IDX`) built by readsim index")
	fs.StringVar(&cfg.addr, "addr", "localhost:8080", "listen address (`host:port`)")
	fs.StringVar(&cfg.Qrels, "qrels", "", "judgments (INEX FOL) for the simulation view")
	fs.StringVar(&cfg.Topics, "topics", "", "topics `FILE`: titles, and the live system's own run")
	fs.StringVar(&cfg.Articles, "articles", "", "articles folder (`DIR`); default: the one the index was built from")
	fs.IntVar(&cfg.LiveK, "k", 100, "articles per topic of the live system's run")
	fs.StringVar(&cfg.Study, "study", "", "run a reading study at /study, recording into `DIR` (needs --index and --topics)")
	fs.IntVar(&cfg.StudyTopics, "study-topics", backend.DefaultStudyTopics, "topics per participant of the study (`N`)")
	fs.Var((*cli.Strings)(&cfg.Runs), "run", "a run to replay (`R`, repeatable)")
	fs.Var((*cli.Strings)(&cfg.allow), "allow-origin", "an extra Origin allowed to open the WebSocket (`O`, repeatable; * for any)")
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return cli.Usagef("unexpected argument %q", pos[0])
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
	return serve(e, cfg)
}

// serve opens everything cfg names, then serves until interrupted.
func serve(e *cli.Env, cfg serveConfig) error {
	if cfg.ln != nil {
		defer cfg.ln.Close()
	}
	say := func(s string) { fmt.Fprintf(e.Stderr, "readsim: %s\n", s) }
	cfg.Say = say
	cfg.Warn = func(s string) { say("warning: " + s) }
	a, err := backend.Assemble(cfg.ServeConfig)
	if err != nil {
		return err
	}
	defer a.Close()
	opt := a.Options
	opt.AllowOrigins, opt.RatePerSecond = cfg.allow, cfg.rate
	opt.Logf = func(f string, args ...any) { say(fmt.Sprintf(f, args...)) }
	srv, err := web.New(opt)
	if err != nil {
		return err
	}
	ctx := cfg.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	defer a.Watch(ctx, reloadEvery, opt.Logf)()
	ready := func(addr net.Addr) {
		if cfg.ln == nil {
			printURLs(e, addr, cfg.demo)
		}
		search := ""
		if opt.Searcher == nil {
			search = " (no index: no search)"
		}
		say(fmt.Sprintf("serving %d articles%s, %d run(s) to replay; Ctrl-C stops", a.Articles, search, a.Runs))
		if cfg.ready != nil {
			cfg.ready(addr)
		}
	}
	if cfg.ln != nil {
		err = web.Serve(ctx, cfg.ln, srv, ready)
	} else {
		err = web.ListenAndServe(ctx, cfg.addr, srv, ready)
	}
	if err != nil {
		return fmt.Errorf("serving on %s: %w", cfg.addr, err)
	}
	say("stopped")
	return nil
}

// printURLs prints the local URL and, for the demo or a server listening on
// all interfaces, the LAN URL (with a QR code for the demo).
func printURLs(e *cli.Env, a net.Addr, demo bool) {
	ta, ok := a.(*net.TCPAddr)
	if !ok {
		fmt.Fprintf(e.Stdout, "http://%s/\n", a)
		return
	}
	port := ta.Port
	local := fmt.Sprintf("http://localhost:%d/", port)
	if !ta.IP.IsUnspecified() && !ta.IP.IsLoopback() {
		local = fmt.Sprintf("http://%s/", net.JoinHostPort(ta.IP.String(), fmt.Sprint(port)))
	}
	fmt.Fprintf(e.Stdout, "local: %s\n", local)
	if !ta.IP.IsUnspecified() {
		if demo && !ta.IP.IsLoopback() {
			printQR(e, local)
		}
		return
	}
	lan := web.LANIP()
	if lan == "" {
		fmt.Fprintln(e.Stdout, "LAN:   (no network interface besides loopback)")
		return
	}
	u := fmt.Sprintf("http://%s/", net.JoinHostPort(lan, fmt.Sprint(port)))
	fmt.Fprintf(e.Stdout, "LAN:   %s\n", u)
	if demo {
		printQR(e, u)
	}
}
