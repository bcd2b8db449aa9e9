package web

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The study mode (issue 16): real people read on their phones and the
// prototype records what was on their screen, in the simulated reader's
// trace schema, so that readsim eval --readings and readsim calibrate score
// and fit the simulation to them.
//
//	GET  /study          the study explained and a consent form; for a
//	                     participant, their current topic (title and
//	                     description) with a search form, or the end
//	POST /study/consent  consent=yes with the consent page's token: a new
//	                     participant (a random id and token, a cookie),
//	                     then /study
//	POST /study/events   a batch of events (studyevents.go) from the page
//	POST /study/withdraw deletes the participant's recording and key (code=:
//	                     the withdrawal code's participant, else the
//	                     cookie's) and leaves a tombstone
//
// The participant's pages (/, /search, /article/…) load /static/study.js,
// which records in the page's own local storage and sends batches: the
// query of each result list, each article opened (its rank in the list
// seen, the passages shown), the characters on screen as they scroll
// (render's data-o offsets: the reading order is a list of character
// positions), the arrows followed, and "found it" / "give up" per topic,
// each with its time in milliseconds since the session started.
//
// Decisions where the issue is silent:
//   - Authentication: the token (32 random bytes, base64url) lives in a
//     cookie "readsim_study" = "ID.TOKEN", HttpOnly, SameSite=Strict, 7
//     days (Secure over https, see requestScheme); the server keeps only
//     its SHA-256, in the participant's key file, so a restarted server
//     still accepts the participant. No name, IP address or user agent is stored or logged
//     (the rate limiter's buckets live in memory for seconds).
//   - Consent on record (issue 26): the key holds the time of consent and
//     the SHA-256 of the consent text agreed to (a copy of which is kept in
//     the folder), and the SHA-256 of the participant's withdrawal code,
//     which the pages show (it derives from the token) so that the
//     participant can withdraw from any phone, cookie or not. A withdrawal
//     appends a tombstone to withdrawn.jsonl before deleting anything.
//   - POSTs with an Origin header naming another origin (scheme or host)
//     are refused (403). The server's scheme is https over TLS, http
//     otherwise, or what X-Forwarded-Proto says (the first value, http or
//     https) when a trusted reverse proxy (--trusted-proxy) that
//     terminates TLS sets it: behind such a proxy the server sees plain
//     HTTP while the pages are https; from any other peer the header is
//     not believed (issue 36). The cookie is Secure under the same rule.
//     A form POST under Referrer-Policy: no-referrer carries "Origin:
//     null", which is accepted: for the withdrawal and the events, the
//     SameSite=Strict cookie is what keeps other sites out; a consent,
//     which comes before any cookie, needs the consent page's token
//     (studytoken.go). Events must be sent as application/json, which a
//     page of another site cannot do without a CORS preflight either. A
//     form whose body cannot be read whole is refused before anything is
//     done (a withdrawal code in it would go unread).
//   - Consents are not rate-limited beyond the server's per-address limit
//     (limit.go): a flood of consents can create participants
//     (one key file each) until MaxParticipants, after which consent is
//     answered 503. A participant without a recording holds no data; the
//     people running the study can delete such keys.
//   - Topics are assigned round robin: participant k (in order of
//     consent, counted over the study's life: rotation.json keeps the
//     count across restarts and withdrawals) gets topics k, k+1, … (mod
//     the topics), PerParticipant of them, in that order; a topic is
//     current until its done event.
//   - Refusals: no cookie 401; a cookie of no participant (or withdrawn)
//     or a foreign Origin 403; not JSON 415; a batch over
//     MaxStudyBatchBytes or MaxStudyBatchEvents, or a recording that would
//     pass MaxRecordingBytes, 413; a seq already recorded 409 (with the
//     last seq written, so that the page drops what is already recorded);
//     any other invalid event 400 (with its index), a seq going back
//     within the batch too: the page drops a batch refused with 400 (it
//     cannot succeed again) and keeps the rest of its queue. A refused
//     batch writes nothing.

// StudyTopic is a topic of the study as participants see it.
type StudyTopic struct {
	ID, Title, Description string
}

