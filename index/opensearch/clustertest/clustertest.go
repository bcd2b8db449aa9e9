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
	"strings"
	"sync"
	"testing"
	"time"
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
