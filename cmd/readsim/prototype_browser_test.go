package main

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserPrototype walks the phone prototype at 360×640 as a new user:
// the start page's example queries and its race, the result count, ← back
// to the same entry of the list, ↓ keeping the headings of the sections a
// passage opens in view (every passage of five articles), an article
// without a query (← to the start page, said so), the article header as
// labelled metadata (2009 and 2006 formats), the site's 404 page and the
// icon of every page; every page fits the screen with 48-px targets.
func TestBrowserPrototype(t *testing.T) {
	t.Parallel() // a browser test waits more than it computes
	ctx := browser(t)
	d := startDemo(t)
	start := time.Now()

	do(t, ctx, chromedp.Navigate(d.url+"/"))
	layout(t, ctx, "/", []string{".search", ".examples", `a.button[href^="/race"]`})
	examples := eval[[]string](t, ctx, `[...document.querySelectorAll(".examples a")].map(a => a.textContent)`)
	if len(examples) == 0 || examples[0] != "fresnel lens lighthouse" {
		t.Errorf("example queries %q, want the sample's topic titles", examples)
	}
	if got := eval[string](t, ctx, `document.querySelector('a.button[href^="/race"]').getAttribute("href")`); got != "/race?topic=2026001&a=readsim-ric" {
		t.Errorf("the start page races %q", got)
	}
	if icon := pageIcon(t, ctx); icon != "200 image/svg+xml" {
		t.Errorf("the icon: %s", icon)
	}
	shot(t, ctx, "proto-home")

	// an example query, then the third result, then ← back to it
	jsClick(t, ctx, `.examples a`)
	waitFor(t, ctx, "results", `document.querySelectorAll(".hits .hit").length >= 3`, 20*time.Second)
	count := eval[string](t, ctx, `document.getElementById("count").textContent`)
	n := eval[int](t, ctx, `document.querySelectorAll(".hits .hit").length`)
	if !strings.HasPrefix(count, fmt.Sprintf("%d articles for ", n)) && !strings.HasPrefix(count, fmt.Sprintf("The %d best articles for ", n)) {
		t.Errorf("result count %q for %d results", count, n)
	}
	layout(t, ctx, "/search", []string{"#count", ".hits li:first-child"})
	id := eval[string](t, ctx, `document.querySelectorAll(".hits li")[2].id`)
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.querySelectorAll(".hits li")[2].scrollIntoView()`))
	jsClick(t, ctx, `.hits li:nth-child(3) a`)
	waitFor(t, ctx, "the article", `document.querySelector(".rs-doc") !== null`, 20*time.Second)
	// the header: title, then "About this article" with labelled fields, no raw line
	about := eval[[]string](t, ctx, `[document.querySelector(".rs-doc h1").nextElementSibling.tagName.toLowerCase(), ...[...document.querySelectorAll(".rs-about .rs-label")].map(e => e.textContent)]`)
	if about[0] != "details" || !strings.Contains(strings.Join(about, "|"), "Article id") {
		t.Errorf("under the title: %q, want the folded About block with labelled fields", about)
	}
	jsClick(t, ctx, `#top a.rs-arrow[aria-label="Back to the results"]`)
	waitFor(t, ctx, "the results via ←", `location.pathname === "/search" && document.querySelector(".hits") !== null`, 20*time.Second)
	time.Sleep(300 * time.Millisecond)
	if got := eval[string](t, ctx, `location.hash`); got != "#"+id {
		t.Errorf("← came back to %q, want #%s", got, id)
	}
	r := eval[[]float64](t, ctx, fmt.Sprintf(`(() => { const r = document.getElementById(%q).getBoundingClientRect(); return [r.top, r.bottom, window.scrollY]; })()`, id))
	if r[0] < 56 || r[1] > 640 || r[2] == 0 {
		t.Errorf("← back: entry %s at %.0f–%.0f px (scrollY %.0f), want in view below the bar, not the top of the list", id, r[0], r[1], r[2])
	}
	shot(t, ctx, "proto-back")

	// ↓ to every passage of five articles: a passage that opens a section
	// shows its heading above it, and the headings of the sections it opens
	// with it (1002 p2: History, then Ancient lights); one in the middle of
	// a section comes to the top of the screen (no heading kept: README,
	// decisions). The queries are words of the articles' titles.
	headed, nested := 0, 0
	for _, a := range []struct{ id, q string }{
		{"1001", "fresnel lens lighthouse"}, {"1002", "lighthouse"}, {"1302", "magnetic"}, {"2102", "bacteria"}, {"2203", "babbage"},
	} {
		u := d.url + "/article/" + a.id + "?q=" + url.QueryEscape(a.q)
		do(t, ctx, chromedp.Navigate(u))
		waitFor(t, ctx, "article "+a.id, `document.querySelector(".rs-doc") !== null`, 20*time.Second)
		passages := eval[int](t, ctx, `document.querySelectorAll(".rs-pass").length`)
		if passages < 2 {
			t.Errorf("%s?q=%s: %d passages, want several", a.id, a.q, passages)
		}
		for k := 1; k <= passages; k++ {
			do(t, ctx, chromedp.Navigate(fmt.Sprintf("%s#p%d", u, k)))
			waitFor(t, ctx, fmt.Sprintf("%s passage %d", a.id, k), fmt.Sprintf(`location.hash === "#p%d" && document.readyState === "complete"`, k), 10*time.Second)
			time.Sleep(100 * time.Millisecond)
			// the headings the passage opens: its block follows a heading
			// that opens a section, which may follow its parent's heading…
			v := eval[[]float64](t, ctx, fmt.Sprintf(`(() => {
				const a = document.getElementById("p%d"), b = a.parentNode, tops = [];
				if (!a.previousSibling && b.localName !== "section") {
					for (let h = b.previousElementSibling, s = b.parentNode; h && /^h[2-6]$/.test(h.localName) && s.firstElementChild === h; h = s.previousElementSibling, s = s.parentNode) {
						tops.push(h.getBoundingClientRect().top);
					}
				}
				const r = document.createRange();
				r.setStartAfter(a);
				r.setEnd(b, b.childNodes.length);
				const line = [...r.getClientRects()].find(x => x.height > 0);
				const bottom = window.scrollY + innerHeight >= document.documentElement.scrollHeight - 1;
				return [line.top, line.bottom, bottom ? 1 : 0, ...tops];
			})()`, k))
			text, heads := v[:3], v[3:]
			where := fmt.Sprintf("↓ to %s passage %d", a.id, k)
			if text[0] < 0 || text[1] > 640 {
				t.Errorf("%s: its first line at %.0f–%.0f px, not on the screen", where, text[0], text[1])
			}
			for i, top := range heads {
				if top < 0 || top > text[0] {
					t.Errorf("%s: heading %d of %d it opens at %.0f px, its text at %.0f px; want the heading on the screen above it", where, i+1, len(heads), top, text[0])
				}
			}
			if len(heads) == 0 && text[0] > 60 && text[2] == 0 {
				t.Errorf("%s (in the middle of a section): its text at %.0f px, want it at the top", where, text[0])
			}
			if len(heads) > 0 {
				headed++
			}
			if len(heads) > 1 {
				nested++
			}
		}
	}
	if headed == 0 || nested == 0 {
		t.Errorf("%d passages open a section, %d a section and its subsection: the test checks too little", headed, nested)
	}
	shot(t, ctx, "proto-heading")

	// an article opened without a query: ← to the start page, said so; the
	// site's icon on the (XHTML) page
	do(t, ctx, chromedp.Navigate(d.url+"/article/1001"))
	waitFor(t, ctx, "the article without a query", `document.querySelector(".rs-doc") !== null`, 20*time.Second)
	if got := eval[string](t, ctx, `document.contentType + " " + [...document.querySelectorAll("a.rs-arrow")].filter(a => a.textContent === "←").map(a => a.getAttribute("href") + " " + a.getAttribute("aria-label")).join(", ")`); got != "application/xhtml+xml / Back to the start page" {
		t.Errorf("an article without a query: %q, want application/xhtml+xml and one ← to / labelled Back to the start page", got)
	}
	if icon := pageIcon(t, ctx); icon != "200 image/svg+xml" {
		t.Errorf("the article page's icon: %s", icon)
	}

	// a 2006 article: the name is the title, the conversion warnings a labelled field
	do(t, ctx, chromedp.Navigate(d.url+"/article/1006?q=fresnel+lens"))
	waitFor(t, ctx, "the 2006 article", `document.querySelector(".rs-doc h1") !== null`, 20*time.Second)
	got := eval[[]string](t, ctx, `[document.querySelector(".rs-doc h1").textContent, document.querySelector(".rs-doc h1").nextElementSibling.tagName.toLowerCase(), [...document.querySelectorAll(".rs-about .rs-field")].map(e => e.textContent).join("|")]`)
	if got[0] != "Cordouan lighthouse" || got[1] != "details" || got[2] != "Conversion warnings0" {
		t.Errorf("2006 header: %q", got)
	}
	if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("the 2006 article is %d px wide", w)
	}

	// the site's 404 page
	do(t, ctx, chromedp.Navigate(d.url+"/no/such/page"))
	waitFor(t, ctx, "the 404 page", `document.querySelector(".status-code") !== null`, 10*time.Second)
	if got := eval[string](t, ctx, `document.querySelector(".status-code").textContent + " " + getComputedStyle(document.querySelector(".bar")).backgroundColor`); got != "404 rgb(29, 35, 48)" {
		t.Errorf("404 page: %q", got)
	}
	layout(t, ctx, "404", []string{".status-code", "main a.button"})
	shot(t, ctx, "proto-404")
	t.Logf("prototype browser test: %v after the demo started", time.Since(start).Round(time.Millisecond))
}

// pageIcon fetches the page's icon (link rel=icon): its status and type.
func pageIcon(t *testing.T, ctx context.Context) string {
	t.Helper()
	return eval[string](t, ctx, `(() => { const l = document.querySelector("link[rel=icon]"); if (!l) return "no icon"; const x = new XMLHttpRequest(); x.open("GET", l.href, false); x.send(); return x.status + " " + x.getResponseHeader("Content-Type"); })()`)
}
