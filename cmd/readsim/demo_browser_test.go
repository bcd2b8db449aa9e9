package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/readsim/readsim/internal/ground/headless"
)

// browser starts headless Chromium (internal/headless) at 360×640 with
// mobile emulation, until the test ends. The test is skipped with -short,
// and when Chromium is missing except under CI.
func browser(t *testing.T) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a browser")
	}
	ctx := headless.Tab(t, 360, 640)
	if err := chromedp.Do(ctx, phone()); err != nil {
		t.Fatalf("starting %s: %v", headless.Path, err)
	}
	return ctx
}

// phone emulates a 360×640 phone (touch, twice the pixels).
func phone() chromedp.Action[chromedp.Void] {
	return chromedp.EmulateViewport(360, 640, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2))
}

// shot saves a screenshot of the viewport in $READSIM_SCREENSHOTS (if set).
func shot(t *testing.T, ctx context.Context, name string) {
	dir := os.Getenv("READSIM_SCREENSHOTS")
	if dir == "" {
		return
	}
	b, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), b, 0o644); err != nil {
		t.Error(err)
	}
}

// eval runs a JavaScript expression with a time limit.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(c, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript predicate every 50ms, riding out navigations.
func waitFor(t *testing.T, ctx context.Context, what, expr string, limit time.Duration) {
	t.Helper()
	end := time.Now().Add(limit)
	var last error
	for time.Now().Before(end) {
		c, cancel := context.WithTimeout(ctx, 5*time.Second)
		ok, err := chromedp.Run(c, chromedp.Evaluate[bool](expr))
		cancel()
		if err == nil && ok {
			return
		}
		last = err
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("waiting for %s (%s): timed out after %v (last error: %v)", what, expr, limit, last)
}

// jsClick clicks the element from script, after the evaluation returns.
func jsClick(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	do(t, ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`setTimeout(() => document.querySelector(%q).click(), 0)`, sel)))
}

