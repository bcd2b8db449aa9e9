package chars

import (
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// OneSpace returns s with its runs of white space (unicode.IsSpace) made
// one space and none at either end: strings.Join(strings.Fields(s), " ")
// in one pass, without the list of fields (a search makes a snippet for
// each of its hits, and strings.Fields takes its slow path on any text
// that is not ASCII, an ellipsis included).
func OneSpace(s string) string {
	w := NewSpaceWriter(len(s))
	w.WriteString(s)
	return w.String()
}

// NewSpaceWriter returns a SpaceWriter with room for n bytes.
func NewSpaceWriter(n int) *SpaceWriter {
	return &SpaceWriter{out: make([]byte, 0, n)}
}

// SpaceWriter writes strings with their runs of white space made one
// space, none at the start; String leaves none at the end (OneSpace of
// everything written, without holding it first).
type SpaceWriter struct {
	out   []byte
	space bool // a white space run is pending
}

// WriteString writes s.
func (w *SpaceWriter) WriteString(s string) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if asciiSpace[c] {
				w.space = true
			} else {
				if w.space && len(w.out) > 0 {
					w.out = append(w.out, ' ')
				}
				w.space = false
				w.out = append(w.out, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			w.space = true
		} else {
			if w.space && len(w.out) > 0 {
				w.out = append(w.out, ' ')
			}
			w.space = false
			w.out = append(w.out, s[i:i+n]...)
		}
		i += n
	}
}

// String returns what was written; nothing may be written after.
func (w *SpaceWriter) String() string {
	return unsafe.String(unsafe.SliceData(w.out), len(w.out))
}

// asciiSpace are the ASCII characters unicode.IsSpace takes for white
// space.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}
