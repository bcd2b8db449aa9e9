package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"

	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/scenario/inex"
	"github.com/readsim/readsim/web"
	"github.com/readsim/readsim/web/backend"
)

func init() {
	register(&command{
		name:    "serve",
		args:    "(--index IDX | --qrels Q --run R...) [--addr A] [--qrels Q] [--run R]... [--topics FILE] [--articles DIR] [--allow-origin O]... [--study DIR [--study-topics N]]",
		summary: "the web prototype and simulation view over an index",
		run:     runServe,
	})
}

// serveConfig is what serve and demo serve.
type serveConfig struct {
	index    string   // the index folder
	articles string   // the articles folder; "" means the one the index was built from
	addr     string   // listen address
	qrels    string   // judgments; "" means no simulation view
	topics   string   // topics file; "" means no live run and no titles
	runs     []string // runs given with --run
	sample   []string // runs of the sample (demo)
	allow    []string // extra WebSocket origins
	liveK    int      // articles per topic of the live run
	demo     bool     // print the LAN URL and its QR code
	// study is the reading study's folder ("" no study); studyTopics the
	// topics per participant (servestudy.go).
	study       string
	studyTopics int
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

// liveRunID names the live system's own run in the simulation view.
const liveRunID = "readsim-live"

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
func runServe(e *env, args []string) error {
	fs := newFlags(e, commands["serve"])
	idx := fs.String("index", "", "the index folder (`IDX`) built by readsim index")
	addr := fs.String("addr", "localhost:8080", "listen address (`host:port`)")
	qrels := fs.String("qrels", "", "judgments (INEX FOL) for the simulation view")
	tfile := fs.String("topics", "", "topics `FILE`: titles, and the live system's own run")
	articles := fs.String("articles", "", "articles folder (`DIR`); default: the one the index was built from")
	k := fs.Int("k", 100, "articles per topic of the live system's run")
	study := fs.String("study", "", "run a reading study at /study, recording into `DIR` (needs --index and --topics)")
	studyTopics := fs.Int("study-topics", defaultStudyTopics, "topics per participant of the study (`N`)")
	var runs, allow multiFlag
	fs.Var(&runs, "run", "a run to replay (`R`, repeatable)")
	fs.Var(&allow, "allow-origin", "an extra Origin allowed to open the WebSocket (`O`, repeatable; * for any)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", pos[0])}
	}
	if *idx == "" && (*qrels == "" || len(runs) == 0) {
		return usageError{"--index is required (or --qrels with --run, to race runs without an index)"}
	}
	if len(runs) > 0 && *qrels == "" {
		return usageError{"--run needs --qrels"}
	}
	if *k < 1 {
		return usageError{"--k must be at least 1"}
	}
	if *studyTopics < 1 {
		return usageError{"--study-topics must be at least 1"}
	}
	if *study != "" && (*idx == "" || *tfile == "") {
		return usageError{"--study needs --index (participants search) and --topics (they are given topics)"}
	}
	return serve(e, serveConfig{index: *idx, articles: *articles, addr: *addr, qrels: *qrels, topics: *tfile,
		runs: runs, allow: allow, liveK: *k, study: *study, studyTopics: *studyTopics})
}

// indexSource reads the articles folder an index was built from (its
// manifest's "source").
func indexSource(idx string) (string, error) {
	b, err := os.ReadFile(filepath.Join(idx, "manifest.json"))
	if err != nil {
		return "", inputError{fmt.Errorf("index %s: %w", idx, err)}
	}
	var m struct {
		Source string `json:"source"`
	}
	if err := json.Unmarshal(b, &m); err != nil || m.Source == "" {
		return "", inputError{fmt.Errorf("index %s: manifest.json names no articles folder; give --articles", idx)}
	}
	return m.Source, nil
}

