package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/internal/app"
	"github.com/readsim/readsim/internal/ground/headless"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

// startStudyDemo serves the demo on the sample with a reading study in a
// temporary folder (or $READSIM_STUDY_DIR, to keep the recordings),
// returning the server's URL, the folder and the judgments.
func startStudyDemo(t *testing.T) (url, dir, qrels string) {
	t.Helper()
	return startStudyDemoTopics(t, 3, "")
}

// startStudyDemoTopics is startStudyDemo with perParticipant topics for
// each participant and the consent text of the file consent ("": the
// built-in one).
func startStudyDemoTopics(t *testing.T, perParticipant int, consent string) (url, dir, qrels string) {
	t.Helper()
	stderr := &syncBuffer{}
	cfg, e, tmp := demoSetup(t, &syncBuffer{}, stderr)
	cfg.StudyTopics, cfg.Consent = perParticipant, consent
	dir = filepath.Join(tmp, "study")
	if keep := os.Getenv("READSIM_STUDY_DIR"); keep != "" {
		dir = keep // the recordings kept (for the README's examples)
	}
	cfg.Study = dir
	url = serveLoopback(t, e, cfg, app.Listen{RatePerSecond: -1})
	abs, _ := filepath.Abs(dir)
	if !strings.Contains(stderr.String(), fmt.Sprintf("reading study at /study: 12 topics, %d per participant; recordings in %s", perParticipant, abs)) {
		t.Errorf("start-up does not say where the recordings go:\n%s", stderr)
	}
	return url, dir, cfg.Qrels
}

// screenJS, the test's own reckoning of a screen (not the recorder's): the
// view is the window above the study bar; the blocks are the article's
// paragraphs, headings and list items, each with its span [data-o,
// data-o + its characters, counted in code points without .rs-ui); it
// returns the spans of the first and last blocks on screen, in document
// order, the last also by a stricter rule (3 px inside the view), since a
// line cut by the view's edge may count either way.
const screenJS = `(() => {
  const y1 = document.querySelector(".st-bar").getBoundingClientRect().top;
  const span = b => {
    const c = b.cloneNode(true);
    c.querySelectorAll(".rs-ui").forEach(u => u.remove());
    return [+b.getAttribute("data-o"), +b.getAttribute("data-o") + [...c.textContent].length];
  };
  const on = [], strict = [];
  for (const b of document.querySelectorAll(".rs-doc :is(p,h1,h2,h3,h4,li)[data-o]")) {
    const r = b.getBoundingClientRect();
    if (r.height === 0 || r.bottom <= 0 || r.top >= y1) continue;
    on.push(span(b));
    if (r.top < y1 - 3 && r.bottom > 3) strict.push(span(b));
  }
  return {first: on[0], last: on[on.length - 1], lastStrict: strict[strict.length - 1], n: on.length};
})()`

type screenSpans struct {
	First, Last, LastStrict [2]int
	N                       int
}

// recLine is a recorded line as the test reads it.
type recLine struct {
	Ev       string   `json:"ev"`
	Topic    string   `json:"topic"`
	Rank     int      `json:"rank"`
	Doc      string   `json:"doc"`
	Seq      int      `json:"seq"`
	Run      string   `json:"run"`
	Q        string   `json:"q"`
	From     int      `json:"from"`
	To       int      `json:"to"`
	Passages [][2]int `json:"passages"`
	Outcome  string   `json:"outcome"`
	T        *int64   `json:"t"`
	Source   string   `json:"source"`
}

