package web

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// errSlowClient drops a client that does not read its events in time.
var errSlowClient = errors.New("client too slow")

// sendBuffer is how many events may wait for the writer of one connection.
const sendBuffer = 64

// wsConn is one replay viewer. Only its writer goroutine writes to c.
type wsConn struct {
	c      *websocket.Conn
	send   chan []byte
	ctx    context.Context
	cancel context.CancelFunc
	// closeMsg is the close frame the writer sends when the replay ends.
	closeMu  sync.Mutex
	closeMsg []byte
	// writeErr is why the writer gave up (a client too slow or gone).
	writeErr error
}

func (s *Server) checkOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true // not a browser: Origin protects browsers' users only
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) && trustedHost(r.Host) {
		return true
	}
	for _, a := range s.opt.AllowOrigins {
		if a == "*" || strings.EqualFold(strings.TrimSuffix(a, "/"), origin) {
			return true
		}
	}
	return false
}

// trustedHost reports whether a same-origin WebSocket may be trusted on the
// Host it names. A page of a DNS-rebinding attack has an Origin equal to its
// Host (evil.example, re-resolved to this machine), so same-origin alone is not
// enough: the Host must be one no outside page can claim — an IP address,
// localhost, or this machine's own name (with or without .local). A server
// reached under any other name accepts its pages' sockets through
// --allow-origin.
func trustedHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	if net.ParseIP(host) != nil || host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	if name, err := os.Hostname(); err == nil && name != "" {
		name = strings.ToLower(name)
		return host == name || host == name+".local"
	}
	return false
}

