package render

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/internal/ground/headless"
)

// shared is the one headless Chromium of the package's browser tests, with
// one tab, started by the first test that needs it and closed by TestMain.
var shared struct {
	once   sync.Once
	tab    context.Context
	cancel func()
	err    error
}

// browserTab returns the shared browser tab. It skips the test when
// Chromium is missing, except when CI is set: there the test fails.
func browserTab(t *testing.T) context.Context {
	t.Helper()
	headless.Require(t)
	shared.once.Do(func() {
		shared.tab, shared.cancel = headless.New(0, 0)
		_, shared.err = chromedp.Run(shared.tab, chromedp.Navigate("about:blank"))
	})
	if shared.err != nil {
		t.Fatalf("starting chromium: %v", shared.err)
	}
	return shared.tab
}

// pageServer serves the pages of a browser test: /article/{id} as page
// answers for the request (XHTML under a Content-Security-Policy without
// 'unsafe-inline'; nil and no error: 404), /render.css and /render.js. It
// closes when the test ends.
func pageServer(t *testing.T, page func(r *http.Request) ([]byte, error)) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/article/{id}", func(w http.ResponseWriter, r *http.Request) {
		b, err := page(r)
		switch {
		case err != nil:
			http.Error(w, err.Error(), 500)
			return
		case b == nil:
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/xhtml+xml; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'self'")
		w.Write(b)
	})
	mux.HandleFunc("/render.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		w.Write([]byte(CSS))
	})
	mux.HandleFunc("/render.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Write([]byte(Script))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// session is a browser test's view of the shared tab: a context that ends
// at the test's time limit and a temporary folder for screenshots (logged).
type session struct {
	t     *testing.T
	ctx   context.Context
	shots string
}

// newSession starts a session on the shared tab (browserTab) for at most
// limit; name names the screenshots' folder.
func newSession(t *testing.T, name string, limit time.Duration) *session {
	t.Helper()
	tab := browserTab(t)
	shots, err := os.MkdirTemp("", "readsim-"+name+"-shots-")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", shots)
	ctx, cancel := context.WithTimeout(tab, limit)
	t.Cleanup(cancel)
	return &session{t: t, ctx: ctx, shots: shots}
}

// eval evaluates a JavaScript expression of number value in the page.
func (s *session) eval(expr string) float64 {
	s.t.Helper()
	v, err := chromedp.Run(s.ctx, chromedp.Evaluate[float64](expr))
	if err != nil {
		s.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// shot saves a screenshot of the viewport as name.png in the session's
// folder.
func (s *session) shot(name string) {
	s.t.Helper()
	png, err := chromedp.Run(s.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		s.t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(filepath.Join(s.shots, name+".png"), png, 0o644); err != nil {
		s.t.Fatal(err)
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.cancel != nil {
		shared.cancel()
	}
	os.Exit(code)
}

// wideArticle stresses the no-horizontal-scroll rule: a long word, a long
// URL, a wide table, deep lists.
const wideArticle = `<article xmlns:xlink="http://www.w3.org/1999/xlink"><header><title>Wide things</title><id>wide</id></header><bdy>
<p>Pneumonoultramicroscopicsilicovolcanoconiosisandsupercalifragilisticexpialidociouswithoutanyspaces is a long word, and so is https://example.org/a/very/long/path/that/never/ends/with/query?and=parameters&amp;more=parameters&amp;even=more.</p>
<table><row><header>One</header><header>Two</header><header>Three</header><header>Four</header><header>Five</header><header>Six</header><header>Seven</header><header>Eight</header></row>
<row><col>a cell</col><col>another cell</col><col>a third cell with words</col><col>4</col><col>5</col><col>6</col><col>7</col><col>eight eight eight</col></row></table>
<list><entry>one<list><entry>two<list><entry>three<list><entry>four: averyveryveryveryveryveryveryverylongwordinadeeplist</entry></list></entry></list></entry></list></entry></list>
<p><outsidelink xlink:href="https://example.org/">https://example.org/another/long/url/written/as/the/link/text/itself/0123456789</outsidelink></p>
</bdy></article>`

// TestBrowser loads rendered pages in headless Chromium at phone size, under
// the Content-Security-Policy the web server will send (no 'unsafe-inline'):
// no horizontal scrolling, the ↓ arrows bring each passage to the top, tap
// targets are 48×48, the highlight switch works, and readsimLocate finds
// every character offset. Screenshots go to a temporary folder (logged).
func TestBrowser(t *testing.T) {
	s := newSession(t, "render", 90*time.Second)
	ctx, eval, shot := s.ctx, s.eval, s.shot

	type doc struct {
		a  *article.Article
		ps []effort.Span
	}
	docs := map[string]doc{}
	for _, name := range []string{"2005", "1105"} {
		a, err := article.ParseFile(filepath.Join("testdata", name+".xml"))
		if err != nil {
			t.Fatal(err)
		}
		docs[name] = doc{a, []effort.Span{{Start: 200, End: 400}, {Start: 1048, End: 1530}, {Start: 2758, End: 2763}}}
	}
	docs["wide"] = doc{parse(t, "wide.xml", wideArticle), []effort.Span{{Start: 30, End: 60}}}
	opt := Options{StylesheetURL: "/render.css", ScriptURL: "/render.js", ResultsURL: "/search?q=caisson"}
	srv := pageServer(t, func(r *http.Request) ([]byte, error) {
		d, ok := docs[r.PathValue("id")]
		if !ok {
			return nil, nil
		}
		o := opt
		o.NoHighlight = r.URL.Query().Has("nohl")
		var b bytes.Buffer
		if err := Page(&b, d.a, d.ps, o); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	})

	do := func(what string, a chromedp.Action[chromedp.Void]) {
		t.Helper()
		if _, err := chromedp.Run(ctx, a); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	load := func(width int64, path string) {
		t.Helper()
		do("viewport", chromedp.EmulateViewport(width, 640, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait, chromedp.EmulateScale(2)))
		do("load "+path, chromedp.Navigate(srv.URL+path))
		do("wait", chromedp.WaitVisible(".rs-doc"))
		// the stylesheet came through the CSP: the arrows have their size
		if h := eval(`parseFloat(getComputedStyle(document.querySelector(".rs-arrow")).minHeight)`); h != 48 {
			t.Fatalf("%s: the stylesheet did not load (arrow min-height %vpx)", path, h)
		}
	}
	// passageTop is where the anchor of passage k and its first mark stand
	// relative to the top of the viewport.
	passageTop := func(k int) (anchor, mark float64) {
		anchor = eval(fmt.Sprintf(`document.getElementById("p%d").getBoundingClientRect().top`, k))
		mark = eval(fmt.Sprintf(`(function(){var a=document.getElementById("p%d"), m=a.nextElementSibling; while(m && m.tagName!="mark") m=m.nextElementSibling; return m.getBoundingClientRect().top})()`, k))
		return
	}

	for _, width := range []int64{360, 320} {
		for _, id := range []string{"2005", "1105", "wide"} {
			load(width, "/article/"+id)
			if sw := eval(`document.scrollingElement.scrollWidth`); sw > float64(width) {
				t.Errorf("%s at %dpx: scrollWidth %v: the page scrolls sideways", id, width, sw)
			}
			if width == 360 {
				shot(id + "-top")
			}
		}
	}

	load(360, "/article/2005")
	// every arrow and the switch are tap targets of at least 48×48
	small := eval(`Array.from(document.querySelectorAll(".rs-arrow, .rs-switch")).filter(function(e){var r=e.getBoundingClientRect(); return r.width < 48 || r.height < 48}).length`)
	if small != 0 {
		t.Errorf("%v tap targets smaller than 48×48", small)
	}
	if n := eval(`document.querySelectorAll(".rs-arrow, .rs-switch").length`); n != 2+1+3*2 {
		t.Errorf("%v tap targets, want 9 (← ↓ switch, two arrows after each of 3 passages)", n)
	}
	// the body text is comfortable: 17px type, a column of 328px
	if fs := eval(`parseFloat(getComputedStyle(document.querySelector(".rs-doc p")).fontSize)`); fs < 16 {
		t.Errorf("body text %vpx", fs)
	}
	if w := eval(`document.querySelector(".rs-doc").getBoundingClientRect().width`); w != 328 {
		t.Errorf("column %vpx wide, want 360-2×16", w)
	}

	// tap ↓ at the top: passage 1 comes to the top of the viewport
	do("tap ↓", chromedp.Tap(`nav#top a[href="#p1"]`))
	waitHash(t, ctx, "#p1")
	if a, m := passageTop(1); !near(a, 4, 4) || !near(m, 4, 8) {
		t.Errorf("after ↓: passage 1 anchor at %vpx, its text at %vpx from the top; want about 4 (scroll-margin)", a, m)
	}
	shot("2005-p1")
	// tap ↓ at the end of passage 1: passage 2 comes to the top
	do("tap ↓ after p1", chromedp.Tap(`.rs-nav a[href="#p2"]`))
	waitHash(t, ctx, "#p2")
	// passage 2 opens the first paragraph of a section: ↓ brings the
	// section's heading (two lines at 360px) to the top, the passage under it
	if tag := eval(`/^h[2-6]$/i.test(document.getElementById("p2").parentNode.previousElementSibling.tagName) ? 1 : 0`); tag != 1 {
		t.Fatalf("passage 2 of 2005 no longer opens a section: the test needs another passage")
	}
	h := eval(`document.getElementById("p2").parentNode.previousElementSibling.getBoundingClientRect().top`)
	hb := eval(`document.getElementById("p2").parentNode.previousElementSibling.getBoundingClientRect().bottom`)
	if _, m := passageTop(2); !near(h, 4, 4) || m < hb || m > hb+20 {
		t.Errorf("after the second ↓: the heading above passage 2 at %v–%vpx, the passage's text at %vpx; want the heading at about 4 and the text right under it", h, hb, m)
	}
	shot("2005-p2")
	// after the last passage: ↑ goes back to the top
	do("tap ↑", chromedp.Tap(`.rs-nav a[href="#top"]`))
	waitHash(t, ctx, "#top")
	if y := eval(`window.scrollY`); y > 1 {
		t.Errorf("after ↑: scrollY %v, want 0", y)
	}
	if got := eval(`document.querySelector('.rs-nav a[href="#top"]').previousElementSibling.getAttribute("href") == "/search?q=caisson" ? 1 : 0`); got != 1 {
		t.Errorf("the ← after the last passage does not go to the results")
	}

	// the highlight switch turns the marks off and on
	markBG := `getComputedStyle(document.querySelector("mark")).backgroundColor`
	bg := func() string {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](markBG))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if c := bg(); c != "rgb(255, 243, 168)" {
		t.Errorf("highlight on: mark background %s", c)
	}
	do("tap the switch", chromedp.Tap(`.rs-switch`))
	if c := bg(); c != "rgba(0, 0, 0, 0)" {
		t.Errorf("highlight switched off: mark background %s", c)
	}
	do("scroll to top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	shot("2005-highlight-off")
	do("tap the switch again", chromedp.Tap(`.rs-switch`))
	if c := bg(); c != "rgb(255, 243, 168)" {
		t.Errorf("highlight switched on again: mark background %s", c)
	}
	load(360, "/article/2005?nohl")
	if c := bg(); c != "rgba(0, 0, 0, 0)" {
		t.Errorf("NoHighlight: mark background %s", c)
	}

	// readsimLocate finds every character (the data-o rule), on a page with
	// multi-byte characters (1105: ã, í, “ ”)
	for _, id := range []string{"1105", "wide"} {
		load(360, "/article/"+id)
		a := docs[id].a
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](fmt.Sprintf(`(function(){var out=[]; for (var o=0;o<%d;o++){var p=readsimLocate(o); out.push(p ? String.fromCodePoint(p.node.data.codePointAt(p.index)) : "")} return out})()`, a.Len)))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != a.Len {
			t.Fatalf("%s: %d offsets located, want %d", id, len(got), a.Len)
		}
		o, bad := 0, 0
		for _, r := range a.Text {
			if got[o] != string(r) {
				if bad++; bad <= 5 {
					t.Errorf("%s: readsimLocate(%d) finds %q, want %q", id, o, got[o], string(r))
				}
			}
			o++
		}
		if eval(fmt.Sprintf(`readsimLocate(%d) === null ? 1 : 0`, a.Len)) != 1 {
			t.Errorf("%s: readsimLocate(Len) is not null", id)
		}
	}
	// readsimScrollTo brings an offset to the top
	load(360, "/article/1105")
	target := 2129 // "Much of the Brazilian crop", start of a paragraph
	if !strings.HasPrefix(docs["1105"].a.Slice(target, target+4), "Much") {
		t.Fatalf("test offset moved: %q", docs["1105"].a.Slice(target, target+10))
	}
	if eval(fmt.Sprintf(`readsimScrollTo(%d) ? 1 : 0`, target)) != 1 {
		t.Fatal("readsimScrollTo failed")
	}
	charTop := eval(fmt.Sprintf(`(function(){var p=readsimLocate(%d), r=document.createRange(); r.setStart(p.node,p.index); r.setEnd(p.node,p.index+1); return r.getBoundingClientRect().top})()`, target))
	paraTop := eval(`document.querySelector('p[data-o="2129"]').getBoundingClientRect().top`)
	if !near(charTop, 0, 1) || paraTop > 0 || paraTop < -6 {
		t.Errorf("after readsimScrollTo: the character is at %vpx, its paragraph at %vpx; want 0 and just above", charTop, paraTop)
	}
	shot("1105-scrollto")
}

func near(v, want, tol float64) bool { return math.Abs(v-want) <= tol }

// waitHash waits until the page's location ends with hash (the tap has
// navigated) and the scroll has settled.
func waitHash(t *testing.T, ctx context.Context, hash string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`location.hash === %q`, hash), chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Fatalf("waiting for %s: %v (location %s)", hash, err, loc)
	}
	chromedp.Run(ctx, chromedp.Sleep(100*time.Millisecond))
}
