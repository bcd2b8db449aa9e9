package index

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/readsim/readsim/index/fetch"
	"github.com/readsim/readsim/index/internal/synth"
	"github.com/readsim/readsim/internal/ground/procstat"
)

// BenchmarkScale builds an index of a synthetic collection (index/synth) and
// runs 100 random queries against it, reporting indexing MB/s (of XML) and
// articles/s, the index size, the process's peak resident memory, and fetch
// (top 100) and browse (per article) latency percentiles. Run each size once
// (1k is a quick before/after check of a change to indexing):
//
//	go test -run '^$' -bench 'Scale/1k' -benchtime 1x ./index/
//	go test -run '^$' -bench 'Scale/10k' -benchtime 1x -timeout 60m ./index/
//	go test -run '^$' -bench 'Scale/100k' -benchtime 1x -timeout 120m ./index/
//
// The collection is generated under $READSIM_BENCH_DIR (default the system
// temporary folder) and reused by later runs; the index is rebuilt each time.
func BenchmarkScale(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) { benchScale(b, n) })
	}
}

func benchCollection(b *testing.B, n int) (string, int64) {
	root := os.Getenv("READSIM_BENCH_DIR")
	if root == "" {
		root = os.TempDir()
	}
	dir := filepath.Join(root, fmt.Sprintf("readsim-synth-%d", n))
	done := filepath.Join(dir, ".complete")
	if _, err := os.Stat(done); err != nil {
		os.RemoveAll(dir)
		if _, err := synth.Generate(dir, synth.Options{N: n, Seed: int64(n)}); err != nil {
			b.Fatal(err)
		}
		os.WriteFile(done, nil, 0o644)
	}
	return dir, dirSize(dir)
}

func dirSize(dir string) int64 {
	var total int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				total += info.Size()
			}
		}
		return nil
	})
	return total
}

func pct(d []time.Duration, p float64) float64 {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	if len(d) == 0 {
		return 0
	}
	return float64(d[int(p*float64(len(d)-1))]) / 1e6
}

