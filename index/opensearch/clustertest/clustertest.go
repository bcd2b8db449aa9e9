// Package clustertest finds, for tests, the OpenSearch cluster they run
// on: the URLs of its nodes in READSIM_OPENSEARCH (comma-separated; .ci/run
// starts three nodes with .ci/opensearch-cluster and sets it). Without
// it, or when no node answers, a test skips saying how to start one —
// except under CI (the environment variable CI set), where it fails: a
// skip there would hide a cluster that did not start. It imports nothing
// of readsim's.
package clustertest

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/readsim/readsim/internal/ground/testfs"
)

// how says how to start a cluster.
const how = ".ci/opensearch-cluster DIR 3 starts one and prints its URLs; set READSIM_OPENSEARCH to them, joined by commas"

// reach caches, per process, whether the cluster answered.
var reach struct {
	sync.Once
	err error
}

// URLs returns the test cluster's node URLs, or skips (fails under CI)
// when READSIM_OPENSEARCH is unset or none of its nodes answers.
func URLs(tb testing.TB) []string {
	tb.Helper()
	v := os.Getenv("READSIM_OPENSEARCH")
	if v == "" {
		skip(tb, "READSIM_OPENSEARCH is not set: no OpenSearch cluster to test on")
	}
	urls := strings.Split(v, ",")
	reach.Do(func() { reach.err = answers(urls) })
	if reach.err != nil {
		skip(tb, fmt.Sprintf("READSIM_OPENSEARCH=%s: %v", v, reach.err))
	}
	return urls
}

// skip skips the test with msg, or fails it under CI.
func skip(tb testing.TB, msg string) {
	tb.Helper()
	if os.Getenv("CI") != "" {
		tb.Fatalf("%s (%s); under CI, .ci/run must start it", msg, how)
	}
	tb.Skipf("%s (%s)", msg, how)
}

// answers reports whether some node answers its root within a few
// seconds.
func answers(urls []string) error {
	c := &http.Client{Timeout: 5 * time.Second}
	var errs []string
	for _, u := range urls {
		res, err := c.Get(strings.TrimRight(u, "/") + "/")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
			err = fmt.Errorf("status %d", res.StatusCode)
		}
		errs = append(errs, fmt.Sprintf("%s: %v", u, err))
	}
	return fmt.Errorf("no node answers: %s", strings.Join(errs, "; "))
}

// Own starts a cluster of n nodes of the test's own with the project's
// script (.ci/opensearch-cluster) in a temporary folder, HTTP ports from
// 9250, its JVMs compiling with C1 only, and stops it when the test ends: for the tests that kill a node,
// which must not disturb the shared cluster. It returns the folder and
// the nodes' URLs, and skips (fails under CI) as URLs does when there is
// no shared cluster, since cluster tests are then off.
func Own(tb testing.TB, n int) (string, []string) {
	tb.Helper()
	URLs(tb)
	dir, err := os.MkdirTemp("", "readsim-own-cluster-")
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(script(tb), dir, strconv.Itoa(n))
	cmd.Env = append(os.Environ(), "READSIM_OPENSEARCH_PORT=9250")
	if os.Getenv("READSIM_OPENSEARCH_JAVA_OPTS") == "" {
		// C1 only: the nodes start in about half the time, and a test's
		// few searches need no optimised code
		cmd.Env = append(cmd.Env, "READSIM_OPENSEARCH_JAVA_OPTS=-XX:TieredStopAtLevel=1")
	}
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

// Kill ends node i of the cluster in dir at once (SIGKILL), as a machine
// that fails.
func Kill(tb testing.TB, dir string, i int) {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "pids"))
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.Fields(string(data))
	if i >= len(lines) {
		tb.Fatalf("%s/pids has no node %d", dir, i)
	}
	pid, err := strconv.Atoi(lines[i])
	if err != nil {
		tb.Fatalf("%s/pids, node %d: %v", dir, i, err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		tb.Fatalf("killing node %d (pid %d): %v", i, pid, err)
	}
}

// StartNode starts node i of the cluster in dir again and returns its URL
// once the cluster is green with all its nodes.
func StartNode(tb testing.TB, dir string, i int) string {
	tb.Helper()
	cmd := exec.Command(script(tb), dir, "start-node", strconv.Itoa(i))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("starting node %d of %s again: %v", i, dir, err)
	}
	return strings.TrimSpace(string(out))
}

// script returns the path of .ci/opensearch-cluster, from the module root
// (the folder above the test's holding go.mod).
func script(tb testing.TB) string {
	tb.Helper()
	dir, err := testfs.ModuleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	return filepath.Join(dir, ".ci", "opensearch-cluster")
}
