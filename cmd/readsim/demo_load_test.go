package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/readsim/readsim/internal/ground/procstat"
)

// TestLoad is the bounded load test of the demo on loopback (127.0.0.1
// only): 200 concurrent WebSocket viewers each receive a whole replay while
// 50 concurrent HTTP clients read articles. It runs only with
// READSIM_LOAD=1 and reports the latencies and the peak memory of the test
// process (server and clients together):
//
//	READSIM_LOAD=1 go test ./cmd/readsim -run TestLoad -v
func TestLoad(t *testing.T) {
	if os.Getenv("READSIM_LOAD") == "" {
		t.Skip("set READSIM_LOAD=1 to run the load test")
	}
	const (
		viewers     = 200
		readers     = 50
		perReader   = 40 // article requests per HTTP client
		testTimeout = 3 * time.Minute
	)
	d := startDemoRate(t, 1e6) // the limiter stays on, with room for one busy address
	if !strings.HasPrefix(d.url, "http://127.0.0.1:") {
		t.Fatalf("not on loopback: %s", d.url)
	}
	// The topics of the run and some articles to read.
	topicsOut, articles := loadTargets(t, d)

	var peakHeap, peakSys uint64
	sampling, stopSampling := context.WithCancel(context.Background())
	var sampled sync.WaitGroup
	sampled.Add(1)
	go func() {
		defer sampled.Done()
		var ms runtime.MemStats
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peakHeap = max(peakHeap, ms.HeapInuse)
			peakSys = max(peakSys, ms.Sys)
			select {
			case <-sampling.Done():
				return
			case <-tick.C:
			}
		}
	}()

	var mu sync.Mutex
	var errs []error
	var firstEv, wholeReplay, httpLat []time.Duration
	events := 0
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	deadline := time.Now().Add(testTimeout)
	start := time.Now()
	var wg sync.WaitGroup
	dialer := websocket.Dialer{HandshakeTimeout: 30 * time.Second}
	for i := range viewers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			topic := topicsOut[i%len(topicsOut)]
			u := "ws" + strings.TrimPrefix(d.url, "http") + "/ws/replay?run=" + d.runID + "&topic=" + topic
			t0 := time.Now()
			c, _, err := dialer.Dial(u, http.Header{"Origin": {d.url}})
			if err != nil {
				fail(fmt.Errorf("viewer %d: %w", i, err))
				return
			}
			defer c.Close()
			c.SetReadDeadline(deadline)
			n := 0
			var first time.Duration
			for {
				_, _, err := c.ReadMessage()
				if err != nil {
					var ce *websocket.CloseError
					if !errors.As(err, &ce) || ce.Code != websocket.CloseNormalClosure {
						fail(fmt.Errorf("viewer %d after %d events: %w", i, n, err))
						return
					}
					break
				}
				if n == 0 {
					first = time.Since(t0)
				}
				n++
			}
			mu.Lock()
			firstEv = append(firstEv, first)
			wholeReplay = append(wholeReplay, time.Since(t0))
			events += n
			mu.Unlock()
		}()
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: readers}}
	for i := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range perReader {
				a := articles[(i*perReader+j)%len(articles)]
				t0 := time.Now()
				resp, err := client.Get(d.url + a)
				if err != nil {
					fail(fmt.Errorf("reader %d: %w", i, err))
					return
				}
				_, err = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				lat := time.Since(t0)
				if err != nil || resp.StatusCode != 200 {
					fail(fmt.Errorf("reader %d: %s: status %d, %v", i, a, resp.StatusCode, err))
					return
				}
				mu.Lock()
				httpLat = append(httpLat, lat)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	stopSampling()
	sampled.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	if len(firstEv) != viewers || len(httpLat) != readers*perReader {
		t.Errorf("%d of %d replays and %d of %d article reads completed", len(firstEv), viewers, len(httpLat), readers*perReader)
	}
	pct := func(ds []time.Duration, p float64) time.Duration {
		if len(ds) == 0 {
			return 0
		}
		s := slices.Clone(ds)
		slices.Sort(s)
		return s[min(len(s)-1, int(p*float64(len(s))))]
	}
	hwm := vmHWM()
	t.Logf("load: %d WebSocket viewers (%d events in all) and %d HTTP clients × %d articles in %v, %d errors",
		viewers, events, readers, perReader, elapsed.Round(time.Millisecond), len(errs))
	t.Logf("articles: p50 %v, p99 %v", pct(httpLat, .5).Round(time.Microsecond), pct(httpLat, .99).Round(time.Microsecond))
	t.Logf("replays: first event p50 %v, p99 %v; whole replay p50 %v, p99 %v",
		pct(firstEv, .5).Round(time.Microsecond), pct(firstEv, .99).Round(time.Microsecond),
		pct(wholeReplay, .5).Round(time.Microsecond), pct(wholeReplay, .99).Round(time.Microsecond))
	t.Logf("memory (test process: server and clients): peak heap in use %.1f MiB, peak Go sys %.1f MiB, peak RSS %s",
		float64(peakHeap)/(1<<20), float64(peakSys)/(1<<20), hwm)
}

// loadTargets returns the topics of the test run and article URLs to read.
func loadTargets(t *testing.T, d *demoServer) ([]string, []string) {
	t.Helper()
	resp, err := http.Get(d.url + "/search?q=lighthouse+coffee+volcano+bridge+railway+migration+fermentation+machine")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var articles []string
	for _, part := range strings.Split(string(b), `href="`)[1:] {
		href := part[:strings.IndexByte(part, '"')]
		if strings.HasPrefix(href, "/article/") {
			articles = append(articles, strings.ReplaceAll(href, "&#43;", "+"))
		}
	}
	if len(articles) < 5 {
		t.Fatalf("only %d articles to read", len(articles))
	}
	status, out, _ := runCLI("eval", "--qrels", d.qrels, "-q", "-m", "AP", d.runFile)
	if status != 0 {
		t.Fatal("eval failed")
	}
	var topics []string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Split(line, "\t"); len(f) == 3 && f[1] != "all" {
			topics = append(topics, f[1])
		}
	}
	return topics, articles
}

// vmHWM is the process's peak resident set size (Linux), or "n/a".
func vmHWM() string {
	if p := procstat.PeakRSS(); p > 0 {
		return fmt.Sprintf("%.1f MiB", float64(p)/(1<<20))
	}
	return "n/a"
}
