package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mdp/qrterminal/v3"

	"github.com/readsim/readsim/index"
)

func init() {
	register(&command{
		name:    "demo",
		args:    "[--addr :8080] [--sample DIR] [--allow-origin O]... [--study DIR]",
		summary: "index the bundled sample and serve the phone prototype and the simulation view",
		run:     runDemo,
	})
}

// runDemo implements `readsim demo`: it indexes corpus-sample/ into the user
// cache folder (an unchanged sample is not read again; a changed one is
// updated), then serves it with the sample's topics, judgments and runs, the
// live system's own run included.
//
// Decisions where cli.md is silent: the demo listens and prints its URLs
// (with the QR code) first, then indexes, so that its first line is the
// address to open; the sample is looked up as
// corpus-sample/ in the working folder and its parents (so `go run
// ./cmd/readsim demo` works from anywhere in the repository), then beside the
// executable; --sample names it explicitly. The index lives in
// $XDG_CACHE_HOME/readsim/demo-index (os.UserCacheDir), or in the temporary
// folder when there is no cache folder. The sample's runs are every file of
// corpus-sample/runs/ except *.md, passage runs first. The demo runs a
// reading study at /study on the sample's topics (servestudy.go), recording
// into demo-study beside the index ($XDG_CACHE_HOME/readsim/demo-study)
// unless --study says otherwise (--study "" turns it off).
func runDemo(e *env, args []string) error {
	fs := newFlags(e, commands["demo"])
	addr := fs.String("addr", ":8080", "listen address (`host:port`; all interfaces by default)")
	sample := fs.String("sample", "", "the sample folder (`DIR`); default: corpus-sample/ found from the working folder")
	var allow multiFlag
	fs.Var(&allow, "allow-origin", "an extra Origin allowed to open the WebSocket (`O`, repeatable; * for any)")
	study := fs.String("study", demoStudyPath(), "the reading study's recordings (`DIR`; \"\": no study at /study)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", pos[0])}
	}
	dir := *sample
	if dir == "" {
		if dir, err = findSample(); err != nil {
			return inputError{err}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "articles")); err != nil {
		return inputError{fmt.Errorf("%s: not the sample (no articles folder)", dir)}
	}
	// The URL and its QR code first: indexing may take a while, and a
	// browser opened on the URL meanwhile waits for the server.
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("serving on %s: %w", *addr, err)
	}
	printURLs(e, ln.Addr(), true)
	cfg, err := demoConfig(e, dir)
	if err != nil {
		ln.Close()
		return err
	}
	cfg.addr, cfg.allow, cfg.demo, cfg.ln, cfg.study = *addr, allow, true, ln, *study
	return serve(e, cfg)
}

// demoConfig indexes the sample in dir (or reuses its index) and returns what
// to serve.
func demoConfig(e *env, dir string) (serveConfig, error) {
	articles := filepath.Join(dir, "articles")
	if st, err := os.Stat(articles); err != nil || !st.IsDir() {
		return serveConfig{}, inputError{fmt.Errorf("%s: not the sample (no articles folder)", dir)}
	}
	idx, err := demoIndexPath()
	if err != nil {
		return serveConfig{}, err
	}
	if err := os.MkdirAll(filepath.Dir(idx), 0o755); err != nil {
		return serveConfig{}, err
	}
	abs, _ := filepath.Abs(articles)
	opt := index.BuildOptions{Articles: abs, Index: idx}
	started := false
	opt.Progress = func(p index.Progress) {
		switch {
		case e.stderrIsTerminal:
			fmt.Fprintf(e.stderr, "\rreadsim demo: indexing the sample: %d/%d articles", p.Done, p.Total)
		case !started:
			fmt.Fprintf(e.stderr, "readsim demo: indexing the sample (%d articles)", p.Total)
		}
		started = true
	}
	res, err := index.Build(opt)
	var ie *index.InputError
	if errors.As(err, &ie) {
		return serveConfig{}, inputError{err}
	}
	if err != nil {
		return serveConfig{}, fmt.Errorf("indexing the sample into %s: %w", idx, err)
	}
	if res.Indexed > 0 || res.Removed > 0 {
		if started {
			fmt.Fprintln(e.stderr)
		}
		printBuildSummary(e.stderr, idx, res)
	} else {
		fmt.Fprintf(e.stderr, "readsim demo: reusing the index of the sample in %s (%d articles, unchanged)\n", idx, res.Articles)
	}
	cfg := serveConfig{index: idx, articles: abs, liveK: 100}
	if q := filepath.Join(dir, "judgments.qrels"); exists(q) {
		cfg.qrels = q
	}
	if t := filepath.Join(dir, "topics.xml"); exists(t) {
		cfg.topics = t
	}
	runs, _ := filepath.Glob(filepath.Join(dir, "runs", "*"))
	// passage runs before document runs (.trec), so that the simulation
	// view opens on a reader who follows passages; by name otherwise
	isDoc := func(p string) bool { return strings.HasSuffix(p, ".trec") }
	sort.Slice(runs, func(i, j int) bool {
		if isDoc(runs[i]) != isDoc(runs[j]) {
			return !isDoc(runs[i])
		}
		return runs[i] < runs[j]
	})
	for _, r := range runs {
		if st, err := os.Stat(r); err == nil && st.Mode().IsRegular() && !strings.HasSuffix(r, ".md") {
			cfg.sample = append(cfg.sample, r)
		}
	}
	return cfg, nil
}

// demoIndexPath is where the demo keeps the sample's index.
func demoIndexPath() (string, error) {
	if p := os.Getenv("READSIM_DEMO_INDEX"); p != "" {
		return p, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	return filepath.Join(cache, "readsim", "demo-index"), nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// findSample looks for corpus-sample/ in the working folder and its parents,
// then beside the executable.
func findSample() (string, error) {
	wd, err := os.Getwd()
	if err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			if c := filepath.Join(d, "corpus-sample"); exists(filepath.Join(c, "articles")) {
				return c, nil
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		if c := filepath.Join(filepath.Dir(exe), "corpus-sample"); exists(filepath.Join(c, "articles")) {
			return c, nil
		}
	}
	return "", errors.New("corpus-sample/ not found in the working folder or its parents: run readsim demo from the repository, or give --sample DIR")
}

// printQR draws the QR code of u on standard output.
func printQR(e *env, u string) {
	fmt.Fprintln(e.stdout, "Scan to open it on a phone on the same network:")
	qrterminal.GenerateHalfBlock(u, qrterminal.L, e.stdout)
}
