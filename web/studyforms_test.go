package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// participantsIn lists the participants' keys in the study folder dir.
func participantsIn(t *testing.T, dir string) []string {
	t.Helper()
	keys, _ := filepath.Glob(filepath.Join(dir, "P-*.json"))
	return keys
}

// TestStudyConsentForged: consent is taken only through the study's own
// form (issue 36). A page of another site posting consent=yes (a
// sandboxed frame: Origin null, no cookie of the study) made a
// participant before; now it, and every form whose token is not the
// server's for this page, gets the consent page again (403) with the text
// to read, and no participant, key or cookie is made.
func TestStudyConsentForged(t *testing.T) {
	dir := t.TempDir()
	s := newStudyServer(t, dir, nil)
	clock := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	s.study.tokens.now = func() time.Time { return clock }
	ct, cookie := consentPage(t, s, "/study")
	other, _ := consentPage(t, s, "/study") // another visitor's page (their own cookie)
	wrongText, _ := ParseConsent("c.md", []byte(testConsent))
	forged := func(name string, form url.Values, c *http.Cookie, origin string) {
		t.Helper()
		r := httptest.NewRequest("POST", "/study/consent", strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		if c != nil {
			r.AddCookie(c)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		body := w.Body.String()
		if w.Code != http.StatusForbidden || hasCookie(w, studyCookie) || !strings.Contains(body, "Please read the text below and agree here") ||
			!strings.Contains(body, `action="/study/consent"`) || !strings.Contains(body, "How long the recordings are kept") {
			t.Errorf("%s: %d, cookies %v\n%s", name, w.Code, w.Result().Cookies(), body)
		}
		if keys := participantsIn(t, dir); len(keys) != 0 {
			t.Fatalf("%s made a participant: %v", name, keys)
		}
	}
	yes := func(ct string) url.Values { return url.Values{"consent": {"yes"}, "ct": {ct}} }
	forged("a sandboxed frame of another site", url.Values{"consent": {"yes"}}, nil, "null")
	forged("a token fetched by another client, without the page's cookie", yes(ct), nil, "null")
	forged("another page's token with this page's cookie", yes(other), cookie, "")
	forged("a token cut short", yes(ct[:len(ct)-2]), cookie, "")
	parts := strings.Split(ct, ".")
	forged("a token of another consent text", yes(parts[0]+"."+parts[1]+"."+s.study.tokens.mac(wrongText.SHA256, parts[0], parts[1])), cookie, "")
	forged("junk", yes("1.2.3"), cookie, "")
	clock = clock.Add(consentTokenAge + time.Minute)
	forged("a page a day old", yes(ct), cookie, "")
	clock = clock.Add(-consentTokenAge - time.Minute)
	// a restarted server (a new secret): the page open before is out of date
	s.Close()
	s2 := newStudyServer(t, dir, nil)
	s, s2 = s2, s
	forged("a page of the server before its restart", yes(ct), cookie, "")
	s2.Close()

	// the page's own form, Origin null (a form under no-referrer): taken
	ct, cookie = consentPage(t, s, "/study")
	r := httptest.NewRequest("POST", "/study/consent", strings.NewReader(yes(ct).Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Origin", "null")
	r.AddCookie(cookie)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusSeeOther || !hasCookie(w, studyCookie) || len(participantsIn(t, dir)) != 1 {
		t.Errorf("the study's own form: %d %v", w.Code, w.Result().Cookies())
	}
	// two tabs of the consent page share one cookie: both forms work
	s3 := newStudyServer(t, t.TempDir(), nil)
	ct1, c1 := consentPage(t, s3, "/study")
	r = httptest.NewRequest("GET", "/study", nil)
	r.AddCookie(c1)
	w = httptest.NewRecorder()
	s3.ServeHTTP(w, r)
	ct2 := ctPattern.FindStringSubmatch(w.Body.String())[1]
	for _, tok := range []string{ct2, ct1} {
		r := httptest.NewRequest("POST", "/study/consent", strings.NewReader(yes(tok).Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.AddCookie(c1)
		w := httptest.NewRecorder()
		s3.ServeHTTP(w, r)
		if w.Code != http.StatusSeeOther {
			t.Errorf("a second tab's form: %d", w.Code)
		}
	}
}

// TestStudyWithdrawUnreadBody: a withdrawal whose body cannot be read
// whole (too large and sent chunked, or not form encoding) withdraws no
// one (issue 36: the code in it went unread, and A's cookie with B's code
// withdrew A); a body too large by its length neither. The answers are
// HTML pages.
func TestStudyWithdrawUnreadBody(t *testing.T) {
	dir := t.TempDir()
	s := newStudyServer(t, dir, nil)
	a, b := consent(t, s), consent(t, s)
	for _, c := range []*http.Cookie{a, b} {
		if w := post(s, c, `{"events":[{"ev":"topic","topic":"`+map[bool]string{true: "T1", false: "T2"}[c == a]+`","seq":1,"t":0}]}`); w.Code != 200 {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	}
	// B's code, as A's phone would send it
	_, tokenB, _ := strings.Cut(b.Value, ".")
	codeB := withdrawalCode(tokenB)
	padded := "code=" + url.QueryEscape(codeB) + "&pad=" + strings.Repeat("x", 2000)
	for _, tc := range []struct {
		name   string
		body   string
		length int64 // -1: chunked
		status int
	}{
		{"B's code in a chunked body over 1 KB", padded, -1, http.StatusRequestEntityTooLarge},
		{"B's code in a body over 1 KB by its length", padded, int64(len(padded)), http.StatusRequestEntityTooLarge},
		{"a body that is no form encoding", "code=" + url.QueryEscape(codeB) + "&x=%zz", -1, http.StatusBadRequest},
	} {
		r := httptest.NewRequest("POST", "/study/withdraw", io.NopCloser(strings.NewReader(tc.body)))
		r.ContentLength = tc.length
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.AddCookie(a)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != tc.status || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") || !strings.Contains(w.Body.String(), "nothing was done") {
			t.Errorf("%s: %d %s\n%s", tc.name, w.Code, w.Header().Get("Content-Type"), w.Body)
		}
		for _, c := range []*http.Cookie{a, b} {
			p := participantID(c)
			if !exists(filepath.Join(dir, p+".json")) || !exists(filepath.Join(dir, p+".jsonl")) {
				t.Fatalf("%s: %s's files are gone", tc.name, p)
			}
		}
		if exists(filepath.Join(dir, tombstoneFile)) {
			t.Fatalf("%s: a tombstone was written", tc.name)
		}
	}
	// the same code in a body read whole withdraws B, not A
	r := httptest.NewRequest("POST", "/study/withdraw", strings.NewReader("code="+url.QueryEscape(codeB)))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.AddCookie(a)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != 200 || exists(filepath.Join(dir, participantID(b)+".json")) || !exists(filepath.Join(dir, participantID(a)+".json")) {
		t.Errorf("withdrawal by B's code from A's phone: %d; A's key there %v, B's %v", w.Code,
			exists(filepath.Join(dir, participantID(a)+".json")), exists(filepath.Join(dir, participantID(b)+".json")))
	}
}

// TestStudyRecruitment: the recruitment platform's ids in the study's
// address (--participant-param) ride the consent form and are kept in
// the key with the consent; other parameters are not kept; a damaged
// value or a parameter given twice shows no form and makes no one; the
// consent page says that the ids are kept. A participant who finishes is
// sent to the completion URL with their ids in it.
func TestStudyRecruitment(t *testing.T) {
	dir := t.TempDir()
	s := newStudyServer(t, dir, func(o *StudyOptions) {
		o.Params = []string{"PROLIFIC_PID", "STUDY_ID", "SESSION_ID"}
		o.Completion = "https://app.prolific.example/submissions/complete?cc=C0DE&pid={PROLIFIC_PID}"
		o.PerParticipant = 1
	})
	target := "/study?PROLIFIC_PID=5f1a2b3c4d5e6f7a8b9c0d1e&STUDY_ID=60aa&SESSION_ID=s-1.x&utm_source=mail"
	w := getWith(s, nil, target)
	body := w.Body.String()
	for _, want := range []string{`name="p.PROLIFIC_PID" value="5f1a2b3c4d5e6f7a8b9c0d1e"`, `name="p.SESSION_ID" value="s-1.x"`, `name="p.STUDY_ID" value="60aa"`,
		"the ids the recruitment platform gave you in the study's address (PROLIFIC_PID, STUDY_ID, SESSION_ID)"} {
		if !strings.Contains(body, want) {
			t.Errorf("the consent page lacks %q", want)
		}
	}
	if strings.Contains(body, "utm_source") {
		t.Error("a parameter not asked for rides the form")
	}
	ct, ck := consentPage(t, s, target)
	form := url.Values{"consent": {"yes"}, "ct": {ct}, "p.PROLIFIC_PID": {"5f1a2b3c4d5e6f7a8b9c0d1e"}, "p.STUDY_ID": {"60aa"}, "p.SESSION_ID": {"s-1.x"}, "p.OTHER": {"x"}}
	if len(form.Encode()) > maxBody {
		t.Fatalf("the largest form is %d bytes, over the %d of a study form", len(form.Encode()), maxBody)
	}
	r := httptest.NewRequest("POST", "/study/consent", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.AddCookie(ck)
	w = httptest.NewRecorder()
	s.ServeHTTP(w, r)
	var c *http.Cookie
	for _, k := range w.Result().Cookies() {
		if k.Name == studyCookie {
			c = k
		}
	}
	if w.Code != http.StatusSeeOther || c == nil {
		t.Fatalf("consent: %d", w.Code)
	}
	var key participantKey
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, participantID(c)+".json"))), &key); err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(key.Recruitment); string(got) != `{"PROLIFIC_PID":"5f1a2b3c4d5e6f7a8b9c0d1e","SESSION_ID":"s-1.x","STUDY_ID":"60aa"}` || key.Consented == "" {
		t.Errorf("the key's recruitment %s, consented %q", got, key.Consented)
	}
	// the recruitment ids are in the key alone: not in the audit log
	if strings.Contains(readFile(t, filepath.Join(dir, auditFile)), "5f1a2b3c") {
		t.Error("the audit log holds a recruitment id")
	}
	// damaged links: no form, no participant
	for _, bad := range []string{"/study?PROLIFIC_PID=a&PROLIFIC_PID=b", "/study?PROLIFIC_PID=%3Cscript%3E", "/study?STUDY_ID=" + strings.Repeat("a", 65), "/study?SESSION_ID=-1", "/study?SESSION_ID="} {
		w := getWith(s, nil, bad)
		if w.Code != 400 || strings.Contains(w.Body.String(), `action="/study/consent"`) || !strings.Contains(w.Body.String(), "The address you followed is damaged") {
			t.Errorf("%s: %d\n%s", bad, w.Code, w.Body)
		}
	}
	n := len(participantsIn(t, dir))
	ct, ck = consentPage(t, s, "/study")
	r = httptest.NewRequest("POST", "/study/consent", strings.NewReader("consent=yes&ct="+ct+"&p.STUDY_ID=a&p.STUDY_ID=b"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.AddCookie(ck)
	w = httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != 400 || len(participantsIn(t, dir)) != n || !strings.Contains(w.Body.String(), "STUDY_ID is given 2 times") {
		t.Errorf("a consent with a parameter twice: %d\n%s", w.Code, w.Body)
	}
	// without the parameters (a participant who came another way): taken,
	// nothing kept
	c2 := consent(t, s)
	if b := readFile(t, filepath.Join(dir, participantID(c2)+".json")); strings.Contains(b, "recruitment") {
		t.Errorf("a key without recruitment ids: %s", b)
	}
	// finished: the completion link, with the participant's id in it
	if w := post(s, c, `{"events":[{"ev":"topic","topic":"T1","seq":1,"t":0},{"ev":"done","topic":"T1","seq":2,"t":5,"outcome":"gave up"}]}`); w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	body = getWith(s, c, "/study").Body.String()
	if !strings.Contains(body, `data-url="https://app.prolific.example/submissions/complete?cc=C0DE&amp;pid=5f1a2b3c4d5e6f7a8b9c0d1e"`) || !strings.Contains(body, "go back to app.prolific.example") {
		t.Errorf("the finished page:\n%s", body)
	}
	if body := getWith(s, c2, "/study").Body.String(); strings.Contains(body, "st-complete") {
		t.Error("a participant with a topic left is sent to the completion link")
	}
}

// TestCheckParticipantParams: the flags' values, refused by name.
func TestCheckParticipantParams(t *testing.T) {
	for _, tc := range []struct {
		params []string
		url    string
		want   string
	}{
		{[]string{"PROLIFIC_PID", "STUDY_ID", "SESSION_ID"}, "https://app.prolific.com/submissions/complete?cc=ABC", ""},
		{[]string{"id"}, "http://sona.example/credit?id={id}&survey=7", ""},
		{[]string{"1st"}, "", `participant parameter "1st"`},
		{[]string{"a b"}, "", `participant parameter "a b"`},
		{[]string{"A", "A"}, "", "A given twice"},
		{[]string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}, "", "9 participant parameters: at most 8"},
		{[]string{strings.Repeat("a", 33)}, "", "a name is 1 to 32"},
		{nil, "ftp://example.org/done", "not an absolute http or https address"},
		{nil, "/done", "not an absolute http or https address"},
		{nil, "https://user:pw@example.org/", "not an absolute http or https address"},
		{nil, "https://example.org/?pid={PROLIFIC_PID}", "{PROLIFIC_PID} names no --participant-param"},
		{[]string{"A"}, "https://example.org/?x={A", "a brace outside"},
		{nil, "https://example.org/" + strings.Repeat("a", 2048), "at most 2048"},
	} {
		err := CheckParticipantParams(tc.params)
		if err == nil && tc.url != "" {
			err = CheckCompletionURL(tc.url, tc.params)
		}
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%v %q: %v, want %q", tc.params, tc.url, err, tc.want)
		}
	}
}

// TestStudyDuplicateKeys: an event or a batch with a field given twice is
// refused by the field's name (issue 33: the last value was taken).
func TestStudyDuplicateKeys(t *testing.T) {
	dir, s, c, p := newStudyParticipant(t)
	for _, tc := range []struct{ body, want string }{
		{`{"events":[{"ev":"topic","topic":"T1","seq":1,"t":0,"seq":2}]}`, `event 1: field "seq" given twice`},
		{`{"events":[{"ev":"topic","topic":"T1","seq":1,"t":0},{"ev":"query","topic":"T1","seq":2,"t":1,"q":"a","q":"a"}]}`, `event 2: field "q" given twice`},
		{`{"events":[{"ev":"topic","topic":"T1","seq":1,"t":0}],"events":[]}`, `field "events" given twice`},
		{`{"events":[{"ev":"open","topic":"T1","seq":1,"t":0,"passages":[[0,1]],"doc":"101","doc":"102"}]}`, `event 1: field "doc" given twice`},
	} {
		w := post(s, c, tc.body)
		var j struct{ Error string }
		json.Unmarshal(w.Body.Bytes(), &j)
		if w.Code != 400 || !strings.Contains(j.Error, tc.want) {
			t.Errorf("%s: %d %s, want 400 and %q", tc.body, w.Code, w.Body, tc.want)
		}
	}
	if exists(filepath.Join(dir, p+".jsonl")) {
		t.Error("a batch with a field given twice was written")
	}
}

// TestStudyCompletionURL: completionFor fills the placeholders,
// query-escaped, and leaves "" for a parameter the participant came
// without.
func TestStudyCompletionURL(t *testing.T) {
	got := completionFor("https://x.example/c?a={A}&b={B}", map[string]string{"A": "p.1"})
	if got != "https://x.example/c?a=p.1&b=" {
		t.Errorf("%q", got)
	}
}

// FuzzConsentToken: no form field but the server's own, with its page's
// cookie, is taken as a consent token; none panics.
func FuzzConsentToken(f *testing.F) {
	tokens := newConsentTokens()
	w := httptest.NewRecorder()
	good := tokens.issue(w, httptest.NewRequest("GET", "/study", nil), "abc", false)
	cookie := w.Result().Cookies()[0]
	f.Add(good)
	f.Add("1.2.3")
	f.Add(strings.Replace(good, ".", "..", 1))
	f.Fuzz(func(t *testing.T, ct string) {
		r := httptest.NewRequest("POST", "/study/consent", nil)
		r.AddCookie(cookie)
		if tokens.check(r, ct, "abc") && ct != good {
			t.Errorf("%q taken, it is not the page's %q", ct, good)
		}
	})
}

// FuzzParseBatch: any body is a batch or a refusal with a status and a
// message, never a panic; a body with a field given twice is refused, by
// the field's name.
func FuzzParseBatch(f *testing.F) {
	f.Add([]byte(goodBatch))
	f.Add([]byte(`{"events":[{"ev":"topic","topic":"T1","seq":1,"t":0,"seq":2}]}`))
	f.Add([]byte(`{"events":[{"ev":"topic"}],"events":[]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		evs, err := parseBatch(b)
		if err != nil {
			if err.status < 400 || err.msg == "" {
				t.Errorf("refusal %+v", err)
			}
			return
		}
		if len(evs) == 0 || len(evs) > MaxStudyBatchEvents {
			t.Errorf("%d events taken", len(evs))
		}
		if duplicateName(b) != nil {
			t.Errorf("a body with a field given twice taken: %q", b)
		}
	})
}
