package index

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/readsim/readsim/index/opensearch"
	"github.com/readsim/readsim/index/opensearch/clustertest"
)

// TestClusterNodeKilled: an index on a three-node cluster (three shards,
// one replica: the default on three data nodes) answers through
// index.Searcher — fetch, payloads, browse and snippets — while a node is
// killed (SIGKILL) under four clients searching: no search fails and
// every answer equals the one before the kill. The node, started again,
// rejoins, the cluster is green with three nodes, and the answers are
// still the same. At last every node is killed: a search then fails
// within the URL's timeout, naming the nodes. The cluster is the test's own (clustertest.Own), so
// that the kill disturbs no other test, and the test runs beside the
// others.
func TestClusterNodeKilled(t *testing.T) {
	t.Parallel() // its cluster is its own: the other tests go on meanwhile
	t0 := time.Now()
	dir, urls := clustertest.Own(t, 3)
	t.Logf("own cluster green in %v", time.Since(t0).Round(time.Millisecond))
	var hosts []string
	for _, u := range urls {
		hosts = append(hosts, strings.TrimPrefix(u, "http://"))
	}
	u := "http://" + strings.Join(hosts, ",") + "/faults?timeout=60s"
	arts := filepath.Join("..", "corpus-sample", "articles")
	t0 = time.Now()
	if _, err := Build(BuildOptions{Articles: arts, Index: u}); err != nil {
		t.Fatal(err)
	}
	t.Logf("built in %v", time.Since(t0).Round(time.Millisecond))
	x, err := OpenAt(u)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	queries := []string{"bridge", "coffee history", "computing"}
	want := map[string][]SearchResult{}
	for _, q := range queries {
		want[q] = searchOnce(t, x, q)
		if len(want[q]) == 0 {
			t.Fatalf("%q: no article before the kill", q)
		}
	}
	var requests, failures atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				q := queries[(g+n)%len(queries)]
				requests.Add(1)
				if err := sameAnswer(x, q, want[q]); err != nil {
					failures.Add(1)
					t.Errorf("client %d, request %d, %q: %v", g, n, q, err)
				}
			}
		}()
	}
	time.Sleep(2 * time.Second)
	clustertest.Kill(t, dir, 1)
	time.Sleep(6 * time.Second)
	close(stop)
	wg.Wait()
	t.Logf("%d searches, %d failed, across the kill of node-1", requests.Load(), failures.Load())
	if requests.Load() < 20 {
		t.Errorf("only %d searches were made", requests.Load())
	}
	t0 = time.Now()
	if got := clustertest.StartNode(t, dir, 1); got != urls[1] {
		t.Fatalf("node-1 started again at %s, want %s", got, urls[1])
	}
	t.Logf("node-1 rejoined, the cluster green, in %v", time.Since(t0).Round(time.Millisecond))
	if status, nodes := clusterHealth(t, urls[0]); status != "green" || nodes != 3 {
		t.Errorf("after the restart: %s with %d nodes, want green with 3", status, nodes)
	}
	for _, q := range queries {
		if err := sameAnswer(x, q, want[q]); err != nil {
			t.Errorf("after the restart, %q: %v", q, err)
		}
	}
	clusterGone(t, dir, strings.Replace(u, "timeout=60s", "timeout=3s", 1), urls[0])
}

// clusterGone opens the index at u (whose timeout is 3 s), kills every
// node of the cluster in dir, and checks that a search then fails within
// the timeout (and a little), naming the nodes' URLs (node is one):
// a server whose cluster went down answers with an error, never hangs.
func clusterGone(t *testing.T, dir, u, node string) {
	y, err := OpenAt(u)
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close()
	q, err := y.Prepare("bridge")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		clustertest.Kill(t, dir, i)
	}
	t0 := time.Now()
	_, err = y.Search(context.Background(), q, 10, Options{})
	took := time.Since(t0)
	t.Logf("every node killed: a search failed after %v: %v", took.Round(time.Millisecond), err)
	if err == nil || !errors.Is(err, opensearch.ErrUnreachable) || !strings.Contains(err.Error(), node) || took > 6*time.Second {
		t.Errorf("a search once every node was killed: %v after %v, want ErrUnreachable naming %s within 6 s", err, took, node)
	}
}

// searchOnce returns the top 10 results of q on x.
func searchOnce(t *testing.T, x Searcher, q string) []SearchResult {
	t.Helper()
	pq, err := x.Prepare(q)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := x.Search(context.Background(), pq, 10, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// sameAnswer searches q on x and compares the results with want: the
// same articles, scores, passages and snippets.
func sameAnswer(x Searcher, q string, want []SearchResult) error {
	pq, err := x.Prepare(q)
	if err != nil {
		return err
	}
	got, err := x.Search(context.Background(), pq, 10, Options{})
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("%d results %v, want %d %v", len(got), firstIDs(got), len(want), firstIDs(want))
	}
	return nil
}

// clusterHealth waits up to a minute for the cluster at node to be green
// and returns its status and number of nodes.
func clusterHealth(t *testing.T, node string) (string, int) {
	t.Helper()
	res, err := http.Get(node + "/_cluster/health?wait_for_status=green&wait_for_nodes=3&timeout=60s")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var h struct {
		Status string `json:"status"`
		Nodes  int    `json:"number_of_nodes"`
	}
	if err := json.NewDecoder(res.Body).Decode(&h); err != nil {
		t.Fatal(err)
	}
	return h.Status, h.Nodes
}
