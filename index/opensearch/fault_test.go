package opensearch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// script returns the path of .ci/opensearch-cluster, from the module root.
func script(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, ".ci", "opensearch-cluster")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("module root (go.mod) not found")
		}
		dir = parent
	}
}

// ownCluster starts a cluster of n nodes of the test's own in a temporary
// folder with the project's script, and stops it when the test ends. It
// returns the folder and the nodes' URLs.
func ownCluster(tb testing.TB, n int) (string, []string) {
	tb.Helper()
	clusterURLs(tb) // cluster tests are on (or skipped)
	dir, err := os.MkdirTemp("", "cluster-fault-")
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(script(tb), dir, strconv.Itoa(n))
	cmd.Env = append(os.Environ(), "READSIM_OPENSEARCH_PORT=9250")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	tb.Cleanup(func() {
		stop := exec.Command(script(tb), dir, "stop")
		stop.Stderr = os.Stderr
		if err := stop.Run(); err != nil {
			tb.Errorf("stopping the cluster of %s: %v", dir, err)
		}
		os.RemoveAll(dir)
	})
	if err != nil {
		tb.Fatalf("starting a cluster of %d nodes in %s: %v", n, dir, err)
	}
	return dir, strings.Fields(string(out))
}

// nodePID returns the process id of node i of the cluster in dir.
func nodePID(tb testing.TB, dir string, i int) int {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "pids"))
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.Fields(string(data))
	pid, err := strconv.Atoi(lines[i])
	if err != nil {
		tb.Fatal(err)
	}
	return pid
}

// manyDocs returns n documents over a small vocabulary, for fault tests.
func manyDocs(n int, payload string) []Doc {
	words := strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa")
	docs := make([]Doc, n)
	for i := range docs {
		var text []string
		for j := 0; j < 5+i%17; j++ {
			text = append(text, words[(i*7+j*3)%len(words)])
		}
		docs[i] = Doc{ID: fmt.Sprintf("doc%05d", i), Lang: "en", Title: []string{words[i%len(words)]},
			Text: text, Payload: []byte(payload + ":" + strconv.Itoa(i))}
	}
	return docs
}

// TestNodeKilled kills a node of a three-node cluster (one replica) while
// four clients search and read payloads, and checks that no request fails
// and every answer is the one before the kill; the node, started again,
// rejoins and the index is green again.
func TestNodeKilled(t *testing.T) {
	dir, urls := ownCluster(t, 3)
	c, err := New(Config{URLs: urls, Timeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := publish(t, c, "faults", Settings{Shards: 3, Replicas: 1}, manyDocs(600, "A"))
	ctx := context.Background()
	q := Query{Terms: []Term{{Text: "alpha", N: 1}, {Text: "theta", N: 2}}}
	want, err := r.Search(ctx, q, 20)
	if err != nil || len(want) != 20 {
		t.Fatalf("before the kill: %d hits, %v", len(want), err)
	}
	var requests, failures, slowest atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 100000; n++ {
				select {
				case <-stop:
					return
				default:
				}
				requests.Add(1)
				start := time.Now()
				err := sameAnswer(ctx, r, q, want)
				for took := int64(time.Since(start)); ; {
					if s := slowest.Load(); took <= s || slowest.CompareAndSwap(s, took) {
						break
					}
				}
				if err != nil {
					failures.Add(1)
					t.Errorf("request %d: %v", n, err)
				}
			}
		}()
	}
	time.Sleep(2 * time.Second)
	if err := syscall.Kill(nodePID(t, dir, 1), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	time.Sleep(15 * time.Second)
	close(stop)
	wg.Wait()
	t.Logf("%d requests, %d failed, the slowest %v, across the kill of node-1", requests.Load(), failures.Load(), time.Duration(slowest.Load()))
	if requests.Load() < 20 {
		t.Errorf("only %d requests were made", requests.Load())
	}
	restart := exec.Command(script(t), dir, "start-node", "1")
	restart.Stderr = os.Stderr
	if out, err := restart.Output(); err != nil || strings.TrimSpace(string(out)) != urls[1] {
		t.Fatalf("starting node-1 again: %q, %v", out, err)
	}
	var health struct {
		Status string `json:"status"`
		Nodes  int    `json:"number_of_nodes"`
	}
	if err := c.call(ctx, "GET", "/_cluster/health/"+r.Build()+"?wait_for_status=green&timeout=50s", nil, &health); err != nil {
		t.Fatal(err)
	}
	if health.Status != "green" || health.Nodes != 3 {
		t.Errorf("after the restart: %+v, want green with 3 nodes", health)
	}
	if err := sameAnswer(ctx, r, q, want); err != nil {
		t.Errorf("after the restart: %v", err)
	}
}

// sameAnswer searches and reads the hits' payloads, and checks that both
// are those of want.
func sameAnswer(ctx context.Context, r *Reader, q Query, want []Hit) error {
	got, err := r.Search(ctx, q, len(want))
	if err != nil {
		return err
	}
	if len(got) != len(want) {
		return fmt.Errorf("%d hits, want %d", len(got), len(want))
	}
	ids := make([]string, len(got))
	for i := range got {
		if got[i].ID != want[i].ID || got[i].Score != want[i].Score {
			return fmt.Errorf("hit %d: %v, want %v", i, got[i], want[i])
		}
		ids[i] = got[i].ID
	}
	ps, err := r.Payloads(ctx, ids)
	if err != nil {
		return err
	}
	for i, p := range ps {
		n, _ := strconv.Atoi(strings.TrimPrefix(ids[i], "doc"))
		if string(p) != "A:"+strconv.Itoa(n) {
			return fmt.Errorf("payload of %s: %q", ids[i], p)
		}
	}
	return nil
}

// TestDown checks that a cluster that refuses connections, or accepts them
// and never answers, gives an error naming its URL within the timeout.
func TestDown(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refusing := "http://" + closed.Addr().String()
	closed.Close()
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	var conns []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			conn, err := silent.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, conn) // held open, never answered
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	}()
	cases := []struct {
		name string
		url  string
	}{
		{"refused", refusing},
		{"silent", "http://" + silent.Addr().String()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(Config{URLs: []string{tc.url}, Timeout: 3 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			start := time.Now()
			_, err = c.Open(context.Background(), "readsim")
			took := time.Since(start)
			if err == nil || !strings.Contains(err.Error(), tc.url) || !errors.Is(err, ErrUnreachable) {
				t.Errorf("error %v: want ErrUnreachable naming %s", err, tc.url)
			}
			if took > 5*time.Second {
				t.Errorf("the error took %v, over the 3 s timeout", took)
			}
		})
	}
}
