package article

import (
	"bytes"
	"fmt"
	"io"
)

// refFilter passes an article's bytes on to the XML decoder unchanged and
// refuses a character reference to a surrogate code point (&#xD800; to
// &#xDFFF;, in any number of digits), which is no XML character (XML 1.0
// §4.1) but which encoding/xml turns into U+FFFD without a word. It knows
// just enough of XML to leave comments, CDATA sections and processing
// instructions alone, where "&#xD800;" is text; the decoder finds every
// other error itself. The error names the file and line.
type refFilter struct {
	r    io.Reader
	name string
	line int // line of the start of the bytes not yet scanned (1-based)

	st   refState
	hex  bool
	v    int    // the reference's value so far, saturated past the last code point
	mark []byte // the bytes after a '<' so far, while they may open a comment, CDATA or a PI
	xs   int    // in a comment, CDATA or a PI: how many of its end's leading bytes were just seen
	end  byte   // that end's repeated byte ('-', ']' or '?')
	need int    // how many of them the end has before its '>'
	err  error
}

type refState uint8

const (
	inText  refState = iota
	sawAmp           // "&"
	sawHash          // "&#"
	inRef            // "&#" and digits
	sawLt            // "<" and the bytes in mark
	inSkip           // a comment, CDATA section or processing instruction
)

// opens lists what may follow a '<' to start a section where references
// are text, with the byte its end repeats and how many times before '>'.
var opens = []struct {
	open string
	end  byte
	need int
}{{"!--", '-', 2}, {"![CDATA[", ']', 2}, {"?", '?', 1}}

func (f *refFilter) Read(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.r.Read(p)
	if at := f.scan(p[:n]); at >= 0 {
		f.err = &Error{File: f.name, Line: f.line + bytes.Count(p[:at], []byte{'\n'}),
			Msg: fmt.Sprintf("character reference to U+%04X, a surrogate: not an XML character (XML 1.0 §2.2)", f.v)}
		return 0, f.err
	}
	f.line += bytes.Count(p[:n], []byte{'\n'})
	return n, err
}

// scan moves the state over b; it returns the index of the ';' ending a
// reference to a surrogate, or -1.
func (f *refFilter) scan(b []byte) int {
	for i := 0; i < len(b); {
		c := b[i]
		switch f.st {
		case inText:
			j := bytes.IndexAny(b[i:], "&<")
			if j < 0 {
				return -1
			}
			i += j
			if b[i] == '&' {
				f.st = sawAmp
			} else {
				f.st, f.mark = sawLt, f.mark[:0]
			}
			i++
			continue
		case sawAmp:
			if c != '#' {
				f.st = inText
				continue // c is read again as text
			}
			f.st, f.hex, f.v = sawHash, false, 0
		case sawHash:
			f.st, f.v = inRef, 0
			if c == 'x' {
				f.hex = true
			} else {
				continue
			}
		case inRef:
			d := digit(c, f.hex)
			switch {
			case d >= 0:
				base := 10
				if f.hex {
					base = 16
				}
				f.v = min(f.v*base+d, 0x110000)
			case c == ';' && f.v >= 0xD800 && f.v <= 0xDFFF:
				return i
			default:
				f.st = inText
				continue
			}
		case sawLt:
			f.mark = append(f.mark, c)
			f.st = inText
			for _, o := range opens {
				switch {
				case string(f.mark) == o.open:
					f.st, f.end, f.need, f.xs = inSkip, o.end, o.need, 0
				case len(f.mark) < len(o.open) && o.open[:len(f.mark)] == string(f.mark):
					f.st = sawLt
				}
				if f.st != inText {
					break
				}
			}
			if f.st == inText {
				continue // c is read again as text
			}
		case inSkip:
			j := bytes.IndexByte(b[i:], '>')
			run := b[i:]
			if j >= 0 {
				run = b[i : i+j]
			}
			k := len(run)
			for k > 0 && run[k-1] == f.end {
				k--
			}
			xs := len(run) - k
			if k == 0 {
				xs += f.xs
			}
			if j < 0 {
				f.xs = xs
				return -1
			}
			i += j + 1
			f.xs = 0
			if xs >= f.need {
				f.st = inText
			}
			continue
		}
		i++
	}
	return -1
}

// digit is the value of the digit c (hexadecimal when hex), or -1.
func digit(c byte, hex bool) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case hex && c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case hex && c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
