// Package inex reads the INEX ad hoc track's files (formats.md): FOL
// judgments (qrels), FOL passage runs, TREC document runs and INEX XML
// submissions, gzip-compressed or not, with LF or CRLF line ends, and
// validates them. Every error is an *Error naming the file and the line.
package inex

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
)

// Error is a problem with an input file, at a line (0 when it concerns the
// whole file).
type Error struct {
	File string
	Line int
	Msg  string
}

// Error returns "file:line: message" (without the line when it is unknown).
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

func errorf(file string, line int, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// open returns a reader of the file's content, decompressing gzip (detected by
// its magic number, whatever the file name).
func open(path string) (io.Reader, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is the Error's File already
		}
		return nil, nil, &Error{File: path, Msg: err.Error()}
	}
	r, err := maybeGunzip(path, f)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return r, f.Close, nil
}

func maybeGunzip(name string, r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 256<<10)
	magic, _ := br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, &Error{File: name, Msg: "bad gzip data: " + err.Error()}
		}
		return bufio.NewReaderSize(z, 256<<10), nil
	}
	return br, nil
}

// lineReader yields the lines of a text file without their LF or CRLF end.
type lineReader struct {
	name string
	br   *bufio.Reader
	line int
	long []byte
}

func newLineReader(name string, r io.Reader) *lineReader {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 256<<10)
	}
	return &lineReader{name: name, br: br}
}

// next returns the next line (valid until the following call), or io.EOF.
func (l *lineReader) next() ([]byte, error) {
	b, err := l.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		l.long = append(l.long[:0], b...)
		for err == bufio.ErrBufferFull {
			b, err = l.br.ReadSlice('\n')
			l.long = append(l.long, b...)
		}
		b = l.long
	}
	if err != nil && err != io.EOF {
		return nil, &Error{File: l.name, Line: l.line + 1, Msg: err.Error()}
	}
	if len(b) == 0 && err == io.EOF {
		return nil, io.EOF
	}
	l.line++
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b, nil
}

// fields splits b on spaces and tabs into dst.
func fields(dst [][]byte, b []byte) [][]byte {
	dst = dst[:0]
	i := 0
	for i < len(b) {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		if i >= len(b) {
			break
		}
		j := i
		for j < len(b) && b[j] != ' ' && b[j] != '\t' {
			j++
		}
		dst = append(dst, b[i:j])
		i = j
	}
	return dst
}

// atoi parses a non-negative decimal integer without allocating.
func atoi(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// intField parses a field that must be a non-negative integer.
func intField(file string, line int, what string, b []byte) (int, error) {
	if n, ok := atoi(b); ok {
		return n, nil
	}
	if len(b) > 0 && b[0] == '-' {
		if _, ok := atoi(b[1:]); ok {
			return 0, errorf(file, line, "negative %s %q", what, b)
		}
	}
	return 0, errorf(file, line, "%s %q is not a non-negative integer", what, b)
}

// interner shares one string per distinct byte sequence (topic and article ids).
type interner map[string]string

func (in interner) get(b []byte) string {
	if s, ok := in[string(b)]; ok {
		return s
	}
	s := string(b)
	in[s] = s
	return s
}

func isBlank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

func parseFloat(b []byte) (float64, bool) {
	f, err := strconv.ParseFloat(string(b), 64)
	return f, err == nil
}
