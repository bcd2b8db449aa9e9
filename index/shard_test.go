package index

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/build"
	"github.com/readsim/readsim/index/internal/synth"
	"github.com/readsim/readsim/index/store"
	"github.com/readsim/readsim/internal/ground/testfs"
)

// synthArticles writes n synthetic articles (ids 1000000…) into dir and
// returns the queries of the tests: words of frequency ranks 2 (in most
// articles) to 300 (in few), alone and together.
func synthArticles(t *testing.T, dir string, n int) []string {
	t.Helper()
	g := synth.New(synth.Options{Seed: 7, Vocab: 2000})
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("%03d/%d.xml", i/10, 1000000+i)] = g.Article(1000000 + i)
	}
	testfs.Write(t, dir, files)
	w := g.WordOfRank
	return []string{w(2), w(10), w(40), w(150), w(300), w(3) + " " + w(60), w(20) + " " + w(90) + " " + w(250), w(5) + " " + w(5) + " " + w(120)}
}

// sameResults checks that two searches return the same articles in the
// same order with scores equal to 1e-9 (relative), the same passages and
// the same snippets.
func sameResults(t *testing.T, what string, got, want []SearchResult) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d results, want %d", what, len(got), len(want))
		return
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.ID != w.ID || g.Title != w.Title || g.Lang != w.Lang {
			t.Errorf("%s: rank %d: %s %q, want %s %q", what, i+1, g.ID, g.Title, w.ID, w.Title)
			return
		}
		if math.Abs(g.Score-w.Score) > 1e-9*math.Abs(w.Score) {
			t.Errorf("%s: rank %d (%s): score %.17g, want %.17g", what, i+1, g.ID, g.Score, w.Score)
		}
		if !reflect.DeepEqual(g.Passages, w.Passages) || g.Snippet != w.Snippet {
			t.Errorf("%s: rank %d (%s): passages %v %q, want %v %q", what, i+1, g.ID, g.Passages, g.Snippet, w.Passages, w.Snippet)
		}
	}
}

// shardDF is the document frequency of term in field in each shard of x.
func shardDF(t *testing.T, x *Index, field, term string) []uint64 {
	t.Helper()
	var out []uint64
	for _, s := range x.snap().Bleve {
		adv, _ := s.Advanced()
		r, err := adv.Reader()
		if err != nil {
			t.Fatal(err)
		}
		tfr, err := r.TermFieldReader(context.Background(), []byte(term), field, false, false, false)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tfr.Count())
		tfr.Close()
		r.Close()
	}
	return out
}

