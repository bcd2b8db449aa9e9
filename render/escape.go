package render

import (
	"unicode/utf8"
)

// appendText appends s escaped as XML character data. Characters XML cannot
// carry (most C0 controls, U+FFFE, U+FFFF, invalid UTF-8 bytes) become
// U+FFFD, one for one; CR becomes &#13; so that it is not normalised away.
func appendText(dst []byte, s string) []byte { return appendEscaped(dst, s, false) }

// appendAttr appends s escaped for a double-quoted attribute value; tab and
// line ends are written as character references, which attribute-value
// normalisation keeps.
func appendAttr(dst []byte, s string) []byte { return appendEscaped(dst, s, true) }

// appendEscaped is appendText, or appendAttr when attr is true.
func appendEscaped(dst []byte, s string, attr bool) []byte {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < utf8.RuneSelf && c != '<' && c != '>' && c != '&' && c != '"' {
			i++
			continue
		}
		var rep string
		size, attrOnly := 1, false // attrOnly: escaped in attribute values only
		switch {
		case c == '<':
			rep = "&lt;"
		case c == '>':
			rep = "&gt;"
		case c == '&':
			rep = "&amp;"
		case c == '"':
			rep, attrOnly = "&quot;", true
		case c == '\r':
			rep = "&#13;"
		case c == '\n':
			rep, attrOnly = "&#10;", true
		case c == '\t':
			rep, attrOnly = "&#9;", true
		case c < 0x20:
			rep = "\uFFFD"
		default:
			var ru rune
			ru, size = utf8.DecodeRuneInString(s[i:])
			if (ru != utf8.RuneError || size > 1) && ru != 0xFFFE && ru != 0xFFFF {
				i += size
				continue
			}
			rep = "\uFFFD"
		}
		if attrOnly && !attr {
			i++
			continue
		}
		dst = append(dst, s[last:i]...)
		dst = append(dst, rep...)
		i += size
		last = i
	}
	return append(dst, s[last:]...)
}
