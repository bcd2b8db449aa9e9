package web

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A consent text of the documented format, and its parse by hand.
const testConsent = `Title: Reading lighthouse articles on a phone
Researcher: A. Example, Department of Information Studies
Contact: a.example@example.org
Ethics: University Research Ethics Committee, ref. REC-2026-042
Retention: until 31 December 2031, then deleted

# Why
We test a model of <reading>.
It has two lines.

- one item
  continued
- two
`

func TestParseConsent(t *testing.T) {
	c, err := ParseConsent("c.md", []byte(testConsent))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(testConsent))
	if c.Title != "Reading lighthouse articles on a phone" || c.Researcher != "A. Example, Department of Information Studies" ||
		c.Contact != "a.example@example.org" || c.Ethics != "University Research Ethics Committee, ref. REC-2026-042" ||
		c.Retention != "until 31 December 2031, then deleted" || c.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("fields %+v", c)
	}
	got, _ := json.Marshal(c.Body)
	want := `[{"Kind":"h","Text":"Why","Items":null},{"Kind":"p","Text":"We test a model of \u003creading\u003e. It has two lines.","Items":null},{"Kind":"ul","Text":"","Items":["one item continued","two"]}]`
	if string(got) != want {
		t.Errorf("body %s\nwant %s", got, want)
	}
	for _, tc := range []struct{ text, want string }{
		{"Title: x\nResearcher: y\n\nbody", "c.md: the consent text lacks contact, ethics, retention"},
		{"Title: x\nTitle: y\n", "c.md:2: title given again (first at line 1)"},
		{"Title: x\nFunding: y\n", `c.md:2: unknown field "funding"`},
		{"Just a paragraph of text.\n", `c.md:1: "Just a paragraph of text." is not a field`},
		{"Title: \xff\n", "c.md: not UTF-8"},
	} {
		if _, err := ParseConsent("c.md", []byte(tc.text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.text, err, tc.want)
		}
	}
}

