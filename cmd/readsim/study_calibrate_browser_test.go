package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

// eventsHook, run in every page before its scripts, keeps each event the
// recorder queues (its local storage, written after every event) in
// window.__evs: the scripted participant sees what was recorded as it is
// recorded, before the batch is sent.
const eventsHook = `(() => {
  const set = Storage.prototype.setItem;
  window.__evs = [];
  let max = 0;
  Storage.prototype.setItem = function (k, v) {
    if (k === "readsim-study") {
      try { for (const e of JSON.parse(v).queue) if (e.seq > max) { max = e.seq; window.__evs.push(e); } } catch (e) {}
    }
    return set.apply(this, arguments);
  };
})()`

// endOnScreenJS, the test's own reckoning: whether the article's last
// visible character is on screen (above the study bar): the last text of
// .rs-doc that is not white space, not in .rs-ui, not in a closed details
// block, and drawn: text with no box (under display:none) or not visible
// (visibility) is no visible character (issue 36: text hidden by
// display:none counted as the last visible one).
const endOnScreenJS = `(() => {
  const y1 = document.querySelector(".st-bar").getBoundingClientRect().top;
  const w = document.createTreeWalker(document.querySelector(".rs-doc"), NodeFilter.SHOW_TEXT);
  const r = document.createRange();
  let last = null;
  for (let n = w.nextNode(); n; n = w.nextNode()) {
    const p = n.parentElement;
    if (!/\S/.test(n.data) || p.closest(".rs-ui") || p.closest("details:not([open])") && !p.closest("summary")) continue;
    r.selectNodeContents(n);
    if (![...r.getClientRects()].some(q => q.width > 0 && q.height > 0) || getComputedStyle(p).visibility !== "visible") continue;
    last = n;
  }
  r.setStart(last, last.data.trimEnd().length - 1);
  r.setEnd(last, last.data.trimEnd().length);
  const b = r.getBoundingClientRect();
  return b.bottom > 0 && b.top < y1;
})()`

