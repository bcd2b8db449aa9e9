package main

import (
	"context"
	"flag"
	"fmt"
	"net"

	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/web"
	"github.com/readsim/readsim/web/backend"
)

// runDemo implements `readsim demo`: it indexes corpus-sample/
// (backend.FindSample, or --sample) into backend.DemoIndexPath (an
// unchanged sample is not read again; a changed one is updated), then
// serves it with the sample's topics, judgments and runs
// (backend.SampleConfig), the live system's own run included, and a
// reading study at /study recording into backend.DemoStudyPath (--study
// "" turns it off).
//
// Decision where cli.md is silent: the demo listens and prints its URLs
// (with the QR code) first, then indexes, so that its first line is the
// address to open.
func runDemo(e *cli.Env, fs *flag.FlagSet, args []string) error {
	l := backend.Listen{QR: true}
	fs.StringVar(&l.Addr, "addr", ":8080", "listen address (`host:port`; all interfaces by default)")
	dir := fs.String("sample", "", "the sample folder (`DIR`); default: corpus-sample/ found from the working folder")
	fs.Var((*cli.Strings)(&l.AllowOrigins), "allow-origin", "an extra Origin allowed to open the WebSocket (`O`, repeatable; * for any)")
	study := fs.String("study", backend.DemoStudyPath(), "the reading study's recordings (`DIR`; \"\": no study at /study)")
	if err := cli.ParseFlagsOnly(fs, args); err != nil {
		return err
	}
	sample, err := backend.SampleConfig(*dir)
	if err != nil {
		return err
	}
	// The URL and its QR code first: indexing may take a while, and a
	// browser opened on the URL meanwhile waits for the server.
	if l.Listener, err = net.Listen("tcp", l.Addr); err != nil {
		return fmt.Errorf("serving on %s: %w", l.Addr, err)
	}
	web.PrintURLs(e.Stdout, l.Listener.Addr(), true)
	cfg, err := demoConfig(e, sample)
	if err != nil {
		l.Listener.Close()
		return err
	}
	cfg.Study = *study
	return serve(context.Background(), e, cfg, l)
}

// demoConfig indexes the sample (backend.SampleConfig), or reuses its
// index, and returns what to serve.
func demoConfig(e *cli.Env, sample backend.ServeConfig) (backend.ServeConfig, error) {
	idx, started := backend.DemoIndexPath(), false
	res, err := backend.IndexSample(sample, idx, func(p index.Progress) {
		switch {
		case e.StderrIsTerminal:
			fmt.Fprintf(e.Stderr, "\rreadsim demo: indexing the sample: %d/%d articles", p.Done, p.Total)
		case !started:
			fmt.Fprintf(e.Stderr, "readsim demo: indexing the sample (%d articles)", p.Total)
		}
		started = true
	})
	if err != nil && !isBadInput(err) {
		err = fmt.Errorf("indexing the sample into %s: %w", idx, err)
	}
	if err != nil {
		return sample, err
	}
	if res.Indexed > 0 || res.Removed > 0 {
		if started {
			fmt.Fprintln(e.Stderr)
		}
		printBuildSummary(e.Stderr, idx, res)
	} else {
		fmt.Fprintf(e.Stderr, "readsim demo: reusing the index of the sample in %s (%d articles, unchanged)\n", idx, res.Articles)
	}
	sample.Index = idx
	return sample, nil
}
