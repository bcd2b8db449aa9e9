package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserPrototype walks the phone prototype at 360×640 as a new user:
// the start page's example queries and its race, the result count, ← back
// to the same entry of the list, ↓ keeping a section's heading in view, the
// article header as labelled metadata (2009 and 2006 formats), the site's
// 404 page and its icon; every page fits the screen with 48-px targets.
func TestBrowserPrototype(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
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
	icon := eval[string](t, ctx, `(() => { const x = new XMLHttpRequest(); x.open("GET", document.querySelector("link[rel=icon]").href, false); x.send(); return x.status + " " + x.getResponseHeader("Content-Type"); })()`)
	if icon != "200 image/svg+xml" {
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

	// ↓ from passage to passage: a passage that opens a section keeps its heading in view
	do(t, ctx, chromedp.Navigate(d.url+"/article/1001?q=fresnel+lens+lighthouse"))
	waitFor(t, ctx, "the article", `document.querySelector(".rs-doc") !== null`, 20*time.Second)
	passages := eval[int](t, ctx, `document.querySelectorAll(".rs-pass").length`)
	headed := 0
	for k := 1; k <= passages; k++ {
		do(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/article/1001?q=fresnel+lens+lighthouse#p%d", d.url, k)))
		waitFor(t, ctx, fmt.Sprintf("passage %d", k), fmt.Sprintf(`location.hash === "#p%d" && document.readyState === "complete"`, k), 10*time.Second)
		time.Sleep(100 * time.Millisecond)
		v := eval[[]float64](t, ctx, fmt.Sprintf(`(() => {
			const a = document.getElementById("p%d"), b = a.parentNode, h = b.previousElementSibling;
			const opens = a === b.firstElementChild && h && /^h[2-6]$/i.test(h.tagName) && b.parentNode.firstElementChild === h;
			const m = a.nextElementSibling;
			return [opens ? 1 : 0, opens ? h.getBoundingClientRect().top : 0, m.getBoundingClientRect().top];
		})()`, k))
		if v[0] == 1 {
			headed++
			if v[1] < 0 || v[2] > 640 {
				t.Errorf("↓ to passage %d: its section's heading at %.0f px, its text at %.0f px; want both in view", k, v[1], v[2])
			}
		}
	}
	if headed == 0 {
		t.Errorf("no passage of 1001 opens a section: the test checks nothing")
	}
	shot(t, ctx, "proto-heading")

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
