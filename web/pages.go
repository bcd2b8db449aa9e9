package web

import (
	"bytes"
	"compress/gzip"
	"errors"
	"github.com/readsim/readsim/effort"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
)

type pageTemplates struct {
	home, results, simulate, race, errorPage, study *template.Template
}

func parseTemplates() (*pageTemplates, error) {
	parse := func(name string) (*template.Template, error) {
		return template.New("").Funcs(template.FuncMap{
			"articleURL": articleURL,
			"snippet":    snippetHTML,
			"hitID":      hitID,
			"searchURL":  resultsURL,
			"langName":   langName,
			"passChars":  func(h Hit) string { return thousands(passageChars(h)) },
		}).ParseFS(assets, "templates/base.html", "templates/legend.html", "templates/"+name)
	}
	var t pageTemplates
	var err error
	for _, p := range []struct {
		t    **template.Template
		name string
	}{{&t.home, "home.html"}, {&t.results, "results.html"}, {&t.simulate, "simulate.html"}, {&t.race, "race.html"}, {&t.errorPage, "error.html"}, {&t.study, "study.html"}} {
		if *p.t, err = parse(p.name); err != nil {
			return nil, err
		}
	}
	return &t, nil
}

// articleURL is the prototype's link to article id for query q.
func articleURL(id, q string) string {
	u := "/article/" + url.PathEscape(id)
	if q != "" {
		u += "?q=" + url.QueryEscape(q)
	}
	return u
}

// resultsURL is the link back to the result list of q.
func resultsURL(q string) string {
	if q == "" {
		return "/"
	}
	return "/search?q=" + url.QueryEscape(q)
}

// hitID is the HTML id of article id's entry in a result list: an article's
// ← leads back to resultsURL#hitID, the entry the reader came from, not the
// top of the list. Article ids are safe in an id (idPattern).
func hitID(id string) string { return "r-" + id }

// iconURL is the site's icon, linked from every page.
const iconURL = "/static/favicon.svg"

// maxQueryChars is the longest search query accepted, in characters.
const maxQueryChars = 300

// render writes a page of the prototype, gzipped when the client takes it.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, t *template.Template, data any) {
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, "base", data); err != nil {
		s.opt.Logf("web: template: %v", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Vary", "Accept-Encoding")
	if s.study != nil {
		w.Header().Add("Vary", "Cookie") // a participant's pages load the study script
	}
	if acceptsGzip(r) {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(b.Bytes())
		zw.Close()
		w.Header().Set("Content-Encoding", "gzip")
		b = z
	}
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

// httpError answers a plain-text error.
func httpError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	w.Write([]byte(msg + "\n"))
}

func (s *Server) errorPage(w http.ResponseWriter, r *http.Request, status int, msg string) {
	s.render(w, r, status, s.pages.errorPage, map[string]any{"Title": http.StatusText(status), "Status": status, "Message": msg, "HasSearch": s.opt.Searcher != nil})
}

// query reads and checks the q parameter.
func query(r *http.Request) (string, bool) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	return q, utf8.ValidString(q) && utf8.RuneCountInString(q) <= maxQueryChars
}

// maxExamples is how many example queries the start page offers.
const maxExamples = 3

// examples are the start page's example queries: the titles of the first
// topics (the demo's are the sample's), when there is a search index.
func (s *Server) examples() []string {
	if s.opt.Searcher == nil || s.opt.Replayer == nil {
		return nil
	}
	var out []string
	for _, t := range s.opt.Replayer.Topics() {
		if q := strings.TrimSpace(t.Title); q != "" && utf8.RuneCountInString(q) <= maxQueryChars {
			out = append(out, q)
		}
		if len(out) == maxExamples {
			break
		}
	}
	return out
}

func (s *Server) handleHome(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, s.pages.home, map[string]any{
		"Title": "readsim", "HasSearch": s.opt.Searcher != nil, "HasSim": s.opt.Replayer != nil,
		"Examples": s.examples(), "RaceURL": s.raceURL(), "Study": s.inStudy(r), "HasStudy": s.study != nil,
	})
}

