package main

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/readsim/readsim/index/article/shareddata"
	"github.com/readsim/readsim/internal/app"
	"github.com/readsim/readsim/internal/ground/headless"
)

// evalTopic runs readsim eval -q on one run file with the given measures
// and returns the topic's values.
func evalTopic(t *testing.T, qrels, run, topic string, measures []string, extra ...string) map[string]float64 {
	t.Helper()
	args := append([]string{"eval", "--qrels", qrels, "-q"}, extra...)
	for _, m := range measures {
		args = append(args, "-m", m)
	}
	args = append(args, run)
	status, out, errs := runCLI(args...)
	if status != 0 {
		t.Fatalf("readsim %v: %d\n%s", args, status, errs)
	}
	want := map[string]float64{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Split(line, "\t")
		if len(f) == 3 && f[1] == topic {
			v, err := strconv.ParseFloat(f[2], 64)
			if err != nil {
				t.Fatalf("eval line %q: %v", line, err)
			}
			want[f[0]] = v
		}
	}
	return want
}

// boardValues reads the race's score cells: run → measure → data-value.
func boardValues(t *testing.T, ctx context.Context) map[string]map[string]string {
	t.Helper()
	cells := eval[[][3]string](t, ctx, `[...document.querySelectorAll("#board td[data-measure]")].map(c => [c.dataset.run, c.dataset.measure, c.dataset.value])`)
	out := map[string]map[string]string{}
	for _, c := range cells {
		if out[c[0]] == nil {
			out[c[0]] = map[string]string{}
		}
		out[c[0]][c[1]] = c[2]
	}
	return out
}

// sameValues compares the shown values of one run with readsim eval's.
func sameValues(t *testing.T, what string, shown map[string]string, want map[string]float64) {
	t.Helper()
	if len(shown) == 0 || len(shown) != len(want) {
		t.Errorf("%s: %d values shown, readsim eval gives %d (%v / %v)", what, len(shown), len(want), shown, want)
	}
	for m, s := range shown {
		got, err := strconv.ParseFloat(s, 64)
		w, ok := want[m]
		if err != nil || !ok || math.Abs(got-w) > 1e-12 {
			t.Errorf("%s: %s shown %q, readsim eval %v (found %v)", what, m, s, w, ok)
		}
	}
}

