package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
)

//go:embed static templates
var assets embed.FS

// Server is the prototype's HTTP handler.
type Server struct {
	opt     Options
	mux     *http.ServeMux
	limiter *limiter
	pages   *pageTemplates
	study   *studyStore           // nil: no study mode
	static  map[string]staticFile // "/static/…" → the file
	// conns tracks the open WebSockets, to close them on shutdown.
	connsMu sync.Mutex
	conns   map[*wsConn]struct{}
}

// New returns a server over opt. opt.Pages is required.
func New(opt Options) (*Server, error) {
	if opt.Pages == nil {
		return nil, errors.New("web: no article pages")
	}
	opt.defaults()
	t, err := parseTemplates()
	if err != nil {
		return nil, err
	}
	s := &Server{opt: opt, mux: http.NewServeMux(), pages: t, conns: map[*wsConn]struct{}{}}
	if opt.RatePerSecond > 0 {
		s.limiter = newLimiter(opt.RatePerSecond, opt.RateBurst)
	}
	if s.static, err = staticFiles(); err != nil {
		return nil, err
	}
	if opt.Study != nil {
		st := *opt.Study
		if err := st.check(); err != nil {
			return nil, err
		}
		s.opt.Study = &st
		if s.study, err = openStudy(st, s.opt.Logf); err != nil {
			return nil, err
		}
	}
	for pattern, h := range s.routes() {
		s.mux.HandleFunc(pattern, h)
	}
	return s, nil
}

// routes is the site's routing table: each pattern of http.ServeMux
// (method and path) and its handler. A qualified id's slash is escaped in
// the path (/article/ja%2F3951, as articleURL writes it): {id} matches one
// escaped segment and unescapes it. "GET /" is every other path: the site's
// own 404 page.
func (s *Server) routes() map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"GET /{$}":                s.handleHome,
		"GET /search":             s.handleSearch,
		"GET /article/{id}":       s.handleArticle,
		"GET /simulate":           s.handleSimulate,
		"GET /race":               s.handleRace,
		"GET /study":              s.handleStudy,
		"POST /study/consent":     s.handleConsent,
		"POST /study/events":      s.handleStudyEvents,
		"POST /study/withdraw":    s.handleWithdraw,
		"GET /api/search":         s.apiSearch,
		"GET /api/article/{id}":   s.apiArticle,
		"GET /api/topics":         s.apiTopics,
		"GET /api/runs":           s.apiRuns,
		"GET /api/relevant":       s.apiRelevant,
		"GET /api/replay":         s.apiReplay,
		"GET /ws/replay":          s.handleReplay,
		"GET /static/":            s.handleStatic,
		"GET /static/article.css": s.handleArticleCSS,
		"GET /favicon.ico":        s.handleFavicon,
		"GET /healthz":            handleHealth,
		"GET /":                   s.handleNotFound,
	}
}

// handleArticleCSS serves the article stylesheet (Options.ArticleCSS).
func (s *Server) handleArticleCSS(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Write(s.opt.ArticleCSS)
}

// handleFavicon sends /favicon.ico to the site's icon.
func (s *Server) handleFavicon(w http.ResponseWriter, r *http.Request) {
	http.Redirect(w, r, iconURL, http.StatusMovedPermanently)
}

// handleNotFound answers every path no other route has with the site's own
// 404 page.
func (s *Server) handleNotFound(w http.ResponseWriter, r *http.Request) {
	s.errorPage(w, r, http.StatusNotFound, "There is no page at this address.")
}

// handleHealth answers GET /healthz with "ok".
func handleHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write([]byte("ok\n"))
}

// maxBody is the largest request body accepted but on POST /study/events
// (MaxStudyBatchBytes): every other route is a GET or a study form of a
// few bytes, so any more is suspicious.
const maxBody = 1 << 10

// maxQuery is the longest query string accepted, in bytes.
const maxQuery = 2 << 10

