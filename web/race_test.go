package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestRacePage: the race offers every run and every run's document
// baseline (RUNID~doc), the topics with their titles escaped, and its
// scripts; without replays it is a 404.
func TestRacePage(t *testing.T) {
	s, _, _ := newTestServer(t, nil)
	w := get(t, s, "/race?topic=T1&a=runA")
	if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("status %d %s", w.Code, w.Header().Get("Content-Type"))
	}
	doc := parseDoc(t, w)
	var a, b []string
	doc.Find("#a option").Each(func(_ int, o *goquery.Selection) { v, _ := o.Attr("value"); a = append(a, v) })
	doc.Find("#b option").Each(func(_ int, o *goquery.Selection) { v, _ := o.Attr("value"); b = append(b, v) })
	if strings.Join(a, " ") != "runA runB runA~doc runB~doc" || strings.Join(b, " ") != " runA runB runA~doc runB~doc" {
		t.Errorf("run A offers %q, run B %q", a, b)
	}
	if got := doc.Find(`#b option[value=""]`).Text(); got != "the document baseline of run A" {
		t.Errorf("run B's default %q", got)
	}
	if topics, _ := doc.Find(`#a option[value="runB~doc"]`).Attr("data-topics"); topics != "T2 endless" {
		t.Errorf("runB~doc answers %q, want runB's topics", topics)
	}
	if got := doc.Find(`#topic option[value="T2"]`).Text(); got != "T2 coffee <beans>" {
		t.Errorf("topic T2 shown as %q", got)
	}
	for _, js := range []string{"/static/lane.js", "/static/race.js"} {
		if doc.Find(`script[src="`+js+`"]`).Length() != 1 {
			t.Errorf("the race does not load %s", js)
		}
	}
	// the frames are pictures: not focusable, not clickable
	if n := doc.Find("iframe[inert][tabindex='-1']").Length(); n != 2 {
		t.Errorf("%d inert frames, want 2", n)
	}
	s2, _, _ := newTestServer(t, func(o *Options) { o.Replayer = nil })
	if w := get(t, s2, "/race"); w.Code != 404 {
		t.Errorf("no replays: /race status %d", w.Code)
	}
}

// TestAPIReplay: the summary names the run as asked (a baseline keeps its
// ~doc), passes the reader to the replayer, and says which articles have
// no text on this server.
func TestAPIReplay(t *testing.T) {
	s, _, rep := newTestServer(t, nil)
	var r struct {
		Run, Base, Source, Topic, Title string
		Baseline                        bool
		Trel, NR, NoText                int
		T2I, Screen                     int
		Order                           string
		Measures                        []MeasureInfo
		DocScores                       []MeasureInfo
		Docs                            []struct {
			ID   string
			Text bool
		}
		Running [][]float64
	}
	w := get(t, s, "/api/replay?run=runA~doc&topic=T2&t2i=2000&screen=2000&order=best")
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Run != "runA~doc" || r.Base != "runA" || !r.Baseline || r.Source != "sample" || r.Topic != "T2" ||
		r.Title != "coffee <beans>" || r.T2I != 2000 || r.Screen != 2000 || r.Order != "best" || r.NR != 5 || r.Trel != 1 {
		t.Errorf("summary %+v", r)
	}
	if len(r.Docs) != 2 || !r.Docs[0].Text || r.Docs[1].Text || r.Docs[1].ID != "999" || r.NoText != 1 {
		t.Errorf("docs %+v, noText %d; want 101 with text, 999 without", r.Docs, r.NoText)
	}
	if len(r.Measures) != 1 || r.Measures[0] != (MeasureInfo{`AgP\T2Ip(300)`, "higher"}) || len(r.DocScores) != 2 || r.DocScores[1].Better != "lower" {
		t.Errorf("measures %+v %+v", r.Measures, r.DocScores)
	}
	if len(r.Running) != 2 || r.Running[1][0] != 0.5 {
		t.Errorf("running %v", r.Running)
	}
	want := ReplayRequest{Topic: "T2", Run: "runA", Order: "best", T2I: 2000, Screen: 2000, DocBaseline: true}
	if len(rep.sums) != 1 || rep.sums[0] != want {
		t.Errorf("Summary asked %+v, want %+v", rep.sums, want)
	}
	for _, q := range []string{"?run=nope", "?run=nope~doc", "?run=runA&topic=endless", "?order=up"} {
		var e map[string]string
		w := get(t, s, "/api/replay"+q)
		if json.Unmarshal(w.Body.Bytes(), &e); w.Code != 400 || e["error"] == "" {
			t.Errorf("%s: %d %v", q, w.Code, e)
		}
	}
}