func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request) {
	q, ok := query(r)
	if !ok {
		s.errorPage(w, r, http.StatusBadRequest, "The query is too long or not valid text.")
		return
	}
	if q == "" {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	if s.opt.Searcher == nil {
		s.errorPage(w, r, http.StatusNotFound, "This server has no search index.")
		return
	}
	hits, err := s.opt.Searcher.Search(r.Context(), q, s.opt.K)
	if err != nil {
		s.opt.Logf("web: search %q: %v", q, err)
		s.errorPage(w, r, http.StatusInternalServerError, "The search failed.")
		return
	}
	s.render(w, r, http.StatusOK, s.pages.results, map[string]any{"Title": q + " – readsim", "Q": q, "Hits": hits, "K": s.opt.K, "Study": s.inStudy(r), "Langs": severalLangs(hits)})
}

// maxPassages is the most passages a page request may name.
const maxPassages = 500

// parsePassages reads OFFSET:LENGTH values (effort.ParseSpan, each number
// at most 2³⁰), comma-separated or repeated.
func parsePassages(vals []string) ([]effort.Span, bool) {
	if len(vals) > maxPassages {
		return nil, false
	}
	var ps []effort.Span
	for _, v := range vals {
		for _, f := range strings.Split(v, ",") {
			if f == "" {
				continue
			}
			p, err := effort.ParseSpan(f, 1<<30)
			if err != nil {
				return nil, false
			}
			ps = append(ps, p)
			if len(ps) > maxPassages {
				return nil, false
			}
		}
	}
	return ps, true
}

// handleArticle serves the anchored article page. With ?q= the passages are
// the live system's best passages for q; with ?p=OFFSET:LENGTH… (the
// simulation frame) they are the given ones.
func (s *Server) handleArticle(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !validID(id) {
		s.errorPage(w, r, http.StatusNotFound, "There is no such article.")
		return
	}
	// one snapshot for the whole page: its text and passages from one build
	pages, searcher, done := s.opt.snapshot()
	defer done()
	info, err := pages.Info(id)
	switch {
	case errors.Is(err, ErrNoArticle):
		s.errorPage(w, r, http.StatusNotFound, "There is no such article.")
		return
	case err != nil:
		// a broken article file: say so (the log names the file and line)
		s.opt.Logf("web: article %s: %v", id, err)
		s.errorPage(w, r, http.StatusInternalServerError, "This article cannot be read: its file is not well-formed.")
		return
	}
	q, ok := query(r)
	if !ok {
		s.errorPage(w, r, http.StatusBadRequest, "The query is too long or not valid text.")
		return
	}
	passages, ok := parsePassages(r.URL.Query()["p"])
	if !ok {
		s.errorPage(w, r, http.StatusBadRequest, "Bad passages: expected OFFSET:LENGTH.")
		return
	}
	sim := r.URL.Query().Has("p")
	if !sim && q != "" && searcher != nil {
		var err error
		passages, err = searcher.Passages(r.Context(), q, id)
		if err != nil {
			s.opt.Logf("web: passages %q %s: %v", q, id, err)
			s.errorPage(w, r, http.StatusInternalServerError, "The search failed.")
			return
		}
	}
	opt := s.pageOptions(r, pages, id, q, sim)
	page, err := pages.Render(id, passages, opt)
	if err != nil {
		s.opt.Logf("web: render %s: %v", id, err)
		s.errorPage(w, r, http.StatusInternalServerError, "The article could not be shown.")
		return
	}
	// application/xhtml+xml: the renderer writes well-formed XHTML, and the
	// XML parser then shows any mistake instead of guessing around it.
	w.Header().Set("Content-Type", "application/xhtml+xml; charset=utf-8")
	if s.study != nil {
		w.Header().Set("Vary", "Cookie")
	}
	if validLang(info.Lang) {
		w.Header().Set("Content-Language", info.Lang)
	}
	w.Write(page)
}

// pageOptions are the options of article id's page for the query q (sim:
// the page shows a simulated reader's passages, in the simulation frame).
func (s *Server) pageOptions(r *http.Request, pages Pages, id, q string, sim bool) PageOptions {
	// links lead to the articles the prototype has; the others stay text
	has := func(to string) bool { return validID(to) && pages.Has(to) }
	// ← leads back to the reader's entry in the results, or without a
	// query to the start page, and says which
	back, label := resultsURL(q), "Back to the start page"
	if q != "" {
		back += "#" + hitID(id)
		label = "Back to the results"
	}
	opt := PageOptions{
		ResultsURL:   back,
		ResultsLabel: label,
		IconURL:      iconURL,
		ArticleURL: func(to string) string {
			if !has(to) {
				return ""
			}
			return articleURL(to, q)
		},
		StylesheetURL: "/static/article.css",
		Highlight:     true,
	}
	if !sim && s.inStudy(r) {
		opt.ScriptURL = studyScript
	}
	if sim {
		// the simulation frame stays on the simulated reader's article
		opt.ResultsURL, opt.ResultsLabel = "/simulate", "Back to the simulation view"
		opt.ArticleURL = func(to string) string {
			if !has(to) {
				return ""
			}
			return "#"
		}
	}
	return opt
}

func (s *Server) handleSimulate(w http.ResponseWriter, r *http.Request) {
	if s.opt.Replayer == nil {
		s.errorPage(w, r, http.StatusNotFound, "This server has no judgments or runs to replay: start it with --qrels and --run.")
		return
	}
	topics := s.opt.Replayer.Topics()
	runs := s.opt.Replayer.Runs()
	s.render(w, r, http.StatusOK, s.pages.simulate, map[string]any{
		"Title": "Simulation – readsim", "Topics": topics, "Runs": runs,
	})
}

// validLang accepts a language tag fit for a header: 2 to 35 ASCII letters,
// digits and hyphens, starting with two letters.
func validLang(s string) bool {
	if len(s) < 2 || len(s) > 35 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		letter := c >= 'a' && c <= 'z'
		if i < 2 && !letter || !letter && !(s[i] >= '0' && s[i] <= '9') && s[i] != '-' {
			return false
		}
	}
	return true
}

// snippetHTML escapes a snippet and shows its matching words, which the
// searcher writes as [word], in bold.
func snippetHTML(s string) template.HTML {
	var b strings.Builder
	for s != "" {
		i := strings.IndexByte(s, '[')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+1:], ']')
		if j < 0 {
			break
		}
		word := s[i+1 : i+1+j]
		if word == "" || strings.ContainsAny(word, "[ \t\n") {
			b.WriteString(template.HTMLEscapeString(s[:i+1]))
			s = s[i+1:]
			continue
		}
		b.WriteString(template.HTMLEscapeString(s[:i]))
		b.WriteString("<b>")
		b.WriteString(template.HTMLEscapeString(word))
		b.WriteString("</b>")
		s = s[i+2+j:]
	}
	b.WriteString(template.HTMLEscapeString(s))
	return template.HTML(b.String())
}