// ServeHTTP applies the security headers and limits, then routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "SAMEORIGIN")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
	if s.limiter != nil && !s.limiter.allow(s.limitKey(r)) {
		w.Header().Set("Retry-After", "1")
		if r.Method == http.MethodGet && !strings.HasPrefix(r.URL.Path, "/api/") && !strings.HasPrefix(r.URL.Path, "/static/") && !strings.HasPrefix(r.URL.Path, "/ws/") {
			// a page: never a bare "too many requests"; it loads again
			w.Header().Set("Refresh", "2")
			s.render(w, r, http.StatusTooManyRequests, s.pages.errorPage, map[string]any{"Title": "A moment, please", "Status": http.StatusTooManyRequests,
				"Message": "Many people are reading at once: this page loads again in a moment. If it does not, reload it.", "HasSearch": s.opt.Searcher != nil})
			return
		}
		if s.studyFormPath(r) {
			// a consent or withdrawal refused: the study's own page, whose
			// form can be sent again (issue 36)
			s.studyBusy(w, r)
			return
		}
		refuse(w, r, http.StatusTooManyRequests, "the server is busy: try again in a second")
		return
	}
	limit := int64(maxBody)
	if r.Method == http.MethodPost && r.URL.Path == "/study/events" {
		limit = MaxStudyBatchBytes
	}
	if r.ContentLength > limit {
		if s.studyFormPath(r) {
			s.errorPage(w, r, http.StatusRequestEntityTooLarge, "The form could not be read: nothing was done. Please go back to the study's page and try again.")
			return
		}
		refuse(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body too large (at most %d bytes)", limit))
		return
	}
	if len(r.URL.RawQuery) > maxQuery {
		refuse(w, r, http.StatusRequestURITooLong, "query string too long")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	s.mux.ServeHTTP(w, r)
}

// refuse answers a request refused before routing: {"error": msg} for the
// JSON API and the study's events (as their handlers answer), plain text
// for the pages.
func refuse(w http.ResponseWriter, r *http.Request, status int, msg string) {
	if strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/study/events" {
		jsonError(w, status, msg)
		return
	}
	httpError(w, status, msg)
}

// csp allows only same-origin scripts, styles, images, frames and
// connections (the WebSocket included), and no inline code of any kind.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'self'"

// idPattern is what a step of an article id may look like: an id is the
// file name of an article without ".xml", or, for a file name several
// articles of the collection have, the article's path below the collection
// without ".xml" (en/3951, ja/3951: steps joined by "/", none starting with
// a dot, so none is "." or ".."). Ids are then looked up in the
// collection's table; this check only turns away junk early (and with it
// every path trick).
var idPattern = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$`)

// maxIDSteps is the most steps a qualified id may have.
const maxIDSteps = 16

// validID reports whether id is a well-formed article id: one to
// maxIDSteps steps of idPattern joined by "/".
func validID(id string) bool {
	steps := strings.Split(id, "/")
	if len(steps) > maxIDSteps {
		return false
	}
	for _, s := range steps {
		if !idPattern.MatchString(s) {
			return false
		}
	}
	return true
}

// ListenAndServe serves h on addr until ctx is done or SIGINT/SIGTERM
// arrives, then shuts down gracefully (open requests get up to 5 seconds).
// ready, when not nil, is called with the bound address once listening.
func ListenAndServe(ctx context.Context, addr string, s *Server, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return Serve(ctx, ln, s, ready)
}

// Serve is ListenAndServe on an open listener.
func Serve(ctx context.Context, ln net.Listener, s *Server, ready func(net.Addr)) error {
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          log.New(serverLog{s.opt.Logf}, "", 0),
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if ready != nil {
		ready(ln.Addr())
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s.closeSockets()
	err := srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	if e := <-errc; err == nil && !errors.Is(e, http.ErrServerClosed) {
		err = e
	}
	return err
}

// serverLog is the http.Server's error log: its lines go to Options.Logf
// with every network address taken out. net/http names the client in some
// ("http: panic serving 192.0.2.7:51234: …", "http: TLS handshake error
// from [2001:db8::1]:443: …"): the server logs no client address.
type serverLog struct{ logf func(string, ...any) }

// Write logs one line of net/http's log.
func (l serverLog) Write(b []byte) (int, error) {
	l.logf("%s", withoutAddresses(strings.TrimRight(string(b), "\n")))
	return len(b), nil
}

// addressPattern matches an IPv4 address or a bracketed IPv6 address
// (how net/http writes a remote address), with its port.
var addressPattern = regexp.MustCompile(`\[[0-9A-Fa-f:.]*(%[^\]]*)?\](:\d+)?|\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b`)

// withoutAddresses replaces the network addresses in a log line with
// "[address]".
func withoutAddresses(line string) string {
	return addressPattern.ReplaceAllString(line, "[address]")
}
