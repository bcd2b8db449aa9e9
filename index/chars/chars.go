package chars

import (
	"encoding/binary"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Blank reports whether s is empty or only white space.
func Blank(s string) bool {
	return strings.TrimFunc(s, unicode.IsSpace) == ""
}

// Index converts character offsets of a text into byte offsets.
type Index struct {
	Text   string
	N      int   // characters
	byteAt []int // byte offset of character i*64; nil for ASCII text
}

// New returns the Index of text.
func New(text string) *Index {
	// an ASCII text, eight bytes at a time, needs no table; otherwise its
	// characters are counted (a byte that is not UTF-8 is one character,
	// as range and DecodeRuneInString take it)
	if isASCII(text) {
		return &Index{Text: text, N: len(text)}
	}
	ci := &Index{Text: text, N: utf8.RuneCountInString(text)}
	ci.byteAt = make([]int, 0, ci.N/64+1)
	c := 0
	for b := range text {
		if c%64 == 0 {
			ci.byteAt = append(ci.byteAt, b)
		}
		c++
	}
	return ci
}

// isASCII reports whether s is ASCII only; a search asks it of the whole
// text of every hit (utf8.RuneCountInString goes byte by byte).
func isASCII(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if binary.LittleEndian.Uint64([]byte(s[i:i+8]))&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// ByteOf returns the byte offset of character c (0 before the text, its
// length after it).
func (ci *Index) ByteOf(c int) int {
	if c <= 0 {
		return 0
	}
	if c >= ci.N {
		return len(ci.Text)
	}
	if ci.byteAt == nil {
		return c
	}
	b := ci.byteAt[c/64]
	for k := c % 64; k > 0; k-- {
		_, size := utf8.DecodeRuneInString(ci.Text[b:])
		b += size
	}
	return b
}

// Slice returns the text of characters [s, e).
func (ci *Index) Slice(s, e int) string {
	if e < s {
		return ""
	}
	return ci.Text[ci.ByteOf(s):ci.ByteOf(e)]
}

// SpaceAfter returns how many white space characters follow character
// offset c of ci's text.
func SpaceAfter(ci *Index, c int) int {
	if c >= ci.N {
		return 0
	}
	n := 0
	for _, r := range ci.Text[ci.ByteOf(c):] {
		if !unicode.IsSpace(r) {
			break
		}
		n++
	}
	return n
}

// Cursor converts increasing byte offsets of a text into character
// offsets incrementally (a smaller offset starts over from the text's
// start).
type Cursor struct{ b, c int }

// Char returns the character offset of byte offset to of text.
func (x *Cursor) Char(text string, to int) int {
	if to < x.b {
		x.b, x.c = 0, 0
	}
	x.c += utf8.RuneCountInString(text[x.b:to])
	x.b = to
	return x.c
}
