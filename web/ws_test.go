package web

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

func wsURL(srv *httptest.Server, query string) string {
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws/replay" + query
}

// serveLoopback runs Serve for s on a fresh 127.0.0.1 listener, for the
// tests of what Serve adds to the handler (its error log, its graceful
// shutdown). It returns the listener's address and stop, which cancels
// Serve's context and returns what Serve returned, or an error when Serve
// has not returned within 10 seconds. The test's cleanup stops Serve if the
// test has not, without looking at its error.
func serveLoopback(t *testing.T, s *Server) (addr string, stop func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, s, nil) }()
	stop = sync.OnceValue(func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			return errors.New("Serve did not return within 10 seconds of its context's end")
		}
	})
	t.Cleanup(func() { stop() })
	return ln.Addr().String(), stop
}

// readAll reads text messages until the close frame and returns them with
// the close code.
func readAll(t *testing.T, c *websocket.Conn) ([]string, int) {
	t.Helper()
	var msgs []string
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, b, err := c.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				return msgs, ce.Code
			}
			t.Fatalf("after %d messages: %v", len(msgs), err)
		}
		msgs = append(msgs, string(b))
	}
}

func TestReplayStream(t *testing.T) {
	tests := []struct {
		name, query string
		want        ReplayRequest
		after       int
	}{
		{"defaults: first topic of the first run", "", ReplayRequest{Topic: "T1", Run: "runA", Order: "natural", T2I: 300, Screen: 300}, 0},
		{"first topic of the given run", "?run=runB", ReplayRequest{Topic: "T2", Run: "runB", Order: "natural", T2I: 300, Screen: 300}, 0},
		{"all parameters", "?run=runA&topic=T2&order=worst&t2i=0&screen=2000", ReplayRequest{Topic: "T2", Run: "runA", Order: "worst", T2I: 0, Screen: 2000}, 0},
		{"resume after seq 5", "?after=5", ReplayRequest{Topic: "T1", Run: "runA", Order: "natural", T2I: 300, Screen: 300}, 5},
		{"the document baseline of a run", "?run=runA~doc&topic=T2", ReplayRequest{Topic: "T2", Run: "runA", Order: "natural", T2I: 300, Screen: 300, DocBaseline: true}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _, rep := newTestServer(t, nil)
			srv := httptest.NewServer(s)
			defer srv.Close()
			c, _, err := websocket.DefaultDialer.Dial(wsURL(srv, tc.query), http.Header{"Origin": {srv.URL}})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			msgs, code := readAll(t, c)
			if code != websocket.CloseNormalClosure {
				t.Errorf("close code %d", code)
			}
			want := fakeTrace(tc.want.Topic, tc.want.Run)[tc.after:]
			if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
				t.Errorf("got %d events\n%s\nwant %d\n%s", len(msgs), strings.Join(msgs, "\n"), len(want), strings.Join(want, "\n"))
			}
			if reqs := rep.requests(); len(reqs) != 1 || reqs[0] != tc.want {
				t.Errorf("requests %+v, want %+v", reqs, tc.want)
			}
		})
	}
}

func TestReplayBadRequests(t *testing.T) {
	for _, q := range []string{"?run=nope", "?run=nope~doc", "?run=runA~docs", "?run=runA~doc&topic=endless", "?run=runA&topic=endless", "?order=random", "?t2i=-1", "?screen=0", "?screen=x", "?after=-3"} {
		s, _, rep := newTestServer(t, nil)
		srv := httptest.NewServer(s)
		// A plain GET is a 400.
		resp, err := http.Get(srv.URL + "/ws/replay" + q)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 400 {
			t.Errorf("GET %s: status %d", q, resp.StatusCode)
		}
		// A WebSocket gets an error event and a policy-violation close.
		c, _, err := websocket.DefaultDialer.Dial(wsURL(srv, q), nil)
		if err != nil {
			t.Fatal(err)
		}
		msgs, code := readAll(t, c)
		c.Close()
		if len(msgs) != 1 || !strings.Contains(msgs[0], `"ev":"error"`) || code != websocket.ClosePolicyViolation {
			t.Errorf("%s: %v, close %d", q, msgs, code)
		}
		if len(rep.requests()) != 0 {
			t.Errorf("%s: replayed", q)
		}
		srv.Close()
	}
}