// TestShardsScoreAsOne checks that indexes of 2, 3 and 7 shards fetch and
// browse exactly as an index of one: same articles, order, scores (to
// 1e-9), passages and snippets, though each shard's own statistics (its
// articles, its document frequencies) differ from the collection's.
func TestShardsScoreAsOne(t *testing.T) {
	dir := t.TempDir()
	articles := filepath.Join(dir, "articles")
	queries := synthArticles(t, articles, 80)
	buildN := func(shards int) *Index {
		idx := filepath.Join(dir, fmt.Sprint("idx", shards))
		res, err := Build(BuildOptions{Articles: articles, Index: idx, Shards: shards, Batch: 7})
		if err != nil {
			t.Fatal(err)
		}
		if res.Shards != shards || res.Articles != 80 {
			t.Fatalf("%d shards: built %d shards of %d articles", shards, res.Shards, res.Articles)
		}
		return openTest(t, idx)
	}
	one := buildN(1)
	for _, n := range []int{2, 3, 7} {
		x := buildN(n)
		if x.Shards() != n {
			t.Fatalf("opened %d shards, want %d", x.Shards(), n)
		}
		// the shards' statistics differ: the test means something
		pq := mustPrepare(t, x, queries[3])
		df := shardDF(t, x, "text", pq.Terms[0].Text)
		var total uint64
		for _, d := range df {
			total += d
		}
		if want := shardDF(t, one, "text", pq.Terms[0].Text); total != want[0] || df[0]*uint64(n) == total {
			t.Fatalf("%d shards: document frequencies %v (one shard %v): want a sum equal to one shard's and shards that differ", n, df, want)
		}
		for _, q := range queries {
			for _, k := range []int{3, 100} {
				pq1, pqn := mustPrepare(t, one, q), mustPrepare(t, x, q)
				a, err := x.Search(context.Background(), pqn, k, Options{})
				if err != nil {
					t.Fatal(err)
				}
				b, err := one.Search(context.Background(), pq1, k, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if len(b) == 0 {
					t.Fatalf("%q: nothing found", q)
				}
				sameResults(t, fmt.Sprintf("%d shards, %q, k=%d", n, q, k), a, b)
			}
		}
	}
}

// TestFetchIsBleveBM25 checks fetch against Bleve's own search of the same
// one-shard index (the disjunction of boosted term queries fetch stands
// for, with the collection's statistics as presearch data): the same
// articles in the same order (ties by id), the same scores.
func TestFetchIsBleveBM25(t *testing.T) {
	dir := t.TempDir()
	articles := filepath.Join(dir, "articles")
	queries := synthArticles(t, articles, 60)
	idx := filepath.Join(dir, "idx")
	if _, err := Build(BuildOptions{Articles: articles, Index: idx, Shards: 1, Batch: 9}); err != nil {
		t.Fatal(err)
	}
	x := openTest(t, idx)
	s := x.snap()
	for _, q := range queries {
		for _, opt := range []Options{{}, {TitleBoost: 0.5, TextBoost: 3}} {
			pq := mustPrepare(t, x, q)
			got, err := x.Fetch(context.Background(), pq, 25, opt)
			if err != nil {
				t.Fatal(err)
			}
			tb, xb := opt.boosts()
			var qs []query.Query
			for _, term := range pq.Terms {
				for _, f := range []struct {
					field string
					boost float64
				}{{"title", tb}, {"text", xb}} {
					tq := query.NewTermQuery(term.Text)
					tq.SetField(f.field)
					tq.SetBoost(f.boost * float64(term.N))
					qs = append(qs, tq)
				}
			}
			req := bleve.NewSearchRequestOptions(query.NewDisjunctionQuery(qs), 25, 0, false)
			req.SortBy([]string{"-_score", "_id"})
			req.PreSearchData = map[string]interface{}{bsearch.BM25PreSearchDataKey: s.BM25}
			res, err := s.Bleve[0].SearchInContext(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(res.Hits) || len(got) == 0 {
				t.Fatalf("%q: %d hits, Bleve %d", q, len(got), len(res.Hits))
			}
			for i, h := range res.Hits {
				// the title as the article file gives it (the index keeps
				// it in the article's record, not in Bleve's fields)
				n, _ := strconv.Atoi(h.ID)
				a, err := (&article.Reader{}).ParseFile(filepath.Join(articles, fmt.Sprintf("%03d/%s.xml", (n-1000000)/10, h.ID)))
				if err != nil {
					t.Fatal(err)
				}
				if got[i].ID != h.ID || math.Abs(got[i].Score-h.Score) > 1e-12*h.Score || got[i].Title != a.Title {
					t.Errorf("%q %+v: rank %d: %s %.17g %q, Bleve %s %.17g, file's title %q", q, opt, i+1, got[i].ID, got[i].Score, got[i].Title, h.ID, h.Score, a.Title)
				}
			}
		}
	}
}

// TestShardUpdates checks updates of a sharded index: articles added,
// changed and removed, each in its shard, then the number of shards
// changed (a rebuild, the reason given) and kept when not asked for.
func TestShardUpdates(t *testing.T) {
	dir := t.TempDir()
	articles, idx := filepath.Join(dir, "articles"), filepath.Join(dir, "idx")
	queries := synthArticles(t, articles, 50)
	if _, err := Build(BuildOptions{Articles: articles, Index: idx, Shards: 3}); err != nil {
		t.Fatal(err)
	}
	// remove two, change one, add one
	os.Remove(filepath.Join(articles, "000", "1000003.xml"))
	os.Remove(filepath.Join(articles, "004", "1000044.xml"))
	g := synth.New(synth.Options{Seed: 99, Vocab: 2000})
	testfs.Write(t, articles, map[string]string{"001/1000012.xml": g.Article(1000012), "009/2000000.xml": g.Article(2000000)})
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(articles, "001", "1000012.xml"), later, later)
	res, err := Build(BuildOptions{Articles: articles, Index: idx})
	if err != nil {
		t.Fatal(err)
	}
	if res.Full || res.Shards != 3 || res.Indexed != 2 || res.Removed != 2 || res.Unchanged != 47 || res.Articles != 49 {
		t.Fatalf("update: %+v, want 3 shards kept, 2 indexed, 2 removed, 47 unchanged", res)
	}
	fresh := filepath.Join(dir, "fresh")
	if _, err := Build(BuildOptions{Articles: articles, Index: fresh, Shards: 1}); err != nil {
		t.Fatal(err)
	}
	x, y := openTest(t, idx), openTest(t, fresh)
	if x.Elements() != y.Elements() || !reflect.DeepEqual(x.snap().BM25, y.snap().BM25) {
		t.Errorf("updated: %d elements %+v, fresh %d %+v", x.Elements(), x.snap().BM25, y.Elements(), y.snap().BM25)
	}
	for _, q := range queries {
		sameResults(t, "updated "+q, search(t, x, q), search(t, y, q))
	}
	x.Close()
	res, err = Build(BuildOptions{Articles: articles, Index: idx, Shards: 4})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Full || res.Shards != 4 || res.Rebuilt != "the number of shards changed from 3 to 4" {
		t.Errorf("--shards 4: full %v, %d shards, rebuilt %q", res.Full, res.Shards, res.Rebuilt)
	}
	if res, err = Build(BuildOptions{Articles: articles, Index: idx}); err != nil || res.Shards != 4 || res.Indexed != 0 {
		t.Errorf("no --shards: %+v %v, want the 4 shards kept and nothing indexed", res, err)
	}
}

// TestDefaultShards checks the default number of shards: one per core, one
// per 8 MB at most, at least one.
func TestDefaultShards(t *testing.T) {
	for _, tc := range []struct {
		cores int
		bytes int64
		want  int
	}{{2, 1 << 20, 1}, {2, 55 << 20, 2}, {16, 55 << 20, 6}, {16, 50 << 30, 16}, {1, 50 << 30, 1}, {0, 0, 1}, {1024, 1 << 40, MaxShards}} {
		if got := build.DefaultShards(tc.cores, tc.bytes); got != tc.want {
			t.Errorf("DefaultShards(%d, %d) = %d, want %d", tc.cores, tc.bytes, got, tc.want)
		}
	}
	// FNV-1a 32 of "a" is 0xe40c292c (the FNV reference's test vector)
	if got, want := store.ShardOf("a", 1000), int(uint32(0xe40c292c)%1000); got != want {
		t.Errorf("shardOf(a, 1000) = %d, want %d", got, want)
	}
}

// killBetweenRenames makes a build exit between its two final renames, as
// if killed, in the child process TestCrashBetweenRenames starts.
const killBetweenRenames = "READSIM_TEST_KILL_BETWEEN_RENAMES"

func init() {
	if os.Getenv(killBetweenRenames) != "" {
		store.AfterFirstRename = func() { os.Exit(3) }
	}
}

// TestKilledBuildChild is the child process of TestCrashBetweenRenames.
func TestKilledBuildChild(t *testing.T) {
	if os.Getenv(killBetweenRenames) == "" {
		t.Skip("the child of TestCrashBetweenRenames")
	}
	Build(BuildOptions{Articles: os.Getenv("READSIM_TEST_ARTICLES"), Index: os.Getenv("READSIM_TEST_INDEX")})
	t.Fatal("the build was not killed between its renames")
}

// TestCrashBetweenRenames kills a build (in a child process) between the
// rename of the old index aside and the rename of the new one into place:
// the new index is complete beside the index's folder. Open finds it, and
// the next build puts it in place and uses it (nothing to index).
func TestCrashBetweenRenames(t *testing.T) {
	articles, idx, _ := buildTest(t)
	testfs.Write(t, articles, map[string]string{"4001.xml": `<article><header><title>Lens grinding</title></header><bdy><p>Grinding a Fresnel lens by hand.</p></bdy></article>`})
	cmd := exec.Command(os.Args[0], "-test.run", "^TestKilledBuildChild$")
	cmd.Env = append(os.Environ(), killBetweenRenames+"=1", "READSIM_TEST_ARTICLES="+articles, "READSIM_TEST_INDEX="+idx)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Fatalf("child: %v, want exit status 3\n%s", err, out)
	}
	if _, err := os.Stat(idx); !os.IsNotExist(err) {
		t.Fatalf("the index folder is there after the kill (%v): the test kills too late", err)
	}
	x := openTest(t, idx)
	if x.Articles() != 4 {
		t.Errorf("opened after the kill: %d articles, want the new build's 4", x.Articles())
	}
	x.Close()
	res, err := Build(BuildOptions{Articles: articles, Index: idx})
	if err != nil {
		t.Fatal(err)
	}
	if res.Full || res.Indexed != 0 || res.Unchanged != 4 {
		t.Errorf("after the kill: full %v, indexed %d, unchanged %d; want the killed build's index used as it is", res.Full, res.Indexed, res.Unchanged)
	}
	if left, _ := filepath.Glob(idx + ".*-*"); len(left) > 0 {
		t.Errorf("left beside the index: %v", left)
	}
}