// TestSiteNotFoundAndIcon: an unknown address is the site's own HTML 404
// page; the icon is there.
func TestSiteNotFoundAndIcon(t *testing.T) {
	s, _, _ := newTestServer(t, nil)
	for _, target := range []string{"/nope", "/static2/x", "/article"} {
		w := get(t, s, target)
		if w.Code != 404 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") ||
			!strings.Contains(w.Body.String(), `<link rel="stylesheet" href="/static/style.css">`) ||
			!strings.Contains(w.Body.String(), "There is no page at this address.") {
			t.Errorf("%s: %d %s\n%s", target, w.Code, w.Header().Get("Content-Type"), w.Body)
		}
	}
	if w := get(t, s, "/favicon.ico"); w.Code != http.StatusMovedPermanently || w.Header().Get("Location") != "/static/favicon.svg" {
		t.Errorf("/favicon.ico: %d %q", w.Code, w.Header().Get("Location"))
	}
	if w := get(t, s, "/static/favicon.svg"); w.Code != 200 || w.Header().Get("Content-Type") != "image/svg+xml" {
		t.Errorf("/static/favicon.svg: %d %q", w.Code, w.Header().Get("Content-Type"))
	}
}

// TestHomeOffersExamplesAndRace: the start page's example queries are the
// topics' titles, and it links to a race of the first run on its first topic.
func TestHomeOffersExamplesAndRace(t *testing.T) {
	s, _, _ := newTestServer(t, nil)
	doc := parseDoc(t, get(t, s, "/"))
	var ex []string
	doc.Find(".examples a").Each(func(_ int, a *goquery.Selection) { h, _ := a.Attr("href"); ex = append(ex, a.Text()+"="+h) })
	want := "lighthouse lens=/search?q=lighthouse+lens coffee <beans>=/search?q=coffee+%3Cbeans%3E never ends=/search?q=never+ends"
	if strings.Join(ex, " ") != want {
		t.Errorf("examples %q\nwant %q", strings.Join(ex, " "), want)
	}
	if h, _ := doc.Find(`a.button[href^="/race"]`).Attr("href"); h != "/race?topic=T1&a=runA" {
		t.Errorf("race link %q", h)
	}
	s2, _, _ := newTestServer(t, func(o *Options) { o.Replayer = nil })
	body := get(t, s2, "/").Body.String()
	if strings.Contains(body, "/race") || strings.Contains(body, `class="examples"`) {
		t.Error("a server without replays offers a race or examples")
	}
}

// TestTextsWithoutIndex: a server without a search index offers no search
// in its texts: the start page does not tell to open an article and follow
// ↓, and the 404 page's button goes to the start page by that name.
func TestTextsWithoutIndex(t *testing.T) {
	for _, tc := range []struct {
		name      string
		mod       func(*Options)
		want, not []string // on / and on the 404 page
	}{
		{"index", nil, []string{"Open an article", ">Search the articles</a>"}, []string{"no search index", "Go to the start page"}},
		{"no index", func(o *Options) { o.Searcher = nil },
			[]string{"This server has no search index: it replays runs, without search.", ">Go to the start page</a>", `href="/race?topic=T1&amp;a=runA"`},
			[]string{"Open an article", "Search the articles", `name="q"`}},
		{"no index, no runs", func(o *Options) { o.Searcher, o.Replayer = nil, nil },
			[]string{"This server has no search index.", ">Go to the start page</a>"},
			[]string{"Open an article", "Search the articles", "replays runs"}},
	} {
		s, _, _ := newTestServer(t, tc.mod)
		body := get(t, s, "/").Body.String() + get(t, s, "/nope").Body.String()
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: no %q on / or the 404 page", tc.name, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(body, w) {
				t.Errorf("%s: %q on / or the 404 page", tc.name, w)
			}
		}
	}
}

// TestResultsCountAndAnchors: the result list says how many articles it
// shows, and each entry has the id an article's ← comes back to and the
// language of its article (phones pick Han glyphs by it).
func TestResultsCountAndAnchors(t *testing.T) {
	s, pages, _ := newTestServer(t, nil)
	doc := parseDoc(t, get(t, s, "/search?q=lens+light"))
	if got := doc.Find("#count").Text(); got != "2 articles for lens light" {
		t.Errorf("count %q", got)
	}
	if n := doc.Find("li#r-101, li#r-102").Length(); n != 2 {
		t.Errorf("%d entries with ids r-101 and r-102", n)
	}
	// each entry's title and snippet are in its article's language, when
	// known (101 is English; 102's language is not known)
	if n := doc.Find(`li#r-101 .title[lang="en"], li#r-101 .snippet[lang="en"]`).Length(); n != 2 {
		t.Errorf("101: %d of its title and snippet with lang=en", n)
	}
	if n := doc.Find("li#r-102 [lang]").Length(); n != 0 {
		t.Errorf("102: %d elements with a lang, want none", n)
	}
	get(t, s, "/article/102?q=lens+light")
	if got := pages.last.opt.ResultsURL; got != "/search?q=lens+light#r-102" {
		t.Errorf("← of 102 leads to %q", got)
	}
	s3, _, _ := newTestServer(t, func(o *Options) { o.K = 1 })
	doc = parseDoc(t, get(t, s3, "/search?q=lens"))
	if got := doc.Find("#count").Text(); got != "The best article for lens" {
		t.Errorf("count at K %q", got)
	}
	doc = parseDoc(t, get(t, s, "/search?q=zzz"))
	if got := doc.Find("#count").Text(); got != "No article matches zzz." {
		t.Errorf("no match: %q", got)
	}
}
