package web

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"github.com/readsim/readsim/effort"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

func newTestServer(t *testing.T, mod func(*Options)) (*Server, *fakePages, *fakeReplayer) {
	t.Helper()
	pages := &fakePages{}
	rep := &fakeReplayer{}
	opt := Options{Searcher: fakeSearcher{}, Pages: pages, Replayer: rep, RatePerSecond: -1, ArticleCSS: []byte("body{}")}
	if mod != nil {
		mod(&opt)
	}
	s, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, pages, rep
}

func get(t *testing.T, h http.Handler, target string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest("GET", target, nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestSecurityHeaders(t *testing.T) {
	s, _, _ := newTestServer(t, nil)
	for _, target := range []string{"/", "/search?q=lens", "/article/101?q=lens", "/simulate", "/api/topics",
		"/api/search?q=lens", "/static/style.css", "/static/sim.js", "/nope", "/article/..%2fx"} {
		w := get(t, s, target)
		h := w.Header()
		csp := h.Get("Content-Security-Policy")
		if csp == "" || strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") ||
			!strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "style-src 'self'") {
			t.Errorf("%s: Content-Security-Policy %q", target, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q", target, h.Get("X-Content-Type-Options"))
		}
		if h.Get("Referrer-Policy") == "" {
			t.Errorf("%s: no Referrer-Policy", target)
		}
	}
}

func TestArticleIDsValidated(t *testing.T) {
	for _, target := range []string{
		"/article/..%2f..%2fetc%2fpasswd",
		"/article/..%2F..%2Fetc%2Fpasswd?q=x",
		"/article/%2e%2e",
		"/article/.hidden",
		"/article/a%00b",
		"/article/a%20b",
		"/article/" + strings.Repeat("a", 200),
		"/article/ja%2F%2F3951",                        // an empty step
		"/article/ja%2F.hidden",                        // a step starting with a dot
		"/article/" + strings.Repeat("a%2F", 16) + "a", // 17 steps
		"/api/article/..%2f..%2fetc%2fpasswd",
		"/api/relevant?topic=T1&doc=..%2f..%2fetc%2fpasswd",
		"/article/999",
	} {
		s, pages, _ := newTestServer(t, nil)
		w := get(t, s, target)
		if w.Code < 400 || w.Code >= 500 {
			t.Errorf("%s: status %d, want 4xx", target, w.Code)
		}
		if strings.Contains(w.Body.String(), "root:") {
			t.Errorf("%s: served a file", target)
		}
		for _, id := range pages.calls {
			if id != "999" {
				t.Errorf("%s: looked up id %q", target, id)
			}
		}
	}
}

func TestSearchPage(t *testing.T) {
	s, _, _ := newTestServer(t, nil)
	w := get(t, s, "/search?q=lens+light")
	if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("status %d, %s", w.Code, w.Header().Get("Content-Type"))
	}
	body := w.Body.String()
	// "lens" is in the first sentence of 101 and of 102, not in 103.
	for _, want := range []string{
		`href="/article/101?q=lens&#43;light"`,
		`href="/article/102?q=lens&#43;light"`,
		`Fresnel lens`,
		`Lighthouse &lt;keeper&gt;`,
		// the passages' lengths by hand: "A Fresnel lens is a compact
		// lens. " and "A keeper tends the light &amp; the lens. "
		`1 matching passage, 34 characters to read<`,
		`1 matching passage, 37 characters to read<`,
		`value="lens light"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("results page lacks %q", want)
		}
	}
	if strings.Contains(body, "/article/103") {
		t.Error("results page lists an article that does not match")
	}
	if i, j := strings.Index(body, "/article/101"), strings.Index(body, "/article/102"); i > j {
		t.Error("results out of rank order")
	}
}

func TestPassageCountPlural(t *testing.T) {
	s, _, _ := newTestServer(t, nil)
	// "a" occurs in the first two sentences of 101 (of three), in both
	// sentences of 102 and in the only one of 103.
	body := get(t, s, "/search?q=a").Body.String()
	if n := strings.Count(body, "2 matching passages"); n != 2 {
		t.Errorf("%d results with 2 passages, want 2", n)
	}
}

func TestEscaping(t *testing.T) {
	s, _, _ := newTestServer(t, nil)
	q := `<script>alert("x")</script>`
	for _, target := range []string{"/search?q=" + url.QueryEscape(q), "/api/search?q=" + url.QueryEscape(q)} {
		body := get(t, s, target).Body.String()
		if strings.Contains(body, "<script>alert") {
			t.Errorf("%s: query not escaped", target)
		}
	}
	body := get(t, s, "/simulate").Body.String()
	if !strings.Contains(body, "coffee &lt;beans&gt;") {
		t.Error("topic title not escaped on /simulate")
	}
}

func TestEmptyAndLongQueries(t *testing.T) {
	s, _, _ := newTestServer(t, nil)
	tests := []struct {
		target string
		status int
	}{
		{"/search?q=", http.StatusSeeOther},
		{"/search?q=+++", http.StatusSeeOther},
		{"/search?q=" + strings.Repeat("a", maxQueryChars+1), http.StatusBadRequest},
		{"/search?q=" + strings.Repeat("%C3%A9", maxQueryChars), http.StatusOK},
		{"/search?q=%ff", http.StatusBadRequest},
		{"/search?q=" + strings.Repeat("a", maxQuery+1), http.StatusRequestURITooLong},
		{"/api/search?q=", http.StatusBadRequest},
	}
	for _, tc := range tests {
		if w := get(t, s, tc.target); w.Code != tc.status {
			t.Errorf("%.60s: status %d, want %d", tc.target, w.Code, tc.status)
		}
	}
}

func TestArticlePage(t *testing.T) {
	s, pages, _ := newTestServer(t, nil)
	w := get(t, s, "/article/101?q=lighthouses+lens")
	if w.Code != 200 {
		t.Fatalf("status %d", w.Code)
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/xhtml+xml; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	// "lighthouses" is in the second sentence (with its trailing space).
	first := len("A Fresnel lens is a compact lens. ")
	second := len("It was made for lighthouses. ")
	want := []effort.Span{{Start: first, End: first + second}}
	if got := pages.last.passages; len(got) != 1 || got[0] != want[0] {
		t.Errorf("passages %v, want %v", got, want)
	}
	if got := pages.last.opt; got.ResultsURL != "/search?q=lighthouses+lens#r-101" || got.ResultsLabel != "Back to the results" || got.IconURL != "/static/favicon.svg" {
		t.Errorf("ResultsURL %q labelled %q, icon %q", got.ResultsURL, got.ResultsLabel, got.IconURL)
	}
	if got := pages.last.opt.ArticleURL("102"); got != "/article/102?q=lighthouses+lens" {
		t.Errorf("ArticleURL %q", got)
	}
	// links to articles the prototype does not have stay plain text
	for _, id := range []string{"999", "../101", ""} {
		if got := pages.last.opt.ArticleURL(id); got != "" {
			t.Errorf("ArticleURL(%q) = %q, want \"\" (no such article)", id, got)
		}
	}
	if cl := w.Header().Get("Content-Language"); cl != "en" {
		t.Errorf("Content-Language %q, want en", cl)
	}
	// the simulation frame: links to known articles stay in the frame
	get(t, s, "/article/101?p=0:5")
	if a, b := pages.last.opt.ArticleURL("102"), pages.last.opt.ArticleURL("999"); a != "#" || b != "" {
		t.Errorf("simulation frame: ArticleURL 102 %q, 999 %q; want # and empty", a, b)
	}
	// an article of unknown language: no Content-Language
	if w := get(t, s, "/article/102"); w.Header().Get("Content-Language") != "" {
		t.Errorf("Content-Language %q for an article of unknown language", w.Header().Get("Content-Language"))
	}
	if pages.last.opt.StylesheetURL != "/static/article.css" {
		t.Errorf("StylesheetURL %q", pages.last.opt.StylesheetURL)
	}
	if w := get(t, s, "/static/article.css"); w.Body.String() != "body{}" || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/css") {
		t.Errorf("article.css: %q %q", w.Body.String(), w.Header().Get("Content-Type"))
	}

	// Without a query: no passages, back to the search form.
	get(t, s, "/article/103")
	if got := pages.last.opt; len(pages.last.passages) != 0 || got.ResultsURL != "/" || got.ResultsLabel != "Back to the start page" {
		t.Errorf("no query: passages %v, ← to %q labelled %q", pages.last.passages, got.ResultsURL, got.ResultsLabel)
	}
}

func TestArticleExplicitPassages(t *testing.T) {
	tests := []struct {
		p      string
		status int
		want   []effort.Span
	}{
		{"p=3:5,20:4", 200, []effort.Span{{Start: 3, End: 8}, {Start: 20, End: 24}}},
		{"p=3:5&p=20:4", 200, []effort.Span{{Start: 3, End: 8}, {Start: 20, End: 24}}},
		{"p=", 200, nil},
		{"p=3", 400, nil},
		{"p=-1:5", 400, nil},
		{"p=1:0", 400, nil},
		{"p=x:y", 400, nil},
		{"p=" + strings.Repeat("1:1,", maxPassages+1), 400, nil},
	}
	for _, tc := range tests {
		s, pages, _ := newTestServer(t, nil)
		w := get(t, s, "/article/101?"+tc.p)
		if w.Code != tc.status {
			t.Errorf("%.40s: status %d, want %d", tc.p, w.Code, tc.status)
			continue
		}
		if tc.status != 200 {
			continue
		}
		got := pages.last.passages
		if len(got) != len(tc.want) {
			t.Errorf("%s: passages %v, want %v", tc.p, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: passages %v, want %v", tc.p, got, tc.want)
			}
		}
	}
}

func TestNoInlineCode(t *testing.T) {
	s, _, _ := newTestServer(t, nil)
	inlineScript := regexp.MustCompile(`<script(?:\s[^>]*)?>`)
	bad := []*regexp.Regexp{
		regexp.MustCompile(`(?i)\sstyle\s*=`),
		regexp.MustCompile(`(?i)\son[a-z]+\s*=`),
		regexp.MustCompile(`(?i)<style`),
		regexp.MustCompile(`(?i)javascript:`),
		regexp.MustCompile(`(?i)https?://`),
	}
	for _, target := range []string{"/", "/search?q=lens", "/simulate", "/search?q=zzz", "/article/999"} {
		body := get(t, s, target).Body.String()
		for _, m := range inlineScript.FindAllString(body, -1) {
			if !strings.Contains(m, `src="/static/`) {
				t.Errorf("%s: inline or foreign script %q", target, m)
			}
		}
		for _, re := range bad {
			if m := re.FindString(body); m != "" {
				t.Errorf("%s: %q", target, m)
			}
		}
	}
}

// TestPageWeight keeps the prototype's own pages light: with the
// stylesheets, scripts and icon they load (and frame.css, which the
// simulation frames add to the article pages; study.css, which the study's
// recorder adds to a participant's pages), under 50 KB as files and under
// 20 KB as a phone fetches them (gzipped). The study's pages are weighed
// for a visitor (the consent page) and for a participant.
func TestPageWeight(t *testing.T) {
	s := newStudyServer(t, t.TempDir(), nil)
	c := consent(t, s)
	ref := regexp.MustCompile(`(?:src|href)="(/static/[^"]+)"`)
	for _, tc := range []struct {
		target      string
		participant bool
	}{{"/", false}, {"/search?q=lens", false}, {"/simulate", false}, {"/race", false}, {"/nope", false},
		{"/study", false}, {"/study", true}, {"/search?q=lens", true}, {"/", true}} {
		target := tc.target
		var cookie *http.Cookie
		if tc.participant {
			cookie, target = c, target+" (participant)"
		}
		body := getWith(s, cookie, tc.target).Body.String()
		r := httptest.NewRequest("GET", tc.target, nil)
		r.Header.Set("Accept-Encoding", "gzip")
		if cookie != nil {
			r.AddCookie(cookie)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Header().Get("Content-Encoding") != "gzip" {
			t.Errorf("%s is not sent gzipped", target)
		}
		raw, sent := len(body), w.Body.Len()
		files := map[string]bool{}
		for _, m := range ref.FindAllStringSubmatch(body, -1) {
			files[m[1]] = true
		}
		if files["/static/lane.js"] {
			files["/static/frame.css"] = true
		}
		if files["/static/study.js"] != tc.participant {
			t.Errorf("%s: loads the recorder: %v", target, files["/static/study.js"])
		}
		if files["/static/study.js"] {
			files["/static/study.css"] = true
		}
		for f := range files {
			b, err := fs.ReadFile(assets, strings.TrimPrefix(f, "/"))
			if err != nil {
				t.Errorf("%s loads %s: %v", target, f, err)
			}
			raw += len(b)
			r := httptest.NewRequest("GET", f, nil)
			r.Header.Set("Accept-Encoding", "gzip, deflate, br")
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			if w.Code != 200 || w.Header().Get("Content-Encoding") != "gzip" {
				t.Errorf("%s: %d %q", f, w.Code, w.Header().Get("Content-Encoding"))
			}
			sent += w.Body.Len()
		}
		t.Logf("%s: %d bytes with %d static files, %d as sent", target, raw, len(files), sent)
		if raw > 50_000 || sent > 20_000 {
			t.Errorf("%s: %d bytes with its assets (%d sent), more than 50 KB (20 KB)", target, raw, sent)
		}
	}
}

// TestStaticGzip: the static files are the embedded ones, gzipped only for
// a client that takes it.
func TestStaticGzip(t *testing.T) {
	s, _, _ := newTestServer(t, nil)
	want, _ := fs.ReadFile(assets, "static/lane.js")
	for _, tc := range []struct {
		accept string
		gz     bool
	}{{"", false}, {"gzip", true}, {"br, gzip;q=0.5", true}, {"gzip;q=0", false}, {"identity", false}} {
		r := httptest.NewRequest("GET", "/static/lane.js", nil)
		if tc.accept != "" {
			r.Header.Set("Accept-Encoding", tc.accept)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		body := w.Body.Bytes()
		if tc.gz {
			zr, err := gzip.NewReader(w.Body)
			if err != nil {
				t.Fatalf("%q: %v", tc.accept, err)
			}
			body, _ = io.ReadAll(zr)
		}
		if (w.Header().Get("Content-Encoding") == "gzip") != tc.gz || !bytes.Equal(body, want) ||
			w.Header().Get("Vary") != "Accept-Encoding" || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/javascript") {
			t.Errorf("Accept-Encoding %q: %q, %d bytes, headers %v", tc.accept, w.Header().Get("Content-Encoding"), len(body), w.Header())
		}
	}
	if w := get(t, s, "/static/nope.js"); w.Code != 404 {
		t.Errorf("/static/nope.js: %d", w.Code)
	}
}

func TestAPI(t *testing.T) {
	s, _, _ := newTestServer(t, nil)
	decode := func(target string, v any) int {
		w := get(t, s, target)
		if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s: Content-Type %q", target, ct)
		}
		if err := json.Unmarshal(w.Body.Bytes(), v); err != nil {
			t.Errorf("%s: %v", target, err)
		}
		return w.Code
	}
	var sr struct {
		Query string `json:"query"`
		Hits  []Hit  `json:"hits"`
	}
	if decode("/api/search?q=coffee", &sr); sr.Query != "coffee" || len(sr.Hits) != 1 || sr.Hits[0].ID != "103" ||
		len(sr.Hits[0].Passages) != 1 || sr.Hits[0].Passages[0] != (effort.Span{Start: 0, End: 0 + 36}) {
		t.Errorf("/api/search: %+v", sr)
	}
	var ar struct {
		ID       string        `json:"id"`
		Title    string        `json:"title"`
		Length   int           `json:"length"`
		Lang     string        `json:"lang"`
		Passages []effort.Span `json:"passages"`
		Page     string        `json:"page"`
	}
	if decode("/api/article/102?q=lamp", &ar); ar.ID != "102" || ar.Length != 56 || ar.Page != "/article/102?q=lamp" ||
		len(ar.Passages) != 1 || ar.Passages[0] != (effort.Span{Start: 37, End: 37 + 19}) || ar.Lang != "" {
		t.Errorf("/api/article: %+v", ar)
	}
	if decode("/api/article/101", &ar); ar.Lang != "en" {
		t.Errorf("/api/article/101: lang %q, want en", ar.Lang)
	}
	var topics []Topic
	if decode("/api/topics", &topics); len(topics) != 3 || topics[1].Title != "coffee <beans>" {
		t.Errorf("/api/topics: %+v", topics)
	}
	var runs []RunInfo
	if decode("/api/runs", &runs); len(runs) != 2 || runs[1].Source != "flag" {
		t.Errorf("/api/runs: %+v", runs)
	}
	var rel []effort.Span
	if decode("/api/relevant?topic=T1&doc=101", &rel); len(rel) != 1 || rel[0] != (effort.Span{Start: 0, End: 0 + 10}) {
		t.Errorf("/api/relevant: %+v", rel)
	}
	var e map[string]string
	if code := decode("/api/relevant?topic=nope&doc=101", &e); code != 404 || e["error"] == "" {
		t.Errorf("/api/relevant unknown topic: %d %v", code, e)
	}
	if code := decode("/api/article/nope", &e); code != 404 {
		t.Errorf("/api/article/nope: %d", code)
	}
	// an article whose file is broken is a server error, not "no such article"
	if code := decode("/api/article/broken", &e); code != 500 || e["error"] != "the article cannot be read" {
		t.Errorf("/api/article/broken: %d %v", code, e)
	}
	if w := get(t, s, "/article/broken"); w.Code != 500 || !strings.Contains(w.Body.String(), "cannot be read") {
		t.Errorf("/article/broken: %d %s", w.Code, w.Body.String())
	}
}

func TestMethodsAndBodies(t *testing.T) {
	s, _, _ := newTestServer(t, nil)
	r := httptest.NewRequest("POST", "/search?q=x", strings.NewReader("q=x"))
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: status %d", w.Code)
	}
	r = httptest.NewRequest("GET", "/", strings.NewReader(strings.Repeat("x", 10_000)))
	w = httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("large body: status %d", w.Code)
	}
}