// StudyOptions turn on the study mode.
type StudyOptions struct {
	// Dir holds the recordings and the participants' keys (created if
	// missing, mode 0700).
	Dir string
	// Topics are the topics to assign.
	Topics []StudyTopic
	// PerParticipant is how many topics each participant gets (default 3,
	// at most len(Topics)).
	PerParticipant int
	// MaxParticipants bounds the participants (default 1000); past it a
	// consent is answered "the study is full" (503).
	MaxParticipants int
	// MaxRecordingBytes bounds a participant's recording (default 8 MiB).
	MaxRecordingBytes int64
	// Consent is the study's consent text (studyconsent.go; nil: a
	// built-in text whose fields say that none were given).
	Consent *Consent
	// Params are the recruitment platform's query parameters kept with a
	// consent (studyrecruit.go); Completion the URL a participant who
	// finished every topic is sent to ("" none; {NAME} placeholders).
	Params     []string
	Completion string
}

func (o *StudyOptions) check() error {
	if o.Dir == "" {
		return errors.New("web: the study has no folder")
	}
	if len(o.Topics) == 0 {
		return errors.New("web: the study has no topics")
	}
	for _, t := range o.Topics {
		if t.ID == "" || len(t.ID) > 128 || strings.ContainsFunc(t.ID, isSpaceOrControl) {
			return fmt.Errorf("web: study topic id %q is empty, too long or holds white space", t.ID)
		}
	}
	if o.PerParticipant <= 0 {
		o.PerParticipant = 3
	}
	o.PerParticipant = min(o.PerParticipant, len(o.Topics))
	if o.MaxParticipants <= 0 {
		o.MaxParticipants = 1000
	}
	if o.MaxRecordingBytes <= 0 {
		o.MaxRecordingBytes = 8 << 20
	}
	if o.Consent == nil {
		o.Consent = defaultConsent
	}
	if err := CheckParticipantParams(o.Params); err != nil {
		return fmt.Errorf("web: %w", err)
	}
	if o.Completion != "" {
		if err := CheckCompletionURL(o.Completion, o.Params); err != nil {
			return fmt.Errorf("web: %w", err)
		}
	}
	return nil
}

// DefaultConsent reports whether c is the built-in consent text (or nil,
// which stands for it).
func DefaultConsent(c *Consent) bool { return c == nil || c == defaultConsent }

func isSpaceOrControl(r rune) bool { return r <= ' ' || r == 0x7f }

// studyScript is the study's recorder, loaded by a participant's pages.
const studyScript = "/static/study.js"

// studyCookie is the participant's cookie.
const studyCookie = "readsim_study"

// studyCookieAge is how long a participant's cookie lasts.
const studyCookieAge = 7 * 24 * time.Hour

// participantOf returns the request's participant, or nil.
func (s *Server) participantOf(r *http.Request) *participant {
	if s.study == nil {
		return nil
	}
	c, err := r.Cookie(studyCookie)
	if err != nil {
		return nil
	}
	return s.study.authenticate(c.Value)
}

// inStudy reports whether the request comes from a participant: their
// pages load the study script.
func (s *Server) inStudy(r *http.Request) bool { return s.participantOf(r) != nil }

func (s *Server) setStudyCookie(w http.ResponseWriter, r *http.Request, value string, age time.Duration) {
	c := &http.Cookie{Name: studyCookie, Value: value, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: s.scheme(r) == "https"}
	if age > 0 {
		c.MaxAge = int(age / time.Second)
	} else {
		c.MaxAge = -1
	}
	http.SetCookie(w, c)
}

// scheme is the scheme the client used: X-Forwarded-Proto's first value
// (http or https) when a trusted proxy (Options.TrustedProxies) set it,
// else https over TLS, else http. From any other peer the header is not
// believed (issue 36): a client could otherwise turn the cookie Secure
// over plain http, or pass the Origin check with an https Origin.
func (s *Server) scheme(r *http.Request) string {
	return requestScheme(r, s.opt.TrustedProxies)
}

// requestScheme is Server.scheme with the trusted proxies given.
func requestScheme(r *http.Request, trusted []*net.IPNet) string {
	if p := r.Header.Get("X-Forwarded-Proto"); p != "" && fromTrustedProxy(r, trusted) {
		first, _, _ := strings.Cut(p, ",")
		if first = strings.ToLower(strings.TrimSpace(first)); first == "http" || first == "https" {
			return first
		}
	}
	if r.TLS != nil {
		return "https"
	}
	return "http"
}

// fromTrustedProxy reports whether the request's peer is one of trusted.
func fromTrustedProxy(r *http.Request, trusted []*net.IPNet) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return inNets(net.ParseIP(host), trusted)
}