// layout checks what a phone user sees at 360×640 without scrolling: the
// elements of inView entirely in the first viewport, no sideways scrolling,
// every visible control at least 48×48 CSS px, no text under 12 px (the
// page's own; the frames are pictures of the reader), and no text cut off
// (noCutText), every text at a contrast of 4.5:1 or more.
func layout(t *testing.T, ctx context.Context, page string, inView []string) {
	t.Helper()
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	for _, sel := range inView {
		r := eval[[]float64](t, ctx, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return [-1, -1, 0]; const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.height]; })()`, sel))
		if r[2] <= 0 || r[0] < 0 || r[1] > 640 {
			t.Errorf("%s: %s at %.0f–%.0f px (height %.0f), not in the first 640 px", page, sel, r[0], r[1], r[2])
		}
	}
	if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("%s: %d px wide on a 360-px screen: it scrolls sideways", page, w)
	}
	small := eval[[]string](t, ctx, `[...document.querySelectorAll("button, select, input, summary, a.button, a.chip, .bar a")].filter(e => {
		if (!e.checkVisibility()) return false;
		const r = e.getBoundingClientRect();
		return r.width > 0 && r.height > 0 && (r.width < 48 || r.height < 48);
	}).map(e => e.id || e.outerHTML.slice(0, 60))`)
	if len(small) > 0 {
		t.Errorf("%s: touch targets under 48 px: %q", page, small)
	}
	tiny := eval[[]string](t, ctx, `[...document.querySelectorAll("body *")].filter(e => {
		if (e.closest(".screen") && !e.closest("svg")) return false;
		const own = [...e.childNodes].some(n => n.nodeType === 3 && n.data.trim() !== "");
		if (!own) return false;
		const r = e.getBoundingClientRect();
		if (r.width === 0 || r.height === 0 || !e.checkVisibility()) return false;
		let px = parseFloat(getComputedStyle(e).fontSize);
		const svg = e.closest("svg");
		if (svg && svg.viewBox.baseVal && svg.viewBox.baseVal.width) px *= svg.clientWidth / svg.viewBox.baseVal.width;
		return px < 11.99;
	}).map(e => e.tagName + ":" + e.textContent.slice(0, 30))`)
	if len(tiny) > 0 {
		t.Errorf("%s: text under 12 px: %q", page, tiny)
	}
	noCutText(t, ctx, page)
	if low := eval[string](t, ctx, headless.LowContrast); low != "" {
		t.Errorf("%s: text below 4.5:1 contrast: %s", page, low)
	}
}

// noCutText fails when an element of the page shows its text cut off with
// "…": text-overflow ellipsis and text wider than the element (the frames
// are pictures of the reader, outside the page's text).
func noCutText(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	cut := eval[[]string](t, ctx, `[...document.querySelectorAll("body *")].filter(e => {
		if (e.closest(".screen") || !e.checkVisibility()) return false;
		const cs = getComputedStyle(e);
		return cs.textOverflow === "ellipsis" && e.scrollWidth > e.clientWidth;
	}).map(e => (e.id || e.className || e.tagName) + ": " + e.textContent.slice(0, 60))`)
	if len(cut) > 0 {
		t.Errorf("%s: text cut off with an ellipsis: %q", page, cut)
	}
}

// TestBrowserRace races the sample's passage run against its own document
// baseline and against the sample's document run, on a phone at full speed,
// and reads the scoreboard: every value equals readsim eval -q's for that
// topic and run (with --doc-baseline for the baseline). Then it watches a
// race at normal speed: the readers stay within one screen of characters of
// each other, the controls say what they will do, the frames take no taps.
func TestBrowserRace(t *testing.T) {
	t.Parallel() // a browser test waits more than it computes
	ctx := browser(t)
	d := startDemo(t)
	start := time.Now()
	const topic = "2026001" // fresnel lens lighthouse: both sample runs answer it
	tests := []struct {
		name, b      string
		runB         string // the run id B has on the board
		fileB        string
		baselineB    bool
		screenshotAs string
	}{
		{"baseline", "", "readsim-ric~doc", d.ric, true, "race-baseline"},
		{"documents", "readsim-doc", "readsim-doc", d.doc, false, "race-documents"},
	}
	for _, tc := range tests {
		u := d.url + "/race?topic=" + topic + "&a=readsim-ric&speed=max"
		if tc.b != "" {
			u += "&b=" + url.QueryEscape(tc.b)
		}
		do(t, ctx, chromedp.Navigate(u))
		waitFor(t, ctx, tc.name+": the final scores", `document.getElementById("board").dataset.final === "true"`, 60*time.Second)
		waitFor(t, ctx, tc.name+": the frames", `[...document.querySelectorAll(".lane iframe")].every(f => f.contentDocument && f.contentDocument.querySelector(".rs-doc"))`, 20*time.Second)
		shot(t, ctx, tc.screenshotAs)
		readingView(t, ctx, tc.name)
		shown := boardValues(t, ctx)
		if len(shown) != 2 {
			t.Fatalf("%s: the board shows runs %v, want readsim-ric and %s", tc.name, shown, tc.runB)
		}
		var names []string
		for m := range shown["readsim-ric"] {
			names = append(names, m)
		}
		sameValues(t, tc.name+": run A readsim-ric", shown["readsim-ric"], evalTopic(t, d.qrels, d.ric, topic, names))
		var extra []string
		if tc.baselineB {
			extra = []string{"--doc-baseline"}
		}
		sameValues(t, tc.name+": run B "+tc.runB, shown[tc.runB], evalTopic(t, d.qrels, tc.fileB, topic, names, extra...))
		// the measures are the replay's default set, named as readsim eval names them
		for _, m := range []string{`AgP\F(0.25)`, `AgP\T2Ip(300)`, `ANCE[100]\LE(300,5,300)`, `AP`} {
			if _, ok := shown["readsim-ric"][m]; !ok {
				t.Errorf("%s: no %s on the board (%v)", tc.name, m, names)
			}
		}
		// the winner: better on more measures
		winner := eval[string](t, ctx, `document.getElementById("verdict").dataset.winner || ""`)
		wa, wb := 0, 0
		dirs := eval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll("#board tbody tr")].filter(r => r.querySelector("td[data-measure]")).map(r => [r.querySelector("td[data-measure]").dataset.measure, (r.querySelector(".dir") || {}).textContent || ""]))`)
		for m, dir := range dirs {
			a, _ := strconv.ParseFloat(shown["readsim-ric"][m], 64)
			b, _ := strconv.ParseFloat(shown[tc.runB][m], 64)
			if dir == "↑" && a > b || dir == "↓" && a < b {
				wa++
			} else if dir == "↑" && b > a || dir == "↓" && b < a {
				wb++
			}
		}
		want := "draw"
		if wa > wb {
			want = "readsim-ric"
		} else if wb > wa {
			want = tc.runB
		}
		if winner != want {
			t.Errorf("%s: winner %q, want %q (better on %d and %d measures)", tc.name, winner, want, wa, wb)
		}
		t.Logf("%s: %d measures per run equal readsim eval's; %s won (%d–%d)", tc.name, len(names), winner, wa, wb)
		layout(t, ctx, "/race "+tc.name, []string{"#lane-a .screen", "#lane-b .screen", ".legend", "#board thead"})
		// the topic raced can be read whole at the top (the bar's summary,
		// or the line under it for a long title)
		if got := eval[string](t, ctx, `document.getElementById("setup-sum").textContent + " | " + document.getElementById("topic-line").textContent`); !strings.Contains(got, "fresnel lens lighthouse") {
			t.Errorf("%s: the topic at the top reads %q, want fresnel lens lighthouse", tc.name, got)
		}
	}

	raceWidths(t, ctx)

	// At normal speed: the reader behind goes next.
	do(t, ctx, chromedp.Navigate(d.url+"/race?topic="+topic+"&a=readsim-ric"))
	waitFor(t, ctx, "the race to start", `document.querySelectorAll("#board td[data-total]").length === 6 && +document.querySelector('#board td[data-total=read]').dataset.value > 0`, 30*time.Second)
	if got := eval[string](t, ctx, `document.getElementById("play").textContent`); got != "Pause" {
		t.Errorf("while racing the button reads %q, want Pause", got)
	}
	maxGap := 0
	for range 30 {
		v := eval[[]float64](t, ctx, `[...document.querySelectorAll('#board td[data-total=read]')].map(c => +c.dataset.value).concat([...document.querySelectorAll('.lane')].map(l => l.dataset.state === "done" ? 1 : 0))`)
		if v[2] == 0 && v[3] == 0 {
			maxGap = max(maxGap, int(math.Abs(v[0]-v[1])))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if maxGap == 0 || maxGap > 300 {
		t.Errorf("the readers' characters read differ by up to %d, want 1…300 (one screen)", maxGap)
	}
	shot(t, ctx, "race-live")
	// the frames are pictures: a tap in one changes nothing
	before := eval[string](t, ctx, `document.querySelector("#lane-a iframe").contentWindow.location.href`)
	if tag := eval[string](t, ctx, `(() => { const r = document.querySelector("#lane-a .screen").getBoundingClientRect(); return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2).tagName; })()`); tag == "IFRAME" {
		t.Error("the frame takes taps")
	}
	jsClick(t, ctx, `#play`)
	waitFor(t, ctx, "paused", `document.getElementById("play").textContent === "Resume"`, 5*time.Second)
	r := eval[[]float64](t, ctx, `(() => { const r = document.querySelector("#lane-a .screen").getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`)
	do(t, ctx, chromedp.MouseClickXY(r[0], r[1]))
	time.Sleep(300 * time.Millisecond)
	if after := eval[string](t, ctx, `document.querySelector("#lane-a iframe").contentWindow.location.href`); after != before {
		t.Errorf("a tap in the frame navigated it: %s → %s", before, after)
	}
	do(t, ctx, chromedp.SetValue(`#speed`, "max"))
	jsClick(t, ctx, `#play`)
	waitFor(t, ctx, "the end", `document.getElementById("play").textContent === "Restart"`, 60*time.Second)
	t.Logf("race browser test: %v after the demo started", time.Since(start).Round(time.Millisecond))
}

// readingView checks the frames of a race: the reading view only (no
// toolbar, arrows or highlight switch shown), no line of text cut at the
// frame's top edge, and each lane's label names its article ("#7 · article
// 2005").
func readingView(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	for _, lane := range []string{"lane-a", "lane-b"} {
		got := eval[[]string](t, ctx, `(() => {
			const f = document.querySelector("#`+lane+` iframe"), d = f.contentDocument, out = [];
			for (const e of d.querySelectorAll(".rs-top, .rs-nav, .rs-switch")) if (e.checkVisibility()) out.push("shown: " + e.className);
			const w = d.createTreeWalker(d.body, NodeFilter.SHOW_TEXT);
			for (let n = w.nextNode(); n; n = w.nextNode()) {
				if (!n.data.trim() || !n.parentElement.checkVisibility()) continue;
				const r = d.createRange(); r.selectNodeContents(n);
				for (const b of r.getClientRects()) if (b.top < -1 && b.bottom > 1) out.push("cut at the top: " + n.data.trim().slice(0, 30));
			}
			const label = document.querySelector("#`+lane+` .lane-doc").textContent;
			if (!/^#\d+ · article \S+/.test(label)) out.push("label " + label);
			return out;
		})()`)
		if len(got) > 0 {
			t.Errorf("%s: %s: %q", name, lane, got)
		}
	}
}

// raceWidths resizes a finished race from a small phone to a wide laptop
// screen: nothing scrolls sideways or is cut off, the scoreboard is at least
// 300 px wide and no name in it takes more than two lines (a measure's name
// once broke one letter a line at 760–880 px); under 1000 px the board is
// under the frames, from 1000 px beside them. It leaves the phone's screen.
func raceWidths(t *testing.T, ctx context.Context) {
	t.Helper()
	for _, w := range []int64{320, 360, 768, 800, 1024, 1280, 1600} {
		do(t, ctx, chromedp.EmulateViewport(w, 800), chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
		time.Sleep(100 * time.Millisecond)
		page := fmt.Sprintf("/race at %d px", w)
		v := eval[[]float64](t, ctx, `(() => {
			const b = document.getElementById("board").getBoundingClientRect(), l = document.getElementById("lane-b").getBoundingClientRect();
			return [document.documentElement.scrollWidth, b.width, b.left - l.right, b.top - l.bottom];
		})()`)
		if v[0] > float64(w) {
			t.Errorf("%s: %v px wide: it scrolls sideways", page, v[0])
		}
		if v[1] < 300 {
			t.Errorf("%s: the scoreboard is %.0f px wide, want 300 or more", page, v[1])
		}
		if beside := w >= 1000; beside && v[2] < 0 || !beside && v[3] < 0 {
			t.Errorf("%s: the board %.0f px right of the frames, %.0f px below them; want it beside them: %v", page, v[2], v[3], beside)
		}
		// lines of a cell: its text's boxes, those more than 8 px apart
		// vertically on different lines
		wrapped := eval[[]string](t, ctx, `[...document.querySelectorAll("#board th")].filter(th => {
			const r = document.createRange();
			r.selectNodeContents(th);
			const tops = [...r.getClientRects()].filter(x => x.width > 0).map(x => x.top).sort((a, b) => a - b);
			let lines = tops.length ? 1 : 0;
			for (let i = 1; i < tops.length; i++) if (tops[i] - tops[i - 1] > 8) lines++;
			return lines > 2;
		}).map(th => th.textContent)`)
		if len(wrapped) > 0 {
			t.Errorf("%s: names on more than two lines: %q", page, wrapped)
		}
		noCutText(t, ctx, page)
	}
	do(t, ctx, phone())
}

// inexServer is readsim serve on the INEX runs and judgments of
// ../shared/data/inex without an index, with the 2009 topics for their
// titles (the README's command): every article is drawn as a schematic.
type inexServer struct {
	url, qrels, ric, trec string
	stderr                *syncBuffer
}

// startINEX starts an inexServer, skipping the test when the data is absent
// (failing under CI); the server stops when the test ends.
func startINEX(t *testing.T) *inexServer {
	t.Helper()
	dir := shareddata.INEX(t)
	qrels := filepath.Join(dir, "inex2009-2010.qrels")
	x := &inexServer{qrels: qrels, ric: filepath.Join(dir, "passage-run.ric.fol"), trec: filepath.Join(dir, "article-run.trec")}
	x.url, x.stderr = startServe(t, app.ServeConfig{Qrels: qrels, Runs: []string{x.ric, x.trec}, Topics: filepath.Join(dir, "inex2009-topics.xml")})
	return x
}

// TestBrowserRaceINEX races the INEX runs of ../shared/data/inex on a
// server without an index: every article is a schematic, start-up and the
// page say so, and the scoreboard equals readsim eval -q. A topic with the
// longest title of the set still shows the frames and the whole board in
// the first screen, its title whole on a line of its own.
func TestBrowserRaceINEX(t *testing.T) {
	t.Parallel() // a browser test waits more than it computes
	ctx := browser(t)
	x := startINEX(t)
	for _, want := range []string{"run bertric: 11582 of its 11582 articles have no text", "run indri: 11682 of its 11682 articles have no text"} {
		if !strings.Contains(x.stderr.String(), want) {
			t.Errorf("start-up does not say %q:\n%s", want, x.stderr)
		}
	}
	start := time.Now()
	const topic = "2009001"
	do(t, ctx, chromedp.Navigate(x.url+"/race?topic="+topic+"&a=bertric&b=indri&speed=max"))
	waitFor(t, ctx, "the final scores", `document.getElementById("board").dataset.final === "true"`, 60*time.Second)
	waitFor(t, ctx, "the schematics", `[...document.querySelectorAll(".lane svg.schem")].every(s => !s.hidden && s.querySelector("text.sc-head")) && document.querySelectorAll(".lane svg.schem rect.sc-text").length > 0`, 20*time.Second)
	shot(t, ctx, "race-inex")
	if got := eval[string](t, ctx, `document.getElementById("notice").hidden ? "" : document.getElementById("notice").textContent`); !strings.Contains(got, "100 of 100 articles of bertric") || !strings.Contains(got, "100 of 100 articles of indri") {
		t.Errorf("the page's notice: %q", got)
	}
	if n := eval[int](t, ctx, `[...document.querySelectorAll(".lane iframe")].filter(f => !f.hidden).length`); n != 0 {
		t.Errorf("%d frames show a page for articles without text", n)
	}
	shown := boardValues(t, ctx)
	var names []string
	for m := range shown["bertric"] {
		names = append(names, m)
	}
	sameValues(t, "bertric", shown["bertric"], evalTopic(t, x.qrels, x.ric, topic, names))
	sameValues(t, "indri", shown["indri"], evalTopic(t, x.qrels, x.trec, topic, names))
	layout(t, ctx, "/race INEX", []string{"#lane-a .screen", "#lane-b .screen", "#notice", "#board thead"})
	if got := eval[string](t, ctx, `document.getElementById("setup-sum").textContent`); got != "Nobel prize" {
		t.Errorf("the bar's summary reads %q, want the topic's title Nobel prize", got)
	}
	t.Logf("INEX race: %d measures per run equal readsim eval's, in %v", len(names), time.Since(start).Round(time.Millisecond))

	// 2009004 has the set's longest title (86 characters, inex2009-topics.xml)
	const long = "mean average precision reciprocal rank references precision recall proceedings journal"
	do(t, ctx, chromedp.Navigate(x.url+"/race?topic=2009004&a=bertric&b=indri&speed=max"))
	waitFor(t, ctx, "the final scores of 2009004", `document.getElementById("board").dataset.final === "true" && document.querySelectorAll(".lane svg.schem rect.sc-text").length > 0`, 60*time.Second)
	layout(t, ctx, "/race INEX 2009004", []string{"#topic-line", "#lane-a .screen", "#lane-b .screen", "#notice", "#board thead"})
	if got := eval[[]string](t, ctx, `[document.getElementById("setup-sum").textContent, document.getElementById("topic-line").textContent]`); got[0] != "2009004" || got[1] != "2009004 "+long {
		t.Errorf("a long title: the bar reads %q and the line under it %q; want the id, then the id and the whole title", got[0], got[1])
	}
	shot(t, ctx, "race-inex-long")
}

// TestBrowserSimulateINEX watches one INEX reader on a server without text
// at 360×640: while it plays, and at the end, the frame (a schematic), the
// counters, the topic's scores and the line saying that the articles have
// no text are all in the first screen; with the set's longest title too.
func TestBrowserSimulateINEX(t *testing.T) {
	t.Parallel() // a browser test waits more than it computes
	ctx := browser(t)
	x := startINEX(t)
	inView := []string{"#reader", "#status", "#lane .screen", ".legend", ".counters", "#scores"}
	for _, topic := range []string{"2009001", "2009004"} {
		do(t, ctx, chromedp.Navigate(x.url+"/simulate?run=bertric&topic="+topic))
		waitFor(t, ctx, topic+": a schematic", `document.getElementById("play").textContent === "Pause" && document.querySelectorAll("#lane svg.schem rect.sc-text").length > 0`, 30*time.Second)
		if got := eval[string](t, ctx, `document.getElementById("status").textContent`); got != "No text here for 100 of 100 articles: schematics." {
			t.Errorf("%s: the status reads %q", topic, got)
		}
		layout(t, ctx, "/simulate INEX "+topic+" playing", inView)
		shot(t, ctx, "simulate-inex-"+topic)
		do(t, ctx, chromedp.SetValue(`#speed`, "max"))
		waitFor(t, ctx, topic+": the end", `document.getElementById("play").textContent === "Restart"`, 60*time.Second)
		layout(t, ctx, "/simulate INEX "+topic+" at the end", inView)
		if got := eval[string](t, ctx, `document.getElementById("scores-when").textContent`); got != "final, as readsim eval -q" {
			t.Errorf("%s: the topic scores are %q at the end", topic, got)
		}
	}
}
