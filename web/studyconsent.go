package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// A study's consent text (readsim serve --study DIR --consent FILE) is a
// plain-text or Markdown file that opens with its fields, one "Name: value"
// line each, up to the first blank line:
//
//	Title: How do people read on a phone?
//	Researcher: A. Example, Department of Information Studies
//	Contact: a.example@example.org
//	Ethics: University Research Ethics Committee, ref. REC-2026-042
//	Retention: recordings are kept until 31 December 2031, then deleted
//
//	Why the study is done, what taking part means, … (paragraphs)
//
// All five fields are required, each once; the text after them is the
// study's own explanation: paragraphs separated by blank lines, lines
// starting "- " or "* " a list, lines starting "#" a heading. Nothing else
// of Markdown is interpreted (text is shown as written, HTML escaped). The
// page then adds what readsim records and does not record, which the
// software fixes. Each participant's key records the time of consent and
// the SHA-256 of the file's bytes, and the server keeps a copy of the text
// in the study's folder as consent-<first 16 hex digits of the hash>.txt,
// so that every consent names the exact text agreed to. docs/study.md
// describes the format.
//
// The retention date (issue 36): a date written YYYY-MM-DD in the
// Retention field ("recordings are kept until 2031-12-31, then deleted")
// is the last day the recordings are kept, which participants read as
// written; readsim warns at start once it is past and `readsim study clear
// --expired` deletes the recordings of those who agreed to it. At most one
// such date; a date that is no day of the calendar is refused by line.

// Consent is a study's consent text.
type Consent struct {
	Title, Researcher, Contact, Ethics, Retention string
	// RetentionDate is the date in the Retention field (YYYY-MM-DD, UTC
	// midnight; zero: none given): the last day the recordings are kept.
	RetentionDate time.Time
	// Body is the explanation after the fields.
	Body []ConsentBlock
	// Text is the file as read; SHA256 its hash in hex.
	Text   []byte
	SHA256 string
}

// ConsentBlock is a paragraph ("p"), heading ("h") or list ("ul", Items)
// of a consent text.
type ConsentBlock struct {
	Kind  string
	Text  string
	Items []string
}

// maxConsentBytes bounds a consent file.
const maxConsentBytes = 64 << 10

// consentFields are the required fields, by their lower-case names.
var consentFields = []string{"title", "researcher", "contact", "ethics", "retention"}

// OpenConsent reads and parses a consent file (ParseConsent).
func OpenConsent(path string) (*Consent, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("--consent: %w", err)
	}
	if !st.Mode().IsRegular() || st.Size() > maxConsentBytes {
		return nil, fmt.Errorf("%s: not a consent text (a regular file of at most %d KiB)", path, maxConsentBytes>>10)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--consent: %w", err)
	}
	return ParseConsent(path, b)
}

// parseFields reads the opening fields of a consent text's lines (name
// names it in errors, which give the line) and returns the index of the
// line after them.
func (c *Consent) parseFields(name string, lines []string) (int, error) {
	bad := func(line int, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	seen := map[string]int{}
	i := 0
	for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
		k, v, ok := strings.Cut(lines[i], ":")
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		if !ok || v == "" {
			return 0, bad(i+1, "%q is not a field \"Name: value\" (the text opens with Title, Researcher, Contact, Ethics and Retention, then a blank line)", lines[i])
		}
		if prev, dup := seen[k]; dup {
			return 0, bad(i+1, "%s given again (first at line %d)", k, prev)
		}
		seen[k] = i + 1
		switch k {
		case "title":
			c.Title = v
		case "researcher":
			c.Researcher = v
		case "contact":
			c.Contact = v
		case "ethics":
			c.Ethics = v
		case "retention":
			c.Retention = v
			d, err := retentionDate(v)
			if err != nil {
				return 0, bad(i+1, "%v", err)
			}
			c.RetentionDate = d
		default:
			return 0, bad(i+1, "unknown field %q (Title, Researcher, Contact, Ethics, Retention)", k)
		}
	}
	var missing []string
	for _, f := range consentFields {
		if seen[f] == 0 {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		return 0, fmt.Errorf("%s: the consent text lacks %s (its opening lines: Title, Researcher, Contact, Ethics, Retention)", name, strings.Join(missing, ", "))
	}
	return i, nil
}

// ParseConsent parses the consent text b (name names it in errors, which
// give the line).
func ParseConsent(name string, b []byte) (*Consent, error) {
	if !utf8.Valid(b) {
		return nil, fmt.Errorf("%s: not UTF-8 text", name)
	}
	sum := sha256.Sum256(b)
	c := &Consent{Text: b, SHA256: hex.EncodeToString(sum[:])}
	lines := strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
	i, err := c.parseFields(name, lines)
	if err != nil {
		return nil, err
	}
	var para []string
	end := func() {
		if len(para) > 0 {
			c.Body = append(c.Body, ConsentBlock{Kind: "p", Text: strings.Join(para, " ")})
			para = nil
		}
	}
	for ; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		switch {
		case l == "":
			end()
		case strings.HasPrefix(l, "#"):
			end()
			c.Body = append(c.Body, ConsentBlock{Kind: "h", Text: strings.TrimSpace(strings.TrimLeft(l, "#"))})
		case strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "* "):
			end()
			if n := len(c.Body); n > 0 && c.Body[n-1].Kind == "ul" && strings.TrimSpace(lines[i-1]) != "" {
				c.Body[n-1].Items = append(c.Body[n-1].Items, strings.TrimSpace(l[2:]))
			} else {
				c.Body = append(c.Body, ConsentBlock{Kind: "ul", Items: []string{strings.TrimSpace(l[2:])}})
			}
		default:
			if n := len(c.Body); len(para) == 0 && n > 0 && c.Body[n-1].Kind == "ul" && strings.TrimSpace(lines[i-1]) != "" {
				// a list item's continued line
				it := &c.Body[n-1].Items[len(c.Body[n-1].Items)-1]
				*it += " " + l
				continue
			}
			para = append(para, l)
		}
	}
	end()
	return c, nil
}

