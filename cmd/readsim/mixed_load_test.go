package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readsim/readsim/internal/app"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/internal/ground/procstat"
)

// BenchmarkMixedLoad is the bounded mixed load of serve with --rate-limit
// 0 on loopback (127.0.0.1 only): eight clients, all from one address,
// each asking in turn for the home page, a search and the article page of
// one of its hits, for 30 seconds (once, whatever b.N). It runs on the
// index READSIM_LOAD_INDEX names (its queries are the titles of the
// articles it was built from), else on the sample, and reports each
// page's requests, p50 and p99 (metrics home-p99-ms …), the requests a
// second, and the benchmark process's memory (server and clients) before
// and after (heap-after-MiB, rss-after-MiB, peak-rss-MiB). It fails on
// any error or refused request; its times are figures, not checks
// (docs/performance.md gives the target and the machine):
//
//	READSIM_LOAD_INDEX=/tmp/readsim-heldout-10000-index go test -run '^$' -bench MixedLoad -benchtime 1x ./cmd/readsim
func BenchmarkMixedLoad(b *testing.B) {
	t := b
	const (
		clients  = 8
		duration = 30 * time.Second
	)
	idx := os.Getenv("READSIM_LOAD_INDEX")
	if idx == "" {
		idx = filepath.Join(t.TempDir(), "idx")
		if status, _, errs := runCLI("index", "--articles", "../../corpus-sample/articles", "--index", idx); status != 0 {
			t.Fatalf("readsim index: %d\n%s", status, errs)
		}
	}
	queries := loadQueries(t, idx)
	e := &cli.Env{Stdout: &syncBuffer{}, Stderr: &syncBuffer{}}
	base := serveLoopback(t, e, app.ServeConfig{Index: idx}, app.Listen{RatePerSecond: -1}) // --rate-limit 0
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("not on loopback: %s", base)
	}
	get := func(c *http.Client, u string) (time.Duration, []byte, error) {
		t0 := time.Now()
		resp, err := c.Get(u)
		if err != nil {
			return 0, nil, err
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err == nil && resp.StatusCode != 200 {
			err = fmt.Errorf("%s: status %d", u, resp.StatusCode)
		}
		return time.Since(t0), b, err
	}
	heap0, rss0 := memNow()
	b.ResetTimer()
	var mu sync.Mutex
	times := map[string][]time.Duration{}
	var errs []error
	var wg sync.WaitGroup
	end := time.Now().Add(duration)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hc := &http.Client{Timeout: 10 * time.Second}
			mine := map[string][]time.Duration{}
			fail := func(err error) {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
			for i := c; time.Now().Before(end); i += clients {
				d, _, err := get(hc, base+"/")
				if err != nil {
					fail(err)
					return
				}
				mine["home"] = append(mine["home"], d)
				q := queries[i%len(queries)]
				d, body, err := get(hc, base+"/api/search?q="+url.QueryEscape(q))
				if err != nil {
					fail(err)
					return
				}
				mine["search"] = append(mine["search"], d)
				var res struct {
					Hits []struct{ ID string } `json:"hits"`
				}
				if err := json.Unmarshal(body, &res); err != nil {
					fail(fmt.Errorf("search %q: %v", q, err))
					return
				}
				if len(res.Hits) == 0 {
					continue
				}
				id := res.Hits[i%len(res.Hits)].ID
				d, _, err = get(hc, base+"/article/"+url.PathEscape(id)+"?q="+url.QueryEscape(q))
				if err != nil {
					fail(err)
					return
				}
				mine["article"] = append(mine["article"], d)
			}
			mu.Lock()
			for k, v := range mine {
				times[k] = append(times[k], v...)
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	b.StopTimer()
	heap1, rss1 := memNow()
	if len(errs) > 0 {
		t.Errorf("%d errors, the first: %v", len(errs), errs[0])
	}
	total := 0
	for _, page := range []string{"home", "search", "article"} {
		d := times[page]
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		if len(d) == 0 {
			t.Errorf("%s: no request", page)
			continue
		}
		total += len(d)
		p50, p99 := d[len(d)/2], d[(len(d)-1)*99/100]
		b.ReportMetric(ms(p50), page+"-p50-ms")
		b.ReportMetric(ms(p99), page+"-p99-ms")
	}
	b.ReportMetric(float64(total)/duration.Seconds(), "req/s")
	b.ReportMetric(heap0, "heap-before-MiB")
	b.ReportMetric(heap1, "heap-after-MiB")
	b.ReportMetric(rss0, "rss-before-MiB")
	b.ReportMetric(rss1, "rss-after-MiB")
	if p := procstat.PeakRSS(); p > 0 {
		b.ReportMetric(float64(p)/(1<<20), "peak-rss-MiB")
	}
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// memNow returns the process's memory now, after a GC: the Go heap in
// use and the resident set (Linux; 0 elsewhere), in MiB.
func memNow() (heap, rss float64) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		if m := regexp.MustCompile(`VmRSS:\s*(\d+) kB`).FindSubmatch(b); m != nil {
			var kb float64
			fmt.Sscan(string(m[1]), &kb)
			rss = kb / 1024
		}
	}
	return float64(m.HeapInuse) / (1 << 20), rss
}

// loadQueries returns queries for the index idx: the titles of up to 500
// articles of the folder it was built from (its manifest's source).
func loadQueries(t testing.TB, idx string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(idx, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var man struct {
		Source string `json:"source"`
	}
	if err := json.Unmarshal(b, &man); err != nil {
		t.Fatal(err)
	}
	title := regexp.MustCompile(`(?s)<title>\s*(.*?)\s*</title>`)
	var qs []string
	filepath.WalkDir(man.Source, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".xml") || len(qs) >= 500 {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil {
			if m := title.FindSubmatch(b); m != nil {
				qs = append(qs, string(m[1]))
			}
		}
		return nil
	})
	if len(qs) < 10 {
		t.Fatalf("only %d titles to search for in %s", len(qs), man.Source)
	}
	return qs
}
