package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Consent only through the study's own form (issue 36). A page of another
// site could post consent=yes to /study/consent (a sandboxed frame sends
// "Origin: null", which a form under Referrer-Policy: no-referrer sends
// too, so Origin cannot tell them apart) and make a visitor a participant
// who never saw the consent text. So the consent form carries a token
// bound to the page that showed the text:
//
//   - GET /study, showing the consent text, sets the cookie
//     readsim_consent = NONCE (16 random bytes, base64url; HttpOnly,
//     SameSite=Strict, Path=/study, 24 hours; a cookie already there with a
//     well-formed nonce is kept, so that two tabs of the page both work)
//     and writes the hidden field ct = ISSUED.NONCE.MAC, ISSUED the Unix
//     time of the page, MAC = HMAC-SHA256(the server's secret, the consent
//     text's SHA-256, ISSUED, NONCE).
//   - POST /study/consent takes a consent only when ct's MAC is the
//     server's for the consent text it serves now, ISSUED lies within the
//     last 24 hours, and the cookie holds ct's NONCE. A page of another
//     site can neither read ct nor send the SameSite=Strict cookie, and a
//     ct fetched by another client comes without the visitor's cookie.
//
// Decisions where the issue is silent: the secret is 32 random bytes made
// at each start and never written anywhere, so a restart (or a changed
// consent text) turns the consent pages open at that moment out of date:
// their Start shows the text again with a note, and the participant
// agrees once more. A refusal creates nothing.

// consentCookie carries the nonce of the consent page.
const consentCookie = "readsim_consent"

// consentTokenAge is how long a consent page's token is taken.
const consentTokenAge = 24 * time.Hour

// consentTokens issues and checks consent tokens under one secret.
type consentTokens struct {
	secret [32]byte
	now    func() time.Time
}

func newConsentTokens() *consentTokens {
	t := &consentTokens{now: time.Now}
	rand.Read(t.secret[:]) // crypto/rand never fails (Go 1.24+)
	return t
}

// mac is the token's MAC over the consent text's hash, the issue time and
// the nonce.
func (t *consentTokens) mac(consent, issued, nonce string) string {
	h := hmac.New(sha256.New, t.secret[:])
	h.Write([]byte("readsim consent\x00" + consent + "\x00" + issued + "\x00" + nonce))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

// validNonce reports whether s is a nonce as issue makes them.
func validNonce(s string) bool {
	if len(s) != 22 {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil && len(b) == 16
}

// issue returns the hidden field of a consent page for the consent text
// of hash consent, and sets the page's nonce cookie unless the request
// already has one.
func (t *consentTokens) issue(w http.ResponseWriter, r *http.Request, consent string, secure bool) string {
	nonce := ""
	if c, err := r.Cookie(consentCookie); err == nil && validNonce(c.Value) {
		nonce = c.Value
	} else {
		var b [16]byte
		rand.Read(b[:])
		nonce = base64.RawURLEncoding.EncodeToString(b[:])
	}
	http.SetCookie(w, &http.Cookie{Name: consentCookie, Value: nonce, Path: "/study", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: secure, MaxAge: int(consentTokenAge / time.Second)})
	issued := strconv.FormatInt(t.now().Unix(), 10)
	return issued + "." + nonce + "." + t.mac(consent, issued, nonce)
}

// check reports whether the form field ct, sent with the request's
// cookies, was issued by this server for the consent text of hash consent
// within consentTokenAge.
func (t *consentTokens) check(r *http.Request, ct, consent string) bool {
	issued, rest, ok := strings.Cut(ct, ".")
	nonce, mac, ok2 := strings.Cut(rest, ".")
	if !ok || !ok2 || len(ct) > 128 || !validNonce(nonce) {
		return false
	}
	at, err := strconv.ParseInt(issued, 10, 64)
	if err != nil || strconv.FormatInt(at, 10) != issued {
		return false
	}
	age := t.now().Sub(time.Unix(at, 0))
	if age < -time.Minute || age > consentTokenAge {
		return false
	}
	c, err := r.Cookie(consentCookie)
	if err != nil || subtle.ConstantTimeCompare([]byte(c.Value), []byte(nonce)) != 1 {
		return false
	}
	return hmac.Equal([]byte(mac), []byte(t.mac(consent, issued, nonce)))
}

// clearConsentCookie deletes the consent page's cookie (after a consent).
func clearConsentCookie(w http.ResponseWriter, secure bool) {
	http.SetCookie(w, &http.Cookie{Name: consentCookie, Value: "", Path: "/study", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: secure, MaxAge: -1})
}
