package main

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserHomeLinksToStudy: on a 360×640 phone the demo's start page
// shows a link to its reading study, inside the screen's width and with a
// box of its own (not hidden), and tapping it opens the study's consent
// page.
func TestBrowserHomeLinksToStudy(t *testing.T) {
	t.Parallel() // a browser test waits more than it computes
	ctx := browser(t)
	url, _, _ := startStudyDemo(t)
	do(t, ctx, chromedp.Navigate(url+"/"))
	const link = `main a[href="/study"]`
	box := eval[[]float64](t, ctx, `(() => {
  const a = document.querySelector('`+link+`');
  if (!a) return [];
  a.scrollIntoView({block: "center"});
  const r = a.getBoundingClientRect(), s = getComputedStyle(a);
  return [r.left, r.right, r.top, r.bottom, s.visibility === "visible" && s.display !== "none" ? 1 : 0, innerHeight];
})()`)
	if len(box) == 0 {
		t.Fatal("the start page has no link to /study")
	}
	if left, right, top, bottom, shown, h := box[0], box[1], box[2], box[3], box[4], box[5]; left < 0 || right > 360 || bottom-top < 20 || top < 0 || bottom > h || shown != 1 {
		t.Errorf("the study link at x %.0f–%.0f, y %.0f–%.0f of a %.0f px high screen, shown %v: want it on a 360 px wide screen, at least 20 px high", left, right, top, bottom, h, shown == 1)
	}
	if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("the start page is %d px wide on a 360 px screen", w)
	}
	shot(t, ctx, "home-study-link")
	jsClick(t, ctx, link)
	waitFor(t, ctx, "the study's page", `location.pathname === "/study" && document.querySelector("form") !== null`, 20*time.Second)
	if text := eval[string](t, ctx, `document.body.innerText`); !strings.Contains(strings.ToLower(text), "consent") {
		t.Errorf("the study's page says nothing of consent:\n%.300s", text)
	}
}