// replayRequest reads and checks the query parameters of /ws/replay (and
// /api/replay). Missing ones default to the first run, its first topic, the
// natural order, T2I 300 and a 300-character (phone) screen. A run id
// RUNID~doc asks for the document baseline of run RUNID.
func (s *Server) replayRequest(v url.Values) (ReplayRequest, int, error) {
	req := ReplayRequest{Topic: v.Get("topic"), Run: v.Get("run"), Order: v.Get("order")}
	runs := s.opt.Replayer.Runs()
	if len(runs) == 0 {
		return req, 0, errors.New("no runs")
	}
	var run *RunInfo
	if req.Run == "" {
		run = &runs[0]
		req.Run = run.ID
	} else {
		r, baseline, ok := s.lookupRun(req.Run)
		if !ok {
			return req, 0, errors.New("unknown run")
		}
		run, req.Run, req.DocBaseline = &r, r.ID, baseline
	}
	if req.Topic == "" {
		if len(run.Topics) == 0 {
			return req, 0, errors.New("the run has no topics")
		}
		req.Topic = run.Topics[0]
	} else if !slices.Contains(run.Topics, req.Topic) {
		return req, 0, errors.New("the run does not answer this topic")
	}
	switch req.Order {
	case "":
		req.Order = "natural"
	case "natural", "best", "worst":
	default:
		return req, 0, errors.New("order must be natural, best or worst")
	}
	num := func(name string, def, lo, hi int) (int, error) {
		s := v.Get(name)
		if s == "" {
			return def, nil
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < lo || n > hi {
			return 0, errors.New(name + " must be a whole number from " + strconv.Itoa(lo) + " to " + strconv.Itoa(hi))
		}
		return n, nil
	}
	var err error
	if req.T2I, err = num("t2i", 300, 0, 100_000_000); err != nil {
		return req, 0, err
	}
	if req.Screen, err = num("screen", 300, 1, 1_000_000); err != nil {
		return req, 0, err
	}
	after, err := num("after", 0, 0, 1<<31-1)
	return req, after, err
}

var upgrader = websocket.Upgrader{
	ReadBufferSize:  512,
	WriteBufferSize: 4096,
	// Pooling write buffers keeps hundreds of idle viewers cheap.
	WriteBufferPool: &sync.Pool{},
}

// handleReplay streams a replay's trace events, one JSON object per text
// message, then closes with a normal close frame. An error before the first
// event is sent as {"ev":"error","message":…}.
func (s *Server) handleReplay(w http.ResponseWriter, r *http.Request) {
	if s.opt.Replayer == nil {
		httpError(w, http.StatusNotFound, "no replays on this server")
		return
	}
	if !s.checkOrigin(r) {
		httpError(w, http.StatusForbidden, "origin not allowed")
		return
	}
	req, after, reqErr := s.replayRequest(r.URL.Query())
	if !websocket.IsWebSocketUpgrade(r) {
		if reqErr != nil {
			httpError(w, http.StatusBadRequest, reqErr.Error())
			return
		}
		httpError(w, http.StatusBadRequest, "expected a WebSocket upgrade")
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	wc := &wsConn{send: make(chan []byte, sendBuffer), ctx: ctx, cancel: cancel}
	s.connsMu.Lock()
	full := len(s.conns) >= s.opt.MaxSockets
	if !full {
		s.conns[wc] = struct{}{}
	}
	s.connsMu.Unlock()
	if full {
		cancel()
		w.Header().Set("Retry-After", "5")
		httpError(w, http.StatusServiceUnavailable, "too many viewers")
		return
	}
	u := upgrader
	u.CheckOrigin = s.checkOrigin
	c, err := u.Upgrade(w, r, nil)
	if err != nil {
		cancel()
		s.connsMu.Lock()
		delete(s.conns, wc)
		s.connsMu.Unlock()
		return // Upgrade has answered
	}
	wc.c = c
	defer func() {
		s.connsMu.Lock()
		delete(s.conns, wc)
		s.connsMu.Unlock()
	}()

	writerDone := make(chan struct{})
	go func() { defer close(writerDone); s.writer(wc) }()
	go s.reader(wc)

	if reqErr != nil {
		b, _ := json.Marshal(map[string]string{"ev": "error", "message": reqErr.Error()})
		wc.send <- b
		wc.setClose(websocket.ClosePolicyViolation, "bad request")
	} else {
		s.stream(wc, req, after)
	}
	close(wc.send)
	<-writerDone
	cancel()
	c.Close()
}

// stream replays req to the connection (its events from seq after+1 on,
// for a viewer who reconnects) and sets the close message that says how
// the replay ended.
func (s *Server) stream(wc *wsConn, req ReplayRequest, after int) {
	err := s.opt.Replayer.Replay(wc.ctx, req, func(ev []byte) error {
		if after > 0 {
			var e struct {
				Seq int `json:"seq"`
			}
			if json.Unmarshal(ev, &e) == nil && e.Seq <= after {
				return nil
			}
		}
		return wc.emit(ev, s.opt.SlowClientTimeout)
	})
	switch {
	case err == nil:
		wc.setClose(websocket.CloseNormalClosure, "done")
	case errors.Is(err, errSlowClient):
		s.opt.Logf("web: replay %s/%s: dropped a slow client", req.Run, req.Topic)
		wc.setClose(websocket.CloseTryAgainLater, "too slow")
		wc.cancel()
	case wc.ctx.Err() != nil:
		wc.closeMu.Lock()
		werr := wc.writeErr
		wc.closeMu.Unlock()
		if werr != nil {
			s.opt.Logf("web: replay %s/%s: dropped a slow client: %v", req.Run, req.Topic, werr)
		}
	default:
		s.opt.Logf("web: replay %s/%s: %v", req.Run, req.Topic, err)
		b, _ := json.Marshal(map[string]string{"ev": "error", "message": "the replay failed"})
		wc.emit(b, s.opt.SlowClientTimeout)
		wc.setClose(websocket.CloseInternalServerErr, "replay failed")
	}
}

func (wc *wsConn) setClose(code int, text string) {
	wc.closeMu.Lock()
	wc.closeMsg = websocket.FormatCloseMessage(code, text)
	wc.closeMu.Unlock()
}

// emit queues ev for the writer, waiting at most timeout for room.
func (wc *wsConn) emit(ev []byte, timeout time.Duration) error {
	select {
	case wc.send <- ev:
		return nil
	default:
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case wc.send <- ev:
		return nil
	case <-wc.ctx.Done():
		return wc.ctx.Err()
	case <-t.C:
		return errSlowClient
	}
}

// writer is the only goroutine that writes to the connection: the events,
// the pings and the final close frame.
func (s *Server) writer(wc *wsConn) {
	ping := time.NewTicker(s.opt.PingInterval)
	defer ping.Stop()
	wait := s.opt.SlowClientTimeout
	for {
		select {
		case ev, ok := <-wc.send:
			if !ok {
				wc.closeMu.Lock()
				msg := wc.closeMsg
				wc.closeMu.Unlock()
				if msg == nil {
					msg = websocket.FormatCloseMessage(websocket.CloseGoingAway, "server shutting down")
				}
				wc.c.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
				return
			}
			wc.c.SetWriteDeadline(time.Now().Add(wait))
			if err := wc.c.WriteMessage(websocket.TextMessage, ev); err != nil {
				wc.closeMu.Lock()
				wc.writeErr = err
				wc.closeMu.Unlock()
				wc.cancel()
				drain(wc.send)
				return
			}
		case <-ping.C:
			if err := wc.c.WriteControl(websocket.PingMessage, nil, time.Now().Add(wait)); err != nil {
				wc.cancel()
				drain(wc.send)
				return
			}
		case <-wc.ctx.Done():
			wc.c.WriteControl(websocket.CloseMessage,
				websocket.FormatCloseMessage(websocket.CloseGoingAway, "closing"), time.Now().Add(time.Second))
			drain(wc.send)
			return
		}
	}
}

// drain empties ch until it is closed, so that the producer never blocks.
func drain(ch chan []byte) {
	for range ch {
	}
}

// reader reads (and ignores) the client's messages so that pongs and close
// frames are processed; a client silent for two ping periods is dropped.
func (s *Server) reader(wc *wsConn) {
	wc.c.SetReadLimit(512)
	deadline := 2 * s.opt.PingInterval
	wc.c.SetReadDeadline(time.Now().Add(deadline))
	wc.c.SetPongHandler(func(string) error {
		wc.c.SetReadDeadline(time.Now().Add(deadline))
		return nil
	})
	for {
		if _, _, err := wc.c.ReadMessage(); err != nil {
			wc.cancel()
			return
		}
		wc.c.SetReadDeadline(time.Now().Add(deadline))
	}
}

// closeSockets ends every open replay (on shutdown).
func (s *Server) closeSockets() {
	s.connsMu.Lock()
	defer s.connsMu.Unlock()
	for wc := range s.conns {
		wc.cancel()
	}
}
