package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/readsim/readsim/internal/app"
	"github.com/readsim/readsim/internal/cli"
)

// clearCookies deletes the browser's cookies.
func clearCookies() chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, network.ClearBrowserCookies, cdp.Empty{})
		return chromedp.Void{}, err
	}
}

// TestBrowserStudyRecruited: a participant sent by a recruitment platform,
// scripted in headless Chromium at 360×640, on the demo's sample with
// --participant-param PROLIFIC_PID, STUDY_ID and SESSION_ID and a
// --completion-url (a server of the test's, standing for the platform).
// The consent page says the platform's ids are kept; the participant
// agrees, gives up their one topic, and lands on the completion link
// with their id in it; the key holds the ids with the consent. Back on
// /study later, the finished page links to the platform and stays. A
// damaged link shows no form; a consent page whose cookie is gone (a
// form posted from elsewhere) is refused and shown again; a second tab's
// form still works. Screenshots of each page (READSIM_SCREENSHOTS).
func TestBrowserStudyRecruited(t *testing.T) {
	t.Parallel() // a browser test waits more than it computes
	ctx := browser(t)
	var hitsMu sync.Mutex
	var hits []string
	platform := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/favicon.ico" { // the browser asks for it on its own
			hitsMu.Lock()
			hits = append(hits, r.URL.RequestURI())
			hitsMu.Unlock()
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><title>Platform</title><p id="done">Submission complete</p>`))
	}))
	defer platform.Close()
	stderr := &syncBuffer{}
	cfg, e, tmp := demoSetup(t, &syncBuffer{}, stderr)
	cfg.StudyTopics = 1
	cfg.Study = filepath.Join(tmp, "study")
	cfg.ParticipantParams = []string{"PROLIFIC_PID", "STUDY_ID", "SESSION_ID"}
	cfg.CompletionURL = platform.URL + "/complete?cc=C0DE&pid={PROLIFIC_PID}"
	u := serveLoopback(t, &cli.Env{Stdout: e.Stdout, Stderr: stderr}, cfg, app.Listen{RatePerSecond: -1})

	// a damaged link: no form
	do(t, ctx, chromedp.Navigate(u+"/study?PROLIFIC_PID=5f1a&PROLIFIC_PID=77bb"))
	waitFor(t, ctx, "the damaged link's page", `document.querySelector("#study .notice") !== null`, 20*time.Second)
	if eval[bool](t, ctx, `document.querySelector(".st-consent") !== null`) || !strings.Contains(eval[string](t, ctx, `document.querySelector("#study .notice").textContent`), "PROLIFIC_PID is given 2 times") {
		t.Error("a damaged link shows a consent form, or does not say what is wrong")
	}
	shot(t, ctx, "study-link-damaged")

	// the consent page of the platform's link, its cookie lost: refused,
	// the text shown again with a note
	link := u + "/study?PROLIFIC_PID=5f1a2b3c4d5e6f7a8b9c0d1e&STUDY_ID=60aa&SESSION_ID=s1"
	do(t, ctx, chromedp.Navigate(link))
	waitFor(t, ctx, "the consent page", `document.querySelector("#study[data-state=consent] form.st-consent") !== null`, 20*time.Second)
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector("h3").scrollIntoView()`))
	shot(t, ctx, "study-consent-recruited")
	if !strings.Contains(eval[string](t, ctx, `document.querySelector("#study").textContent`), "the ids the recruitment platform gave you in the study's address (PROLIFIC_PID, STUDY_ID, SESSION_ID)") {
		t.Error("the consent page does not say the platform's ids are kept")
	}
	do(t, ctx, clearCookies())
	do(t, ctx, chromedp.Click(`input[name=consent]`), chromedp.Click(`.st-consent button[type=submit]`))
	waitFor(t, ctx, "the consent page again", `document.querySelector("#study[data-state=consent] .notice") !== null`, 20*time.Second)
	if msg := eval[string](t, ctx, `document.querySelector("#study .notice").textContent`); !strings.Contains(msg, "Please read the text below and agree here") {
		t.Errorf("the refused consent says %q", msg)
	}
	shot(t, ctx, "study-consent-again")
	if keys, _ := filepath.Glob(filepath.Join(cfg.Study, "P-*.json")); len(keys) != 0 {
		t.Fatalf("a consent without the page's cookie made %v", keys)
	}
	// the page shown again carries the ids and works
	do(t, ctx, chromedp.Click(`input[name=consent]`), chromedp.Click(`.st-consent button[type=submit]`))
	waitFor(t, ctx, "the topic", `document.querySelector("#study[data-state=topic]") !== null`, 20*time.Second)
	participant := eval[string](t, ctx, `document.getElementById("study").dataset.participant`)
	var key struct {
		Recruitment map[string]string `json:"recruitment"`
	}
	b, _ := os.ReadFile(filepath.Join(cfg.Study, participant+".json"))
	if err := json.Unmarshal(b, &key); err != nil || key.Recruitment["PROLIFIC_PID"] != "5f1a2b3c4d5e6f7a8b9c0d1e" || key.Recruitment["STUDY_ID"] != "60aa" || key.Recruitment["SESSION_ID"] != "s1" {
		t.Errorf("the key %s: %v", b, err)
	}

	// the one topic given up: on to the platform, the id in the link
	do(t, ctx, chromedp.Click(`#st-skip`))
	waitFor(t, ctx, "the platform's completion page", `document.getElementById("done") !== null`, 20*time.Second)
	hitsMu.Lock()
	got := strings.Join(hits, " ")
	hitsMu.Unlock()
	if got != "/complete?cc=C0DE&pid=5f1a2b3c4d5e6f7a8b9c0d1e" {
		t.Errorf("the platform was asked for %q", got)
	}
	if lines := readRecLines(t, filepath.Join(cfg.Study, participant+".jsonl")); len(lines) != 2 || lines[1].Ev != "done" {
		t.Errorf("the recording before leaving: %+v", lines)
	}
	// back later: the finished page, with the link, and no second trip
	do(t, ctx, chromedp.Navigate(u+"/study"))
	waitFor(t, ctx, "the finished page", `document.querySelector("#study[data-state=finished] #st-complete a") !== null`, 20*time.Second)
	time.Sleep(1500 * time.Millisecond)
	if eval[string](t, ctx, `location.pathname`) != "/study" {
		t.Error("a participant back on the finished page is sent away again")
	}
	shot(t, ctx, "study-finished-completion")
}
