package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// auditEventsOf lists the events of the folder's audit log, each with its
// participant when it has one.
func auditEventsOf(t *testing.T, dir string) []string {
	t.Helper()
	recs, err := ReadAudit(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range recs {
		e := r.Event
		if r.Participant != "" {
			e += " " + r.Participant
		}
		out = append(out, e)
	}
	return out
}

// TestStudyAudit: the audit log holds, in order, the server's start (and
// the consent text, new to the folder), each consent with the text's hash,
// topics and withdrawal code's hash, a withdrawal with how it was asked
// for, the stop; a restart on another consent text logs the change; a
// withdrawal keeps the consent on record; no address or browser anywhere.
func TestStudyAudit(t *testing.T) {
	dir := t.TempDir()
	s := newStudyServer(t, dir, nil)
	clock := time.Date(2026, 11, 26, 17, 30, 5, 0, time.UTC)
	s.study.now = func() time.Time { return clock }
	r := consentRequest(t, s, url.Values{"consent": {"yes"}})
	r.RemoteAddr = "198.51.100.23:4711"
	r.Header.Set("User-Agent", "TestAgent/7.1")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	var a *http.Cookie
	for _, c := range w.Result().Cookies() {
		if c.Name == studyCookie {
			a = c
		}
	}
	b := consent(t, s)
	pa, pb := participantID(a), participantID(b)
	wr := httptest.NewRequest("POST", "/study/withdraw", nil)
	wr.AddCookie(a)
	s.ServeHTTP(httptest.NewRecorder(), wr)
	s.Close()
	other, _ := ParseConsent("c.md", []byte(testConsent))
	s2 := newStudyServer(t, dir, func(o *StudyOptions) { o.Consent = other })
	s2.Close()
	s3 := newStudyServer(t, dir, func(o *StudyOptions) { o.Consent = other })
	s3.Close()
	got := strings.Join(auditEventsOf(t, dir), ", ")
	want := "consent_text, start, consent " + pa + ", consent " + pb + ", withdrawal " + pa + ", stop, consent_text, start, stop, start, stop"
	if got != want {
		t.Errorf("audit events:\n%s\nwant\n%s", got, want)
	}
	recs, _ := ReadAudit(dir)
	if r := recs[2]; r.Time != "2026-11-26T17:30:05Z" || r.ConsentSHA256 != defaultConsent.SHA256 || strings.Join(r.Topics, " ") != "T1 T2" || len(r.WithdrawalSHA256) != 64 {
		t.Errorf("the consent record %+v", r)
	}
	if r := recs[4]; r.By != "cookie" {
		t.Errorf("the withdrawal record %+v", r)
	}
	if r := recs[6]; r.ConsentSHA256 != other.SHA256 || r.PreviousSHA256 == nil || *r.PreviousSHA256 != defaultConsent.SHA256 {
		t.Errorf("the consent text's change %+v", r)
	}
	if r := recs[0]; r.PreviousSHA256 == nil || *r.PreviousSHA256 != "" {
		t.Errorf("the folder's first consent text %+v", r)
	}
	log := readFile(t, filepath.Join(dir, auditFile))
	for _, secret := range []string{"198.51.100.23", "TestAgent"} {
		if strings.Contains(log, secret) {
			t.Errorf("the audit log holds %q", secret)
		}
	}
}

// TestReadAudit: records are read strictly (a field given twice, an
// unknown field or event, a time that is none, a participant that is no
// id are errors naming the file and line); a last line cut short by a
// crash is dropped.
func TestReadAudit(t *testing.T) {
	good := `{"time":"2026-11-26T17:30:05Z","event":"start","consent_sha256":"ab"}` + "\n"
	for _, tc := range []struct{ text, want string }{
		{good, ""},
		{good + `{"time":"2026-11-26T17:30:06Z","event":"stop"`, ""},
		{good + `{"time":"2026-11-26T17:30:06Z","event":"stop","event":"start"}` + "\n", `audit.jsonl:2: not an audit record: field "event" given twice`},
		{good + `{"time":"2026-11-26T17:30:06Z","event":"stop","ip":"1.2.3.4"}` + "\n", `audit.jsonl:2: not an audit record: unknown field "ip"`},
		{`{"time":"2026-11-26T17:30:06Z","event":"dance"}` + "\n", `audit.jsonl:1: unknown audit event "dance"`},
		{`{"time":"yesterday","event":"stop"}` + "\n", `audit.jsonl:1: time "yesterday"`},
		{`{"time":"2026-11-26T17:30:06Z","event":"consent","participant":"../x"}` + "\n", `audit.jsonl:1: participant "../x"`},
		{"\n", "audit.jsonl:1: not an audit record: malformed JSON at byte 0"},
		{`{"time":"2026-11-26T17:30:06Z","event":"stop","topics":"x"}` + "\n", `audit.jsonl:1: not an audit record: field "topics": a JSON string where another type is wanted`},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, auditFile), []byte(tc.text), 0o600)
		recs, err := ReadAudit(dir)
		if tc.want == "" && (err != nil || len(recs) != 1) || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%q: %d records, %v; want %q", tc.text, len(recs), err, tc.want)
		}
	}
}

