package article

import (
	"bytes"
	"fmt"
	"io"
)

// refFilter stands between an article's bytes and the XML decoder. It knows
// just enough of XML (references, tags and their quoted values, comments,
// CDATA sections, processing instructions) for two things the decoder
// cannot be asked:
//
//   - It refuses a character reference to a surrogate code point (&#xD800;
//     to &#xDFFF;, in any number of digits), which is no XML character (XML
//     1.0 §2.2) but which encoding/xml turns into U+FFFD without a word. In
//     a comment, a CDATA section or a processing instruction "&#xD800;" is
//     text and passes. The error names the file and line.
//   - Once the root element has started (content), it cuts a run of
//     character data longer than splitEvery bytes in two where the text
//     stays the same: an empty comment "<!---->" in text, "]]><![CDATA["
//     in a CDATA section, "--><!--" in a comment, at a character boundary
//     that is no line end. encoding/xml holds a whole run in one buffer,
//     grown by doubling: a 10 MiB CDATA section took 3 to 4 times its size
//     while read; cut, the decoder holds at most about splitEvery bytes
//     (docs/performance.md, "The article parser's memory"). A column
//     number after a cut counts the inserted bytes; line numbers do not
//     change.
//
// The decoder finds every other error itself.
type refFilter struct {
	r       io.Reader
	name    string
	line    int  // line of the start of the bytes not yet scanned (1-based)
	content bool // the root element has started: runs may be cut
	every   int  // the longest run handed on whole: splitEvery
	prev    byte // the last byte handed on

	st    refState
	hex   bool
	v     int      // the reference's value so far, saturated past the last code point
	mark  []byte   // the bytes after a '<' so far, while they may open a comment, CDATA or a PI
	xs    int      // in a comment, CDATA or a PI: how many of its end's leading bytes were just seen
	end   byte     // that end's repeated byte ('-', ']' or '?')
	need  int      // how many of them the end has before its '>'
	quote byte     // in a tag: the quote of the value being read (0: none)
	sect  int      // in a comment, CDATA or a PI: which of opens
	back  refState // the state a reference returns to: text, or a tag's quoted value
	run   int      // bytes of the character data, CDATA or comment being read
	pend  []byte   // bytes to hand on before reading more: a cut's and what followed it
	err   error
}

// splitEvery is the longest run of character data handed to the decoder
// whole (a Reader's splitEvery, when set, stands for it: tests cut every
// few bytes).
const splitEvery = 1 << 20

type refState uint8

const (
	inText  refState = iota
	sawAmp           // "&"
	sawHash          // "&#"
	inRef            // "&#" and digits
	sawLt            // "<" and the bytes in mark
	inSkip           // a comment, CDATA section or processing instruction
	inTag            // a start or end tag, up to its '>'
	inName           // "&" and a name, up to its ';'
)

// opens lists what may follow a '<' to start a section where references
// are text, with the byte its end repeats, how many times before '>', and
// what cuts a run of it in two ("" for none).
var opens = []struct {
	open string
	end  byte
	need int
	cut  string
}{{"!--", '-', 2, "--><!--"}, {"![CDATA[", ']', 2, "]]><![CDATA["}, {"?", '?', 1, ""}}

// textCut cuts a run of text in two.
const textCut = "<!---->"

func (f *refFilter) Read(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	var n int
	var err error
	if len(f.pend) > 0 {
		n = copy(p, f.pend)
		f.pend = f.pend[n:]
	} else {
		n, err = f.r.Read(p)
	}
	at, cut, insert := f.scan(p[:n])
	if at >= 0 {
		f.err = &Error{File: f.name, Line: f.line + bytes.Count(p[:at], []byte{'\n'}),
			Msg: fmt.Sprintf("character reference to U+%04X, a surrogate: not an XML character (XML 1.0 §2.2)", f.v)}
		return 0, f.err
	}
	if cut >= 0 {
		rest := make([]byte, 0, len(insert)+n-cut+len(f.pend))
		f.pend = append(append(append(rest, insert...), p[cut:n]...), f.pend...)
		n, err = cut, nil
	}
	f.line += bytes.Count(p[:n], []byte{'\n'})
	if n > 0 {
		f.prev = p[n-1]
	}
	return n, err
}

