package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestStudyBrowserDropsRefusedBatch: the recorder's queue holds a batch the
// server refuses with 400 (its last event's seq goes back: 64 events, the
// page's batch) and, after it, two good events. The page sends the bad
// batch once, drops it (sending it again cannot succeed) and sends the
// rest, which is recorded: two requests, an empty queue.
func TestStudyBrowserDropsRefusedBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	const chromium = "/usr/bin/chromium"
	if _, err := os.Stat(chromium); err != nil {
		t.Skipf("%s is missing", chromium)
	}
	dir := t.TempDir()
	s := newStudyServer(t, dir, nil)
	var posts atomic.Int32
	var codesMu sync.Mutex
	var codes strings.Builder
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/study/events" {
			s.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, r)
		codesMu.Lock()
		if posts.Add(1) <= 10 {
			fmt.Fprintf(&codes, "%d ", rec.Code)
		}
		codesMu.Unlock()
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
	}))
	defer srv.Close()
	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.Headless,
		chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("no-first-run", true), chromedp.WindowSize(360, 640))
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	defer cancelT()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/study"),
		chromedp.Click(`input[name=consent]`),
		chromedp.Click(`.st-consent button[type=submit]`),
		chromedp.WaitVisible(`#study[data-state=topic]`),
	); err != nil {
		t.Fatal(err)
	}
	// the queue: topic (seq 1), queries 3…64, a query with seq 2; then a
	// topic (100) and a query (101)
	const fill = `(() => {
  const st = JSON.parse(localStorage.getItem("readsim-study"));
  const q = [{ev: "topic", topic: "T1", seq: 1, t: 0}];
  for (let s = 3; s <= 64; s++) q.push({ev: "query", topic: "T1", seq: s, t: s, q: "q" + s});
  q.push({ev: "query", topic: "T1", seq: 2, t: 70, q: "back"});
  q.push({ev: "topic", topic: "T1", seq: 100, t: 80}, {ev: "query", topic: "T1", seq: 101, t: 90, q: "kept"});
  st.queue = q;
  st.seq = 101;
  localStorage.setItem("readsim-study", JSON.stringify(st));
  location.reload();
  return q.length;
})()`
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](fill)); err != nil || n != 66 {
		t.Fatalf("queue of %d: %v", n, err)
	}
	var left int
	for end := time.Now().Add(30 * time.Second); ; {
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(JSON.parse(localStorage.getItem("readsim-study")) || {queue: [1]}).queue.length`))
		if err == nil && n == 0 && posts.Load() >= 2 {
			break
		}
		if time.Now().After(end) {
			left = n
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(1500 * time.Millisecond) // a resend would come within the page's second
	files, _ := filepath.Glob(filepath.Join(dir, "P-*.jsonl"))
	var got string
	if len(files) == 1 {
		b, _ := os.ReadFile(files[0])
		got = string(b)
	}
	lines := strings.Split(strings.TrimSpace(got), "\n")
	codesMu.Lock()
	defer codesMu.Unlock()
	if left != 0 || posts.Load() != 2 || codes.String() != "400 200 " || len(lines) != 2 ||
		!strings.Contains(lines[0], `"ev":"topic","topic":"T1","rank":0,"doc":"","seq":100,`) || !strings.Contains(lines[1], `"seq":101,"q":"kept"`) {
		t.Errorf("queue left %d, %d requests (%s), recording:\n%s\nwant 0, 2 (400 200) and the topic and the query kept", left, posts.Load(), codes.String(), got)
	}
}