// foreignOrigin reports whether the request's Origin names another origin:
// another host, or another scheme than the request's (Server.scheme).
func (s *Server) foreignOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" || o == "null" {
		return false
	}
	u, err := url.Parse(o)
	return err != nil || !strings.EqualFold(u.Host, r.Host) || !strings.EqualFold(u.Scheme, s.scheme(r))
}

// studyTopic returns the server's description of topic id.
func (s *Server) studyTopic(id string) StudyTopic {
	for _, t := range s.opt.Study.Topics {
		if t.ID == id {
			return t
		}
	}
	return StudyTopic{ID: id, Title: id}
}

// codeOf is the withdrawal code of the request's participant (their
// cookie holds the token it derives from), or "".
func codeOf(r *http.Request) string {
	c, err := r.Cookie(studyCookie)
	if err != nil {
		return ""
	}
	_, token, _ := strings.Cut(c.Value, ".")
	return withdrawalCode(token)
}

// studyPage renders the study page in one of its states. The consent
// page's form gets its token (studytoken.go) and the recruitment ids of
// data["Recruitment"] in hidden fields.
func (s *Server) studyPage(w http.ResponseWriter, r *http.Request, status int, data map[string]any) {
	w.Header().Set("Cache-Control", "no-store")
	data["Title"] = "Reading study – readsim"
	data["Topics"] = s.opt.Study.PerParticipant
	data["Consent"] = s.opt.Study.Consent
	data["Params"] = s.opt.Study.Params
	if data["State"] == "consent" && data["NoForm"] == nil {
		data["Token"] = s.study.tokens.issue(w, r, s.opt.Study.Consent.SHA256, s.scheme(r) == "https")
		if rec, ok := data["Recruitment"].(map[string]string); ok {
			data["Hidden"] = paramFields(rec)
		}
	}
	s.render(w, r, status, s.pages.study, data)
}

// handleStudy serves GET /study.
func (s *Server) handleStudy(w http.ResponseWriter, r *http.Request) {
	if s.study == nil {
		s.errorPage(w, r, http.StatusNotFound, "This server runs no reading study (readsim serve --study DIR starts one).")
		return
	}
	p := s.participantOf(r)
	if p == nil {
		if _, err := r.Cookie(studyCookie); err == nil {
			s.setStudyCookie(w, r, "", 0) // a cookie of no participant
		}
		rec, err := recruitment(r.URL.Query(), "", s.opt.Study.Params)
		if err != nil {
			s.studyPage(w, r, http.StatusBadRequest, map[string]any{"State": "consent", "NoForm": true,
				"Message": "The address you followed is damaged (" + strings.TrimPrefix(err.Error(), errBadParam.Error()+": ") + "): please follow the study's link again from where you found it."})
			return
		}
		s.studyPage(w, r, http.StatusOK, map[string]any{"State": "consent", "Recruitment": rec})
		return
	}
	p.mu.Lock()
	err := s.study.load(p)
	st := p.st
	var current string
	index := 0
	for i, t := range p.topics {
		if !st.done[t] {
			current, index = t, i+1
			break
		}
	}
	p.mu.Unlock()
	if err != nil {
		s.errorPage(w, r, http.StatusInternalServerError, "Your recording cannot be read back. Please tell the people running the study.")
		return
	}
	data := map[string]any{"State": "finished", "Participant": p.id, "Seq": st.seq, "T": st.t, "Total": len(p.topics), "Study": true, "Code": codeOf(r)}
	if current != "" {
		data["State"] = "topic"
		data["Topic"] = s.studyTopic(current)
		data["Index"] = index
	} else if s.opt.Study.Completion != "" {
		u := completionFor(s.opt.Study.Completion, p.recruitment)
		data["Completion"] = u
		if pu, err := url.Parse(u); err == nil {
			data["CompletionHost"] = pu.Host
		}
	}
	s.studyPage(w, r, http.StatusOK, data)
}