func TestReplayOrigin(t *testing.T) {
	tests := []struct {
		origin string
		allow  []string
		ok     bool
	}{
		{"", nil, true},
		{"SAME", nil, true},
		{"http://evil.example", nil, false},
		{"http://evil.example", []string{"http://evil.example"}, true},
		{"http://evil.example", []string{"http://other.example"}, false},
		{"http://evil.example", []string{"*"}, true},
		{"null", nil, false},
	}
	for _, tc := range tests {
		s, _, _ := newTestServer(t, func(o *Options) { o.AllowOrigins = tc.allow })
		srv := httptest.NewServer(s)
		h := http.Header{}
		if tc.origin == "SAME" {
			h.Set("Origin", srv.URL)
		} else if tc.origin != "" {
			h.Set("Origin", tc.origin)
		}
		c, resp, err := websocket.DefaultDialer.Dial(wsURL(srv, ""), h)
		if tc.ok != (err == nil) {
			t.Errorf("origin %q allow %v: err %v", tc.origin, tc.allow, err)
		}
		if !tc.ok && resp != nil && resp.StatusCode != http.StatusForbidden {
			t.Errorf("origin %q: status %d", tc.origin, resp.StatusCode)
		}
		if c != nil {
			c.Close()
		}
		srv.Close()
	}
}

// TestReplayRejectsRebinding: a page served under a foreign name (a DNS
// rebinding attack: evil.example re-resolved to this server) has an Origin equal
// to its Host, yet may not open a socket unless the name is allowed.
func TestReplayRejectsRebinding(t *testing.T) {
	host, _ := os.Hostname()
	tests := []struct {
		host  string
		allow []string
		ok    bool
	}{
		{"evil.example:8080", nil, false},
		{"evil.example:8080", []string{"http://evil.example:8080"}, true},
		{"127.0.0.1:8080", nil, true},
		{"192.168.1.5:8080", nil, true},
		{"[::1]:8080", nil, true},
		{"localhost:8080", nil, true},
		{strings.ToLower(host) + ":8080", nil, true},
	}
	for _, tc := range tests {
		s, _, _ := newTestServer(t, func(o *Options) { o.AllowOrigins = tc.allow })
		r := httptest.NewRequest("GET", "http://"+tc.host+"/ws/replay", nil)
		r.Header.Set("Origin", "http://"+tc.host)
		if got := s.checkOrigin(r); got != tc.ok {
			t.Errorf("Host and Origin %s, allow %v: accepted %v, want %v", tc.host, tc.allow, got, tc.ok)
		}
	}
}