// TestSourceAbsolute checks that an index built from a relative articles
// path records the absolute one.
func TestSourceAbsolute(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, filepath.Join(dir, "arts"), map[string]string{"1.xml": testArticles["1001.xml"]})
	t.Chdir(dir)
	if _, err := Build(BuildOptions{Articles: "arts", Index: "idx"}); err != nil {
		t.Fatal(err)
	}
	m, err := store.ReadManifest(filepath.Join(dir, "idx"))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "arts"); m.Source != want {
		t.Errorf("source %q, want %q", m.Source, want)
	}
}

// TestReloadUnderLoad rebuilds an index three times while eight goroutines
// search it and browse an article without pause: every request succeeds,
// each sees one build whole (an article of the new build appears only with
// the new build's count), and after each Reload the new articles are
// found and a changed article's passages fall on its new text; the builds
// replaced are closed once their requests are done.
//
// Each build g (0, 1, 2) changes article 1001 to its title "Fresnel lens"
// [0,12), "Lighthouses use lenses." [12,35), g times "Old text." (9
// characters each) and "Grinding by hand." (17): the only paragraph with
// grinding, at [35+9g, 52+9g) (by hand). The first build's 1001 has no
// grinding: its passage is its lead, "Lighthouses use lenses." [12,35).
func TestReloadUnderLoad(t *testing.T) {
	articles, idx, _ := buildTest(t)
	x := openTest(t, idx)
	// the passages of grinding in 1001 in each build: the lead, then
	// build g's
	wantPassages := map[string]bool{fmt.Sprint([]span{{12, 35, "/article[1]/bdy[1]/p[1]"}}): true}
	for g := range 3 {
		wantPassages[fmt.Sprint([]span{{35 + 9*g, 52 + 9*g, fmt.Sprintf("/article[1]/bdy[1]/p[%d]", g+2)}})] = true
	}
	var stop atomic.Bool
	var requests, failures atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				pq, err := x.Prepare("fresnel lens grinding")
				if err == nil {
					_, err = x.Search(context.Background(), pq, 10, Options{})
				}
				if err == nil {
					_, err = x.Article("1001")
				}
				if err == nil {
					var ps []Passage
					ps, err = x.Passages(context.Background(), "grinding", "1001", Options{})
					if got := fmt.Sprint(spans(ps)); err == nil && !wantPassages[got] {
						err = fmt.Errorf("passages of grinding in 1001: %s, not those of any build", got)
					}
				}
				requests.Add(1)
				if err != nil {
					failures.Add(1)
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	old := x.snap()
	for gen := range 3 {
		id := fmt.Sprint(5000 + gen)
		testfs.Write(t, articles, map[string]string{
			id + ".xml": `<article><header><title>Grinding ` + id + `</title></header><bdy><p>Grinding lenses.</p></bdy></article>`,
			"1001.xml":  `<article><header><title>Fresnel lens</title></header><bdy><p>Lighthouses use lenses.</p>` + strings.Repeat(`<p>Old text.</p>`, gen) + `<p>Grinding by hand.</p></bdy></article>`,
		})
		if _, err := Build(BuildOptions{Articles: articles, Index: idx}); err != nil {
			t.Fatal(err)
		}
		switched, err := x.Reload()
		if err != nil || !switched {
			t.Fatalf("reload %d: %v %v, want a switch", gen, switched, err)
		}
		found := false
		for _, r := range search(t, x, "grinding") {
			found = found || r.ID == id
		}
		if !found || x.Articles() != 4+gen {
			t.Errorf("after reload %d: %d articles, %s found %v", gen, x.Articles(), id, found)
		}
		ps, err := x.Passages(context.Background(), "grinding", "1001", Options{})
		d, derr := x.Article("1001")
		if err != nil || derr != nil || len(ps) != 1 || ps[0].Start != 35+9*gen || ps[0].End != 52+9*gen ||
			string([]rune(d.Text)[ps[0].Start:ps[0].End]) != "Grinding by hand." {
			t.Errorf("after reload %d: passages of grinding in 1001 %v (%v, %v), want [%d,%d) on Grinding by hand.", gen, spans(ps), err, derr, 35+9*gen, 52+9*gen)
		}
		if switched, err := x.Reload(); switched || err != nil {
			t.Errorf("a second reload switched (%v, %v)", switched, err)
		}
	}
	time.Sleep(50 * time.Millisecond)
	stop.Store(true)
	wg.Wait()
	if failures.Load() > 0 || requests.Load() < 16 {
		t.Errorf("%d requests, %d failed (first: %v)", requests.Load(), failures.Load(), firstErr)
	}
	if old.refs.Load() != 0 || !old.closed.Load() {
		t.Errorf("the first build is still open (%d references)", old.refs.Load())
	}
	if !strings.Contains(x.dir, "idx") {
		t.Errorf("dir %q", x.dir)
	}
}

// TestFetchTies fetches from 40 articles of the same text, whose scores
// all tie: the k best are the k smallest ids, in order, whatever the
// number of shards and however the files and batches order the documents.
func TestFetchTies(t *testing.T) {
	dir := t.TempDir()
	articles := filepath.Join(dir, "articles")
	files := map[string]string{}
	var ids []string
	for i := range 40 {
		id := fmt.Sprint(1000 + (i*7919)%1000)
		ids = append(ids, id)
		files[fmt.Sprintf("%02d/%s.xml", 39-i, id)] = `<article><header><title>Same</title></header><bdy><p>Tied words here.</p></bdy></article>`
	}
	testfs.Write(t, articles, files)
	sort.Strings(ids)
	for _, shards := range []int{1, 3} {
		idx := filepath.Join(dir, fmt.Sprint("idx", shards))
		if _, err := Build(BuildOptions{Articles: articles, Index: idx, Shards: shards, Batch: 6}); err != nil {
			t.Fatal(err)
		}
		x := openTest(t, idx)
		for _, k := range []int{1, 5, 17, 40} {
			hits, err := x.Fetch(context.Background(), mustPrepare(t, x, "tied"), k, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hits {
				got = append(got, h.ID)
				if h.Score != hits[0].Score {
					t.Fatalf("scores differ: %+v", hits)
				}
			}
			if !reflect.DeepEqual(got, ids[:k]) {
				t.Errorf("%d shards, k=%d: %v, want %v", shards, k, got, ids[:k])
			}
		}
	}
}

// TestFetchCancelled checks that a cancelled request stops fetch and
// search in every shard.
func TestFetchCancelled(t *testing.T) {
	dir := t.TempDir()
	articles := filepath.Join(dir, "articles")
	queries := synthArticles(t, articles, 30)
	idx := filepath.Join(dir, "idx")
	if _, err := Build(BuildOptions{Articles: articles, Index: idx, Shards: 3}); err != nil {
		t.Fatal(err)
	}
	x := openTest(t, idx)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pq := mustPrepare(t, x, queries[0])
	if _, err := x.Fetch(ctx, pq, 10, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("fetch: %v, want context.Canceled", err)
	}
	if _, err := x.Search(ctx, pq, 10, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("search: %v, want context.Canceled", err)
	}
}

// TestOpenReadsTotals checks that searching needs the manifest's totals,
// not its articles (articles.json, which only builds read): an index whose
// articles.json is gone opens with the counts of TestBuildSummary and
// searches as before.
func TestOpenReadsTotals(t *testing.T) {
	_, idx, _ := buildTest(t)
	want := search(t, openTest(t, idx), "fresnel")
	if err := os.Remove(filepath.Join(idx, store.ArticlesName)); err != nil {
		t.Fatal(err)
	}
	x := openTest(t, idx)
	if x.Articles() != 3 || x.Elements() != 7 || x.Langs()["en"] != 3 {
		t.Errorf("%d articles, %d elements, languages %v; want 3, 7, en 3", x.Articles(), x.Elements(), x.Langs())
	}
	sameResults(t, "without articles.json", search(t, x, "fresnel"), want)
}
