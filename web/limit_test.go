package web

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The client address by hand: the peer's, unless the peer is a trusted
// proxy; then the right-most X-Forwarded-For address that is not a trusted
// proxy (what a client writes to the left of its proxy's entry is not
// believed).
func TestClientIP(t *testing.T) {
	var trusted []*net.IPNet
	for _, c := range []string{"10.0.0.0/8", "::1"} {
		n, err := ParseTrustedProxy(c)
		if err != nil {
			t.Fatal(err)
		}
		trusted = append(trusted, n)
	}
	for _, tc := range []struct {
		name    string
		peer    string
		xff     []string
		trusted []*net.IPNet
		want    string
	}{
		{"no proxy trusted", "203.0.113.7:4711", []string{"198.51.100.9"}, nil, "203.0.113.7"},
		{"from a trusted proxy", "10.0.0.5:4711", []string{"198.51.100.9"}, trusted, "198.51.100.9"},
		{"a forged entry on the left", "10.0.0.5:4711", []string{"6.6.6.6, 198.51.100.9"}, trusted, "198.51.100.9"},
		{"two trusted proxies", "10.0.0.5:4711", []string{"198.51.100.9, 10.0.0.7"}, trusted, "198.51.100.9"},
		{"two headers", "10.0.0.5:4711", []string{"6.6.6.6", "198.51.100.9"}, trusted, "198.51.100.9"},
		{"a peer not trusted", "203.0.113.7:4711", []string{"198.51.100.9"}, trusted, "203.0.113.7"},
		{"a trusted proxy without the header", "10.0.0.5:4711", nil, trusted, "10.0.0.5"},
		{"a header that is not addresses", "10.0.0.5:4711", []string{"198.51.100.9, junk"}, trusted, "10.0.0.5"},
		{"every hop trusted", "10.0.0.5:4711", []string{"10.0.0.9"}, trusted, "10.0.0.9"},
		{"IPv6", "[::1]:443", []string{"2001:db8::1"}, trusted, "2001:db8::1"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.peer
		for _, h := range tc.xff {
			r.Header.Add("X-Forwarded-For", h)
		}
		if got := clientIP(r, tc.trusted); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestParseTrustedProxy(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"10.0.0.0/8", "10.0.0.0/8"},
		{"127.0.0.1", "127.0.0.1/32"},
		{"::1", "::1/128"},
		{"fd00::/8", "fd00::/8"},
		{"localhost", ""},
		{"10.0.0.0/33", ""},
	} {
		n, err := ParseTrustedProxy(tc.in)
		if tc.want == "" {
			if err == nil {
				t.Errorf("%s: %v, want an error", tc.in, n)
			}
			continue
		}
		if err != nil || n.String() != tc.want {
			t.Errorf("%s: %v %v, want %s", tc.in, n, err, tc.want)
		}
	}
}

// In study mode a lab's participants share one address but not one
// bucket: each participant has their own (a burst of 3 here), and a
// visitor without a cookie the address's. A page refused is a page that
// says to wait and loads again, never a bare "too many requests"; the
// events' refusal is JSON, which the page retries.
func TestStudyLimitPerParticipant(t *testing.T) {
	s, _, _ := newTestServer(t, func(o *Options) {
		o.Study = &StudyOptions{Dir: t.TempDir(), Topics: studyTopics, PerParticipant: 2}
		o.RatePerSecond, o.RateBurst = 1, 3
	})
	now := time.Unix(1000, 0)
	s.limiter.now = func() time.Time { return now }
	// a consent is two requests (the consent page, then its form): two
	// seconds between them give the address two tokens back, so one of
	// its 3 is left after the second
	a := consent(t, s)
	now = now.Add(2 * time.Second)
	b := consent(t, s)
	codes := func(c *http.Cookie, n int) (out []int, last *httptest.ResponseRecorder) {
		for range n {
			last = getWith(s, c, "/study")
			out = append(out, last.Code)
		}
		return out, last
	}
	for _, c := range []*http.Cookie{a, b} {
		got, w := codes(c, 4)
		if got[0] != 200 || got[2] != 200 || got[3] != 429 {
			t.Errorf("participant %s: %v, want 3 pages then 429", participantID(c), got)
		}
		body := w.Body.String()
		if !strings.Contains(body, "loads again") || strings.Contains(strings.ToLower(body), "too many requests") || w.Header().Get("Refresh") == "" || !strings.Contains(w.Header().Get("Content-Type"), "html") {
			t.Errorf("the refused page: %v\n%s", w.Header(), body)
		}
	}
	if got, _ := codes(nil, 2); got[0] != 200 || got[1] != 429 {
		t.Errorf("no cookie, the address's last token: %v, want 200 then 429", got)
	}
	if w := post(s, a, `{"events":[]}`); w.Code != 429 || !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		t.Errorf("events refused: %d %s", w.Code, w.Header().Get("Content-Type"))
	}
	// a consent refused (many arrivals on one address) is the study's
	// consent page again, with its form, saying to press Start again
	// (issue 36: it was bare text/plain)
	r := httptest.NewRequest("POST", "/study/consent", strings.NewReader("consent=yes"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if body := w.Body.String(); w.Code != 429 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") || !strings.Contains(body, `action="/study/consent"`) ||
		!strings.Contains(body, "press the button again") || w.Header().Get("Retry-After") == "" {
		t.Errorf("a consent refused by the rate limit: %d %v\n%s", w.Code, w.Header(), body)
	}
}