// FuzzReadAudit: any audit log is read or refused with its file, never a
// panic.
func FuzzReadAudit(f *testing.F) {
	f.Add([]byte(`{"time":"2026-11-26T17:30:05Z","event":"start","consent_sha256":"ab","topics":["1"],"per_participant":3}` + "\n"))
	f.Add([]byte(`{"time":"2026-11-26T17:30:05Z","event":"consent","participant":"P-0123456789abcdef","previous_sha256":null}` + "\n{"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, err := parseAudit("audit.jsonl", strings.NewReader(string(b)))
		if err != nil && !strings.HasPrefix(err.Error(), "audit.jsonl:") {
			t.Errorf("an error without its file and line: %v", err)
		}
	})
}

// TestStudyLock: a second server on a folder in use does not start, saying
// who uses it; once the first stops, it does. (Before issue 36 both
// started and handed out the same round-robin position.)
func TestStudyLock(t *testing.T) {
	dir := t.TempDir()
	s := newStudyServer(t, dir, nil)
	_, err := New(Options{Pages: &fakePages{}, Study: &StudyOptions{Dir: dir, Topics: studyTopics}})
	if !errors.Is(err, ErrStudyLocked) || !strings.Contains(err.Error(), "in use by readsim serve (process "+fmt.Sprint(os.Getpid())) {
		t.Errorf("a second server on the folder: %v", err)
	}
	s.Close()
	s.Close() // twice: nothing more
	s2 := newStudyServer(t, dir, nil)
	consent(t, s2)
	if b := readFile(t, filepath.Join(dir, rotationFile)); b != "{\"next\":1}\n" {
		t.Errorf("rotation.json %q", b)
	}
}

// TestStudyHalfWithdrawal: a withdrawal a crash left half done (the
// tombstone written, the recording and key still there) is completed at
// the next start and logged; the participant's cookie is refused (before
// issue 36 the participant went on recording).
func TestStudyHalfWithdrawal(t *testing.T) {
	dir, s, c, p := newStudyParticipant(t)
	if w := post(s, c, `{"events":[{"ev":"topic","topic":"T1","seq":1,"t":0}]}`); w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	s.Close()
	os.WriteFile(filepath.Join(dir, tombstoneFile), []byte(`{"participant":"`+p+`","withdrawn":"2026-11-26T17:00:00Z"}`+"\n"), 0o600)
	var logs []string
	s2, _, _ := newTestServer(t, func(o *Options) {
		o.Study = &StudyOptions{Dir: dir, Topics: studyTopics, PerParticipant: 2}
		o.Logf = func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }
	})
	for _, f := range []string{p + ".json", p + ".jsonl"} {
		if exists(filepath.Join(dir, f)) {
			t.Errorf("%s is still there after the restart", f)
		}
	}
	if w := post(s2, c, `{"events":[{"ev":"query","topic":"T1","seq":2,"t":5,"q":"x"}]}`); w.Code != 403 {
		t.Errorf("the withdrawn participant's events: %d", w.Code)
	}
	if !strings.Contains(strings.Join(logs, "\n"), "completed the withdrawal of "+p) {
		t.Errorf("logs %q", logs)
	}
	ev := auditEventsOf(t, dir)
	if !strings.Contains(strings.Join(ev, ", "), "withdrawal_completed "+p) {
		t.Errorf("audit %v", ev)
	}
	// the consent stays on record
	if !strings.Contains(strings.Join(ev, ", "), "consent "+p) {
		t.Errorf("the consent record is gone: %v", ev)
	}
}

// TestStudyWithdrawFailedDelete: once the tombstone is written the
// participant is withdrawn, even when deleting the files fails: their
// events are refused and the page says the deletion is done at the next
// start (which does it).
func TestStudyWithdrawFailedDelete(t *testing.T) {
	dir, s, c, p := newStudyParticipant(t)
	if w := post(s, c, `{"events":[{"ev":"topic","topic":"T1","seq":1,"t":0}]}`); w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	// a recording that cannot be removed: a folder in its place, not empty
	rec := filepath.Join(dir, p+".jsonl")
	os.Rename(rec, rec+".bak")
	os.MkdirAll(filepath.Join(rec, "x"), 0o700)
	r := httptest.NewRequest("POST", "/study/withdraw", nil)
	r.AddCookie(c)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != 200 || !strings.Contains(w.Body.String(), "is on record and nothing more is recorded of you") {
		t.Errorf("withdrawal with a failed delete: %d\n%s", w.Code, w.Body)
	}
	if w := post(s, c, `{"events":[{"ev":"query","topic":"T1","seq":2,"t":5,"q":"x"}]}`); w.Code != 403 {
		t.Errorf("events after the withdrawal: %d", w.Code)
	}
	s.Close()
	os.RemoveAll(rec)
	os.Rename(rec+".bak", rec)
	newStudyServer(t, dir, nil)
	if exists(rec) || exists(filepath.Join(dir, p+".json")) {
		t.Error("the next start did not complete the withdrawal")
	}
}
