package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readsim/readsim/scenario"
)

// TestServe serves an index of two articles on a free loopback port: the
// URL is printed once it listens, start-up says what is served, the
// server answers, and it stops when the context is done, saying so.
func TestServe(t *testing.T) {
	_, _, idx := twoArticles(t)
	var mu sync.Mutex
	var said []string
	say := func(s string) { mu.Lock(); said = append(said, s); mu.Unlock() }
	var urls bytes.Buffer
	ready := make(chan net.Addr, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, ServeConfig{Index: idx, Say: say}, Listen{Addr: "127.0.0.1:0", URLs: &urls, RatePerSecond: -1, Ready: func(a net.Addr) { ready <- a }})
	}()
	var addr net.Addr
	select {
	case addr = <-ready:
	case err := <-done:
		cancel()
		t.Fatal(err)
	}
	port := addr.(*net.TCPAddr).Port
	if want := fmt.Sprintf("local: http://localhost:%d/\n", port); urls.String() != want {
		t.Errorf("URLs %q, want %q", urls.String(), want)
	}
	resp, err := http.Get("http://" + addr.String() + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("GET /healthz: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop")
	}
	mu.Lock()
	defer mu.Unlock()
	if got, want := strings.Join(said, "\n"), "serving 2 articles, 0 run(s) to replay; Ctrl-C stops\nstopped"; got != want {
		t.Errorf("said\n%s\nwant\n%s", got, want)
	}
}

// A server that cannot listen says where it tried; one whose index is not
// there fails before listening.
func TestServeErrors(t *testing.T) {
	dir, _, idx := twoArticles(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	busy := ln.Addr().String()
	for _, tc := range []struct {
		cfg  ServeConfig
		want string
	}{
		{ServeConfig{Index: idx}, "serving on " + busy + ": "},
		{ServeConfig{Index: filepath.Join(dir, "nosuch")}, "nosuch"},
	} {
		err := Serve(context.Background(), tc.cfg, Listen{Addr: busy})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.cfg, err, tc.want)
		}
	}
}

// TestServeConfigCheck: what can be served without an index, and what a
// study and runs need, each refusal a scenario.RequestError.
func TestServeConfigCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  ServeConfig
		err  string
	}{
		{"index", ServeConfig{Index: "x"}, ""},
		{"race without an index", ServeConfig{Qrels: "q", Runs: []string{"r"}}, ""},
		{"nothing", ServeConfig{}, "--index is required (or --qrels with --run, to race runs without an index)"},
		{"judgments alone", ServeConfig{Qrels: "q"}, "--index is required"},
		{"runs without judgments", ServeConfig{Index: "x", Runs: []string{"r"}}, "--run needs --qrels"},
		{"study without topics", ServeConfig{Index: "x", Study: "s"}, "--study needs --index (participants search) and --topics"},
		{"study without an index", ServeConfig{Qrels: "q", Runs: []string{"r"}, Topics: "t", Study: "s"}, "--study needs --index"},
		{"study", ServeConfig{Index: "x", Topics: "t", Study: "s"}, ""},
	} {
		err := tc.cfg.Check()
		var re *scenario.RequestError
		if tc.err == "" && err != nil || tc.err != "" && (!errors.As(err, &re) || !strings.HasPrefix(err.Error(), tc.err)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.err)
		}
	}
}
