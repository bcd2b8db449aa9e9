package render

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/chromedp/chromedp"

	"github.com/readsim/readsim/effort"
)

// TestBrowserWikipedia loads the page of every real article in the shared
// headless Chromium, one after the other in one tab, as a 360×640 phone
// (mobile emulation), each with three passages inside its body
// (bodyPassages), and checks:
//
//   - the page never scrolls sideways: the document's scrollWidth is at most
//     the viewport's width;
//   - every table box fits the screen and scrolls sideways inside itself;
//   - the title comes first, the categories last (below the body);
//   - the chain of arrows walks every passage: from the top, ↓ brings
//     passage 1's first character into the viewport, the ↓ after passage k
//     brings passage k+1's, and the ↑ after the last goes back to the top;
//   - the page's language is the article's.
//
// Screenshots of one English, one Chinese and one Korean article (top, a
// table, the end) go to a temporary folder, logged.
func TestBrowserWikipedia(t *testing.T) {
	docs := wikipedia(t)
	s := newSession(t, "wikipedia", 5*time.Minute)
	ctx, eval, shot := s.ctx, s.eval, s.shot
	type page struct {
		body []byte
		ps   []effort.Span
		text []int // the first non-space character of each passage
	}
	pages := map[string]*page{}
	for _, d := range docs {
		ps := NormalizePassages(bodyPassages(d.a), d.a.Len)
		var b bytes.Buffer
		opt := Options{StylesheetURL: "/render.css", ScriptURL: "/render.js", ResultsURL: "/search"}
		if err := Page(&b, d.a, ps, opt); err != nil {
			t.Fatal(err)
		}
		p := &page{body: b.Bytes(), ps: ps}
		for _, q := range ps {
			o := q.Start
			for _, r := range d.a.Slice(q.Start, q.End) {
				if !unicode.IsSpace(r) {
					break
				}
				o++
			}
			p.text = append(p.text, o)
		}
		pages[d.a.ID] = p
	}
	srv := pageServer(t, func(r *http.Request) ([]byte, error) {
		if p, ok := pages[r.PathValue("id")]; ok {
			return p.body, nil
		}
		return nil, nil
	})
	const width, height = 360, 640
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait, chromedp.EmulateScale(1))); err != nil {
		t.Fatal(err)
	}
	// follow clicks the link that the expression link finds and waits until
	// the location's hash is hash and the scroll has settled
	follow := func(link, hash string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](link+`.click()`)); err != nil {
			t.Fatalf("following %s: %v", link, err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`location.hash === %q`, hash), chromedp.WithPollingTimeout(5*time.Second))); err != nil {
			t.Fatalf("following %s: %v", link, err)
		}
		chromedp.Run(ctx, chromedp.Sleep(50*time.Millisecond))
	}
	shotsOf := map[string]string{"20976520": "en", "178952": "en-table", "11002": "ko", "133770": "zh"}
	scrollsInside := 0
	for _, d := range docs {
		id := d.a.ID
		p := pages[id]
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/article/"+id), chromedp.WaitVisible(".rs-doc")); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if sw := eval(`document.scrollingElement.scrollWidth`); sw > width {
			t.Errorf("%s: scrollWidth %v > %d: the page scrolls sideways", id, sw, width)
		}
		// tables: inside the screen (or, nested, inside the box of the
		// table around them), scrolling in their own box
		tables := eval(`document.querySelectorAll(".rs-table").length`)
		bad := eval(fmt.Sprintf(`Array.from(document.querySelectorAll(".rs-table")).filter(function(e){var r=e.getBoundingClientRect(); return !e.parentElement.closest(".rs-table") && (r.left < 0 || r.right > %d) || getComputedStyle(e).overflowX != "auto"}).length`, width))
		if bad > 0 {
			t.Errorf("%s: %v of %v tables stand out of the screen or do not scroll", id, bad, tables)
		}
		wide := eval(`(function(){var n=0; document.querySelectorAll(".rs-table").forEach(function(e){if (e.scrollWidth > e.clientWidth) {e.scrollLeft = 40; if (e.scrollLeft > 0 && window.scrollX == 0) n++; e.scrollLeft = 0}}); return n})()`)
		scrollsInside += int(wide)
		// the title first, the categories last
		if eval(`(function(){var h=document.querySelector(".rs-doc h1"), a=document.querySelector(".rs-about"), b=document.querySelector(".rs-body"); return h && h.getBoundingClientRect().bottom <= a.getBoundingClientRect().top && a.getBoundingClientRect().bottom <= b.getBoundingClientRect().top ? 1 : 0})()`) != 1 {
			t.Errorf("%s: the title and the About block do not come first, in that order", id)
		}
		if strings.Contains(d.raw, "<categories>") {
			if eval(`document.querySelector(".rs-cats").getBoundingClientRect().top >= document.querySelector(".rs-body").getBoundingClientRect().bottom ? 1 : 0`) != 1 {
				t.Errorf("%s: the categories are not below the body", id)
			}
		}
		if lang, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.lang`)); err != nil || lang != d.a.Lang {
			t.Errorf("%s: lang %q, want %q (%v)", id, lang, d.a.Lang, err)
		}
		name := shotsOf[id]
		if name != "" && !strings.HasSuffix(name, "-table") {
			shot(name + "-" + id + "-top")
		}
		// the chain of arrows
		for k := range p.ps {
			// from the top bar for passage 1, else from the arrows after
			// passage k (1-based): the k-th .rs-nav
			href := fmt.Sprintf("#p%d", k+1)
			link := fmt.Sprintf(`document.querySelector('nav#top a[href="%s"]')`, href)
			if k > 0 {
				link = fmt.Sprintf(`document.querySelectorAll(".rs-nav")[%d].querySelector('a[href="%s"]')`, k-1, href)
			}
			follow(link, href)
			top := eval(fmt.Sprintf(`(function(){var p=readsimLocate(%d); if (!p) return -1e9; var r=document.createRange(); r.setStart(p.node,p.index); r.setEnd(p.node,p.index+1); var b=r.getBoundingClientRect(); return b.height > 0 && b.bottom <= %d ? b.top : -1e9})()`, p.text[k], height))
			if top < 0 || top >= height {
				t.Errorf("%s: after following %s, the first character of passage %d (offset %d) is at %vpx, not in the viewport", id, href, k+1, p.text[k], top)
			}
		}
		if len(p.ps) > 0 {
			follow(fmt.Sprintf(`document.querySelectorAll(".rs-nav")[%d].querySelector('a[href="#top"]')`, len(p.ps)-1), "#top")
			if y := eval(`window.scrollY`); y > 1 {
				t.Errorf("%s: after ↑, scrollY %v", id, y)
			}
		}
		if name != "" {
			if eval(`document.querySelector(".rs-table") ? 1 : 0`) == 1 {
				eval(`(function(){var e=document.querySelector(".rs-table"); window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 60); return 0})()`)
				shot(name + "-" + id + "-table")
			}
			if !strings.HasSuffix(name, "-table") {
				eval(`(function(){window.scrollTo(0, document.scrollingElement.scrollHeight); return 0})()`)
				shot(name + "-" + id + "-end")
			}
		}
	}
	if scrollsInside == 0 {
		t.Errorf("no table is wider than the screen: the sideways scrolling inside a table box is not tested")
	}
	t.Logf("%d articles; %d tables wider than the screen scroll inside their box", len(docs), scrollsInside)
}
