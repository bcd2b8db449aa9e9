package effort

import (
	"errors"
	"strconv"
	"strings"
)

// ParseSpan reads a span written OFFSET:LENGTH (readsim render --passage,
// the web view's ?p=): two decimal integers of ASCII digits only (no sign,
// no space), the offset at least 0 and the length at least 1, each at most
// limit. The error says what is wrong ("no colon", "negative offset", "the
// length is not a number", "the offset is too large", "the length must be
// at least 1"), for the caller to name the text and the flag.
func ParseSpan(s string, limit int) (Span, error) {
	o, l, ok := strings.Cut(s, ":")
	if !ok {
		return Span{}, errors.New("no colon")
	}
	off, err := spanNumber(o, "offset", limit)
	if err != nil {
		return Span{}, err
	}
	n, err := spanNumber(l, "length", limit)
	if err != nil {
		return Span{}, err
	}
	if n == 0 {
		return Span{}, errors.New("the length must be at least 1")
	}
	return Span{Start: off, End: off + n}, nil
}

// spanNumber reads the offset or the length (what) of ParseSpan.
func spanNumber(x, what string, limit int) (int, error) {
	if strings.HasPrefix(x, "-") {
		return 0, errors.New("negative " + what)
	}
	if x == "" || strings.Trim(x, "0123456789") != "" {
		return 0, errors.New("the " + what + " is not a number")
	}
	v, err := strconv.Atoi(x)
	if err != nil || v > limit {
		return 0, errors.New("the " + what + " is too large")
	}
	return v, nil
}