// scan moves the state over b. It returns the index of the ';' ending a
// reference to a surrogate (or -1), and the index where b is cut and what
// goes there (or -1, "").
func (f *refFilter) scan(b []byte) (at, cut int, insert string) {
	for i := 0; i < len(b); {
		c := b[i]
		switch f.st {
		case inText:
			j := bytes.IndexAny(b[i:], "&<")
			seg := len(b) - i
			if j >= 0 {
				seg = j
			}
			if q := f.cutAt(b, i, seg, 0); q >= 0 {
				return -1, q, textCut
			}
			f.run += seg
			if j < 0 {
				return -1, -1, ""
			}
			i += j
			if b[i] == '&' {
				f.st, f.back = sawAmp, inText
			} else {
				f.st, f.mark, f.run = sawLt, f.mark[:0], 0
			}
		case sawAmp:
			if c != '#' {
				f.st = inName
				continue // c is read again as the name's
			}
			f.st, f.hex, f.v = sawHash, false, 0
		case inName:
			switch c {
			case ';':
				f.st = f.back
			case '<', '&', ' ', '\t', '\r', '\n':
				f.st = f.back
				continue // not a reference: the decoder says so
			}
		case sawHash:
			f.st, f.v = inRef, 0
			if c != 'x' {
				continue
			}
			f.hex = true
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
				return i, -1, ""
			case c == ';':
				f.st = f.back // the ';' is the reference's: no cut before it
			default:
				f.st = f.back
				continue
			}
		case sawLt:
			if !f.afterLt(c) {
				continue // c is read again
			}
		case inSkip:
			next, q, ins := f.skip(b, i)
			if q >= 0 {
				return -1, q, ins
			}
			i = next
			continue
		case inTag:
			i = f.tag(b, i)
			continue
		}
		i++
	}
	return -1, -1, ""
}

// afterLt takes the byte c after a '<' and the bytes in mark: a comment,
// a CDATA section or a processing instruction opens, or may still, or a
// tag starts. It reports whether c is taken (false: read it again in the
// new state).
func (f *refFilter) afterLt(c byte) bool {
	f.mark = append(f.mark, c)
	for k, o := range opens {
		switch {
		case string(f.mark) == o.open:
			f.st, f.end, f.need, f.xs, f.run, f.sect = inSkip, o.end, o.need, 0, 0, k
			return true
		case len(f.mark) < len(o.open) && o.open[:len(f.mark)] == string(f.mark):
			return true // still sawLt
		}
	}
	f.st = inText
	if len(f.mark) == 1 && (c == '/' || isNameStartByte(c)) {
		f.st = inTag
	}
	return false
}

// isNameStartByte reports whether c may start an element's name (any byte
// of a multi-byte character may).
func isNameStartByte(c byte) bool {
	return c == ':' || c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= 0x80
}

// tag moves over a tag from b[i] to its '>' (outside quoted values), or to
// the end of b; it returns where to go on.
func (f *refFilter) tag(b []byte, i int) int {
	for i < len(b) {
		if f.quote != 0 {
			j := bytes.IndexAny(b[i:], string(f.quote)+"&")
			if j < 0 {
				return len(b)
			}
			i += j + 1
			if b[i-1] == '&' {
				f.st, f.back = sawAmp, inTag // a reference in the value
				return i
			}
			f.quote = 0
			continue
		}
		j := bytes.IndexAny(b[i:], "\"'>")
		if j < 0 {
			return len(b)
		}
		i += j
		if b[i] == '>' {
			f.st, f.run = inText, 0
			return i + 1
		}
		f.quote = b[i]
		i++
	}
	return i
}

// skip moves over a comment, CDATA section or processing instruction from
// b[i]: it returns where to go on, past its end or at the end of b, or
// where to cut it (q ≥ 0) and what to insert.
func (f *refFilter) skip(b []byte, i int) (next, q int, insert string) {
	j := bytes.IndexByte(b[i:], '>')
	run := b[i:]
	if j >= 0 {
		run = b[i : i+j]
	}
	if cut := opens[f.sect].cut; cut != "" {
		if q := f.cutAt(b, i, len(run), f.end); q >= 0 {
			return 0, q, cut
		}
	}
	f.run += len(run)
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
		return len(b), -1, ""
	}
	f.xs = 0
	if xs >= f.need {
		f.st, f.run = inText, 0
	}
	return i + j + 1, -1, ""
}

// cutAt returns where to cut the run b[i:i+seg], which continues a run of
// f.run bytes, so that no run handed on is longer than f.every (-1:
// nowhere in it). A cut goes before a character that is not a line end,
// not after a CR, and, in a section whose end repeats the byte end, with
// that byte on neither side.
func (f *refFilter) cutAt(b []byte, i, seg int, end byte) int {
	if !f.content || f.run+seg <= f.every {
		return -1
	}
	for q := max(i+f.every-f.run, i); q < i+seg; q++ {
		c, prev := b[q], f.prev
		if q > 0 {
			prev = b[q-1]
		}
		if c&0xC0 != 0x80 && c != '\n' && prev != '\r' && (end == 0 || c != end && prev != end) {
			return q
		}
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