// TestStudyConsentOnRecord: the study's own consent text is shown; a
// consent is stored with its time and the text's hash, the text itself
// kept in the folder; the participant's page shows a withdrawal code with
// which another phone (without the cookie, or with another participant's)
// withdraws them; the withdrawal leaves a
// tombstone with its time; a wrong code withdraws no one.
func TestStudyConsentOnRecord(t *testing.T) {
	dir := t.TempDir()
	c, err := ParseConsent("c.md", []byte(testConsent))
	if err != nil {
		t.Fatal(err)
	}
	s := newStudyServer(t, dir, func(o *StudyOptions) { o.Consent = c })
	clock := time.Date(2026, 11, 26, 17, 30, 5, 0, time.UTC)
	s.study.now = func() time.Time { return clock }
	body := get(t, s, "/study").Body.String()
	for _, want := range []string{"<h2>Reading lighthouse articles on a phone</h2>", "A. Example, Department of Information Studies", "a.example@example.org",
		"REC-2026-042", "until 31 December 2031, then deleted", "<h3>Why</h3>", "We test a model of &lt;reading&gt;. It has two lines.", "<li>one item continued</li>", `name="code"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the consent page lacks %q", want)
		}
	}
	ck := consent(t, s)
	p := participantID(ck)
	var key participantKey
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, p+".json"))), &key); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(testConsent))
	if key.Consented != "2026-11-26T17:30:05Z" || key.ConsentSHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("key %+v", key)
	}
	if got := readFile(t, filepath.Join(dir, "consent-"+hex.EncodeToString(sum[:8])+".txt")); got != testConsent {
		t.Errorf("the consent text's copy: %q", got)
	}
	// the code, shown on the participant's first page
	page := getWith(s, ck, "/study").Body.String()
	i := strings.Index(page, "Your withdrawal code: <b>")
	if i < 0 {
		t.Fatalf("no withdrawal code shown:\n%s", page)
	}
	code := page[i+len("Your withdrawal code: <b>") : i+len("Your withdrawal code: <b>")+14]
	if normalCode(code) == "" || !strings.Contains(page, code) {
		t.Fatalf("code %q", code)
	}
	if w := post(s, ck, `{"events":[{"ev":"topic","topic":"T1","seq":1,"t":0}]}`); w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	withdraw := func(code string, cookies ...*http.Cookie) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/study/withdraw", strings.NewReader(url.Values{"code": {code}}.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for _, c := range cookies {
			r.AddCookie(c)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		return w
	}
	if w := withdraw("AAAA-AAAA-AAAA"); w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "No participant has this withdrawal code") || !exists(filepath.Join(dir, p+".jsonl")) {
		t.Errorf("a wrong code: %d\n%s", w.Code, w.Body)
	}
	clock = clock.Add(48 * time.Hour)
	// typed in lower case without dashes, from a phone that holds another
	// participant's cookie: the code's participant is withdrawn, the other
	// kept with their cookie
	other := consent(t, s)
	w := withdraw(strings.ToLower(strings.ReplaceAll(code, "-", " ")), other)
	if w.Code != 200 || !strings.Contains(w.Body.String(), "is deleted") || !strings.Contains(w.Body.String(), p) {
		t.Fatalf("withdraw by code: %d\n%s", w.Code, w.Body)
	}
	if len(w.Result().Cookies()) != 0 || !exists(filepath.Join(dir, participantID(other)+".json")) || !strings.Contains(w.Body.String(), `data-keep="1"`) {
		t.Errorf("the other participant's cookie or key is touched: %v", w.Result().Cookies())
	}
	for _, f := range []string{p + ".jsonl", p + ".json"} {
		if exists(filepath.Join(dir, f)) {
			t.Errorf("%s is still there", f)
		}
	}
	if got, want := readFile(t, filepath.Join(dir, tombstoneFile)), `{"participant":"`+p+`","withdrawn":"2026-11-28T17:30:05Z"}`+"\n"; got != want {
		t.Errorf("tombstones %q, want %q", got, want)
	}
	if w := post(s, ck, `{"events":[{"ev":"query","topic":"T1","seq":2,"t":0,"q":"x"}]}`); w.Code != 403 {
		t.Errorf("the withdrawn cookie's events: %d", w.Code)
	}
	if _, err := os.Stat(filepath.Join(dir, "consent-"+hex.EncodeToString(sum[:8])+".txt")); err != nil {
		t.Errorf("the consent text's copy is gone: %v", err)
	}
}

// FuzzParseConsent: any consent file is parsed or refused with its name,
// never a panic; a text parsed has its five fields and at most one
// retention date.
func FuzzParseConsent(f *testing.F) {
	f.Add([]byte(testConsent))
	f.Add([]byte("Title: t\nResearcher: r\nContact: c\nEthics: e\nRetention: until 2031-12-31\n\n- a\n  b\n# h\n"))
	f.Add([]byte("Title: t\nResearcher: r\nContact: c\nEthics: e\nRetention: 2031-02-30 or 2032-01-01\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseConsent("c.md", b)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "c.md") {
				t.Errorf("an error without the file's name: %v", err)
			}
			return
		}
		if c.Title == "" || c.Researcher == "" || c.Contact == "" || c.Ethics == "" || c.Retention == "" {
			t.Errorf("a field missing: %+v", c)
		}
		if !c.RetentionDate.IsZero() && !strings.Contains(c.Retention, c.RetentionDate.Format(time.DateOnly)) {
			t.Errorf("retention date %v not in %q", c.RetentionDate, c.Retention)
		}
	})
}

// TestRetentionDate: the date of a Retention field, worked by hand, and
// when it is past (the whole day over, UTC).
func TestRetentionDate(t *testing.T) {
	for _, tc := range []struct{ v, want, err string }{
		{"until 2031-12-31, then deleted", "2031-12-31", ""},
		{"five years", "", ""},
		{"ref 12031-12-311", "", ""},
		{"2031-02-30", "", "not a day of the calendar"},
		{"2031-01-01 or 2032-01-01", "", "2 dates"},
	} {
		d, err := retentionDate(tc.v)
		got := ""
		if !d.IsZero() {
			got = d.Format(time.DateOnly)
		}
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: %q %v, want %q %q", tc.v, got, err, tc.want, tc.err)
		}
	}
	c := &Consent{RetentionDate: time.Date(2031, 12, 31, 0, 0, 0, 0, time.UTC)}
	for at, want := range map[string]bool{"2031-12-31T23:59:59Z": false, "2032-01-01T00:00:00Z": true, "2032-01-01T00:30:00+01:00": false} {
		now, _ := time.Parse(time.RFC3339, at)
		if c.Expired(now) != want {
			t.Errorf("expired at %s: %v, want %v", at, !want, want)
		}
	}
}
