package index_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/index/internal/synth"
	"github.com/readsim/readsim/index/opensearch/clustertest"
)

// BenchmarkBackends builds one synthetic collection ($READSIM_BENCH_N
// articles, default 100,000; seed 39, as index/opensearch's
// BenchmarkScale) with readsim index into a folder (the embedded Bleve
// index, its default shards) and into an index on the test cluster
// (READSIM_OPENSEARCH: one shard a data node, one replica), one after the
// other in one run, and reports each one's indexing throughput, its size
// (the cluster's primaries and all its copies) and the p50 and p95 of
// 1,000 searches (200 queries of one to three words of frequency ranks 50
// to 20,000, five times over), asked of both in turn: fetch alone (the
// top 20) and the server's search (Hits: fetch, browse and snippets of
// the top 20). The collection and the folder are kept under
// $READSIM_BENCH_DIR (default the system temporary folder); the index on
// the cluster is dropped at the end.
//
//	go test -run '^$' -bench Backends -benchtime 1x -timeout 90m ./index/
func BenchmarkBackends(b *testing.B) {
	n := 100000
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
	const seed = 39
	arts := filepath.Join(root, fmt.Sprintf("readsim-synth%d-%d", seed, n))
	if _, err := os.Stat(filepath.Join(arts, ".complete")); err != nil {
		os.RemoveAll(arts)
		if _, err := synth.Generate(arts, synth.Options{N: n, Seed: seed}); err != nil {
			b.Fatal(err)
		}
		os.WriteFile(filepath.Join(arts, ".complete"), nil, 0o644)
	}
	urls := clustertest.URLs(b)
	var hosts []string
	for _, u := range urls {
		hosts = append(hosts, strings.TrimPrefix(strings.TrimRight(u, "/"), "http://"))
	}
	name := fmt.Sprintf("readsim-bench-%d-%d", n, time.Now().Unix())
	where := map[string]string{
		"bleve":   filepath.Join(root, fmt.Sprintf("readsim-synth%d-%d-index", seed, n)),
		"cluster": "http://" + strings.Join(hosts, ",") + "/" + name,
	}
	defer dropBench(urls[0], name)
	backends := []string{"bleve", "cluster"}
	xs := map[string]index.Searcher{}
	metrics := map[string]float64{} // reported at the end: ResetTimer deletes them
	for _, be := range backends {
		os.RemoveAll(where[be])
		t0 := time.Now()
		res, err := index.Build(index.BuildOptions{Articles: arts, Index: where[be]})
		if err != nil {
			b.Fatal(err)
		}
		secs := time.Since(t0).Seconds()
		metrics[be+"-articles/s"] = float64(res.Articles) / secs
		metrics[be+"-xml-MB/s"] = float64(res.Bytes) / 1e6 / secs
		if xs[be], err = index.OpenAt(where[be]); err != nil {
			b.Fatal(err)
		}
		defer xs[be].Close()
	}
	metrics["bleve-MB"] = float64(index.DirSize(where["bleve"])) / 1e6
	prim, total := clusterSize(b, urls[0], name)
	metrics["cluster-primaries-MB"], metrics["cluster-total-MB"] = prim/1e6, total/1e6

	g := synth.New(synth.Options{Seed: seed})
	rng := rand.New(rand.NewSource(3939))
	var qs []string
	for range 200 {
		var words []string
		for k := 1 + rng.Intn(3); k > 0; k-- {
			words = append(words, g.WordOfRank(50+rng.Intn(19950)))
		}
		qs = append(qs, strings.Join(words, " "))
	}
	ctx := context.Background()
	times := map[string][]time.Duration{}
	b.ResetTimer()
	for range 5 * b.N {
		for _, q := range qs {
			for _, be := range backends {
				x := xs[be]
				pq, err := x.Prepare(q)
				if err != nil {
					b.Fatalf("%s %q: %v", be, q, err)
				}
				t0 := time.Now()
				if _, err := x.Fetch(ctx, pq, 20, index.Options{}); err != nil {
					b.Fatal(err)
				}
				times[be+"-fetch"] = append(times[be+"-fetch"], time.Since(t0))
				t0 = time.Now()
				if _, err := x.Hits(ctx, pq, 20, index.Options{}); err != nil {
					b.Fatal(err)
				}
				times[be+"-hits"] = append(times[be+"-hits"], time.Since(t0))
			}
		}
	}
	b.StopTimer()
	for k, v := range metrics {
		b.ReportMetric(v, k)
	}
	for k, ts := range times {
		b.ReportMetric(index.Pct(ts, 0.5), k+"-p50-ms")
		b.ReportMetric(index.Pct(ts, 0.95), k+"-p95-ms")
	}
}

// clusterSize returns the store size of the index name's primaries and
// of all its copies, in bytes.
func clusterSize(b *testing.B, node, name string) (float64, float64) {
	res, err := http.Get(node + "/" + name + "/_stats/store")
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	var raw map[string]json.RawMessage
	if err := json.NewDecoder(res.Body).Decode(&raw); err != nil {
		b.Fatal(err)
	}
	var all struct {
		Primaries struct {
			Store struct {
				Size float64 `json:"size_in_bytes"`
			} `json:"store"`
		} `json:"primaries"`
		Total struct {
			Store struct {
				Size float64 `json:"size_in_bytes"`
			} `json:"store"`
		} `json:"total"`
	}
	if err := json.Unmarshal(raw["_all"], &all); err != nil {
		b.Fatal(err)
	}
	return all.Primaries.Store.Size, all.Total.Store.Size
}

// dropBench deletes the benchmark's builds on the cluster.
func dropBench(node, name string) {
	req, _ := http.NewRequest("DELETE", node+"/"+name+".build-*", nil)
	if res, err := http.DefaultClient.Do(req); err == nil {
		res.Body.Close()
	}
}