// TestBrowserStudy: a scripted participant at 360×640 on the demo's sample
// consents, gets a topic, searches, opens the first result, scrolls, follows
// ↓ to the first passage and says "Found it"; the recorded file holds the
// events in order, the article opened, the query typed, the passages shown
// (as /api/article gives them), the jump's target, ranges that match the
// screens (by the test's own reckoning from data-o, not the recorder's), and
// scores as the judged passages say.
func TestBrowserStudy(t *testing.T) {
	t.Parallel() // a browser test waits more than it computes
	ctx := browser(t)
	// 1.5 device pixels per CSS pixel: the README's screenshots (540×960)
	do(t, ctx, chromedp.EmulateViewport(360, 640, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(1.5)))
	url, dir, qrelsFile := startStudyDemo(t)
	// the pages' scripts throw nothing
	var exMu sync.Mutex
	var exceptions []string
	chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*cdpruntime.EventExceptionThrown); ok && e.ExceptionDetails != nil {
			msg := e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil {
				msg += " " + e.ExceptionDetails.Exception.Description
			}
			exMu.Lock()
			exceptions = append(exceptions, msg)
			exMu.Unlock()
		}
	})
	defer func() {
		exMu.Lock()
		defer exMu.Unlock()
		for _, e := range exceptions {
			t.Errorf("the page threw: %s", e)
		}
	}()

	// consent
	do(t, ctx, chromedp.Navigate(url+"/study"))
	waitFor(t, ctx, "the consent page", `document.querySelector("#study[data-state=consent] form") !== null`, 20*time.Second)
	shot(t, ctx, "study-consent")
	do(t, ctx, chromedp.Click(`input[name=consent]`), chromedp.Click(`.st-consent button[type=submit]`))
	waitFor(t, ctx, "the first topic", `document.querySelector("#study[data-state=topic]") !== null`, 20*time.Second)
	topic := eval[string](t, ctx, `document.getElementById("study").dataset.topic`)
	title := eval[string](t, ctx, `document.getElementById("study").dataset.title`)
	if topic != "2026001" || title != "fresnel lens lighthouse" {
		t.Errorf("first topic %s %q, want 2026001 (round robin from the first)", topic, title)
	}
	if eval[string](t, ctx, `document.querySelector(".st-desc").textContent`) == "" {
		t.Error("no description shown")
	}
	shot(t, ctx, "study-topic")

	// search with the topic's title, open the first result
	do(t, ctx, chromedp.SendKeys(`input[name="q"]`, title), chromedp.Submit(`input[name="q"]`))
	waitFor(t, ctx, "results", `document.querySelectorAll(".hits .hit").length > 0 && document.querySelector(".st-bar") !== null`, 20*time.Second)
	first := strings.TrimPrefix(eval[string](t, ctx, `document.querySelector(".hits li").id`), "r-")
	do(t, ctx, chromedp.Click(`.hits li:first-child a`))
	waitFor(t, ctx, "the article with the study bar", `document.querySelector(".rs-doc") !== null && document.querySelector(".st-bar") !== null`, 20*time.Second)
	time.Sleep(700 * time.Millisecond) // the open and the first screen
	screens := []screenSpans{eval[screenSpans](t, ctx, screenJS)}
	h1 := eval[int](t, ctx, `+document.querySelector(".rs-doc h1").getAttribute("data-o")`)
	// the folded "About this article": its text is on no screen
	about := eval[[2]int](t, ctx, `(() => { const d = document.querySelector("details.rs-about"); return d.open ? [0, 0] :
		[+d.querySelector("[data-o]").getAttribute("data-o"), +d.parentNode.querySelector(".rs-cats").getAttribute("data-o")]; })()`)
	if about[1] <= about[0] {
		t.Errorf("the folded block's span %v", about)
	}

	// ↓ in the top bar: to the first passage
	p1 := eval[int](t, ctx, `+document.getElementById("p1").getAttribute("data-o")`)
	p1Block := eval[int](t, ctx, `+document.getElementById("p1").parentNode.closest("[data-o]").getAttribute("data-o")`)
	do(t, ctx, chromedp.Click(`#top a.rs-arrow[href="#p1"]`))
	waitFor(t, ctx, "passage 1", `location.hash === "#p1"`, 10*time.Second)
	time.Sleep(900 * time.Millisecond)
	screens = append(screens, eval[screenSpans](t, ctx, screenJS))

	// scroll so that the fourth paragraph of the body starts 10 px below
	// the top (the block before it is off screen: its margin is wider);
	// mark is the page's clock (t) before the scroll
	mark := eval[int64](t, ctx, `Date.now() - JSON.parse(localStorage.getItem("readsim-study")).t0`)
	para := eval[int](t, ctx, `(() => { const p = document.querySelectorAll(".rs-body p")[3]; window.scrollTo(0, p.getBoundingClientRect().top + scrollY - 10); return +p.getAttribute("data-o"); })()`)
	time.Sleep(900 * time.Millisecond)
	screens = append(screens, eval[screenSpans](t, ctx, screenJS))
	shot(t, ctx, "study-reading")

	// ← to the results (the page's stop is sent as it goes), the second
	// result (no new query: the same list)
	jsClick(t, ctx, `#top a.rs-arrow[aria-label="Back to the results"]`)
	waitFor(t, ctx, "the results again", `location.pathname === "/search" && document.querySelector(".hits") !== null && document.querySelector(".st-bar") !== null`, 20*time.Second)
	second := strings.TrimPrefix(eval[string](t, ctx, `document.querySelectorAll(".hits li")[1].id`), "r-")
	jsClick(t, ctx, `.hits li:nth-child(2) a`)
	waitFor(t, ctx, "the second article", `document.querySelector(".rs-doc[data-id='`+second+`']") !== null && document.querySelector(".st-bar") !== null`, 20*time.Second)
	h1b := eval[int](t, ctx, `+document.querySelector(".rs-doc h1").getAttribute("data-o")`)
	time.Sleep(700 * time.Millisecond)

	// the study bar: every text readable (Found it included), the topic
	// whole, not cut
	if low := eval[string](t, ctx, headless.LowContrast); low != "" {
		t.Errorf("an article with the study bar: text below 4.5:1 contrast: %s", low)
	}
	if cut := eval[string](t, ctx, `(() => { const e = document.querySelector(".st-bar .st-tt"); return e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1 || getComputedStyle(e).textOverflow === "ellipsis" ? e.textContent : ""; })()`); cut != "" {
		t.Errorf("the study bar cuts the topic %q", cut)
	}

	// Found it: the next topic
	do(t, ctx, chromedp.Click(`.st-bar .st-found`))
	waitFor(t, ctx, "the second topic", `location.pathname === "/study" && document.querySelector("#study[data-state=topic]") !== null && document.getElementById("study").dataset.topic !== "`+topic+`"`, 20*time.Second)
	time.Sleep(500 * time.Millisecond) // no event: the next topic is only shown
	files, _ := filepath.Glob(filepath.Join(dir, "P-*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("recordings %v", files)
	}
	lines := readRecLines(t, files[0])
	// give up the second topic without searching: its topic event and a
	// done, then the third topic
	topic2 := eval[string](t, ctx, `document.getElementById("study").dataset.topic`)
	do(t, ctx, chromedp.Click(`#st-skip`))
	waitFor(t, ctx, "the third topic", `document.querySelector("#study[data-state=topic]") !== null && document.getElementById("study").dataset.topic !== "`+topic2+`"`, 20*time.Second)
	if more := readRecLines(t, files[0])[len(lines):]; len(more) != 2 || more[0].Ev != "topic" || more[0].Topic != topic2 ||
		more[1].Ev != "done" || more[1].Outcome != "gave up" || more[1].Topic != topic2 {
		t.Errorf("giving up topic %s: %+v", topic2, more)
	}

	participant := strings.TrimSuffix(filepath.Base(files[0]), ".jsonl")

	// the events, in order
	var kinds []string
	for i, l := range lines {
		kinds = append(kinds, l.Ev)
		if l.Seq != i+1 || l.Source != "recorded" || l.T == nil || i > 0 && *l.T < *lines[i-1].T {
			t.Errorf("line %d: seq %d, source %q, t %v", i+1, l.Seq, l.Source, l.T)
		}
	}
	seq := strings.Join(kinds, " ")
	t.Logf("events: %s", seq)
	want := "topic query open read( read)* jump read( read)* stop open read( read)* stop done"
	if !matchKinds(seq, want) {
		t.Fatalf("events %s, want %s", seq, want)
	}
	if l := lines[0]; l.Topic != topic || l.Run != participant {
		t.Errorf("topic event %+v", l)
	}
	if l := lines[1]; l.Q != title {
		t.Errorf("query %q, want %q", l.Q, title)
	}
	open := lines[2]
	if open.Doc != first || open.Rank != 1 {
		t.Errorf("open %s at rank %d, want %s at 1", open.Doc, open.Rank, first)
	}
	var api struct {
		Passages []effort.Span `json:"passages"`
	}
	getJSON(t, url+"/api/article/"+first+"?q="+strings.ReplaceAll(title, " ", "+"), &api)
	if got, want := fmt.Sprint(open.Passages), fmt.Sprint(spanPairs(api.Passages)); got != want || len(api.Passages) == 0 {
		t.Errorf("passages shown %s, want %s", got, want)
	}

	// the reads of each screen: those before the jump, after it, after
	// the scroll
	var groups [3][]recLine
	g := 0
	var open2 recLine
	for _, l := range lines[3:] {
		switch {
		case l.Ev == "open":
			open2 = l
		case l.Doc != first:
		case l.Ev == "jump":
			if l.To != p1 || l.Doc != first {
				t.Errorf("jump to %d in %s, want %d (p1's data-o)", l.To, l.Doc, p1)
			}
			g = 1
		case l.Ev == "read":
			if *l.T >= mark {
				g = 2
			}
			groups[g] = append(groups[g], l)
		}
	}
	for k, s := range screens {
		if len(groups[k]) == 0 {
			t.Errorf("screen %d: no read", k)
			continue
		}
		lo, hi := groups[k][0].From, groups[k][0].To
		for _, l := range groups[k] {
			lo, hi = min(lo, l.From), max(hi, l.To)
		}
		t.Logf("screen %d: read [%d,%d) in %d event(s); the test's blocks: first %v, last %v (%v strict)", k, lo, hi, len(groups[k]), s.First, s.Last, s.LastStrict)
		if lo < s.First[0] || lo >= s.First[1] {
			t.Errorf("screen %d: reading starts at %d, outside the first block on screen %v", k, lo, s.First)
		}
		inLast := hi > s.Last[0] && hi <= s.Last[1] || hi > s.LastStrict[0] && hi <= s.LastStrict[1]
		if !inLast {
			t.Errorf("screen %d: reading ends at %d, outside the last block on screen %v (%v)", k, hi, s.Last, s.LastStrict)
		}
	}
	for _, l := range lines {
		if l.Ev == "read" && l.Doc == first && l.From < about[1] && l.To > about[0] {
			t.Errorf("read [%d,%d): the folded block %v is not on screen", l.From, l.To, about)
		}
	}
	if open2.Doc != second || open2.Rank != 2 {
		t.Errorf("second open: %s at rank %d, want %s at 2", open2.Doc, open2.Rank, second)
	}
	for _, l := range lines {
		if l.Ev == "read" && l.Doc == second {
			if l.From != h1b {
				t.Errorf("the second article's first read starts at %d, want %d (its title)", l.From, h1b)
			}
			break
		}
	}
	if len(groups[0]) > 0 && groups[0][0].From != h1 {
		t.Errorf("the first read starts at %d, want %d (the title's data-o)", groups[0][0].From, h1)
	}
	// the first screen (the title, the folded header, the first
	// paragraph) is two runs with one time: calibration counts one screen
	if len(groups[0]) != 2 || *groups[0][0].T != *groups[0][1].T {
		t.Errorf("the first screen: %+v, want two reads at one t", groups[0])
	}
	if len(groups[1]) > 0 {
		if f := groups[1][0].From; f > p1 || f < p1Block || f < p1-60 {
			t.Errorf("after ↓ the reading starts at %d, want the line of passage 1 (%d, in the block from %d)", f, p1, p1Block)
		}
	}
	if len(groups[2]) > 0 && groups[2][0].From != para {
		t.Errorf("after the scroll the reading starts at %d, want %d (the paragraph at the top)", groups[2][0].From, para)
	}
	if l := lines[len(lines)-1]; l.Outcome != "found" || l.Topic != topic {
		t.Errorf("done %+v", l)
	}

	// scored as a reading: gP[r] is the mean precision of what was read
	// of the first r articles opened, AgP\Read the sum of gP over the
	// relevant ones divided by Trel (measures.md)
	q, err := inex.OpenQrels(qrelsFile, nil)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := scenario.OpenReading(files[0])
	if err != nil {
		t.Fatal(err)
	}
	ms, _ := effort.ParseMeasures([]string{`AgP\Read`})
	res, err := scenario.EvaluateReading(q, rd, scenario.EvalOptions{Measures: ms})
	if err != nil {
		t.Fatal(err)
	}
	j := q.Topics[topic]
	sum, agp := 0.0, 0.0
	for r, doc := range []string{first, second} {
		var read effort.Spans
		for _, l := range lines {
			if l.Ev == "read" && l.Doc == doc {
				read = effort.Union(read, effort.Spans{{Start: l.From, End: l.To}})
			}
		}
		prec := 0.0
		d := j.Docs[doc]
		if d != nil && read.Len() > 0 {
			rel := 0
			for _, s := range read {
				rel += effort.SpanIntersectLen(s, d.Rel)
			}
			prec = float64(rel) / float64(read.Len())
		}
		sum += prec
		if d != nil && d.Rel.Len() > 0 {
			agp += sum / float64(r+1)
		}
		t.Logf("%s: read %d characters, precision %.4f", doc, read.Len(), prec)
	}
	agp /= float64(j.Trel)
	got := res.Values[0][0]
	t.Logf("AgP\\Read = %v", got)
	if got < 0 || got > 1 || math.Abs(got-agp) > 1e-12 {
		t.Errorf("AgP\\Read = %v, want %v", got, agp)
	}
	// calibrated: the first article was left after a screen of relevant
	// text only (the judged passages around p1) and the second when the
	// participant said "found": neither reached the tolerance, which is
	// then more than the largest count before a last screen
	c, err := scenario.Calibrate(q, []*scenario.Reading{rd}, scenario.CalibrateOptions{Bootstrap: 50})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("calibrated: T2I %v (observed %v), %d visits, %d censored", c.T2I, c.T2IBounded, c.Visits, c.Censored)
	if c.T2IBounded || c.Visits != 2 || c.Censored != 2 {
		t.Errorf("calibrated: T2I %v (observed %v), %d visits, %d right-censored; want no observed tolerance, 2 visits both censored", c.T2I, c.T2IBounded, c.Visits, c.Censored)
	}
}

func readRecLines(t *testing.T, path string) []recLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []recLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l recLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		out = append(out, l)
	}
	return out
}

// matchKinds matches a space-separated list of kinds against a regular
// expression of kinds.
func matchKinds(seq, pattern string) bool {
	ok, _ := regexp.MatchString("^"+pattern+"$", seq)
	return ok
}

func spanPairs(ss []effort.Span) [][2]int {
	out := [][2]int{}
	for _, s := range ss {
		out = append(out, [2]int{s.Start, s.End})
	}
	return out
}

func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}
