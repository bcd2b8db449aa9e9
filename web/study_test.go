package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// studyTopics are the fake study's topics.
var studyTopics = []StudyTopic{
	{"T1", "lighthouse lens", "How does a lens make a lighthouse's light reach far?"},
	{"T2", "coffee <beans>", "Where do coffee beans come from?"},
	{"T3", "lamp oil", "What did lighthouse lamps burn?"},
}

// newStudyServer is the fake server with a study in dir: two topics per
// participant.
func newStudyServer(t *testing.T, dir string, mod func(*StudyOptions)) *Server {
	t.Helper()
	st := &StudyOptions{Dir: dir, Topics: studyTopics, PerParticipant: 2}
	if mod != nil {
		mod(st)
	}
	s, _, _ := newTestServer(t, func(o *Options) { o.Study = st })
	return s
}

// newStudyParticipant starts a study server (newStudyServer's options) over
// a fresh folder and takes part once: the folder, the server, and the
// participant's cookie and ID.
func newStudyParticipant(t *testing.T) (dir string, s *Server, c *http.Cookie, p string) {
	t.Helper()
	dir = t.TempDir()
	s = newStudyServer(t, dir, nil)
	c = consent(t, s)
	return dir, s, c, participantID(c)
}

// consent takes part and returns the participant's cookie.
func consent(t testing.TB, s http.Handler) *http.Cookie {
	t.Helper()
	r := consentRequest(t, s, url.Values{"consent": {"yes"}})
	r.Header.Set("Origin", "null") // a form under Referrer-Policy: no-referrer
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/study" {
		t.Fatalf("consent: %d %q\n%s", w.Code, w.Header().Get("Location"), w.Body)
	}
	for _, c := range w.Result().Cookies() {
		if c.Name == studyCookie {
			return c
		}
	}
	t.Fatal("consent set no cookie")
	return nil
}

// ctPattern finds the consent form's token on the consent page.
var ctPattern = regexp.MustCompile(`name="ct" value="([^"]+)"`)

// consentPage gets the consent page (target: /study and its query) and
// returns its form's token and the page's cookie.
func consentPage(t testing.TB, s http.Handler, target string) (string, *http.Cookie) {
	t.Helper()
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
	m := ctPattern.FindStringSubmatch(w.Body.String())
	if w.Code != 200 || m == nil {
		t.Fatalf("%s: %d, no consent token\n%s", target, w.Code, w.Body)
	}
	for _, c := range w.Result().Cookies() {
		if c.Name == consentCookie {
			return m[1], c
		}
	}
	t.Fatalf("%s: no consent cookie", target)
	return "", nil
}