func benchScale(b *testing.B, n int) {
	arts, xmlBytes := benchCollection(b, n)
	idx := filepath.Join(b.TempDir(), "idx")
	b.ResetTimer()
	cpu0 := procstat.CPUTime()
	var res *BuildResult
	for i := 0; i < b.N; i++ {
		var err error
		if res, err = Build(BuildOptions{Articles: arts, Index: idx, Rebuild: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric((procstat.CPUTime() - cpu0).Seconds(), "build-cpu-s")
	secs := res.Elapsed.Seconds()
	b.ReportMetric(float64(xmlBytes)/1e6/secs, "MB/s")
	b.ReportMetric(float64(res.Articles)/secs, "articles/s")
	b.ReportMetric(float64(dirSize(idx))/1e6, "index-MB")
	b.ReportMetric(float64(xmlBytes)/1e6, "xml-MB")
	b.ReportMetric(float64(procstat.PeakRSS())/1e6, "peak-RSS-MB")

	x, err := Open(idx)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	var qt queryTimes
	for _, q := range benchQueries(n, 100) {
		qt.run(b, x, q)
	}
	qt.report(b)
}

// queryTimes collects the times of a search as the web prototype makes
// it: a fetch (preparing the query and fetching the top 100), then a
// browse of each of the first 10 hits (loading the article and finding
// the query's passages).
type queryTimes struct {
	fetch, browse []time.Duration
}

// run times the fetch and browses of q on x and returns the prepared query.
func (qt *queryTimes) run(b *testing.B, x *Index, q string) *Query {
	t0 := time.Now()
	pq, err := x.Prepare(q)
	if err != nil {
		b.Fatal(err)
	}
	hits, err := x.Fetch(context.Background(), pq, 100, Options{})
	if err != nil {
		b.Fatal(err)
	}
	qt.fetch = append(qt.fetch, time.Since(t0))
	for _, h := range hits[:min(10, len(hits))] {
		t1 := time.Now()
		d, err := x.Article(h.ID)
		if err != nil {
			b.Fatal(err)
		}
		x.Browse(d, pq, Options{})
		qt.browse = append(qt.browse, time.Since(t1))
	}
	return pq
}

// report reports the median and 95th percentile of the fetch and browse
// times in milliseconds.
func (qt *queryTimes) report(b *testing.B) {
	b.ReportMetric(pct(qt.fetch, 0.5), "fetch-p50-ms")
	b.ReportMetric(pct(qt.fetch, 0.95), "fetch-p95-ms")
	b.ReportMetric(pct(qt.browse, 0.5), "browse-p50-ms")
	b.ReportMetric(pct(qt.browse, 0.95), "browse-p95-ms")
}

// benchIndex returns the index of the synthetic collection of n articles
// in the given number of shards, built once under $READSIM_BENCH_DIR (or
// the system temporary folder) and reused.
func benchIndex(b *testing.B, n, shards int) string {
	arts, _ := benchCollection(b, n)
	root := os.Getenv("READSIM_BENCH_DIR")
	if root == "" {
		root = os.TempDir()
	}
	idx := filepath.Join(root, fmt.Sprintf("readsim-index-%d-%d", n, shards))
	if _, err := Build(BuildOptions{Articles: arts, Index: idx, Shards: shards}); err != nil {
		b.Fatal(err)
	}
	return idx
}

// benchQueries are the benchmarks' queries: 1–3 words of frequency ranks
// 50–5,000 (content words, not the stop-word-like head of the Zipf curve).
func benchQueries(n, count int) []string {
	g := synth.New(synth.Options{Seed: int64(n)})
	rng := rand.New(rand.NewSource(42))
	var qs []string
	for range count {
		var words []string
		for k := 1 + rng.Intn(3); k > 0; k-- {
			words = append(words, g.WordOfRank(50+rng.Intn(4950)))
		}
		qs = append(qs, strings.Join(words, " "))
	}
	return qs
}

// queryIndex opens the index the query benchmarks run on: the one named
// by $READSIM_BENCH_INDEX, of the synthetic collection of
// $READSIM_BENCH_N articles (whose seed makes the queries' vocabulary), or
// else the 10k synthetic index in $READSIM_BENCH_SHARDS shards (default 2),
// built once and kept. It returns the index and the collection's size.
func queryIndex(b *testing.B) (*Index, int) {
	n := 10000
	if v := os.Getenv("READSIM_BENCH_N"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	idx := os.Getenv("READSIM_BENCH_INDEX")
	if idx == "" {
		shards := 2
		if v := os.Getenv("READSIM_BENCH_SHARDS"); v != "" {
			shards, _ = strconv.Atoi(v)
		}
		idx = benchIndex(b, n, shards)
	}
	x, err := Open(idx)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { x.Close() })
	return x, n
}

// BenchmarkQuery measures search on an index (queryIndex): "latency" runs
// 200 queries one after the other and reports fetch (top 100) and browse
// (per article, the first 10 of each fetch) percentiles; "throughput"
// runs searches (fetch the top 10 and browse each) on GOMAXPROCS
// goroutines and reports queries per second and CPU per query. -cpu 1,2
// measures how they scale with cores:
//
//	go test -run '^$' -bench 'Query' -cpu 1,2 ./index/
//	READSIM_BENCH_INDEX=/tmp/idx500k READSIM_BENCH_N=500000 go test -run '^$' -bench 'Query/latency' ./index/
func BenchmarkQuery(b *testing.B) {
	b.Run("latency", func(b *testing.B) {
		x, n := queryIndex(b)
		qs := benchQueries(n, 200)
		var qt queryTimes
		var postings []float64
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			qt.fetch, qt.browse, postings = qt.fetch[:0], qt.browse[:0], postings[:0]
			for _, q := range qs {
				pq := qt.run(b, x, q)
				postings = append(postings, float64(queryPostings(b, x, pq)))
			}
		}
		qt.report(b)
		b.ReportMetric(pct(qt.fetch, 0.99), "fetch-p99-ms")
		// the postings fetch walks (each term's document frequency in
		// title and text): they grow with the collection
		sort.Float64s(postings)
		b.ReportMetric(postings[len(postings)*95/100], "postings-p95")
		b.ReportMetric(postings[len(postings)/2], "postings-p50")
	})
	b.Run("throughput", func(b *testing.B) {
		x, n := queryIndex(b)
		qs := benchQueries(n, 200)
		var next atomic.Int64
		t0, cpu0 := time.Now(), procstat.CPUTime()
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				q := qs[int(next.Add(1))%len(qs)]
				pq, err := x.Prepare(q)
				if err != nil {
					b.Error(err)
					return
				}
				if _, err := x.Search(context.Background(), pq, 10, Options{}); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/time.Since(t0).Seconds(), "queries/s")
		// CPU per query: on a shared machine, wall-clock throughput says
		// how much of it the benchmark got
		b.ReportMetric((procstat.CPUTime()-cpu0).Seconds()*1e3/float64(b.N), "cpu-ms/query")
	})
}

// queryPostings is the number of postings fetch walks for q: each term's
// document frequency in the title and in the text, summed over the shards.
func queryPostings(b *testing.B, x *Index, q *Query) uint64 {
	s := x.acquire()
	defer s.release()
	var n uint64
	for _, sh := range s.Bleve {
		adv, _ := sh.Advanced()
		r, err := adv.Reader()
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range fetch.FieldTerms(q.fetchQuery(Options{})) {
			tfr, err := r.TermFieldReader(context.Background(), t.Term, t.Field, false, false, false)
			if err != nil {
				b.Fatal(err)
			}
			n += tfr.Count()
			tfr.Close()
		}
		r.Close()
	}
	return n
}