func do(t *testing.T, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(c, actions...); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserPhone reads on a phone-sized screen: search, open the first
// result, follow ↓ twice, go back to the results; then watches a replay and
// checks the final scores against readsim eval.
func TestBrowserPhone(t *testing.T) {
	t.Parallel() // a browser test waits more than it computes
	ctx := browser(t)
	d := startDemo(t)

	// The reading path.
	do(t, ctx, chromedp.Navigate(d.url+"/"))
	shot(t, ctx, "1-home")
	do(t, ctx,
		chromedp.SendKeys(`input[name="q"]`, "fresnel lens lighthouse"),
		chromedp.Submit(`input[name="q"]`),
	)
	waitFor(t, ctx, "results", `document.querySelectorAll(".hits .hit").length > 0`, 20*time.Second)
	shot(t, ctx, "2-results")
	resultsURL := eval[string](t, ctx, `location.href`)
	if !strings.Contains(resultsURL, "/search?q=fresnel+lens+lighthouse") {
		t.Errorf("results at %s", resultsURL)
	}
	firstHref := eval[string](t, ctx, `document.querySelector(".hits .hit").getAttribute("href")`)
	do(t, ctx, chromedp.Click(`.hits li:first-child a`))
	waitFor(t, ctx, "the article", `document.querySelector(".rs-doc") !== null`, 20*time.Second)
	if got := eval[string](t, ctx, `location.pathname + location.search`); got != firstHref {
		t.Errorf("opened %s, want the first result %s", got, firstHref)
	}
	if ct := eval[string](t, ctx, `document.contentType`); ct != "application/xhtml+xml" {
		t.Errorf("article served as %s", ct)
	}
	if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("the article is %dpx wide on a 360px screen", w)
	}
	shot(t, ctx, "3-article")
	y0 := eval[float64](t, ctx, `window.scrollY`)
	for k := 1; k <= 2; k++ {
		// The ↓ to passage k: in the top bar for k=1, at the end of passage k-1 after.
		sel := fmt.Sprintf(`a.rs-arrow[href="#p%d"]`, k)
		if n := eval[int](t, ctx, fmt.Sprintf(`document.querySelectorAll('%s').length`, sel)); n == 0 {
			t.Fatalf("no ↓ to passage %d", k)
		}
		do(t, ctx, chromedp.Click(sel))
		waitFor(t, ctx, fmt.Sprintf("passage %d", k), fmt.Sprintf(`location.hash === "#p%d"`, k), 10*time.Second)
		y := eval[float64](t, ctx, `window.scrollY`)
		if y <= y0 {
			t.Errorf("↓ to passage %d: scrollY %v, not below %v", k, y, y0)
		}
		y0 = y
		shot(t, ctx, fmt.Sprintf("4-passage%d", k))
	}
	// The back button: passage 2 → passage 1 → top of the article → results.
	for range 3 {
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`setTimeout(() => history.back(), 0)`))
		time.Sleep(300 * time.Millisecond)
	}
	waitFor(t, ctx, "the results again", `location.pathname === "/search" && document.querySelector(".hits") !== null`, 20*time.Second)
	if got := eval[string](t, ctx, `location.href`); got != resultsURL {
		t.Errorf("back at %s, want %s", got, resultsURL)
	}
	// ← goes to the same results too. (A page restored by the back button
	// is clicked through script: chromedp's DOM view of it is stale.)
	jsClick(t, ctx, `.hits li:first-child a`)
	waitFor(t, ctx, "the article", `document.querySelector(".rs-doc") !== null`, 20*time.Second)
	jsClick(t, ctx, `#top a.rs-arrow[aria-label="Back to the results"]`)
	waitFor(t, ctx, "the results via ←", `location.pathname === "/search" && document.querySelector(".hits") !== null`, 20*time.Second)
	if got := eval[string](t, ctx, `location.href`); got != resultsURL+"#r-1001" {
		t.Errorf("← led to %s, want %s#r-1001 (the entry of the article)", got, resultsURL)
	}

	// The simulation view: the e2e run's first topic, natural order, T2I 300, phone screen.
	topic := eval0(t, d)
	do(t, ctx, chromedp.Navigate(d.url+"/simulate?run="+d.runID+"&topic="+topic+"&order=natural&t2i=300&screen=300"))
	const readJS = `+document.getElementById("c-read").textContent.replace(/,/g, "")`
	waitFor(t, ctx, "the first read", readJS+` > 0`, 30*time.Second)
	if got := eval[string](t, ctx, `document.getElementById("play").textContent`); got != "Pause" {
		t.Errorf("while replaying the button reads %q, want Pause", got)
	}
	read1 := eval[int](t, ctx, readJS)
	// Let the reader go on until the frame has scrolled and more has been read.
	waitFor(t, ctx, "the frame to scroll", `document.querySelector("#lane iframe").contentWindow.scrollY > 0`, 30*time.Second)
	shot(t, ctx, "5-simulate")
	layout(t, ctx, "/simulate", []string{"#lane .screen", ".legend", ".counters", "#scores"})
	// no empty selects: the curves' document scores come from the replay
	if n := eval[[]int](t, ctx, `[document.getElementById("gpm").options.length, document.getElementById("ncem").options.length]`); n[0] == 0 || n[1] == 0 {
		t.Errorf("the curves' selects have %v options", n)
	}
	waitFor(t, ctx, "more reading", fmt.Sprintf(readJS+` > %d || document.getElementById("c-rank").textContent.indexOf("2 of") === 0`, read1), 30*time.Second)
	if n := eval[int](t, ctx, `document.querySelector("#lane iframe").contentDocument.querySelectorAll(".rs-read").length`); n == 0 {
		t.Error("no text marked as read in the frame")
	}
	// current scores: the article scores are those of the open article
	waitFor(t, ctx, "rank 2", `document.getElementById("c-rank").textContent.indexOf("1 of") !== 0`, 60*time.Second)
	for range 10 {
		v := eval[[]string](t, ctx, `[document.getElementById("c-rank").textContent, document.getElementById("ds-when").textContent]`)
		if rank, _, _ := strings.Cut(v[0], " of"); !strings.HasPrefix(v[1], "#"+rank+" ") {
			t.Errorf("the article scores are of %q while the reader is at rank %q", v[1], v[0])
			break
		}
		time.Sleep(150 * time.Millisecond)
	}
	// Then at full speed to the end.
	do(t, ctx, chromedp.SetValue(`#speed`, "max"))
	waitFor(t, ctx, "the topic's scores", `document.getElementById("scores-when").textContent.startsWith("final")`, 120*time.Second)
	waitFor(t, ctx, "Restart", `document.getElementById("play").textContent === "Restart"`, 20*time.Second)
	// at the end too: the frame, the counters and the final scores in the first screen
	layout(t, ctx, "/simulate at the end", []string{"#lane .screen", ".legend", ".counters", "#scores"})
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, document.querySelector(".chart").getBoundingClientRect().top + window.scrollY - 200)`))
	shot(t, ctx, "7-simulate-done")
	// the curves: labelled axes, their direction, 12-px labels
	if got := eval[string](t, ctx, `[...document.querySelectorAll("#gp-chart text, #nce-chart text")].map(e => e.textContent).join(" ")`); strings.Count(got, "rank") != 2 {
		t.Errorf("the curves' labels: %q", got)
	}
	if got := eval[string](t, ctx, `[...document.querySelectorAll(".chart figcaption")].map(e => e.textContent).join(" | ")`); !strings.Contains(got, "higher is better") || !strings.Contains(got, "lower is better") {
		t.Errorf("the curves do not say which way is better: %q", got)
	}
	shown := eval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll("#scores td[data-measure]")].map(td => [td.dataset.measure, td.dataset.value]))`)
	var names []string
	for m := range shown {
		names = append(names, m)
	}
	sameValues(t, "the simulation view", shown, evalTopic(t, d.qrels, d.runFile, topic, names, "--order", "natural"))
	t.Logf("topic %s: %d final scores equal readsim eval's", topic, len(shown))

	// Jump to rank 2, then pause and step: one event at a time.
	do(t, ctx, chromedp.SetValue(`#speed`, "1"), chromedp.SetValue(`#rank`, "2"))
	jsClick(t, ctx, `#jump`)
	waitFor(t, ctx, "rank 2", `document.getElementById("c-rank").textContent.indexOf("2 of") === 0`, 20*time.Second)
	if got := eval[string](t, ctx, `document.getElementById("c-read").textContent`); got != "0" {
		t.Errorf("at the opening of rank 2, %s characters read", got)
	}
	if eval[string](t, ctx, `document.getElementById("play").textContent`) == "Pause" {
		jsClick(t, ctx, `#play`)
	}
	waitFor(t, ctx, "paused", `document.getElementById("play").textContent === "Resume"`, 5*time.Second)
	before := eval[string](t, ctx, `document.getElementById("c-read").textContent + "|" + document.getElementById("c-rank").textContent`)
	time.Sleep(time.Second)
	if after := eval[string](t, ctx, `document.getElementById("c-read").textContent + "|" + document.getElementById("c-rank").textContent`); after != before {
		t.Errorf("paused, yet the counters moved: %s → %s", before, after)
	}
	// Steps until something is read: the first read event of rank 2.
	for i := 0; i < 5 && eval[string](t, ctx, `document.getElementById("c-read").textContent`) == "0"; i++ {
		jsClick(t, ctx, `#step`)
		time.Sleep(300 * time.Millisecond)
	}
	if got := eval[int](t, ctx, readJS); got <= 0 || got > 300 {
		t.Errorf("after stepping to the first read of rank 2: %d characters read, want 1…300 (one screen)", got)
	}
	shot(t, ctx, "8-simulate-step")
	if os.Getenv("READSIM_SCREENSHOTS") != "" { // the same view on a laptop, to look at
		do(t, ctx, chromedp.EmulateViewport(1100, 800), chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
		time.Sleep(500 * time.Millisecond)
		shot(t, ctx, "9-simulate-laptop")
	}
}

// eval0 is the first topic of the e2e run (from the API, as the page does).
func eval0(t *testing.T, d *demoServer) string {
	t.Helper()
	status, out, _ := runCLI("eval", "--qrels", d.qrels, "-q", "-m", "AP", d.runFile)
	if status != 0 {
		t.Fatal("eval failed")
	}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Split(line, "\t"); len(f) == 3 && f[1] != "all" {
			return f[1]
		}
	}
	t.Fatal("no topic in the run")
	return ""
}