// isoDate finds a date written YYYY-MM-DD (not inside a longer number).
var isoDate = regexp.MustCompile(`(^|[^0-9])([0-9]{4}-[0-9]{2}-[0-9]{2})($|[^0-9])`)

// retentionDate is the date of a Retention field (zero: none): at most
// one, a day of the calendar.
func retentionDate(v string) (time.Time, error) {
	ms := isoDate.FindAllStringSubmatch(v, -1)
	switch len(ms) {
	case 0:
		return time.Time{}, nil
	case 1:
	default:
		return time.Time{}, fmt.Errorf("retention gives %d dates (%s, %s…): give the last day the recordings are kept, once, as YYYY-MM-DD", len(ms), ms[0][2], ms[1][2])
	}
	d, err := time.Parse(time.DateOnly, ms[0][2])
	if err != nil {
		return time.Time{}, fmt.Errorf("retention date %s is not a day of the calendar (YYYY-MM-DD)", ms[0][2])
	}
	return d, nil
}

// Expired reports whether the retention date is past at now: the whole
// day is over (UTC). A text without a date never expires.
func (c *Consent) Expired(now time.Time) bool {
	return !c.RetentionDate.IsZero() && !now.UTC().Before(c.RetentionDate.AddDate(0, 0, 1))
}

// defaultConsent is the consent text of a study started without
// --consent: the fields say that none were given.
var defaultConsent = mustConsent("built-in consent", []byte(`Title: How do people read on a phone?
Researcher: the people running this server (readsim serve --consent FILE names them)
Contact: ask the people who gave you this address
Ethics: no ethics reference was given
Retention: until the people running the study delete it

This study measures how much of an article people read on a phone before they find what they look for. It helps check the simulated reader of readsim, a tool that evaluates search engines that point to passages.
`))

func mustConsent(name string, b []byte) *Consent {
	c, err := ParseConsent(name, b)
	if err != nil {
		panic(err)
	}
	return c
}

// consentCopy is the name of the copy of a consent text in the study's
// folder.
func consentCopy(c *Consent) string { return "consent-" + c.SHA256[:16] + ".txt" }

// withdrawalCode is the participant's withdrawal code, derived from their
// token (so the server can show it again whenever the cookie comes back,
// and stores only its hash): 12 characters of base32 (60 bits) in groups
// of four.
func withdrawalCode(token string) string {
	h := sha256.Sum256([]byte("readsim withdrawal code\x00" + token))
	s := base32.StdEncoding.EncodeToString(h[:])[:12]
	return s[:4] + "-" + s[4:8] + "-" + s[8:]
}

// normalCode is a withdrawal code as typed, normalised: upper case, no
// spaces or dashes; "" when it cannot be one.
func normalCode(s string) string {
	var b bytes.Buffer
	for _, r := range strings.ToUpper(s) {
		switch {
		case r == ' ' || r == '-':
		case r >= 'A' && r <= 'Z' || r >= '2' && r <= '7':
			b.WriteRune(r)
		default:
			return ""
		}
	}
	if b.Len() != 12 {
		return ""
	}
	return b.String()
}

// codeHash is the SHA-256 (hex) of a normalised withdrawal code.
func codeHash(code string) string {
	h := sha256.Sum256([]byte(normalCode(code)))
	return hex.EncodeToString(h[:])
}

// errNoCode is a withdrawal code of no participant.
var errNoCode = errors.New("no participant has this withdrawal code")
