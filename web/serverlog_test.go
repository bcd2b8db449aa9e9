package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// panicSearcher panics on every search.
type panicSearcher struct{ fakeSearcher }

func (panicSearcher) Search(context.Context, string, int) ([]Hit, error) { panic("boom") }

// TestStudyServerLogNoAddress: net/http's own log lines (a handler's
// panic) reach Options.Logf without the client's address, which the
// study promises is never logged; the address pattern takes out IPv4 and
// bracketed IPv6 addresses with their ports and nothing else.
func TestStudyServerLogNoAddress(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http: panic serving 192.0.2.7:51234: boom", "http: panic serving [address]: boom"},
		{"http: TLS handshake error from [2001:db8::1]:443: EOF", "http: TLS handshake error from [address]: EOF"},
		{"http: TLS handshake error from [fe80::1%eth0]:8080: EOF", "http: TLS handshake error from [address]: EOF"},
		{"http: Accept error: accept tcp [::]:8080: too many open files", "http: Accept error: accept tcp [address]: too many open files"},
		{"/usr/lib/go/src/net/http/server.go:1947 +0x13c", "/usr/lib/go/src/net/http/server.go:1947 +0x13c"},
		{"version 2.5.7 at 12:30:01", "version 2.5.7 at 12:30:01"},
	} {
		if got := withoutAddresses(tc.in); got != tc.want {
			t.Errorf("withoutAddresses(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	var mu sync.Mutex
	var logs []string
	s, _, _ := newTestServer(t, func(o *Options) {
		o.Searcher = panicSearcher{}
		o.Logf = func(format string, args ...any) {
			mu.Lock()
			logs = append(logs, fmt.Sprintf(format, args...))
			mu.Unlock()
		}
	})
	addr, _ := serveLoopback(t, s)
	resp, err := http.Get("http://" + addr + "/api/search?q=lens")
	if err == nil {
		resp.Body.Close()
	}
	var all string
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		mu.Lock()
		all = strings.Join(logs, "\n")
		mu.Unlock()
		if strings.Contains(all, "panic serving") {
			break
		}
	}
	if !strings.Contains(all, "http: panic serving [address]: boom") || strings.Contains(all, "127.0.0.1") {
		t.Errorf("the server's log:\n%s\nwant the panic without the client's address", all)
	}
}