// studyForm checks a form posted to the study (consent, withdrawal): the
// server runs a study (else 404), the form comes from the study's own
// page (else 403) and its body parses (else 400: nothing is done on a
// form that was not read whole, issue 36). It answers the refusals itself
// and reports whether the handler goes on.
func (s *Server) studyForm(w http.ResponseWriter, r *http.Request) bool {
	if s.study == nil {
		s.errorPage(w, r, http.StatusNotFound, "This server runs no reading study.")
		return false
	}
	if s.foreignOrigin(r) {
		s.errorPage(w, r, http.StatusForbidden, "This form can only be sent from the study's own page.")
		return false
	}
	if err := r.ParseForm(); err != nil {
		status := http.StatusBadRequest
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			status = http.StatusRequestEntityTooLarge
		}
		s.errorPage(w, r, status, "The form could not be read: nothing was done. Please go back to the study's page and try again.")
		return false
	}
	return true
}

// handleConsent serves POST /study/consent: a new participant when the
// form is the study's own (its token, studytoken.go), consent=yes is
// ticked and the recruitment ids are well formed; else the consent page
// again, with a note, and nothing created.
func (s *Server) handleConsent(w http.ResponseWriter, r *http.Request) {
	if !s.studyForm(w, r) {
		return
	}
	if s.participantOf(r) != nil {
		http.Redirect(w, r, "/study", http.StatusSeeOther)
		return
	}
	rec, err := recruitment(r.PostForm, "p.", s.opt.Study.Params)
	if err != nil {
		s.studyPage(w, r, http.StatusBadRequest, map[string]any{"State": "consent", "NoForm": true,
			"Message": "The address you followed is damaged (" + strings.TrimPrefix(err.Error(), errBadParam.Error()+": ") + "): please follow the study's link again from where you found it."})
		return
	}
	again := map[string]any{"State": "consent", "Recruitment": rec}
	if !s.study.tokens.check(r, r.PostForm.Get("ct"), s.opt.Study.Consent.SHA256) {
		again["Message"] = "Please read the text below and agree here: this page was out of date (or did not come from the study)."
		s.studyPage(w, r, http.StatusForbidden, again)
		return
	}
	if r.PostForm.Get("consent") != "yes" {
		again["Message"] = "To take part, tick “I agree” and press Start."
		s.studyPage(w, r, http.StatusBadRequest, again)
		return
	}
	p, token, err := s.study.newParticipant(rec)
	if errors.Is(err, errStudyFull) {
		s.errorPage(w, r, http.StatusServiceUnavailable, "The study is full: thank you for your interest.")
		return
	}
	if err != nil {
		s.opt.Logf("web: study: a new participant: %v", err)
		s.errorPage(w, r, http.StatusInternalServerError, "The study cannot take a new participant now.")
		return
	}
	clearConsentCookie(w, s.scheme(r) == "https")
	s.setStudyCookie(w, r, p.id+"."+token, studyCookieAge)
	http.Redirect(w, r, "/study", http.StatusSeeOther)
}

// handleWithdraw serves POST /study/withdraw.
func (s *Server) handleWithdraw(w http.ResponseWriter, r *http.Request) {
	if !s.studyForm(w, r) {
		return
	}
	// a withdrawal code names the participant withdrawn (from any phone,
	// whoever its cookie names); without one, the cookie does
	own := s.participantOf(r)
	p, by := own, "cookie"
	if code := r.PostForm.Get("code"); code != "" {
		if p, by = s.study.byCode(code), "code"; p == nil {
			s.studyPage(w, r, http.StatusNotFound, map[string]any{"State": "withdrawn", "Nothing": true, "BadCode": true, "Study": true})
			return
		}
	}
	if p == nil {
		s.setStudyCookie(w, r, "", 0)
		s.studyPage(w, r, http.StatusOK, map[string]any{"State": "withdrawn", "Nothing": true, "Study": true})
		return
	}
	err := s.study.withdraw(p, by)
	if err != nil && !errors.Is(err, errDeleteFailed) {
		s.opt.Logf("web: study: withdrawing %s: %v", p.id, err)
		s.errorPage(w, r, http.StatusInternalServerError, "Your withdrawal could not be recorded. Please try again, or tell the people running the study.")
		return
	}
	data := map[string]any{"State": "withdrawn", "Participant": p.id, "Study": true, "Pending": err != nil}
	if p == own {
		s.setStudyCookie(w, r, "", 0)
	} else if own != nil {
		data["Keep"] = true // the phone's own participant goes on recording
	}
	s.studyPage(w, r, http.StatusOK, data)
}

// studyFormPath reports whether r posts one of the study's forms (consent,
// withdrawal), whose refusals are the study's HTML pages.
func (s *Server) studyFormPath(r *http.Request) bool {
	return s.study != nil && r.Method == http.MethodPost && (r.URL.Path == "/study/consent" || r.URL.Path == "/study/withdraw")
}

