package app

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/index/opensearch"
	"github.com/readsim/readsim/index/opensearch/clustertest"
	"github.com/readsim/readsim/internal/ground/testfs"
)

// TestServeFollowsCluster: a server on an index on the test cluster goes
// on answering while the index is built again twice (readsim index into
// the same URL), each answer wholly one build's — the articles of one
// version, every snippet of that version — and, once the server has
// switched, the last build's articles are all found (nothing lost). A
// client never gets an older build's answer after a newer one. Version v
// has articles 1 … 3+v, each "zorblax versionV". The builds have no
// replicas: the switch is the alias's, whatever the copies.
func TestServeFollowsCluster(t *testing.T) {
	urls := clustertest.URLs(t)
	var hosts []string
	for _, u := range urls {
		hosts = append(hosts, strings.TrimPrefix(strings.TrimRight(u, "/"), "http://"))
	}
	name := fmt.Sprintf("readsim-test-serve-%d", time.Now().UnixNano())
	u := "http://" + strings.Join(hosts, ",") + "/" + name + "?replicas=0"
	t.Cleanup(func() {
		c, err := opensearch.New(opensearch.Config{URLs: urls})
		if err == nil {
			c.Drop(context.Background(), name)
			c.Close()
		}
	})
	dir := t.TempDir()
	version := func(v int) {
		files := map[string]string{}
		for i := 1; i <= 3+v; i++ {
			files[fmt.Sprintf("%d.xml", i)] = fmt.Sprintf(`<article><header><title>Article %d</title></header><bdy><p>Zorblax version%d.</p></bdy></article>`, i, v)
		}
		arts := filepath.Join(dir, fmt.Sprint(v))
		testfs.Write(t, arts, files)
		if _, err := index.Build(index.BuildOptions{Articles: arts, Index: u}); err != nil {
			t.Fatal(err)
		}
	}
	version(1)
	a, err := Assemble(ServeConfig{Index: u})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	stop := a.Watch(context.Background(), 50*time.Millisecond, t.Logf)
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[int]int{}
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := 0
			for ctx.Err() == nil {
				hits, err := a.Options.Searcher.Search(context.Background(), "zorblax", 20)
				if err != nil {
					t.Errorf("search: %v", err)
					return
				}
				v := 0
				fmt.Sscanf(strings.TrimPrefix(hits[0].Snippet, "[Zorblax] version"), "%d", &v)
				var ids []string
				for _, h := range hits {
					if !strings.Contains(h.Snippet, fmt.Sprintf("version%d", v)) {
						t.Errorf("a mixed answer: %+v", hits)
						return
					}
					ids = append(ids, h.ID)
				}
				if len(ids) != 3+v {
					t.Errorf("version %d answered with %d articles %v, want %d", v, len(ids), ids, 3+v)
					return
				}
				if v < last {
					t.Errorf("version %d answered after version %d", v, last)
					return
				}
				last = v
				mu.Lock()
				seen[v]++
				mu.Unlock()
			}
		}()
	}
	version(2)
	version(3)
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		n := seen[3]
		mu.Unlock()
		if n > 5 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	t.Logf("answers by version: %v", seen)
	if seen[1] == 0 || seen[3] == 0 {
		t.Errorf("answers by version %v: want the first build's, then the last's", seen)
	}
}
