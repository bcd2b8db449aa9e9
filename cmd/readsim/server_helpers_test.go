package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/readsim/readsim/internal/app"
	"github.com/readsim/readsim/internal/cli"
)

// The helpers of this file run readsim serve in process for the tests and
// fetch its pages.

// syncBuffer is a bytes.Buffer safe for a server goroutine and a test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveLoopback runs serve(e, cfg, l) on 127.0.0.1 (a free port) until the
// test ends and returns its URL. The test fails, with what e.Stderr holds, when
// the server errs or does not start within a minute, and when it does not
// stop within 10 s of the test's end or ends with an error.
func serveLoopback(t testing.TB, e *cli.Env, cfg app.ServeConfig, l app.Listen) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	l.Addr, l.Ready = "127.0.0.1:0", func(a net.Addr) { ready <- a }
	done := make(chan error, 1)
	go func() { done <- serve(ctx, e, cfg, l) }()
	select {
	case a := <-ready:
		t.Cleanup(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("serve: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Error("the server did not stop")
			}
		})
		return "http://" + a.String()
	case err := <-done:
		cancel()
		t.Fatalf("serve: %v\n%s", err, e.Stderr)
	case <-time.After(60 * time.Second):
		cancel()
		t.Fatal("the server did not start")
	}
	return ""
}

// startServe runs serve in process on a free loopback port, with no rate
// limit, until the test ends, and returns its URL and its standard error.
func startServe(t *testing.T, cfg app.ServeConfig) (string, *syncBuffer) {
	t.Helper()
	return startServeListen(t, cfg, app.Listen{RatePerSecond: -1})
}

// startServeListen is startServe listening as l says.
func startServeListen(t *testing.T, cfg app.ServeConfig, l app.Listen) (string, *syncBuffer) {
	t.Helper()
	stderr := &syncBuffer{}
	e := &cli.Env{Stdout: &syncBuffer{}, Stderr: stderr}
	return serveLoopback(t, e, cfg, l), stderr
}

// getOK returns the body of a 200 answer to a GET of u, or an error.
func getOK(u string) (string, error) {
	b, err := clientGetOK(http.DefaultClient, u)
	return string(b), err
}

// clientGetOK returns the body of a 200 answer to c's GET of u, or an error.
func clientGetOK(c *http.Client, u string) ([]byte, error) {
	resp, err := c.Get(u)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("%s: status %s", u, resp.Status)
	}
	return b, err
}

// fetchOK returns the body of c's GET of u, failing the test unless the
// answer is a 200.
func fetchOK(t *testing.T, c *http.Client, u string) []byte {
	t.Helper()
	b, err := clientGetOK(c, u)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
