package index

import (
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// oneSpace returns s with its runs of white space (unicode.IsSpace) made
// one space and none at either end: strings.Join(strings.Fields(s), " ")
// in one pass, without the list of fields (a search makes a snippet for
// each of its hits, and strings.Fields takes its slow path on any text
// that is not ASCII, an ellipsis included).
func oneSpace(s string) string {
	out := make([]byte, 0, len(s))
	space := false // a white space run is pending
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if asciiSpace[c] {
				space = true
			} else {
				if space && len(out) > 0 {
					out = append(out, ' ')
				}
				space = false
				out = append(out, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			space = true
		} else {
			if space && len(out) > 0 {
				out = append(out, ' ')
			}
			space = false
			out = append(out, s[i:i+n]...)
		}
		i += n
	}
	return unsafe.String(unsafe.SliceData(out), len(out)) // out is not written again
}

// asciiSpace are the ASCII characters unicode.IsSpace takes for white
// space.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}
