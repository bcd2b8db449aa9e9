package web

import (
	"errors"
	"math"
	"strconv"
	"unicode/utf8"
)

// The search API's answer is written by hand: encoding/json, through a map
// and each span's MarshalJSON (which it then checks and compacts), took a
// tenth of a search's time (docs/performance.md). The bytes are those
// encoding/json writes for map[string]any{"query": q, "hits": hits}:
// TestSearchJSON and FuzzSearchJSON compare the two.

// errNotFinite is a score encoding/json cannot write (NaN, ±Inf).
var errNotFinite = errors.New("web: a score is not a finite number")

// appendSearchJSON appends {"hits":[…],"query":q} to b.
func appendSearchJSON(b []byte, q string, hits []Hit) ([]byte, error) {
	b = append(b, `{"hits":`...)
	if hits == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range hits {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendHitJSON(b, &hits[i]); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	b = append(b, `,"query":`...)
	b = appendJSONString(b, q)
	return append(b, '}'), nil
}

// appendHitJSON appends one hit as encoding/json writes a Hit.
func appendHitJSON(b []byte, h *Hit) ([]byte, error) {
	b = append(b, `{"rank":`...)
	b = strconv.AppendInt(b, int64(h.Rank), 10)
	b = append(b, `,"id":`...)
	b = appendJSONString(b, h.ID)
	b = append(b, `,"title":`...)
	b = appendJSONString(b, h.Title)
	b = append(b, `,"snippet":`...)
	b = appendJSONString(b, h.Snippet)
	b = append(b, `,"score":`...)
	var err error
	if b, err = appendJSONFloat(b, h.Score); err != nil {
		return nil, err
	}
	b = append(b, `,"passages":`...)
	if h.Passages == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, p := range h.Passages {
			if i > 0 {
				b = append(b, ',')
			}
			// effort.Span's MarshalJSON
			b = append(b, `{"offset":`...)
			b = strconv.AppendInt(b, int64(p.Start), 10)
			b = append(b, `,"length":`...)
			b = strconv.AppendInt(b, int64(p.Len()), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if h.Lang != "" {
		b = append(b, `,"lang":`...)
		b = appendJSONString(b, h.Lang)
	}
	if h.Lead {
		b = append(b, `,"lead":true`...)
	}
	return append(b, '}'), nil
}

// appendJSONFloat appends f as encoding/json writes a float64: the
// shortest decimal that reads back as f, in exponent form below 1e-6 and
// from 1e21, with a one-digit negative exponent written without its zero.
func appendJSONFloat(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, errNotFinite
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// 1e-07 → 1e-7
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// appendJSONString appends s quoted as encoding/json quotes a string: ",
// \ and the control characters escaped (\b \f \n \r \t by name), <, > and &
// as \u003c \u003e \u0026, U+2028 and U+2029 escaped, and each byte that
// is not UTF-8 as \ufffd.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += n
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += n
			start = i
			continue
		}
		i += n
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