// studyBusy answers a study form refused by the rate limit: for a
// consent, the consent page again (its form sends the consent anew), for
// a withdrawal the site's page; both say that many people are arriving and
// to press the button again in a moment (429, Retry-After).
func (s *Server) studyBusy(w http.ResponseWriter, r *http.Request) {
	const msg = "Many people are taking part at once: nothing was done yet. Please press the button again in a moment."
	if r.URL.Path == "/study/consent" {
		// the recruitment ids go on to the page again
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		var rec map[string]string
		if r.ParseForm() == nil {
			rec, _ = recruitment(r.PostForm, "p.", s.opt.Study.Params)
		}
		w.Header().Set("Retry-After", "1")
		s.studyPage(w, r, http.StatusTooManyRequests, map[string]any{"State": "consent", "Message": msg, "Recruitment": rec})
		return
	}
	s.errorPage(w, r, http.StatusTooManyRequests, msg)
}

// Close ends the server's use of the study's folder: the stop is logged
// in its audit log and the folder's lock let go. Without a study it does
// nothing; a second call neither.
func (s *Server) Close() error {
	if s.study == nil {
		return nil
	}
	return s.study.close()
}

// handleStudyEvents serves POST /study/events: a batch is checked whole,
// then written with one append and fsync, or refused and nothing written.
func (s *Server) handleStudyEvents(w http.ResponseWriter, r *http.Request) {
	if s.study == nil {
		jsonError(w, http.StatusNotFound, "this server runs no reading study")
		return
	}
	if s.foreignOrigin(r) {
		jsonError(w, http.StatusForbidden, "events are taken from the study's own pages only")
		return
	}
	if _, err := r.Cookie(studyCookie); err != nil {
		jsonError(w, http.StatusUnauthorized, "no participant token: consent at /study first")
		return
	}
	p := s.participantOf(r)
	if p == nil {
		jsonError(w, http.StatusForbidden, "not a participant of this study (withdrawn, or a wrong token)")
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		jsonError(w, http.StatusUnsupportedMediaType, "events are sent as application/json")
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			jsonError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("a batch is at most %d bytes", MaxStudyBatchBytes))
			return
		}
		jsonError(w, http.StatusBadRequest, "the batch could not be read")
		return
	}
	evs, berr := parseBatch(body)
	if berr != nil {
		batchRefused(w, berr, 0)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gone {
		jsonError(w, http.StatusForbidden, "not a participant of this study (withdrawn)")
		return
	}
	if err := s.study.load(p); err != nil {
		jsonError(w, http.StatusInternalServerError, "this participant's recording cannot be read back")
		return
	}
	st := p.st.clone()
	var lines []byte
	for i := range evs {
		e, berr := st.check(i, &evs[i], p.assigned, s.articleLength)
		if berr != nil {
			batchRefused(w, berr, p.st.seq)
			return
		}
		lines = e.AppendLine(lines, p.id)
	}
	if p.st.size+int64(len(lines)) > s.opt.Study.MaxRecordingBytes {
		jsonError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the recording is full (%d bytes at most)", s.opt.Study.MaxRecordingBytes))
		return
	}
	if err := s.study.appendBatch(p, lines); err != nil {
		s.opt.Logf("web: study: writing %s: %v", p.id, err)
		jsonError(w, http.StatusInternalServerError, "the batch could not be written")
		return
	}
	st.size = p.st.size + int64(len(lines))
	p.st = st
	writeJSON(w, http.StatusOK, map[string]any{"seq": st.seq, "t": st.t, "written": len(evs)})
}

// batchRefused answers a refused batch: the event at fault and, for a seq
// that replays, the last seq written.
func batchRefused(w http.ResponseWriter, e *batchError, last int64) {
	body := map[string]any{"error": e.Error()}
	if e.event >= 0 {
		body["event"] = e.event
	}
	if e.status == http.StatusConflict {
		body["seq"] = last
	}
	writeJSON(w, e.status, body)
}

// articleLength is the article's length in characters, if the server has it.
func (s *Server) articleLength(doc string) (int, bool) {
	if !validID(doc) || !s.opt.Pages.Has(doc) {
		return 0, false
	}
	info, err := s.opt.Pages.Info(doc)
	if err != nil {
		return 0, false
	}
	return info.Length, true
}