func TestRateLimit(t *testing.T) {
	s, _, _ := newTestServer(t, func(o *Options) { o.RatePerSecond = 1; o.RateBurst = 3 })
	now := time.Unix(1000, 0)
	s.limiter.now = func() time.Time { return now }
	codes := func(addr string, n int) []int {
		var c []int
		for range n {
			r := httptest.NewRequest("GET", "/healthz", nil)
			r.RemoteAddr = addr
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			c = append(c, w.Code)
		}
		return c
	}
	if got := codes("10.0.0.1:1234", 4); got[0] != 200 || got[2] != 200 || got[3] != 429 {
		t.Errorf("burst of 3: %v", got)
	}
	if got := codes("10.0.0.2:1234", 1); got[0] != 200 {
		t.Errorf("another client: %v", got)
	}
	now = now.Add(2 * time.Second) // two tokens back
	if got := codes("10.0.0.1:999", 3); got[0] != 200 || got[1] != 200 || got[2] != 429 {
		t.Errorf("after 2s: %v", got)
	}
	now = now.Add(2 * time.Minute) // idle buckets are forgotten
	codes("10.0.0.3:1", 1)
	if n := len(s.limiter.buckets); n != 1 {
		t.Errorf("%d buckets after sweeping, want 1", n)
	}
}

