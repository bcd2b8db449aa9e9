package index_test

import (
	"context"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/internal/synth"
	"github.com/readsim/readsim/internal/app"
	"github.com/readsim/readsim/web"
)

// BenchmarkSideBySide measures, on one held-out synthetic collection
// ($READSIM_BENCH_N articles, default 10,000; seed 2027, which no other
// benchmark uses) with 200 held-out queries (1–3 words of frequency ranks
// 50–5,000, drawn with a seed of their own), in one process and one run:
//
//   - bleve: a plain Bleve query in process — title (boost 2) or text,
//     Bleve's English analyzer, BM25, the top 20 ids and scores — on a
//     plain Bleve index of the same articles (PlainMapping);
//   - http: readsim's /api/search through HTTP on loopback (fetch of the
//     top 20, browse of each, snippets, JSON), the server built as serve
//     builds it with --rate-limit 0;
//   - inproc: the same search in process (the server's searcher: fetch,
//     browse and snippets, no HTTP).
//
// It reports each one's p50 and p99 in milliseconds and their ratios, and
// both indexes' sizes. The collection and both indexes are kept under
// $READSIM_BENCH_DIR (default the system temporary folder):
//
//	go test -run '^$' -bench SideBySide -benchtime 1x -timeout 30m ./index/
func BenchmarkSideBySide(b *testing.B) {
	n := 10000
	if v := os.Getenv("READSIM_BENCH_N"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	root := os.Getenv("READSIM_BENCH_DIR")
	if root == "" {
		root = os.TempDir()
	}
	const seed = 2027
	arts := filepath.Join(root, fmt.Sprintf("readsim-heldout-%d", n))
	if _, err := os.Stat(filepath.Join(arts, ".complete")); err != nil {
		os.RemoveAll(arts)
		if _, err := synth.Generate(arts, synth.Options{N: n, Seed: seed}); err != nil {
			b.Fatal(err)
		}
		os.WriteFile(filepath.Join(arts, ".complete"), nil, 0o644)
	}
	idx := filepath.Join(root, fmt.Sprintf("readsim-heldout-%d-index", n))
	if _, err := index.Build(index.BuildOptions{Articles: arts, Index: idx}); err != nil {
		b.Fatal(err)
	}
	plain := filepath.Join(root, fmt.Sprintf("readsim-heldout-%d-plain", n))
	px := plainIndex(b, arts, plain)
	defer px.Close()

	g := synth.New(synth.Options{Seed: seed})
	rng := rand.New(rand.NewSource(777))
	var qs []string
	for range 200 {
		var words []string
		for k := 1 + rng.Intn(3); k > 0; k-- {
			words = append(words, g.WordOfRank(50+rng.Intn(4950)))
		}
		qs = append(qs, strings.Join(words, " "))
	}

	a, err := app.Assemble(app.ServeConfig{Index: idx})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	opt := a.Options
	opt.RatePerSecond = -1 // serve --rate-limit 0 (app.Listen)
	s, err := web.New(opt)
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	const k = 20 // web's default number of results

	// the percentiles are of every pass's queries (b.N × 200 of each)
	var plainT, httpT, inT []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, q := range qs {
			t0 := time.Now()
			tq := bleve.NewMatchQuery(q)
			tq.SetField("title")
			tq.SetBoost(2)
			xq := bleve.NewMatchQuery(q)
			xq.SetField("text")
			req := bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(tq, xq), k, 0, false)
			if _, err := px.SearchInContext(context.Background(), req); err != nil {
				b.Fatal(err)
			}
			plainT = append(plainT, time.Since(t0))

			t0 = time.Now()
			resp, err := http.Get(srv.URL + "/api/search?q=" + url.QueryEscape(q))
			if err != nil {
				b.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != 200 || !strings.Contains(string(body), `"hits"`) {
				b.Fatalf("%q: %d %v %.200s", q, resp.StatusCode, err, body)
			}
			httpT = append(httpT, time.Since(t0))

			t0 = time.Now()
			if _, err := opt.Searcher.Search(context.Background(), q, k); err != nil {
				b.Fatal(err)
			}
			inT = append(inT, time.Since(t0))
		}
	}
	b.StopTimer()
	p50b, p99b := index.Pct(plainT, 0.5), index.Pct(plainT, 0.99)
	p50h, p99h := index.Pct(httpT, 0.5), index.Pct(httpT, 0.99)
	b.ReportMetric(p50b, "bleve-p50-ms")
	b.ReportMetric(p99b, "bleve-p99-ms")
	b.ReportMetric(p50h, "http-p50-ms")
	b.ReportMetric(p99h, "http-p99-ms")
	b.ReportMetric(index.Pct(inT, 0.5), "inproc-p50-ms")
	b.ReportMetric(index.Pct(inT, 0.99), "inproc-p99-ms")
	b.ReportMetric(p50h/p50b, "p50-ratio")
	b.ReportMetric(p99h/p99b, "p99-ratio")
	b.ReportMetric(float64(index.DirSize(idx))/1e6, "index-MB")
	b.ReportMetric(float64(index.DirSize(plain))/1e6, "plain-index-MB")
}

// plainIndex opens the plain Bleve index of the articles at dir, building
// it when it is not there.
func plainIndex(b *testing.B, arts, dir string) bleve.Index {
	if x, err := bleve.Open(dir); err == nil {
		return x
	}
	os.RemoveAll(dir)
	x, err := bleve.New(dir, index.PlainMapping())
	if err != nil {
		b.Fatal(err)
	}
	files := index.XMLFiles(arts)
	rd := &article.Reader{Root: arts}
	batch := x.NewBatch()
	for _, p := range files {
		a, err := rd.ParseFile(p)
		if err != nil {
			b.Fatal(err)
		}
		id := strings.TrimSuffix(filepath.Base(p), ".xml")
		if err := batch.Index(id, map[string]string{"title": a.Title, "text": a.Text}); err != nil {
			b.Fatal(err)
		}
		if batch.Size() >= 500 {
			if err := x.Batch(batch); err != nil {
				b.Fatal(err)
			}
			batch = x.NewBatch()
		}
	}
	if err := x.Batch(batch); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	return x
}
