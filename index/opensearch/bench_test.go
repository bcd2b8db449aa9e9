package opensearch

import (
	"context"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/internal/synth"
)

// benchDoc is a synthetic article ready to load: its tokens joined by
// spaces (split again when loaded) and its text, the payload.
type benchDoc struct {
	id, title, text string
	tokens          string
	xmlBytes        int
}

// benchDocs makes n synthetic articles (synth, seed 39) and their tokens:
// the words of the title and the text, lower-cased (the synthetic words
// are ASCII; readsim's English analysis would also stem them and drop
// stop words, which changes the number of tokens by a few per cent).
func benchDocs(tb testing.TB, n int) []benchDoc {
	g := synth.New(synth.Options{N: n, Seed: 39})
	docs := make([]benchDoc, n)
	for i := range docs {
		xml := g.Article(1000000 + i)
		a, err := article.Parse(strings.NewReader(xml), strconv.Itoa(1000000+i)+".xml")
		if err != nil {
			tb.Fatal(err)
		}
		docs[i] = benchDoc{id: a.ID, title: words(a.Title), text: a.Text, tokens: words(a.Text), xmlBytes: len(xml)}
	}
	return docs
}

// words returns the lower-cased letter-and-digit runs of s, joined by
// spaces.
func words(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

// BenchmarkScale loads synthetic articles (READSIM_BENCH_DOCS, 100,000 by
// default) into the test cluster, 3 shards and 1 replica, with each norm
// scheme, and reports the load's throughput, the index's size on the
// cluster and the p50/p95 of 1,000 searches (200 queries of one to three
// words, five times; 20 hits each, dfs_query_then_fetch). Run it with
// -benchtime 1x (docs/cluster.md has the figures).
func BenchmarkScale(b *testing.B) {
	n := 100000
	if v := os.Getenv("READSIM_BENCH_DOCS"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	c, name := testClient(b)
	start := time.Now()
	docs := benchDocs(b, n)
	var xmlBytes int
	for _, d := range docs {
		xmlBytes += d.xmlBytes
	}
	b.Logf("%d synthetic articles, %.0f MB of XML, made in %v", n, float64(xmlBytes)/1e6, time.Since(start).Round(time.Second))
	queries := benchQueries(200)
	for _, norms := range []Norms{NormsScript, NormsFields} {
		b.Run(string(norms), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				benchOne(b, c, name+"-"+string(norms), norms, docs, xmlBytes, queries)
			}
		})
	}
}

// benchQueries returns n queries of one to three words of the synthetic
// vocabulary, of frequency ranks 50 to 20,000.
func benchQueries(n int) []Query {
	g := synth.New(synth.Options{Seed: 39})
	rng := rand.New(rand.NewSource(40))
	qs := make([]Query, n)
	for i := range qs {
		for k := 1 + rng.Intn(3); k > 0; k-- {
			qs[i].Terms = append(qs[i].Terms, Term{Text: g.WordOfRank(50 + rng.Intn(19950)), N: 1})
		}
	}
	return qs
}

// benchOne loads, publishes, measures and deletes one build.
func benchOne(b *testing.B, c *Client, name string, norms Norms, docs []benchDoc, xmlBytes int, queries []Query) {
	ctx := context.Background()
	defer dropBuilds(b, c, name)
	build, err := c.NewBuild(ctx, name, Settings{Shards: 3, Replicas: 1, Norms: norms})
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := loadBench(ctx, build, docs); err != nil {
		b.Fatal(err)
	}
	loaded := time.Since(start)
	if _, err := build.Publish(ctx); err != nil {
		b.Fatal(err)
	}
	published := time.Since(start)
	var sizes []struct {
		Store string `json:"store.size"`
		Pri   string `json:"pri.store.size"`
	}
	if err := c.call(ctx, "GET", "/_cat/indices/"+build.Index()+"?format=json&bytes=b&h=store.size,pri.store.size", nil, &sizes); err != nil || len(sizes) != 1 {
		b.Fatalf("index size: %v", err)
	}
	store, _ := strconv.ParseFloat(sizes[0].Store, 64)
	pri, _ := strconv.ParseFloat(sizes[0].Pri, 64)
	r, err := c.Open(ctx, name)
	if err != nil {
		b.Fatal(err)
	}
	p50, p95 := searchTimes(b, r, queries, 5)
	b.ReportMetric(float64(len(docs))/loaded.Seconds(), "docs/s")
	b.ReportMetric(float64(xmlBytes)/1e6/loaded.Seconds(), "xml-MB/s")
	b.ReportMetric(published.Seconds(), "load+publish-s")
	b.ReportMetric(pri/1e6, "primary-MB")
	b.ReportMetric(store/1e6, "store-MB")
	b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(p95.Microseconds())/1000, "p95-ms")
	b.Logf("%s: loaded %d in %v (%.0f docs/s), published after %v; primaries %.0f MB, with replicas %.0f MB; search p50 %v p95 %v",
		norms, len(docs), loaded.Round(time.Millisecond), float64(len(docs))/loaded.Seconds(), published.Round(time.Millisecond),
		pri/1e6, store/1e6, p50, p95)
}

// loadBench adds docs in batches of 500 from two goroutines.
func loadBench(ctx context.Context, build *Build, docs []benchDoc) error {
	batches := make(chan []benchDoc)
	errs := make(chan error, 2)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for batch := range batches {
				ds := make([]Doc, len(batch))
				for i, d := range batch {
					ds[i] = Doc{ID: d.id, Lang: "en", Title: strings.Fields(d.title), Text: strings.Fields(d.tokens),
						TitleKeys: []string{strings.ToLower(d.title)}, Payload: []byte(d.text)}
				}
				if err := build.Add(ctx, ds); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var err error
send:
	for i := 0; i < len(docs); i += 500 {
		select {
		case batches <- docs[i:min(i+500, len(docs))]:
		case err = <-errs:
			break send
		}
	}
	close(batches)
	wg.Wait()
	if err == nil && len(errs) > 0 {
		err = <-errs
	}
	return err
}

// searchTimes runs the queries passes times, in order, and returns the
// p50 and p95 of their times.
func searchTimes(b *testing.B, r *Reader, queries []Query, passes int) (time.Duration, time.Duration) {
	ctx := context.Background()
	var times []time.Duration
	for p := 0; p < passes; p++ {
		for _, q := range queries {
			start := time.Now()
			if _, err := r.Search(ctx, q, 20); err != nil {
				b.Fatal(err)
			}
			times = append(times, time.Since(start))
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	at := func(p float64) time.Duration { return times[int(p*float64(len(times)-1)+0.5)] }
	return at(0.50), at(0.95)
}