// TestEndOnScreenReckoning: the test's reckoning of the last visible
// character on pages made for it: text under display:none (the hidden
// attribute, a style), or visibility:hidden, after the last visible
// paragraph is not the last visible character, so the end is on screen
// when that paragraph is; with the paragraph scrolled out of view, it is
// not.
func TestEndOnScreenReckoning(t *testing.T) {
	t.Parallel() // a browser test waits more than it computes
	if testing.Short() {
		t.Skip("starts a browser")
	}
	ctx := browser(t)
	for _, hidden := range []string{`<p hidden="">A hidden tail.</p>`, `<p style="display:none">A hidden tail.</p>`,
		`<div style="display:none"><p>A hidden tail.</p></div>`, `<p style="visibility:hidden">An invisible tail.</p>`} {
		page := `<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width"></head><body style="margin:0">` +
			`<div class="rs-doc"><p>The first paragraph.</p><div style="height:2000px"></div><p>The last visible paragraph.</p>` + hidden +
			`<div style="height:100px"></div></div><div class="st-bar" style="position:fixed;bottom:0;height:50px;width:100%">bar</div></body></html>`
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(page))
		}))
		do(t, ctx, chromedp.Navigate(srv.URL))
		if eval[bool](t, ctx, endOnScreenJS) {
			t.Errorf("%s: at the top, the end is on screen", hidden)
		}
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, document.documentElement.scrollHeight)`))
		if !eval[bool](t, ctx, endOnScreenJS) {
			t.Errorf("%s: at the bottom, the end is not on screen", hidden)
		}
		srv.Close()
	}
}

// addScript runs src in every new document of the tab, before its scripts.
func addScript(src string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src})
		return chromedp.Void{}, err
	}
}

// queued is an event of window.__evs.
type queued struct {
	Ev       string `json:"ev"`
	Doc      string `json:"doc"`
	Seq      int    `json:"seq"`
	From, To int
	T        int64 `json:"t"`
	Reason   string
}

// scriptedReader is a participant of known behaviour: in each of its first
// Topics topics it opens the judged articles (up to Articles, in id
// order), reads each one screen after another, scrolling by Step of the
// view, counts the non-relevant characters new on each screen (by the
// judgments, from what the recorder queued) and leaves when the count
// reaches X (0: never) or at the article's end; then gives the topic up.
type scriptedReader struct {
	X                int
	Step             float64
	Topics, Articles int
}

// TestBrowserStudyCalibrate: scripted participants with known tolerances
// (600, 1,000 and 2,500 non-relevant characters, and one who reads
// everything) read the sample's judged articles in headless Chromium at
// 360×640 through the study mode; calibrate on each one's recording
// recovers the tolerance: its 95% interval holds the truth and is
// informative (it starts above half the truth and ends below twice it),
// and the reader of everything is "more than N", N above the largest
// finite tolerance, with no finite value in the JSON. The visits
// right-censored are exactly those the participant left at the article's
// end: those in which the last visible character was on screen, by the
// test's own reckoning (whatever follows it is never drawn). The study has
// its own consent text: each participant's key holds the time of consent
// and the text's hash, and the folder the text.
func TestBrowserStudyCalibrate(t *testing.T) {
	t.Parallel() // a browser test waits more than it computes
	if testing.Short() {
		t.Skip("starts browsers")
	}
	consent := filepath.Join(t.TempDir(), "consent.md")
	text := "Title: Reading on a phone\nResearcher: R. Searcher\nContact: r@example.org\nEthics: REC-1\nRetention: five years\n\nWe measure reading.\n"
	if err := os.WriteFile(consent, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(text))
	base, dir, qrelsFile := startStudyDemoTopics(t, 12, consent)
	q, err := inex.OpenQrels(qrelsFile, nil)
	if err != nil {
		t.Fatal(err)
	}
	truth := map[string]int{} // participant → tolerance (0: reads everything)
	var files []string
	var mu sync.Mutex
	// the participants read at once, each in a browser of its own: the
	// test waits on the recorder's pauses far more than it computes
	t.Run("participants", func(t *testing.T) {
		for k, r := range []scriptedReader{
			{X: 600, Step: 0.5, Topics: 4, Articles: 5},
			{X: 1000, Step: 0.5, Topics: 4, Articles: 5},
			{X: 2500, Step: 0.5, Topics: 5, Articles: 5},
			{X: 0, Step: 1, Topics: 3, Articles: 5},
		} {
			name := fmt.Sprintf("x=%d", r.X)
			if r.X == 0 {
				name = "reads everything"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				file := r.calibrated(t, name, base, dir, qrelsFile, q, k, sum, text)
				mu.Lock()
				defer mu.Unlock()
				truth[strings.TrimSuffix(filepath.Base(file), ".jsonl")] = r.X
				files = append(files, file)
			})
		}
	})
	if t.Failed() {
		return
	}
	checkByParticipant(t, qrelsFile, files, truth)
}

// calibrated runs the scripted participant r (the k-th to consent) through
// the study and checks its consent on record (the text's hash sum and
// copy) and what calibrate recovers from its recording, which it returns.
func (r scriptedReader) calibrated(t *testing.T, name, base, dir, qrelsFile string, q *inex.Qrels, k int, sum [32]byte, text string) string {
	start := time.Now().UTC().Truncate(time.Second)
	file, visits, atEnd := r.take(t, base, dir, q, k)
	// the consent on record: its time and the text's hash in the key,
	// the text in the folder
	var key struct {
		Consented     time.Time `json:"consented"`
		ConsentSHA256 string    `json:"consent_sha256"`
	}
	b, _ := os.ReadFile(strings.TrimSuffix(file, "l"))
	if err := json.Unmarshal(b, &key); err != nil || key.ConsentSHA256 != hex.EncodeToString(sum[:]) || key.Consented.Before(start) || key.Consented.After(time.Now()) {
		t.Errorf("%s: the key %s (%v): want the consent's time and the SHA-256 of the text", name, b, err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "consent-"+hex.EncodeToString(sum[:8])+".txt")); string(got) != text {
		t.Errorf("the consent text's copy: %q", got)
	}
	rd, err := scenario.OpenReading(file)
	if err != nil {
		t.Fatal(err)
	}
	c, err := scenario.Calibrate(q, []*scenario.Reading{rd}, scenario.CalibrateOptions{Bootstrap: 1000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: T2I %v [%v, %v] (observed %v), screen %d, %d visits, %d censored (%d saw the end)", name, c.T2I, c.T2ILow, c.T2IHigh, c.T2IBounded, c.Screen, c.Visits, c.Censored, atEnd)
	if c.Visits != visits || c.Censored != atEnd {
		t.Errorf("%s: %d visits, %d right-censored; want %d and %d (those that saw the end)", name, c.Visits, c.Censored, visits, atEnd)
	}
	x := float64(r.X)
	if r.X > 0 {
		if !c.T2IBounded || c.T2ILow > x || c.T2IHigh < x || c.T2ILow <= x/2 || c.T2IHigh >= 2*x {
			t.Errorf("%s: T2I %v, 95%% interval [%v, %v] (observed %v): want an interval holding %v, within (%v, %v)", name, c.T2I, c.T2ILow, c.T2IHigh, c.T2IBounded, x, x/2, 2*x)
		}
		return file
	}
	if c.T2IBounded || c.T2I <= 2500 {
		t.Errorf("%s: T2I %v (observed %v), want more than 2500", name, c.T2I, c.T2IBounded)
	}
	status, out, errs := runCLI("calibrate", "--qrels", qrelsFile, "--format", "json", "--bootstrap", "200", file)
	if status != 0 || !strings.Contains(out, `"t2i": null`) || !strings.Contains(out, `"t2i_more_than": `) || !strings.Contains(out, `"t2i_high": null`) {
		t.Errorf("calibrate --format json: %d\n%s%s", status, out, errs)
	}
	status, out, _ = runCLI("calibrate", "--qrels", qrelsFile, "--bootstrap", "200", file)
	if status != 0 || !strings.Contains(out, "more than ") || strings.Contains(out, "Inf") {
		t.Errorf("calibrate: %d\n%s", status, out)
	}
	return file
}

// checkByParticipant: calibrate --by participant over the scripted
// participants' recordings gives each the interval calibrate gives them
// alone (it holds their tolerance), the reader of everything "more than
// N"; the spread's finite estimates lie within those of the participants.
func checkByParticipant(t *testing.T, qrels string, files []string, truth map[string]int) {
	t.Helper()
	status, out, errs := runCLI(append([]string{"calibrate", "--qrels", qrels, "--by", "participant", "--format", "json"}, files...)...)
	var res struct {
		Participants []struct {
			Participant              string
			T2I, T2IMoreThan, T2ILow *float64 `json:",omitempty"`
			T2IHigh                  *float64
		} `json:"participants"`
		Spread struct {
			Participants, Finite int
			Lowest, Highest      *float64
		} `json:"spread"`
	}
	if err := json.Unmarshal([]byte(strings.NewReplacer(`"t2i_more_than"`, `"T2IMoreThan"`, `"t2i_low"`, `"T2ILow"`, `"t2i_high"`, `"T2IHigh"`).Replace(out)), &res); status != 0 || err != nil {
		t.Fatalf("calibrate --by participant: %d %v\n%s%s", status, err, out, errs)
	}
	t.Logf("calibrate --by participant:\n%s", out)
	if len(res.Participants) != len(truth) || res.Spread.Participants != len(truth) || res.Spread.Finite != len(truth)-1 {
		t.Errorf("%d participants, spread over %d (%d finite); want %d, %d finite", len(res.Participants), res.Spread.Participants, res.Spread.Finite, len(truth), len(truth)-1)
	}
	for _, p := range res.Participants {
		x := float64(truth[p.Participant])
		switch {
		case x == 0 && (p.T2I != nil || p.T2IMoreThan == nil || *p.T2IMoreThan <= 2500):
			t.Errorf("%s reads everything: %+v, want more than 2500", p.Participant, p)
		case x > 0 && (p.T2I == nil || p.T2ILow == nil || p.T2IHigh == nil || *p.T2ILow > x || *p.T2IHigh < x):
			t.Errorf("%s (tolerance %v): %+v, want an interval holding it", p.Participant, x, p)
		}
	}
	if l, h := res.Spread.Lowest, res.Spread.Highest; l == nil || h == nil || *l < 300 || *h > 5000 {
		t.Errorf("the spread's lowest and highest finite estimates %v %v", l, h)
	}
}

// take runs the scripted participant (the k-th to consent) in a browser of
// its own, returning its recording, its visits and those it left at the
// article's end.
func (r scriptedReader) take(t *testing.T, base, dir string, q *inex.Qrels, k int) (file string, visits, atEnd int) {
	t.Helper()
	ctx := browser(t)
	do(t, ctx, addScript(eventsHook), chromedp.Navigate(base+"/study"))
	waitFor(t, ctx, "the consent page", `document.querySelector("#study[data-state=consent] form") !== null`, 20*time.Second)
	do(t, ctx, chromedp.Click(`input[name=consent]`), chromedp.Click(`.st-consent button[type=submit]`))
	waitFor(t, ctx, "the first topic", `document.querySelector("#study[data-state=topic]") !== null`, 20*time.Second)
	participant := eval[string](t, ctx, `document.getElementById("study").dataset.participant`)
	last := 0
	var topic string
	for range r.Topics {
		topic = eval[string](t, ctx, `document.getElementById("study").dataset.topic`)
		title := eval[string](t, ctx, `document.getElementById("study").dataset.title`)
		j := q.Topics[topic]
		var docs []string
		for d := range j.Docs {
			docs = append(docs, d)
		}
		sort.Strings(docs)
		for _, doc := range docs[:min(r.Articles, len(docs))] {
			end := r.read(t, ctx, base+"/article/"+doc+"?q="+url.QueryEscape(title), doc, j.Docs[doc].Rel, &last)
			visits++
			if end {
				atEnd++
			}
		}
		jsClick(t, ctx, `.st-bar .st-give`)
		waitFor(t, ctx, "the next topic", `location.pathname === "/study" && document.getElementById("study").dataset.topic !== "`+topic+`"`, 20*time.Second)
	}
	file = filepath.Join(dir, participant+".jsonl")
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, _ := os.ReadFile(file)
		if strings.Contains(string(b), `"ev":"done","topic":"`+topic+`"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("participant %d: the last topic's done is not recorded", k)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return file, visits, atEnd
}