func TestSimulateWithoutReplayer(t *testing.T) {
	s, _, _ := newTestServer(t, func(o *Options) { o.Replayer = nil })
	if w := get(t, s, "/simulate"); w.Code != 404 {
		t.Errorf("status %d", w.Code)
	}
	if w := get(t, s, "/api/runs"); w.Body.String() != "[]\n" {
		t.Errorf("/api/runs %q", w.Body.String())
	}
}

func TestStaticServed(t *testing.T) {
	s, _, _ := newTestServer(t, nil)
	for _, tc := range []struct{ path, ctype string }{
		{"/static/style.css", "text/css"}, {"/static/sim.js", "text/javascript"}, {"/static/frame.css", "text/css"},
	} {
		w := get(t, s, tc.path)
		b, _ := io.ReadAll(w.Body)
		if w.Code != 200 || len(b) == 0 || !strings.HasPrefix(w.Header().Get("Content-Type"), tc.ctype) {
			t.Errorf("%s: %d %q", tc.path, w.Code, w.Header().Get("Content-Type"))
		}
	}
}

func TestSnippetHTML(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a [Fresnel] [lens] is", "a <b>Fresnel</b> <b>lens</b> is"},
		{"<i>[x]</i> & y", "&lt;i&gt;<b>x</b>&lt;/i&gt; &amp; y"},
		{"[<script>]", "<b>&lt;script&gt;</b>"},
		{"open [ bracket and [two words] and ]", "open [ bracket and [two words] and ]"},
		{"[[x]]", "[<b>x</b>]"},
		{"no bracket", "no bracket"},
		{"[]", "[]"},
	}
	for _, tc := range tests {
		if got := string(snippetHTML(tc.in)); got != tc.want {
			t.Errorf("snippetHTML(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
