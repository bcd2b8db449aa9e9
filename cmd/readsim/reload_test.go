package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/readsim/readsim/web/backend"
)

// TestServeSwitchesToRebuiltIndex serves an index on loopback while eight
// clients search it without pause, rebuilds the index with readsim index
// (a new article, then --shards 2: a rebuild from scratch), and checks that
// serve switches to each new index within moments, without a restart and
// without a failed request.
func TestServeSwitchesToRebuiltIndex(t *testing.T) {
	defer func(d time.Duration) { reloadEvery = d }(reloadEvery)
	reloadEvery = 20 * time.Millisecond
	dir, idx := cmdIndex(t)
	stderr := &syncBuffer{}
	e := &env{stdout: &syncBuffer{}, stderr: stderr}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve(e, serveConfig{Config: backend.Config{Index: idx}, addr: "127.0.0.1:0", rate: -1, ctx: ctx, ready: func(a net.Addr) { ready <- a }})
	}()
	var base string
	select {
	case a := <-ready:
		base = "http://" + a.String()
	case err := <-done:
		t.Fatalf("serve: %v\n%s", err, stderr)
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not start")
	}
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	// ids returns the ids of the hits of a search for q, or an error
	ids := func(q string) ([]string, error) {
		resp, err := http.Get(base + "/api/search?q=" + q)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("status %s", resp.Status)
		}
		var r struct{ Hits []struct{ ID string } }
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
			return nil, err
		}
		var out []string
		for _, h := range r.Hits {
			out = append(out, h.ID)
		}
		return out, nil
	}
	var stop atomic.Bool
	var requests, failures atomic.Int64
	var wg sync.WaitGroup
	for c := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				q := []string{"fresnel", "bridge", "grinding"}[c%3]
				if _, err := ids(q); err != nil {
					failures.Add(1)
					t.Logf("%s: %v", q, err)
				}
				requests.Add(1)
			}
		}()
	}
	waitFor := func(what, q, id string) {
		t.Helper()
		for t0 := time.Now(); time.Since(t0) < 20*time.Second; time.Sleep(10 * time.Millisecond) {
			if got, err := ids(q); err == nil && strings.Contains(strings.Join(got, " "), id) {
				return
			}
		}
		t.Fatalf("%s: serve never found article %s for %q\n%s", what, id, q, stderr)
	}
	p := filepath.Join(dir, "articles", "z", "3.xml")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte(`<article><header><title>Lens grinding</title></header><bdy><p>Grinding lenses by hand.</p></bdy></article>`), 0o644)
	if code, _, errs := runCmd(t, "index", "--articles", filepath.Join(dir, "articles"), "--index", idx); code != 0 {
		t.Fatalf("index: %d %s", code, errs)
	}
	waitFor("update", "grinding", "3")
	if code, _, errs := runCmd(t, "index", "--articles", filepath.Join(dir, "articles"), "--index", idx, "--shards", "2"); code != 0 || !strings.Contains(errs, "in 2 shards") {
		t.Fatalf("index --shards 2: %d %s", code, errs)
	}
	for t0 := time.Now(); !strings.Contains(stderr.String(), "was rebuilt") || strings.Count(stderr.String(), "was rebuilt") < 2; time.Sleep(10 * time.Millisecond) {
		if time.Since(t0) > 20*time.Second {
			t.Fatalf("serve did not switch twice:\n%s", stderr)
		}
	}
	waitFor("rebuild in 2 shards", "fresnel", "1")
	time.Sleep(50 * time.Millisecond)
	stop.Store(true)
	wg.Wait()
	if failures.Load() > 0 || requests.Load() < 20 {
		t.Errorf("%d requests, %d failed\n%s", requests.Load(), failures.Load(), stderr)
	}
}
