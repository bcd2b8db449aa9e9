package web

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// limiter is a token bucket per key (Server.limitKey: a study participant
// or a client address), all at one rate (Options.RatePerSecond). Buckets idle long enough to
// be full again are forgotten, so its memory is bounded by the clients of the
// last minute or so.
type limiter struct {
	mu      sync.Mutex
	rate    float64 // tokens per second
	burst   float64
	buckets map[string]*bucket
	swept   time.Time
	now     func() time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(rate float64, burst int) *limiter {
	return &limiter{rate: rate, burst: float64(burst), buckets: map[string]*bucket{}, now: time.Now}
}

// allow takes a token from key's bucket, reporting whether there was one.
func (l *limiter) allow(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if now.Sub(l.swept) > time.Minute {
		full := time.Duration(l.burst / l.rate * float64(time.Second))
		for k, b := range l.buckets {
			if now.Sub(b.last) > full {
				delete(l.buckets, k)
			}
		}
		l.swept = now
	}
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	b.tokens += now.Sub(b.last).Seconds() * l.rate
	if b.tokens > l.burst {
		b.tokens = l.burst
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// limitKey is the bucket of the request: in study mode, a request carrying
// a participant's valid cookie has the participant's own bucket, so that
// the participants of one lab, behind one address, do not share one;
// otherwise the client's address (clientIP). The rate is the limiter's,
// the same for both.
func (s *Server) limitKey(r *http.Request) string {
	if p := s.participantOf(r); p != nil {
		return "participant " + p.id
	}
	return "address " + clientIP(r, s.opt.TrustedProxies)
}

// clientIP is the address the request came from: the peer's, unless the
// peer is a trusted proxy (one of trusted): then the right-most address of
// X-Forwarded-For (all its headers, in order) that is not a trusted proxy,
// since each proxy appends the address it got the request from and only
// those written by trusted proxies can be believed. A header that does not
// parse as addresses is ignored (the peer's address is the key).
func clientIP(r *http.Request, trusted []*net.IPNet) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if len(trusted) == 0 || !inNets(net.ParseIP(host), trusted) {
		return host
	}
	var hops []string
	for _, h := range r.Header.Values("X-Forwarded-For") {
		for _, a := range strings.Split(h, ",") {
			hops = append(hops, strings.TrimSpace(a))
		}
	}
	client := host
	for i := len(hops) - 1; i >= 0; i-- {
		ip := net.ParseIP(hops[i])
		if ip == nil {
			return host
		}
		client = ip.String()
		if !inNets(ip, trusted) {
			break
		}
	}
	return client
}

// inNets reports whether ip is in one of nets.
func inNets(ip net.IP, nets []*net.IPNet) bool {
	if ip == nil {
		return false
	}
	for _, n := range nets {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

// ParseTrustedProxy parses a --trusted-proxy value: a CIDR (10.0.0.0/8) or
// a single address (127.0.0.1, ::1).
func ParseTrustedProxy(v string) (*net.IPNet, error) {
	if _, n, err := net.ParseCIDR(v); err == nil {
		return n, nil
	}
	ip := net.ParseIP(v)
	if ip == nil {
		return nil, fmt.Errorf("%q is not an address or a CIDR (10.0.0.0/8, 127.0.0.1, ::1)", v)
	}
	bits := 128
	if ip4 := ip.To4(); ip4 != nil {
		ip, bits = ip4, 32
	}
	return &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)}, nil
}