// serve opens everything cfg names, then serves until interrupted.
func serve(e *env, cfg serveConfig) error {
	if cfg.ln != nil {
		defer cfg.ln.Close()
	}
	var x *index.Index
	if cfg.index != "" {
		var err error
		x, err = index.Open(cfg.index)
		var ie *index.InputError
		if errors.As(err, &ie) {
			return inputError{err}
		}
		if err != nil {
			return err
		}
		defer x.Close()
		if cfg.articles == "" {
			if cfg.articles, err = indexSource(cfg.index); err != nil {
				return err
			}
		}
	}
	var pages web.Pages = backend.NoArticles{}
	articles := 0
	if cfg.articles != "" {
		dir, err := article.OpenDir(cfg.articles)
		if err != nil {
			return inputError{err}
		}
		pages, articles = backend.NewPages(dir), len(dir.IDs())
	}
	opt := web.Options{
		Pages:         pages,
		ArticleCSS:    backend.CSS(),
		AllowOrigins:  cfg.allow,
		RatePerSecond: cfg.rate,
		Logf: func(f string, a ...any) {
			fmt.Fprintf(e.stderr, "readsim: "+f+"\n", a...)
		},
	}
	warn := func(s string) { fmt.Fprintf(e.stderr, "readsim: warning: %s\n", s) }
	var runCount int
	if cfg.qrels != "" {
		q, err := inex.OpenQrels(cfg.qrels, warn)
		if err != nil {
			return inputError{err}
		}
		var ts []inex.Topic
		if cfg.topics != "" {
			if ts, err = inex.OpenTopics(cfg.topics); err != nil {
				return inputError{err}
			}
		}
		var runs []backend.Run
		seen := map[string]string{}
		add := func(path, source string) error {
			r, err := inex.OpenRun(path, inex.RunOptions{Warn: warn})
			if err != nil {
				return inputError{err}
			}
			if prev, dup := seen[r.ID]; dup {
				return inputError{fmt.Errorf("%s: run id %q is also the id of %s", path, r.ID, prev)}
			}
			seen[r.ID] = path
			runs = append(runs, backend.Run{Run: r, Source: source})
			return nil
		}
		for _, p := range cfg.sample {
			if err := add(p, "sample"); err != nil {
				return err
			}
		}
		for _, p := range cfg.runs {
			if err := add(p, "flag"); err != nil {
				return err
			}
		}
		if len(ts) > 0 && x != nil {
			live, err := backend.LiveRun(context.Background(), x, ts, cfg.liveK, liveRunID)
			if err != nil {
				warn(fmt.Sprintf("no live run: %v", err))
			} else if _, dup := seen[live.ID]; !dup {
				runs = append(runs, backend.Run{Run: live, Source: "live"})
			}
		}
		runCount = len(runs)
		if runCount > 0 {
			opt.Replayer = backend.NewReplays(q, ts, runs)
			for _, c := range backend.MissingText(q, runs, pages.Has) {
				if c.None > 0 {
					fmt.Fprintf(e.stderr, "readsim: run %s: %d of its %d articles have no text on this server: the race and the simulation view draw them as a schematic\n", c.Run, c.None, c.Articles)
				}
			}
		} else {
			warn("no runs to replay: the simulation view is off (give --run or --topics)")
		}
	}
	if x != nil {
		opt.Searcher = &backend.Search{X: x}
		articles = x.Articles()
	}
	if cfg.study != "" {
		var err error
		if opt.Study, err = studyOptions(e, cfg); err != nil {
			return err
		}
	}
	srv, err := web.New(opt)
	if err != nil {
		return err
	}
	ctx := cfg.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if x != nil {
		stopWatch := watchIndex(ctx, x, opt.Logf)
		defer stopWatch()
	}
	ready := func(a net.Addr) {
		if cfg.ln == nil {
			printURLs(e, a, cfg.demo)
		}
		search := ""
		if x == nil {
			search = " (no index: no search)"
		}
		fmt.Fprintf(e.stderr, "readsim: serving %d articles%s, %d run(s) to replay; Ctrl-C stops\n", articles, search, runCount)
		if cfg.ready != nil {
			cfg.ready(a)
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
	fmt.Fprintln(e.stderr, "readsim: stopped")
	return nil
}

// printURLs prints the local URL and, for the demo or a server listening on
// all interfaces, the LAN URL (with a QR code for the demo).
func printURLs(e *env, a net.Addr, demo bool) {
	ta, ok := a.(*net.TCPAddr)
	if !ok {
		fmt.Fprintf(e.stdout, "http://%s/\n", a)
		return
	}
	port := ta.Port
	local := fmt.Sprintf("http://localhost:%d/", port)
	if !ta.IP.IsUnspecified() && !ta.IP.IsLoopback() {
		local = fmt.Sprintf("http://%s/", net.JoinHostPort(ta.IP.String(), fmt.Sprint(port)))
	}
	fmt.Fprintf(e.stdout, "local: %s\n", local)
	if !ta.IP.IsUnspecified() {
		if demo && !ta.IP.IsLoopback() {
			printQR(e, local)
		}
		return
	}
	lan := lanIP()
	if lan == "" {
		fmt.Fprintln(e.stdout, "LAN:   (no network interface besides loopback)")
		return
	}
	u := fmt.Sprintf("http://%s/", net.JoinHostPort(lan, fmt.Sprint(port)))
	fmt.Fprintf(e.stdout, "LAN:   %s\n", u)
	if demo {
		printQR(e, u)
	}
}

// lanIP is the first private (else any non-loopback) IPv4 address of an
// interface that is up, or "". It reads the interfaces only: no traffic.
func lanIP() string {
	ifs, err := net.Interfaces()
	if err != nil {
		return ""
	}
	var other string
	for _, ifc := range ifs {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			ipn, ok := a.(*net.IPNet)
			if !ok || ipn.IP.To4() == nil || ipn.IP.IsLoopback() || ipn.IP.IsLinkLocalUnicast() {
				continue
			}
			if ipn.IP.IsPrivate() {
				return ipn.IP.String()
			}
			if other == "" {
				other = ipn.IP.String()
			}
		}
	}
	return other
}
