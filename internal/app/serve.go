package app

import (
	"context"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/readsim/readsim/web"
)

// Listen says how a server listens and where it prints its URLs.
type Listen struct {
	// Addr is the listen address.
	Addr string
	// Listener, when not nil, is the listener to serve on, already bound
	// and its URLs printed (the demo prints them before indexing); Addr
	// then only names it in errors.
	Listener net.Listener
	// AllowOrigins are the extra Origins allowed to open the WebSocket.
	AllowOrigins []string
	// RatePerSecond is the request rate allowed per client address (0:
	// the web package's default; < 0: no limit): readsim serve
	// --rate-limit. Tests raise it.
	RatePerSecond float64
	// TrustedProxies are the reverse proxies whose X-Forwarded-For gives
	// the client's address (web.Options.TrustedProxies).
	TrustedProxies []*net.IPNet
	// URLs receives the server's URLs (web.PrintURLs) once it listens,
	// with QR the QR code of the URL a phone opens (the demo); nil: none.
	URLs io.Writer
	QR   bool
	// ReloadEvery is how often the server looks for a rebuilt index (0:
	// DefaultReloadEvery). Tests lower it.
	ReloadEvery time.Duration
	// Ready, when not nil, is called with the bound address once the
	// server listens (tests).
	Ready func(net.Addr)
}

// DefaultReloadEvery is how often a server looks for a rebuilt index.
const DefaultReloadEvery = 2 * time.Second

// Serve opens everything cfg names (Assemble), then serves it as l says
// until ctx is done or SIGINT/SIGTERM arrives (web.Serve: a graceful
// shutdown). Once listening it prints its URLs on l.URLs and says on
// cfg.Say "serving N articles, M run(s) to replay; Ctrl-C stops" ("(no
// index: no search)" after the articles without an index), and "stopped"
// at the end; the server's log goes to cfg.Say as well. A running server
// switches to a rebuilt index within l.ReloadEvery (Assembly.Watch).
func Serve(ctx context.Context, cfg ServeConfig, l Listen) error {
	if l.Listener != nil {
		defer l.Listener.Close()
	}
	cfg = cfg.withDefaults()
	a, err := Assemble(cfg)
	if err != nil {
		return err
	}
	defer a.Close()
	opt := a.Options
	opt.AllowOrigins, opt.RatePerSecond, opt.TrustedProxies = l.AllowOrigins, l.RatePerSecond, l.TrustedProxies
	opt.Logf = func(f string, args ...any) { cfg.Say(fmt.Sprintf(f, args...)) }
	srv, err := web.New(opt)
	if err != nil {
		return err
	}
	defer func() {
		// the study's stop logged and its folder's lock let go
		if err := srv.Close(); err != nil {
			cfg.Warn(fmt.Sprintf("the study's folder: %v", err))
		}
	}()
	every := l.ReloadEvery
	if every <= 0 {
		every = DefaultReloadEvery
	}
	defer a.Watch(ctx, every, opt.Logf)()
	ready := func(addr net.Addr) {
		if l.Listener == nil && l.URLs != nil {
			web.PrintURLs(l.URLs, addr, l.QR)
		}
		search := ""
		if opt.Searcher == nil {
			search = " (no index: no search)"
		}
		cfg.Say(fmt.Sprintf("serving %d articles%s, %d run(s) to replay; Ctrl-C stops", a.Articles, search, a.Runs))
		if l.Ready != nil {
			l.Ready(addr)
		}
	}
	if l.Listener != nil {
		err = web.Serve(ctx, l.Listener, srv, ready)
	} else {
		err = web.ListenAndServe(ctx, l.Addr, srv, ready)
	}
	if err != nil {
		return fmt.Errorf("serving on %s: %w", l.Addr, err)
	}
	cfg.Say("stopped")
	return nil
}