// read opens an article and reads it as the scripted participant does; it
// reports whether the participant saw the article's last visible character
// (by the test's own reckoning, endOnScreenJS). last is the last seq seen.
func (r scriptedReader) read(t *testing.T, ctx context.Context, u, doc string, rel effort.Spans, last *int) bool {
	t.Helper()
	do(t, ctx, chromedp.Navigate(u))
	waitFor(t, ctx, "the article "+doc, fmt.Sprintf(`document.querySelector(".st-bar") !== null && (window.__evs || []).some(e => e.ev === "open" && e.doc === %q && e.seq > %d)`, doc, *last), 20*time.Second)
	open := eval[int](t, ctx, fmt.Sprintf(`window.__evs.find(e => e.ev === "open" && e.doc === %q && e.seq > %d).seq`, doc, *last))
	*last = open
	var seen effort.Spans
	count, sawEnd := 0, false
	for {
		// the screen's reads: the recorder queues them at once, some
		// 300 ms after the scroll
		var reads []queued
		for end := time.Now().Add(5 * time.Second); len(reads) == 0; {
			if time.Now().After(end) {
				t.Fatalf("%s: no read after seq %d", doc, *last)
			}
			time.Sleep(50 * time.Millisecond)
			reads = eval[[]queued](t, ctx, fmt.Sprintf(`window.__evs.filter(e => e.seq > %d && e.ev === "read")`, *last))
		}
		var shown effort.Spans
		for _, e := range reads {
			*last = max(*last, e.Seq)
			shown = effort.Union(shown, effort.Spans{{Start: e.From, End: e.To}})
		}
		fresh := effort.AppendDifference(nil, shown, seen)
		count += fresh.Len() - effort.IntersectLen(fresh, rel)
		seen = effort.Union(seen, shown)
		sawEnd = sawEnd || eval[bool](t, ctx, endOnScreenJS)
		if r.X > 0 && count >= r.X {
			return sawEnd
		}
		if eval[bool](t, ctx, `scrollY + innerHeight >= document.documentElement.scrollHeight - 1`) {
			if !sawEnd {
				t.Errorf("%s: at the bottom of the page, the last visible character is not on screen", doc)
			}
			return true
		}
		do(t, ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`window.scrollBy(0, Math.floor(%g * document.querySelector(".st-bar").getBoundingClientRect().top))`, r.Step)))
	}
}