// consentRequest is the POST of the consent form with form's fields, as
// the browser sends it after showing the consent page: its token and
// cookie added.
func consentRequest(t testing.TB, s http.Handler, form url.Values) *http.Request {
	t.Helper()
	ct, c := consentPage(t, s, "/study")
	if form.Get("ct") == "" {
		form.Set("ct", ct)
	}
	r := httptest.NewRequest("POST", "/study/consent", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.AddCookie(c)
	return r
}

// post sends a batch with the cookie (nil: none).
func post(s http.Handler, c *http.Cookie, body string, mod ...func(*http.Request)) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", "/study/events", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	if c != nil {
		r.AddCookie(c)
	}
	for _, m := range mod {
		m(r)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

func participantID(c *http.Cookie) string { id, _, _ := strings.Cut(c.Value, "."); return id }

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

// getWith requests target with the cookie.
func getWith(s http.Handler, c *http.Cookie, target string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("GET", target, nil)
	if c != nil {
		r.AddCookie(c)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

// A batch worked by hand: what the page sends and the lines written.
const goodBatch = `{"events":[
{"ev":"topic","topic":"T1","seq":1,"t":0},
{"ev":"query","topic":"T1","seq":2,"t":1500,"q":"  lens <b> "},
{"ev":"open","topic":"T1","rank":2,"doc":"101","seq":3,"t":2100,"passages":[[0,33],[62,88]]},
{"ev":"read","topic":"T1","doc":"101","seq":4,"t":2150,"from":0,"to":60},
{"ev":"jump","topic":"T1","doc":"101","seq":6,"t":3000,"to":62},
{"ev":"read","topic":"T1","doc":"101","seq":7,"t":3400,"from":40,"to":88},
{"ev":"stop","topic":"T1","doc":"101","seq":8,"t":4000},
{"ev":"done","topic":"T1","seq":9,"t":4200,"outcome":"found"}]}`

// goodLines are the lines of goodBatch for participant P: the query
// trimmed, the open with the article's length (101 has 88 characters), the
// open's rank on its read, jump and stop, run on the topic event, source on
// all; seq 5 was never sent (a gap is allowed).
func goodLines(p string) string {
	return `{"ev":"topic","topic":"T1","rank":0,"doc":"","seq":1,"run":"` + p + `","t":0,"source":"recorded"}
{"ev":"query","topic":"T1","rank":0,"doc":"","seq":2,"q":"lens \u003cb\u003e","t":1500,"source":"recorded"}
{"ev":"open","topic":"T1","rank":2,"doc":"101","seq":3,"len":88,"passages":[[0,33],[62,88]],"t":2100,"source":"recorded"}
{"ev":"read","topic":"T1","rank":2,"doc":"101","seq":4,"from":0,"to":60,"t":2150,"source":"recorded"}
{"ev":"jump","topic":"T1","rank":2,"doc":"101","seq":6,"to":62,"t":3000,"source":"recorded"}
{"ev":"read","topic":"T1","rank":2,"doc":"101","seq":7,"from":40,"to":88,"t":3400,"source":"recorded"}
{"ev":"stop","topic":"T1","rank":2,"doc":"101","seq":8,"t":4000,"source":"recorded"}
{"ev":"done","topic":"T1","rank":0,"doc":"","seq":9,"outcome":"found","t":4200,"source":"recorded"}
`
}

// TestStudyConsent: the consent page, then a participant with a random id
// and token whose hash only is kept, two topics, and no address or browser
// anywhere in the folder.
func TestStudyConsent(t *testing.T) {
	dir := t.TempDir()
	s := newStudyServer(t, dir, nil)
	w := get(t, s, "/study")
	if w.Code != 200 || !strings.Contains(w.Body.String(), `action="/study/consent"`) || !strings.Contains(w.Body.String(), "JavaScript") {
		t.Fatalf("/study: %d\n%s", w.Code, w.Body)
	}
	if strings.Contains(w.Body.String(), "study.js") {
		t.Error("the consent page loads the recorder")
	}
	// no consent ticked: nothing created
	r := consentRequest(t, s, url.Values{"consent": {"no"}})
	w = httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != 400 || hasCookie(w, studyCookie) {
		t.Errorf("consent=no: %d, cookies %v", w.Code, w.Result().Cookies())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("consent=no wrote %v, want only the server's lock and audit log", ents)
	}
	r = consentRequest(t, s, url.Values{"consent": {"yes"}})
	r.Header.Set("User-Agent", "TestAgent/7.1")
	r.RemoteAddr = "198.51.100.23:4711"
	w = httptest.NewRecorder()
	s.ServeHTTP(w, r)
	cs := w.Result().Cookies()
	if w.Code != http.StatusSeeOther || len(cs) != 2 || cs[0].Name != consentCookie || cs[0].MaxAge >= 0 {
		t.Fatalf("consent: %d %v, want the consent page's cookie deleted and the participant's", w.Code, cs)
	}
	c := cs[1]
	if c.Name != studyCookie || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || c.MaxAge != 7*24*3600 || c.Secure {
		t.Errorf("cookie %+v", c)
	}
	id, token, _ := strings.Cut(c.Value, ".")
	if !participantPattern.MatchString(id) || len(token) != 43 {
		t.Fatalf("cookie value %q", c.Value)
	}
	var key struct {
		Participant string   `json:"participant"`
		Token       string   `json:"token_sha256"`
		Topics      []string `json:"topics"`
	}
	b, err := os.ReadFile(filepath.Join(dir, id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &key); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(token))
	if key.Participant != id || key.Token != hex.EncodeToString(sum[:]) || strings.Join(key.Topics, " ") != "T1 T2" {
		t.Errorf("key %+v", key)
	}
	// nothing stored names the client, or holds the token
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		for _, secret := range []string{"198.51.100.23", "TestAgent", token} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s holds %q", e.Name(), secret)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, id+".jsonl")); !os.IsNotExist(err) {
		t.Errorf("a recording before any event: %v", err)
	}
	// the participant's page: topic 1 of 2, its title and description
	w = getWith(s, c, "/study")
	body := w.Body.String()
	for _, want := range []string{`data-topic="T1"`, "Topic 1 of 2", "lighthouse lens", "How does a lens make a lighthouse&#39;s light reach far?",
		`data-participant="` + id + `"`, `data-seq="0"`, `src="/static/study.js"`, `action="/study/withdraw"`, `action="/search"`} {
		if !strings.Contains(body, want) {
			t.Errorf("/study as a participant lacks %q", want)
		}
	}
	// a second consent from the same phone keeps the participant
	r = httptest.NewRequest("POST", "/study/consent", strings.NewReader("consent=yes"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.AddCookie(c)
	w = httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusSeeOther || len(w.Result().Cookies()) != 0 {
		t.Errorf("second consent: %d %v", w.Code, w.Result().Cookies())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 5 {
		t.Errorf("second consent: %d files, want the key, rotation.json, the consent text's copy, the lock and audit.jsonl", len(ents))
	}
	if b := readFile(t, filepath.Join(dir, "rotation.json")); b != "{\"next\":1}\n" {
		t.Errorf("rotation.json %q, want the next position 1", b)
	}
}

// TestStudyBatch: a batch worked by hand is written as goodLines; the
// participant's page then shows the next topic.
func TestStudyBatch(t *testing.T) {
	dir, s, c, p := newStudyParticipant(t)
	w := post(s, c, goodBatch)
	if w.Code != 200 || strings.TrimSpace(w.Body.String()) != `{"seq":9,"t":4200,"written":8}` {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	if got := readFile(t, filepath.Join(dir, p+".jsonl")); got != goodLines(p) {
		t.Errorf("recording:\n%s\nwant:\n%s", got, goodLines(p))
	}
	if info, _ := os.Stat(filepath.Join(dir, p+".jsonl")); info.Mode().Perm() != 0o600 {
		t.Errorf("recording mode %v", info.Mode())
	}
	body := getWith(s, c, "/study").Body.String()
	if !strings.Contains(body, `data-topic="T2"`) || !strings.Contains(body, "Topic 2 of 2") || !strings.Contains(body, `data-seq="9" data-t="4200"`) {
		t.Errorf("after topic 1 is done:\n%s", body)
	}
	w = post(s, c, `{"events":[{"ev":"topic","topic":"T2","seq":10,"t":5000},{"ev":"done","topic":"T2","seq":11,"t":6000,"outcome":"gave up"}]}`)
	if w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	if body := getWith(s, c, "/study").Body.String(); !strings.Contains(body, `data-state="finished"`) || !strings.Contains(body, "all 2 topics") {
		t.Errorf("after both topics:\n%s", body)
	}
}

// TestStudyRefused: every bad batch is refused with its status and writes
// nothing.
func TestStudyRefused(t *testing.T) {
	dir, s, c, p := newStudyParticipant(t)
	// a recording with topic T1 open and article 101 (88 characters) open at rank 1
	start := `{"events":[{"ev":"topic","topic":"T1","seq":1,"t":0},{"ev":"open","topic":"T1","doc":"101","rank":1,"seq":2,"t":10}]}`
	if w := post(s, c, start); w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	file := filepath.Join(dir, p+".jsonl")
	before := readFile(t, file)
	ev := func(fields string) string { return `{"events":[` + fields + `]}` }
	read := func(seq int, from, to string) string {
		return fmt.Sprintf(`{"ev":"read","topic":"T1","doc":"101","seq":%d,"t":20,"from":%s,"to":%s}`, seq, from, to)
	}
	var many []string
	for i := 0; i < MaxStudyBatchEvents+1; i++ {
		many = append(many, read(3+i, "0", "1"))
	}
	wrong := *c
	wrong.Value = p + "." + strings.Repeat("A", 43)
	unknown := *c
	unknown.Value = "P-0123456789abcdef." + strings.Repeat("A", 43)
	junk := *c
	junk.Value = "nonsense"
	for _, tc := range []struct {
		name   string
		cookie *http.Cookie
		body   string
		mod    func(*http.Request)
		status int
		want   string // in the error message
	}{
		{"no token", nil, ev(read(3, "0", "5")), nil, 401, "no participant token"},
		{"wrong token", &wrong, ev(read(3, "0", "5")), nil, 403, "not a participant"},
		{"unknown participant", &unknown, ev(read(3, "0", "5")), nil, 403, "not a participant"},
		{"junk cookie", &junk, ev(read(3, "0", "5")), nil, 403, "not a participant"},
		{"foreign origin", c, ev(read(3, "0", "5")), func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }, 403, "own pages"},
		{"not JSON", c, ev(read(3, "0", "5")), func(r *http.Request) { r.Header.Set("Content-Type", "text/plain") }, 415, "application/json"},
		{"too large", c, ev(read(3, "0", "5")) + strings.Repeat(" ", MaxStudyBatchBytes), nil, 413, "request body too large (at most 65536 bytes)"},
		{"too large, sent without a length", c, ev(read(3, "0", "5")) + strings.Repeat(" ", MaxStudyBatchBytes), func(r *http.Request) { r.ContentLength = -1 }, 413, "a batch is at most 65536 bytes"},
		{"too many events", c, ev(strings.Join(many, ",")), nil, 413, "at most 256"},
		{"malformed", c, `{"events":[{"ev":"read",`, nil, 400, "not a batch"},
		{"trailing data", c, ev(read(3, "0", "5")) + "{}", nil, 400, "data after"},
		{"no events", c, `{"events":[]}`, nil, 400, "empty batch"},
		{"not a batch", c, `[` + read(3, "0", "5") + `]`, nil, 400, "not a batch"},
		{"seq as a string", c, ev(`{"ev":"read","topic":"T1","doc":"101","seq":"3","t":20,"from":0,"to":5}`), nil, 400, "field seq: a string where an integer is wanted"},
		{"from not an integer", c, ev(read(3, "1.5", "5")), nil, 400, "field from"},
		{"to as a string", c, ev(read(3, "0", `"5"`)), nil, 400, "field to"},
		{"unknown field", c, ev(`{"ev":"read","topic":"T1","doc":"101","seq":3,"t":20,"from":0,"to":5,"ip":"1.2.3.4"}`), nil, 400, `unknown field "ip"`},
		{"run given", c, ev(`{"ev":"topic","topic":"T1","seq":3,"t":20,"run":"P-x"}`), nil, 400, `unknown field "run"`},
		{"passage of three", c, ev(`{"ev":"stop","topic":"T1","doc":"101","seq":3,"t":20},{"ev":"open","topic":"T1","doc":"101","seq":4,"t":20,"passages":[[1,2,3]]}`), nil, 400, "event 2: passage [1 2 3]"},
		{"passage past the end", c, ev(`{"ev":"open","topic":"T1","doc":"102","seq":3,"t":20,"passages":[[0,57]]}`), nil, 400, "56 characters"},
		{"unknown topic", c, ev(`{"ev":"topic","topic":"T3","seq":3,"t":20}`), nil, 400, `unknown topic "T3"`},
		{"topic of no one", c, ev(`{"ev":"topic","topic":"T9","seq":3,"t":20}`), nil, 400, `unknown topic "T9"`},
		{"event of another topic", c, ev(`{"ev":"query","topic":"T2","seq":3,"t":20,"q":"x"}`), nil, 400, "while topic T1 is open"},
		{"unknown article", c, ev(`{"ev":"open","topic":"T1","doc":"999","seq":3,"t":20}`), nil, 400, `unknown article "999"`},
		{"bad article id", c, ev(`{"ev":"open","topic":"T1","doc":"../x","seq":3,"t":20}`), nil, 400, "the id of an article"},
		{"read past the end", c, ev(read(3, "0", "89")), nil, 400, "≤ 88"},
		{"read backwards", c, ev(read(3, "9", "5")), nil, 400, "not 0 ≤ from ≤ to"},
		{"read negative", c, ev(read(3, "-1", "5")), nil, 400, "not 0 ≤ from ≤ to"},
		{"read of another article", c, ev(`{"ev":"read","topic":"T1","doc":"102","seq":3,"t":20,"from":0,"to":5}`), nil, 400, "not open"},
		{"read after stop", c, ev(`{"ev":"stop","topic":"T1","doc":"101","seq":3,"t":20},` + read(4, "0", "5")), nil, 400, "event 2: a read event of article \"101\", which is not open"},
		{"read without to", c, ev(`{"ev":"read","topic":"T1","doc":"101","seq":3,"t":20,"from":0}`), nil, 400, "needs from and to"},
		{"field of another kind", c, ev(`{"ev":"read","topic":"T1","doc":"101","seq":3,"t":20,"from":0,"to":5,"q":"x"}`), nil, 400, "a read event has no field q"},
		{"jump past the end", c, ev(`{"ev":"jump","topic":"T1","doc":"101","seq":3,"t":20,"to":100}`), nil, 400, "jump"},
		{"unknown kind", c, ev(`{"ev":"dance","topic":"T1","seq":3,"t":20}`), nil, 400, `unknown event "dance"`},
		{"stop with another reason", c, ev(`{"ev":"stop","topic":"T1","doc":"101","seq":3,"t":20,"reason":"t2i"}`), nil, 400, `reason is "end"`},
		{"reason on a read", c, ev(`{"ev":"read","topic":"T1","doc":"101","seq":3,"t":20,"from":0,"to":5,"reason":"end"}`), nil, 400, "a read event has no field reason"},
		{"done without outcome", c, ev(`{"ev":"done","topic":"T1","seq":3,"t":20}`), nil, 400, "outcome"},
		{"done with another outcome", c, ev(`{"ev":"done","topic":"T1","seq":3,"t":20,"outcome":"bored"}`), nil, 400, "outcome"},
		{"query of control characters", c, ev(`{"ev":"query","topic":"T1","seq":3,"t":20,"q":"a\u0007b"}`), nil, 400, "q must be"},
		{"query too long", c, ev(`{"ev":"query","topic":"T1","seq":3,"t":20,"q":"` + strings.Repeat("x", 301) + `"}`), nil, 400, "q must be"},
		{"no time", c, ev(`{"ev":"read","topic":"T1","doc":"101","seq":3,"from":0,"to":5}`), nil, 400, "required"},
		{"time going back", c, ev(`{"ev":"read","topic":"T1","doc":"101","seq":3,"t":9,"from":0,"to":5}`), nil, 400, "goes back"},
		{"time past 30 days", c, ev(`{"ev":"read","topic":"T1","doc":"101","seq":3,"t":2592000001,"from":0,"to":5}`), nil, 400, "time t"},
		{"seq 0", c, ev(read(0, "0", "5")), nil, 400, "seq 0"},
		{"replayed seq", c, ev(read(2, "0", "5")), nil, 409, "event 1: seq 2 is already recorded: the last seq recorded is 2"},
		{"a replayed seq after a new one", c, ev(read(3, "0", "5") + "," + read(2, "0", "5")), nil, 409, "event 2: seq 2 is already recorded: the last seq recorded is 2"},
		{"seq going back in the batch", c, ev(read(5, "0", "5") + "," + read(4, "0", "5")), nil, 400, "event 2: seq 4 does not follow seq 5"},
		{"a read's seq below its open's", c, ev(`{"ev":"stop","topic":"T1","doc":"101","seq":3,"t":20},{"ev":"open","topic":"T1","doc":"101","seq":5,"t":20},` + read(4, "0", "5")), nil, 400, "event 3: seq 4 does not follow seq 5"},
		{"a seq repeated in the batch", c, ev(read(3, "0", "5") + "," + read(3, "5", "9")), nil, 400, "event 2: seq 3 does not follow seq 3"},
		{"done then a bad event", c, ev(`{"ev":"done","topic":"T1","seq":3,"t":20,"outcome":"found"},` + read(4, "0", "5")), nil, 400, "event 2: a read event of topic T1 before its topic event"},
		{"good events then a bad one", c, ev(read(3, "0", "5") + "," + read(4, "0", "5") + "," + read(5, "0", "500")), nil, 400, "event 3"},
	} {
		w := post(s, tc.cookie, tc.body, func(r *http.Request) {
			if tc.mod != nil {
				tc.mod(r)
			}
		})
		// every answer is {"error": …} JSON (web/README: the API's errors)
		var j struct{ Error string }
		if err := json.Unmarshal(w.Body.Bytes(), &j); err != nil || j.Error == "" || !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
			t.Errorf("%s: %q (%s) is not a JSON error: %v", tc.name, w.Body, w.Header().Get("Content-Type"), err)
		}
		msg := j.Error
		if w.Code != tc.status || !strings.Contains(msg, tc.want) {
			t.Errorf("%s: %d %s, want %d %q", tc.name, w.Code, strings.TrimSpace(msg), tc.status, tc.want)
		}
		var j2 struct {
			Seq   *int
			Event *int
		}
		json.Unmarshal(w.Body.Bytes(), &j2)
		if tc.status == 409 && (j2.Seq == nil || *j2.Seq != 2 || !strings.Contains(msg, fmt.Sprintf("the last seq recorded is %d", *j2.Seq))) {
			t.Errorf("%s: the answer gives seq %v, want 2 (the last written, as its message says)", tc.name, j2.Seq)
		}
		// an event at fault is named by its index, in the body as in the message
		if m := regexp.MustCompile(`^event (\d+):`).FindStringSubmatch(msg); m != nil && (j2.Event == nil || fmt.Sprint(*j2.Event+1) != m[1]) {
			t.Errorf("%s: event %v in the body, the message says %s", tc.name, j2.Event, m[1])
		}
		if got := readFile(t, file); got != before {
			t.Fatalf("%s: the recording changed:\n%s", tc.name, got)
		}
	}
	// still accepting after all that, on the same topic and article
	if w := post(s, c, ev(read(3, "0", "5"))); w.Code != 200 {
		t.Errorf("a good batch after the refusals: %d %s", w.Code, w.Body)
	}
	if body := getWith(s, c, "/study").Body.String(); !strings.Contains(body, `data-topic="T1"`) {
		t.Error("a refused batch changed the participant's topic")
	}
}

// TestStudyLimits: past MaxParticipants a consent is refused; a batch that
// would pass MaxRecordingBytes is refused and writes nothing.
func TestStudyLimits(t *testing.T) {
	dir := t.TempDir()
	s := newStudyServer(t, dir, func(o *StudyOptions) { o.MaxParticipants = 2; o.MaxRecordingBytes = 300 })
	c := consent(t, s)
	consent(t, s)
	r := consentRequest(t, s, url.Values{"consent": {"yes"}})
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != 503 || hasCookie(w, studyCookie) {
		t.Errorf("a third participant: %d", w.Code)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 6 {
		t.Errorf("%d files, want the 2 keys, rotation.json, the consent text's copy, the lock and audit.jsonl", len(ents))
	}
	// the topic line is 100 bytes or so: three fit, a fourth does not
	file := filepath.Join(dir, participantID(c)+".jsonl")
	if w := post(s, c, `{"events":[{"ev":"topic","topic":"T1","seq":1,"t":0},{"ev":"query","topic":"T1","seq":2,"t":0,"q":"lens"}]}`); w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	before := readFile(t, file)
	w = post(s, c, `{"events":[{"ev":"query","topic":"T1","seq":3,"t":0,"q":"lens"},{"ev":"query","topic":"T1","seq":4,"t":0,"q":"lens"}]}`)
	if w.Code != 413 || !strings.Contains(w.Body.String(), "recording is full") || readFile(t, file) != before {
		t.Errorf("past the recording's limit: %d %s", w.Code, w.Body)
	}
}

// TestStudyWithdraw: withdrawing deletes the recording and the key, clears
// the cookie, and the token is refused after.
func TestStudyWithdraw(t *testing.T) {
	dir := t.TempDir()
	s := newStudyServer(t, dir, nil)
	c := consent(t, s)
	other := consent(t, s)
	for _, ck := range []*http.Cookie{c, other} {
		if w := post(s, ck, `{"events":[{"ev":"topic","topic":"`+map[bool]string{true: "T1", false: "T2"}[ck == c]+`","seq":1,"t":0}]}`); w.Code != 200 {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	}
	p := participantID(c)
	// from another site: refused
	r := httptest.NewRequest("POST", "/study/withdraw", nil)
	r.Header.Set("Origin", "https://evil.example")
	r.AddCookie(c)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != 403 || !exists(filepath.Join(dir, p+".jsonl")) {
		t.Fatalf("withdrawal from another site: %d", w.Code)
	}
	r = httptest.NewRequest("POST", "/study/withdraw", nil)
	r.AddCookie(c)
	w = httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != 200 || !strings.Contains(w.Body.String(), "deleted") {
		t.Fatalf("withdraw: %d\n%s", w.Code, w.Body)
	}
	cs := w.Result().Cookies()
	if len(cs) != 1 || cs[0].Name != studyCookie || cs[0].MaxAge >= 0 {
		t.Errorf("the cookie is not cleared: %v", cs)
	}
	for _, f := range []string{p + ".jsonl", p + ".json"} {
		if exists(filepath.Join(dir, f)) {
			t.Errorf("%s is still there", f)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 7 {
		t.Errorf("the other participant's files, rotation.json, the consent text's copy, withdrawn.jsonl, the lock and audit.jsonl: %d, want 7", len(ents))
	}
	if w := post(s, c, `{"events":[{"ev":"query","topic":"T1","seq":2,"t":0,"q":"x"}]}`); w.Code != 403 {
		t.Errorf("events after withdrawal: %d", w.Code)
	}
	if exists(filepath.Join(dir, p+".jsonl")) {
		t.Error("events after withdrawal wrote a recording")
	}
	if body := getWith(s, c, "/study").Body.String(); !strings.Contains(body, `data-state="consent"`) {
		t.Error("/study after withdrawal is not the consent page")
	}
	if w := post(s, other, `{"events":[{"ev":"query","topic":"T2","seq":2,"t":0,"q":"x"}]}`); w.Code != 200 {
		t.Errorf("the other participant: %d", w.Code)
	}
}

// TestStudyRestart: a new server over the same folder accepts the
// participant, knows the last seq and the topics done, and cuts off a
// torn last line (a crash mid-write).
func TestStudyRestart(t *testing.T) {
	dir, s, c, p := newStudyParticipant(t)
	if w := post(s, c, goodBatch); w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	file := filepath.Join(dir, p+".jsonl")
	// a batch cut short by a crash
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"ev":"topic","topic":"T2","rank":0,"doc":"","seq":10,"ru`)
	f.Close()
	// and an interrupted key file
	os.WriteFile(filepath.Join(dir, ".P-0123456789abcdef.json.tmp123"), []byte("{"), 0o600)

	s.Close()
	s2 := newStudyServer(t, dir, nil)
	if exists(filepath.Join(dir, ".P-0123456789abcdef.json.tmp123")) {
		t.Error("the interrupted key file is still there")
	}
	body := getWith(s2, c, "/study").Body.String()
	if !strings.Contains(body, `data-topic="T2"`) || !strings.Contains(body, `data-seq="9"`) {
		t.Errorf("after the restart:\n%s", body)
	}
	if got := readFile(t, file); got != goodLines(p) {
		t.Errorf("the torn line is not cut off:\n%s", got)
	}
	if w := post(s2, c, `{"events":[{"ev":"topic","topic":"T1","seq":10,"t":5000}]}`); w.Code != 400 || !strings.Contains(w.Body.String(), "topic T1 is done") {
		t.Errorf("T1 again after the restart: %d %s", w.Code, w.Body)
	}
	if w := post(s2, c, `{"events":[{"ev":"topic","topic":"T2","seq":9,"t":5000}]}`); w.Code != 409 {
		t.Errorf("seq 9 again after the restart: %d %s", w.Code, w.Body)
	}
	w := post(s2, c, `{"events":[{"ev":"topic","topic":"T2","seq":10,"t":5000}]}`)
	if w.Code != 200 {
		t.Fatalf("after the restart: %d %s", w.Code, w.Body)
	}
	want := goodLines(p) + `{"ev":"topic","topic":"T2","rank":0,"doc":"","seq":10,"run":"` + p + `","t":5000,"source":"recorded"}` + "\n"
	if got := readFile(t, file); got != want {
		t.Errorf("after the restart:\n%s", got)
	}
	// a recording edited by hand into nonsense: its events are refused
	os.WriteFile(file, []byte("{\"ev\":\"read\"}\n"), 0o600)
	s2.Close()
	s3 := newStudyServer(t, dir, nil)
	if w := post(s3, c, `{"events":[{"ev":"topic","topic":"T2","seq":11,"t":5000}]}`); w.Code != 500 {
		t.Errorf("a broken recording: %d", w.Code)
	}
}

// TestStudyConcurrent: participants sending at once each get exactly their
// events, in order (run with -race).
func TestStudyConcurrent(t *testing.T) {
	dir := t.TempDir()
	s := newStudyServer(t, dir, func(o *StudyOptions) { o.PerParticipant = 1 })
	const people, batches = 8, 25
	cookies := make([]*http.Cookie, people)
	for i := range cookies {
		cookies[i] = consent(t, s)
	}
	var wg sync.WaitGroup
	errs := make(chan string, people*batches)
	for i, c := range cookies {
		wg.Add(1)
		go func(i int, c *http.Cookie) {
			defer wg.Done()
			topic := studyTopics[i%len(studyTopics)].ID // round robin, one topic each
			seq := 1
			for b := 0; b < batches; b++ {
				var evs []string
				if b == 0 {
					evs = append(evs, fmt.Sprintf(`{"ev":"topic","topic":%q,"seq":1,"t":0}`, topic))
					seq++
				}
				for k := 0; k < 4; k++ {
					evs = append(evs, fmt.Sprintf(`{"ev":"query","topic":%q,"seq":%d,"t":%d,"q":"q%d"}`, topic, seq, seq, seq))
					seq++
				}
				if w := post(s, c, `{"events":[`+strings.Join(evs, ",")+`]}`); w.Code != 200 {
					errs <- fmt.Sprintf("participant %d batch %d: %d %s", i, b, w.Code, w.Body)
					return
				}
			}
		}(i, c)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	for _, c := range cookies {
		lines := strings.Split(strings.TrimSuffix(readFile(t, filepath.Join(dir, participantID(c)+".jsonl")), "\n"), "\n")
		if len(lines) != 1+4*batches {
			t.Errorf("%s: %d lines, want %d", participantID(c), len(lines), 1+4*batches)
			continue
		}
		for k, l := range lines[1:] {
			if want := fmt.Sprintf(`"seq":%d,"q":"q%d"`, k+2, k+2); !strings.Contains(l, want) {
				t.Errorf("%s line %d: %s, want %s", participantID(c), k+2, l, want)
				break
			}
		}
	}
}

// TestStudyPages: a participant's pages load the recorder (the results and
// the article page); other visitors' do not; a server without a study has
// no /study.
func TestStudyPages(t *testing.T) {
	s := newStudyServer(t, t.TempDir(), nil)
	c := consent(t, s)
	for _, target := range []string{"/", "/search?q=lens"} {
		if body := getWith(s, c, target).Body.String(); !strings.Contains(body, `<script src="/static/study.js" defer></script>`) {
			t.Errorf("%s as a participant: no recorder", target)
		}
		if body := getWith(s, nil, target).Body.String(); strings.Contains(body, "study.js") {
			t.Errorf("%s for a visitor loads the recorder", target)
		}
	}
	s2, pages, _ := newTestServer(t, func(o *Options) { o.Study = &StudyOptions{Dir: t.TempDir(), Topics: studyTopics} })
	c2 := consent(t, s2)
	getWith(s2, c2, "/article/101?q=lens")
	if pages.last.opt.ScriptURL != studyScript {
		t.Errorf("a participant's article page: ScriptURL %q", pages.last.opt.ScriptURL)
	}
	getWith(s2, nil, "/article/101?q=lens")
	if pages.last.opt.ScriptURL != "" {
		t.Errorf("a visitor's article page: ScriptURL %q", pages.last.opt.ScriptURL)
	}
	getWith(s2, c2, "/article/101?p=0:5")
	if pages.last.opt.ScriptURL != "" {
		t.Errorf("the simulation frame: ScriptURL %q", pages.last.opt.ScriptURL)
	}
	plain, _, _ := newTestServer(t, nil)
	if w := get(t, plain, "/study"); w.Code != 404 {
		t.Errorf("/study without a study: %d", w.Code)
	}
	if w := post(plain, nil, goodBatch); w.Code != 404 {
		t.Errorf("/study/events without a study: %d", w.Code)
	}
	r := httptest.NewRequest("POST", "/study/consent", strings.NewReader(url.Values{"consent": {"yes"}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	plain.ServeHTTP(w, r)
	if w.Code != 404 {
		t.Errorf("/study/consent without a study: %d", w.Code)
	}
}

// TestHomeLinksToStudy: a server that runs a study (as the demo does)
// links to it from its start page, and the link leads to the study's page
// (200), for a visitor and for a participant; a server without a study has
// no such link.
func TestHomeLinksToStudy(t *testing.T) {
	s := newStudyServer(t, t.TempDir(), nil)
	c := consent(t, s)
	for _, who := range []struct {
		name   string
		cookie *http.Cookie
	}{{"visitor", nil}, {"participant", c}} {
		doc := parseDoc(t, getWith(s, who.cookie, "/"))
		links := doc.Find(`main a[href]`).FilterFunction(func(_ int, a *goquery.Selection) bool {
			h, _ := a.Attr("href")
			u, err := url.Parse(h)
			return err == nil && u.Path == "/study"
		})
		if links.Length() != 1 || strings.TrimSpace(links.Text()) != "Open the reading study" {
			t.Errorf("%s: the start page's links to /study: %d, %q", who.name, links.Length(), links.Text())
			continue
		}
		h, _ := links.Attr("href")
		if w := getWith(s, who.cookie, h); w.Code != http.StatusOK {
			t.Errorf("%s: %s answers %d", who.name, h, w.Code)
		}
	}
	plain, _, _ := newTestServer(t, nil)
	if body := get(t, plain, "/").Body.String(); strings.Contains(body, `href="/study`) {
		t.Error("a server without a study links to /study")
	}
}

// TestStudyNoInlineCode: the study's pages hold no inline script, style or
// handler either (the CSP would block them), for a visitor and for a
// participant, and the withdrawal page.
func TestStudyNoInlineCode(t *testing.T) {
	s := newStudyServer(t, t.TempDir(), nil)
	c := consent(t, s)
	r := httptest.NewRequest("POST", "/study/withdraw", nil)
	r.AddCookie(consent(t, s))
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	pages := map[string]string{
		"/study":                   getWith(s, nil, "/study").Body.String(),
		"/study (participant)":     getWith(s, c, "/study").Body.String(),
		"/search (participant)":    getWith(s, c, "/search?q=lens").Body.String(),
		"/study/withdraw (answer)": w.Body.String(),
	}
	inlineScript := regexp.MustCompile(`<script(?:\s[^>]*)?>`)
	bad := regexp.MustCompile(`(?i)\sstyle\s*=|\son[a-z]+\s*=|<style|javascript:|https?://`)
	for name, body := range pages {
		for _, m := range inlineScript.FindAllString(body, -1) {
			if !strings.Contains(m, `src="/static/`) {
				t.Errorf("%s: inline script %q", name, m)
			}
		}
		if m := bad.FindString(body); m != "" {
			t.Errorf("%s: %q", name, m)
		}
	}
}

// TestStudyDurableBatch: a failure before the batch is on disk (the write
// or its fsync) answers 500, cuts the file back and leaves the state, so
// the page's resend is written once; a failure after it (closing the
// file, the folder's fsync) is logged only: the batch is recorded and
// the state moves on, so the next batch follows it, and a restarted
// server reads the file back (no seq written twice). The folder's fsync
// that failed is tried again with the next batch.
func TestStudyDurableBatch(t *testing.T) {
	injected := errors.New("injected failure")
	next := `{"events":[{"ev":"topic","topic":"T2","seq":10,"t":5000}]}`
	for _, tc := range []struct {
		name     string
		fail     func(*fileOps)
		recorded bool
		log      string
	}{
		{"write fails", func(o *fileOps) { o.write = func(*os.File, []byte) (int, error) { return 0, injected } }, false, ""},
		{"short write", func(o *fileOps) {
			o.write = func(f *os.File, b []byte) (int, error) { return f.Write(b[:len(b)/2]) }
		}, false, ""},
		{"fsync fails", func(o *fileOps) { o.sync = func(*os.File) error { return injected } }, false, ""},
		{"close fails", func(o *fileOps) { o.close = func(f *os.File) error { f.Close(); return injected } }, true, "closing after the batch was written and synced: injected failure"},
		{"folder fsync fails", func(o *fileOps) { o.syncDir = func(string) error { return injected } }, true, "the folder's fsync after creating the recording: injected failure"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var logMu sync.Mutex
			var logs []string
			st := &StudyOptions{Dir: dir, Topics: studyTopics, PerParticipant: 2}
			s, _, _ := newTestServer(t, func(o *Options) {
				o.Study = st
				o.Logf = func(format string, args ...any) {
					logMu.Lock()
					logs = append(logs, fmt.Sprintf(format, args...))
					logMu.Unlock()
				}
			})
			dirSyncs := 0
			counted := func(o fileOps) fileOps {
				inner := o.syncDir
				o.syncDir = func(d string) error { dirSyncs++; return inner(d) }
				return o
			}
			failing := osFileOps
			tc.fail(&failing)
			s.study.fs = counted(failing)
			c := consent(t, s)
			p := participantID(c)
			file := filepath.Join(dir, p+".jsonl")
			w := post(s, c, goodBatch)
			s.study.fs = counted(osFileOps)
			if !tc.recorded {
				if w.Code != 500 || readFile(t, file) != "" {
					t.Fatalf("%d %s; the file holds %q, want 500 and nothing", w.Code, w.Body, readFile(t, file))
				}
				// the page sends the batch again: written once
				if w := post(s, c, goodBatch); w.Code != 200 || readFile(t, file) != goodLines(p) {
					t.Fatalf("the resend: %d %s\n%s", w.Code, w.Body, readFile(t, file))
				}
			} else {
				if w.Code != 200 || readFile(t, file) != goodLines(p) {
					t.Fatalf("%d %s\n%s", w.Code, w.Body, readFile(t, file))
				}
				logMu.Lock()
				if !strings.Contains(strings.Join(logs, "\n"), tc.log) {
					t.Errorf("logs %q lack %q", logs, tc.log)
				}
				logMu.Unlock()
				// the page drops what the server has: a resend is a replay
				if w := post(s, c, goodBatch); w.Code != 409 {
					t.Errorf("the same batch again: %d %s", w.Code, w.Body)
				}
			}
			if w := post(s, c, next); w.Code != 200 {
				t.Fatalf("the next batch: %d %s", w.Code, w.Body)
			}
			// the folder synced once when the file was new, again on the
			// next batch if that failed
			if want := map[bool]int{true: 2, false: 1}[tc.name == "folder fsync fails"]; dirSyncs != want {
				t.Errorf("%d folder fsyncs counted, want %d", dirSyncs, want)
			}
			want := goodLines(p) + `{"ev":"topic","topic":"T2","rank":0,"doc":"","seq":10,"run":"` + p + `","t":5000,"source":"recorded"}` + "\n"
			if got := readFile(t, file); got != want {
				t.Errorf("recording:\n%s\nwant:\n%s", got, want)
			}
			// a restarted server reads it back and takes the next seq
			s.Close()
			s2 := newStudyServer(t, dir, nil)
			if w := post(s2, c, `{"events":[{"ev":"done","topic":"T2","seq":11,"t":6000,"outcome":"found"}]}`); w.Code != 200 {
				t.Errorf("after a restart: %d %s", w.Code, w.Body)
			}
		})
	}
}

// TestStudyOrigin: the study's POSTs take an Origin of the server's own
// scheme and host only; the scheme is the request's (https over TLS), or
// the first X-Forwarded-Proto of a TLS-terminating proxy, believed only
// from a trusted proxy (issue 36: from any other peer the header turned
// the cookie Secure over http and let an https Origin pass). The cookie is
// Secure under the same rule.
func TestStudyOrigin(t *testing.T) {
	proxy, _ := ParseTrustedProxy("192.0.2.0/24") // httptest's peer is 192.0.2.1
	elsewhere, _ := ParseTrustedProxy("10.0.0.1")
	for _, tc := range []struct {
		name, target, origin, proto string
		trusted                     *net.IPNet
		foreign                     bool
	}{
		{"no Origin", "http://example.com/study/events", "", "", nil, false},
		{"null", "http://example.com/study/events", "null", "", nil, false},
		{"same", "http://example.com/study/events", "http://example.com", "", nil, false},
		{"same, in capitals", "http://example.com/study/events", "HTTP://EXAMPLE.COM", "", nil, false},
		{"https page, http server", "http://example.com/study/events", "https://example.com", "", nil, true},
		{"another port", "http://example.com/study/events", "http://example.com:8080", "", nil, true},
		{"another host", "http://example.com/study/events", "http://evil.example", "", nil, true},
		{"TLS", "https://example.com/study/events", "https://example.com", "", nil, false},
		{"http page, TLS server", "https://example.com/study/events", "http://example.com", "", nil, true},
		{"behind a TLS proxy", "http://example.com/study/events", "https://example.com", "https", proxy, false},
		{"http page behind a TLS proxy", "http://example.com/study/events", "http://example.com", "https", proxy, true},
		{"proxies in a chain: the first", "http://example.com/study/events", "https://example.com", "HTTPS, http", proxy, false},
		{"a proto that is no scheme", "http://example.com/study/events", "http://example.com", "gopher", proxy, false},
		{"X-Forwarded-Proto from an untrusted peer", "http://example.com/study/events", "https://example.com", "https", nil, true},
		{"X-Forwarded-Proto from a peer not the proxy", "http://example.com/study/events", "https://example.com", "https", elsewhere, true},
		{"not a URL", "http://example.com/study/events", "http://%zz", "", nil, true},
	} {
		r := httptest.NewRequest("POST", tc.target, nil)
		if tc.origin != "" {
			r.Header.Set("Origin", tc.origin)
		}
		if tc.proto != "" {
			r.Header.Set("X-Forwarded-Proto", tc.proto)
		}
		s := &Server{}
		if tc.trusted != nil {
			s.opt.TrustedProxies = []*net.IPNet{tc.trusted}
		}
		if got := s.foreignOrigin(r); got != tc.foreign {
			t.Errorf("%s: foreign %v, want %v", tc.name, got, tc.foreign)
		}
	}
	// through the handlers: an https page's batch to a plain server is
	// refused and writes nothing; behind a trusted TLS proxy it is taken,
	// and the cookie of a consent there is Secure; from a peer that is
	// not a trusted proxy the header changes nothing
	for _, trusted := range []bool{true, false} {
		dir := t.TempDir()
		s := newStudyServer(t, dir, nil)
		if trusted {
			s.opt.TrustedProxies = []*net.IPNet{proxy}
		}
		c := consent(t, s)
		p := participantID(c)
		batch := `{"events":[{"ev":"topic","topic":"T1","seq":1,"t":0}]}`
		if w := post(s, c, batch, func(r *http.Request) { r.Header.Set("Origin", "https://example.com") }); w.Code != 403 || exists(filepath.Join(dir, p+".jsonl")) {
			t.Errorf("an https page's batch to an http server: %d %s", w.Code, w.Body)
		}
		proxied := func(r *http.Request) {
			r.Header.Set("Origin", "https://example.com")
			r.Header.Set("X-Forwarded-Proto", "https")
		}
		if w := post(s, c, batch, proxied); (w.Code == 200) != trusted {
			t.Errorf("trusted proxy %v: a batch with X-Forwarded-Proto https: %d %s", trusted, w.Code, w.Body)
		}
		r := consentRequest(t, s, url.Values{"consent": {"yes"}})
		r.Header.Set("X-Forwarded-Proto", "https")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		var secure []bool
		for _, c := range w.Result().Cookies() {
			secure = append(secure, c.Secure)
		}
		if w.Code != http.StatusSeeOther || !hasCookie(w, studyCookie) || fmt.Sprint(secure) != fmt.Sprint([]bool{trusted, trusted}) {
			t.Errorf("trusted proxy %v: a consent with X-Forwarded-Proto https: %d, cookies Secure %v, want %v", trusted, w.Code, secure, trusted)
		}
	}
}

// hasCookie reports whether the answer sets the cookie name (to a value).
func hasCookie(w *httptest.ResponseRecorder, name string) bool {
	for _, c := range w.Result().Cookies() {
		if c.Name == name && c.MaxAge >= 0 {
			return true
		}
	}
	return false
}

// TestStudyRotation: topics go round robin (three topics, two each:
// participant k gets topics k and k+1, mod 3) across restarts and
// withdrawals: the next participant's position is kept in rotation.json,
// not taken from the participants left. Without rotation.json the keys'
// positions say where to go on; keys of neither (a folder of an older
// server) count themselves.
func TestStudyRotation(t *testing.T) {
	dir := t.TempDir()
	topicsOf := func(s *Server, c *http.Cookie) string {
		id := participantID(c)
		s.study.mu.Lock()
		defer s.study.mu.Unlock()
		return strings.Join(s.study.parts[id].topics, " ")
	}
	withdraw := func(s *Server, c *http.Cookie) {
		r := httptest.NewRequest("POST", "/study/withdraw", nil)
		r.AddCookie(c)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != 200 {
			t.Fatalf("withdraw: %d", w.Code)
		}
	}
	s := newStudyServer(t, dir, nil)
	a, b, c := consent(t, s), consent(t, s), consent(t, s)
	for i, want := range []string{"T1 T2", "T2 T3", "T3 T1"} {
		if got := topicsOf(s, []*http.Cookie{a, b, c}[i]); got != want {
			t.Errorf("participant %d: %s, want %s", i, got, want)
		}
	}
	withdraw(s, a)
	withdraw(s, b)
	// restarted with one participant left: the fourth (position 3) gets T1 T2
	s.Close()
	s = newStudyServer(t, dir, nil)
	d := consent(t, s)
	if got := topicsOf(s, d); got != "T1 T2" {
		t.Errorf("after withdrawals and a restart: %s, want T1 T2 (position 3)", got)
	}
	// rotation.json lost (a crash before it was first written): the keys'
	// largest position (3) + 1
	os.Remove(filepath.Join(dir, "rotation.json"))
	s.Close()
	s = newStudyServer(t, dir, nil)
	if got := topicsOf(s, consent(t, s)); got != "T2 T3" {
		t.Errorf("from the keys' positions: %s, want T2 T3 (position 4)", got)
	}
	// keys without positions and no rotation.json: their number
	old := t.TempDir()
	for i, id := range []string{"P-0000000000000001", "P-0000000000000002"} {
		key := fmt.Sprintf(`{"participant":%q,"token_sha256":"%064d","topics":["T%d"]}`, id, 0, i+1)
		os.WriteFile(filepath.Join(old, id+".json"), []byte(key), 0o600)
	}
	s = newStudyServer(t, old, nil)
	if got := topicsOf(s, consent(t, s)); got != "T3 T1" {
		t.Errorf("an older folder of two keys: %s, want T3 T1 (position 2)", got)
	}
	// a counter that is not one: the server does not start
	os.WriteFile(filepath.Join(old, "rotation.json"), []byte("[]"), 0o600)
	s.Close()
	if _, err := New(Options{Pages: &fakePages{}, Study: &StudyOptions{Dir: old, Topics: studyTopics}}); err == nil || !strings.Contains(err.Error(), "rotation.json: not the study's round-robin counter") {
		t.Errorf("a broken rotation.json: %v", err)
	}
}

// TestStudyStopEnd: a stop saying "end" (the participant saw the article's
// last visible character) is written with its reason; a later visit of the
// same article in the topic stops with "end" too, also after a restart, so
// that the reading's last stop of the article, which calibration reads,
// says it; another article's stop does not.
func TestStudyStopEnd(t *testing.T) {
	dir, s, c, p := newStudyParticipant(t)
	open := func(seq int, doc string) string {
		return fmt.Sprintf(`{"ev":"open","topic":"T1","doc":%q,"rank":1,"seq":%d,"t":%d}`, doc, seq, seq)
	}
	stop := func(seq int, doc, extra string) string {
		return fmt.Sprintf(`{"ev":"stop","topic":"T1","doc":%q,"seq":%d,"t":%d%s}`, doc, seq, seq, extra)
	}
	if w := post(s, c, `{"events":[{"ev":"topic","topic":"T1","seq":1,"t":0},`+open(2, "101")+","+stop(3, "101", `,"reason":"end"`)+"]}"); w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	s.Close()
	s2 := newStudyServer(t, dir, nil) // restarted: the state is read back
	if w := post(s2, c, `{"events":[`+open(4, "102")+","+stop(5, "102", "")+","+open(6, "101")+","+stop(7, "101", "")+"]}"); w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	var stops []string
	for _, l := range strings.Split(strings.TrimSpace(readFile(t, filepath.Join(dir, p+".jsonl"))), "\n") {
		if strings.Contains(l, `"ev":"stop"`) {
			var e struct{ Doc, Reason string }
			json.Unmarshal([]byte(l), &e)
			stops = append(stops, e.Doc+":"+e.Reason)
		}
	}
	if got := strings.Join(stops, " "); got != "101:end 102: 101:end" {
		t.Errorf("stops %s, want 101:end 102: 101:end", got)
	}
}
