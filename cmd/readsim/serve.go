package main

import (
	"context"
	"flag"
	"fmt"
	"net"

	"github.com/readsim/readsim/internal/app"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/web"
)

// runServe implements `readsim serve` (app.Serve; what it serves
// without an index or with --topics: app.ServeConfig). Decisions where
// cli.md is silent: the default address is localhost:8080; --allow-origin
// widens the WebSocket's same-origin check ("*" for any); --rate-limit is
// the per-client request rate (default web.DefaultRatePerSecond, 0 no
// limit; the burst stays web's default).
func runServe(e *cli.Env, fs *flag.FlagSet, args []string) error {
	var cfg app.ServeConfig
	var l app.Listen
	fs.StringVar(&cfg.Index, "index", "", "the index folder (`IDX`) built by readsim index")
	fs.StringVar(&l.Addr, "addr", "localhost:8080", "listen address (`host:port`)")
	fs.StringVar(&cfg.Qrels, "qrels", "", "judgments (INEX FOL, gzip or not) for the simulation view")
	fs.StringVar(&cfg.Topics, "topics", "", "topics `FILE` (gzip or not): titles, and the live system's own run")
	fs.StringVar(&cfg.Articles, "articles", "", "articles folder (`DIR`); default: the one the index was built from")
	fs.IntVar(&cfg.LiveK, "k", 100, "articles per topic of the live system's run")
	fs.StringVar(&cfg.Study, "study", "", "run a reading study at /study, recording into `DIR` (needs --index and --topics)")
	fs.IntVar(&cfg.StudyTopics, "study-topics", app.DefaultStudyTopics, "topics per participant of the study (`N`)")
	rate := fs.Float64("rate-limit", web.DefaultRatePerSecond, "requests per second one client address may make (`N`; 0: no limit)")
	fs.StringVar(&cfg.Consent, "consent", "", "the study's consent text (`FILE`: Title, Researcher, Contact, Ethics, Retention, then the text; docs/study.md)")
	fs.Var((*cli.Strings)(&cfg.ParticipantParams), "participant-param", "a query parameter of the study's address kept with each consent (`NAME`, repeatable: PROLIFIC_PID, STUDY_ID, SESSION_ID)")
	fs.StringVar(&cfg.CompletionURL, "completion-url", "", "where a participant who finished every topic is sent (`URL`, the platform's completion link; {NAME} is a --participant-param's value)")
	fs.Var((*cli.Strings)(&cfg.Runs), "run", "a run to replay (`R`, repeatable; gzip or not)")
	fs.Var((*cli.Strings)(&l.AllowOrigins), "allow-origin", "an extra Origin allowed to open the WebSocket (`O`, repeatable; * for any)")
	var proxies []string
	fs.Var((*cli.Strings)(&proxies), "trusted-proxy", "a reverse proxy (`CIDR` or address, repeatable) whose X-Forwarded-For gives the client's address")
	if err := cli.ParseFlagsOnly(fs, args); err != nil {
		return err
	}
	if err := app.CheckAddr(l.Addr); err != nil {
		return err
	}
	if err := cfg.Check(); err != nil {
		return err
	}
	if err := scenario.CheckOutsideFolders(cfg.Study, scenario.InputFolder{What: "the articles folder", Dir: cfg.Articles}, scenario.InputFolder{What: "the index folder", Dir: cfg.Index}); err != nil {
		return cli.Usage(err)
	}
	switch {
	case cfg.LiveK < 1: // 0 would be app's default
		return cli.Usagef("-k must be at least 1")
	case cfg.StudyTopics < 1:
		return cli.Usagef("--study-topics must be at least 1")
	}
	if err := l.SetClientRules(*rate, proxies); err != nil {
		return err
	}
	return serve(context.Background(), e, cfg, l)
}

// serve is app.Serve saying what it does on e: the URLs on standard
// output, the start-up lines, warnings and the server's log on standard
// error, each after "readsim: ".
func serve(ctx context.Context, e *cli.Env, cfg app.ServeConfig, l app.Listen) error {
	cfg.Say = func(s string) { fmt.Fprintf(e.Stderr, "readsim: %s\n", s) }
	cfg.Warn = func(s string) { fmt.Fprintf(e.Stderr, "readsim: warning: %s\n", s) }
	l.URLs = e.Stdout
	return app.Serve(ctx, cfg, l)
}

// runDemo implements `readsim demo`: it indexes corpus-sample/
// (app.FindSample, or --sample) into app.DemoIndexPath (an
// unchanged sample is not read again; a changed one is updated), then
// serves it with the sample's topics, judgments and runs
// (app.SampleConfig), the live system's own run included, and a
// reading study at /study recording into app.DemoStudyPath (--study
// "" turns it off).
//
// Decision where cli.md is silent: the demo listens and prints its URLs
// (with the QR code) first, then indexes, so that its first line is the
// address to open.
func runDemo(e *cli.Env, fs *flag.FlagSet, args []string) error {
	l := app.Listen{QR: true}
	fs.StringVar(&l.Addr, "addr", ":8080", "listen address (`host:port`; all interfaces by default)")
	dir := fs.String("sample", "", "the sample folder (`DIR`); default: corpus-sample/ found from the working folder")
	fs.Var((*cli.Strings)(&l.AllowOrigins), "allow-origin", "an extra Origin allowed to open the WebSocket (`O`, repeatable; * for any)")
	study := fs.String("study", app.DemoStudyPath(), "the reading study's recordings (`DIR`; \"\": no study at /study)")
	if err := cli.ParseFlagsOnly(fs, args); err != nil {
		return err
	}
	if err := app.CheckAddr(l.Addr); err != nil {
		return err
	}
	sample, err := app.SampleConfig(*dir)
	if err != nil {
		return err
	}
	// The URL and its QR code first: indexing may take a while, and a
	// browser opened on the URL meanwhile waits for the server.
	if l.Listener, err = net.Listen("tcp", l.Addr); err != nil {
		return fmt.Errorf("serving on %s: %w", l.Addr, err)
	}
	web.PrintURLs(e.Stdout, l.Listener.Addr(), true)
	cfg, err := app.IndexDemo(sample, app.DemoIndexPath(), e.Stderr, e.StderrIsTerminal)
	if err != nil {
		l.Listener.Close()
		return err
	}
	cfg.Study, cfg.Demo = *study, true
	return serve(context.Background(), e, cfg, l)
}
