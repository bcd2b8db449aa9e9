package web

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/readsim/readsim/internal/ground/headless"
)

// TestBrowserReconnects: a replay whose connection drops mid-way (here the
// server closes every socket, as on a restart) resumes where it stopped:
// the page reconnects and asks for the events after the last one it has.
func TestBrowserReconnects(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	headless.Require(t)
	s, _, rep := newTestServer(t, nil)
	rep.gate = make(chan struct{})
	srv := httptest.NewServer(s)
	defer srv.Close()

	ctx, cancel := headless.New(360, 640)
	defer cancel()
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(360, 640, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch),
		chromedp.Navigate(srv.URL+"/simulate?run=runA&topic=T1&t2i=300&screen=300"),
		chromedp.SetValue(`#speed`, "max"),
	); err != nil {
		t.Fatal(err)
	}
	select {
	case <-rep.gate:
	case <-time.After(20 * time.Second):
		t.Fatal("the page did not start the replay")
	}
	time.Sleep(200 * time.Millisecond)
	s.closeSockets() // the connection drops after three events
	end := time.Now().Add(30 * time.Second)
	for {
		c, cancel := context.WithTimeout(ctx, 5*time.Second)
		v, err := chromedp.Run(c, chromedp.Evaluate[string](`document.getElementById('scores-when').textContent.startsWith('final') ? document.querySelector('#scores td[data-measure]').dataset.value : ""`))
		cancel()
		if err == nil && v != "" {
			if v != "0.5" {
				t.Errorf("final AgP shown %q, want 0.5", v)
			}
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the replay did not finish after the drop (%v)", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if n := len(rep.requests()); n != 2 {
		t.Errorf("%d replay requests, want 2 (the first and the reconnection)", n)
	}
	// Every article was scored once: rank 2's scores are the last shown, and
	// the counters are those of rank 2 only (read 56 = its whole text).
	c, cancel2 := context.WithTimeout(ctx, 5*time.Second)
	defer cancel2()
	read, err := chromedp.Run(c, chromedp.Evaluate[string](`document.getElementById("c-read").textContent + "|" + document.getElementById("ds-when").textContent`))
	if err != nil || read != "56|#2 102" {
		t.Errorf("after the replay: %q (%v), want \"56|#2 102\"", read, err)
	}
}