// TestSlowClientDropped: a viewer that stops reading is dropped after
// SlowClientTimeout, while another viewer of the same server is served.
func TestSlowClientDropped(t *testing.T) {
	var logs = make(chan string, 10)
	s, _, rep := newTestServer(t, func(o *Options) {
		o.SlowClientTimeout = 300 * time.Millisecond
		o.Logf = func(f string, a ...any) {
			select {
			case logs <- f:
			default:
			}
		}
	})
	rep.eventSize = 64 << 10 // fills the socket buffers quickly
	srv := httptest.NewServer(s)
	defer srv.Close()
	slow, _, err := websocket.DefaultDialer.Dial(wsURL(srv, "?run=runB&topic=endless"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	// The slow client reads nothing. Meanwhile a normal one is served in full.
	fast, _, err := websocket.DefaultDialer.Dial(wsURL(srv, ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	msgs, code := readAll(t, fast)
	fast.Close()
	if len(msgs) != len(fakeTrace("T1", "runA")) || code != websocket.CloseNormalClosure {
		t.Errorf("fast client: %d events, close %d", len(msgs), code)
	}
	select {
	case l := <-logs:
		if !strings.Contains(l, "slow") {
			t.Errorf("log %q", l)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the slow client was not dropped")
	}
	// The server has let go of the connection.
	deadline := time.Now().Add(5 * time.Second)
	for {
		s.connsMu.Lock()
		n := len(s.conns)
		s.connsMu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d connections still open", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestPing: the server pings; a client that answers stays connected past the
// read deadline of two ping periods. The replay sends three events and then
// waits (a paused stream), so that the pings are not queued behind a flood
// of events on a loaded machine.
func TestPing(t *testing.T) {
	// a period long enough that a loaded machine answers each ping within
	// the server's deadline (two periods)
	const period = 250 * time.Millisecond
	s, _, rep := newTestServer(t, func(o *Options) { o.PingInterval = period })
	rep.gate = make(chan struct{})
	srv := httptest.NewServer(s)
	defer srv.Close()
	c, _, err := websocket.DefaultDialer.Dial(wsURL(srv, "?run=runA&topic=T1"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	pings := 0
	c.SetPingHandler(func(data string) error {
		pings++
		return c.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(time.Second))
	})
	// read (answering pings) for five ping periods
	c.SetReadDeadline(time.Now().Add(5 * period))
	msgs := 0
	for {
		_, _, err := c.ReadMessage()
		if err == nil {
			msgs++
			continue
		}
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			t.Fatalf("dropped after %d pings: %v", pings, err)
		}
		break
	}
	if msgs != 3 || pings < 2 {
		t.Errorf("%d events and %d pings in five ping periods; want 3 and at least 2", msgs, pings)
	}
}

// TestGracefulShutdown: cancelling Serve's context closes open replays with
// "going away" and returns without error.
func TestGracefulShutdown(t *testing.T) {
	s, _, rep := newTestServer(t, nil)
	rep.eventSize = 10
	addr, stop := serveLoopback(t, s)
	c, _, err := websocket.DefaultDialer.Dial("ws://"+addr+"/ws/replay?run=runB&topic=endless", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, _, err := c.ReadMessage(); err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Errorf("Serve: %v", err)
	}
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	var code int
	for {
		_, _, err := c.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				code = ce.Code
			}
			break
		}
	}
	if code != websocket.CloseGoingAway {
		t.Errorf("close code %d, want %d", code, websocket.CloseGoingAway)
	}
}

// The events are valid JSON objects with the scenario.md common fields.
func TestReplayEventsAreJSON(t *testing.T) {
	s, _, _ := newTestServer(t, nil)
	srv := httptest.NewServer(s)
	defer srv.Close()
	c, _, err := websocket.DefaultDialer.Dial(wsURL(srv, ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	msgs, _ := readAll(t, c)
	for i, m := range msgs {
		var ev struct {
			Ev  string `json:"ev"`
			Seq int    `json:"seq"`
		}
		if err := json.Unmarshal([]byte(m), &ev); err != nil || ev.Seq != i+1 || ev.Ev == "" {
			t.Errorf("event %d: %s (%v)", i, m, err)
		}
	}
}

func TestMaxSockets(t *testing.T) {
	s, _, rep := newTestServer(t, func(o *Options) { o.MaxSockets = 1 })
	rep.eventSize = 10
	srv := httptest.NewServer(s)
	defer srv.Close()
	first, _, err := websocket.DefaultDialer.Dial(wsURL(srv, "?run=runB&topic=endless"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := first.ReadMessage(); err != nil {
		t.Fatal(err)
	}
	_, resp, err := websocket.DefaultDialer.Dial(wsURL(srv, ""), nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("second viewer: %v, %v", err, resp)
	}
	first.Close()
	// Once the first is gone, a viewer is welcome again.
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, _, err := websocket.DefaultDialer.Dial(wsURL(srv, ""), nil)
		if err == nil {
			msgs, _ := readAll(t, c)
			c.Close()
			if len(msgs) != len(fakeTrace("T1", "runA")) {
				t.Errorf("%d events", len(msgs))
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still refused: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
