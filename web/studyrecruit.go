package web

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
)

// Participants recruited on a platform (issue 36): Prolific, MTurk or SONA
// send each participant to the study's address with their ids in its query
// (/study?PROLIFIC_PID=…&STUDY_ID=…&SESSION_ID=…) and expect them back at a
// completion link when they have finished.
//
//   - StudyOptions.Params (readsim serve --participant-param NAME,
//     repeatable) names the query parameters to keep. The consent page
//     carries their values in hidden fields ("p." and the name); a consent
//     stores them in the participant's key ("recruitment"), beside the
//     time of consent. Other parameters are ignored.
//   - StudyOptions.Completion (--completion-url URL) is where a participant
//     who finished every topic is sent: the finished page links to it and
//     the recorder goes there once the last batch is recorded. {NAME} in
//     the URL is replaced by the participant's value of parameter NAME
//     (query-escaped; "" when the participant came without it).
//
// Decisions where the issue is silent: at most maxParams parameters, names
// of 1 to 32 letters, digits and underscores starting with a letter;
// a value is 1 to 64 letters, digits, '_', '.' and '-', not starting with
// '.' or '-' (platform ids are hex or alphanumeric; no value can then be
// read as a spreadsheet formula in participants.csv, nor push the consent
// form past the server's 1 KB form bound). A parameter given twice or with
// another value is refused on the consent page, naming it, and no form is
// shown (the link is damaged: take it again from the platform). A
// parameter missing from the address is allowed (a participant who came
// without the platform) and simply not stored.

// Bounds of recruitment parameters.
const (
	maxParams     = 8
	maxParamValue = 64
	// maxCompletionURL is the longest completion URL, in bytes.
	maxCompletionURL = 2048
)

var (
	paramNamePattern  = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,31}$`)
	paramValuePattern = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$`)
	placeholder       = regexp.MustCompile(`\{([^{}]*)\}`)
)

// CheckParticipantParams checks the names of readsim serve
// --participant-param: each a name of letters, digits and underscores (1
// to 32, starting with a letter), none twice, at most 8.
func CheckParticipantParams(names []string) error {
	if len(names) > maxParams {
		return fmt.Errorf("%d participant parameters: at most %d", len(names), maxParams)
	}
	seen := map[string]bool{}
	for _, n := range names {
		if !paramNamePattern.MatchString(n) {
			return fmt.Errorf("participant parameter %q: a name is 1 to 32 letters, digits and underscores, starting with a letter (PROLIFIC_PID)", n)
		}
		if seen[n] {
			return fmt.Errorf("participant parameter %s given twice", n)
		}
		seen[n] = true
	}
	return nil
}

// CheckCompletionURL checks readsim serve --completion-url: an absolute
// http or https address of at most 2,048 bytes whose {NAME} placeholders
// name participant parameters (params).
func CheckCompletionURL(u string, params []string) error {
	if len(u) > maxCompletionURL {
		return fmt.Errorf("completion URL of %d bytes: at most %d", len(u), maxCompletionURL)
	}
	known := map[string]bool{}
	for _, p := range params {
		known[p] = true
	}
	for _, m := range placeholder.FindAllStringSubmatch(u, -1) {
		if !known[m[1]] {
			return fmt.Errorf("completion URL %q: {%s} names no --participant-param", u, m[1])
		}
	}
	plain := placeholder.ReplaceAllString(u, "x")
	if strings.ContainsAny(plain, "{}") {
		return fmt.Errorf("completion URL %q: a brace outside a {NAME} placeholder", u)
	}
	p, err := url.Parse(plain)
	if err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" || p.User != nil {
		return fmt.Errorf("completion URL %q: not an absolute http or https address (https://app.prolific.com/submissions/complete?cc=CODE)", u)
	}
	return nil
}

// completionFor is the completion URL for a participant with the
// recruitment values vals.
func completionFor(tmpl string, vals map[string]string) string {
	return placeholder.ReplaceAllStringFunc(tmpl, func(m string) string {
		return url.QueryEscape(vals[m[1:len(m)-1]])
	})
}

// errBadParam is a recruitment parameter that is not one.
var errBadParam = errors.New("bad recruitment parameter")

// recruitment returns the values of the parameters names in form (each
// under prefix and its name): the ones given, checked. Its error names the
// parameter at fault.
func recruitment(form url.Values, prefix string, names []string) (map[string]string, error) {
	vals := map[string]string{}
	for _, n := range names {
		vs, ok := form[prefix+n]
		if !ok {
			continue
		}
		if len(vs) != 1 {
			return nil, fmt.Errorf("%w: %s is given %d times", errBadParam, n, len(vs))
		}
		if !paramValuePattern.MatchString(vs[0]) {
			return nil, fmt.Errorf("%w: %s is not an id of 1 to %d letters, digits, '_', '.' and '-'", errBadParam, n, maxParamValue)
		}
		vals[n] = vs[0]
	}
	return vals, nil
}

// paramField is a hidden field of the consent form.
type paramField struct{ Name, Value string }

// paramFields are the hidden fields carrying vals, in order of name.
func paramFields(vals map[string]string) []paramField {
	var out []paramField
	for n, v := range vals {
		out = append(out, paramField{"p." + n, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
