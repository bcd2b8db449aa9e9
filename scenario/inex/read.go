package inex

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"math"
	"os"
	"strconv"
	"unsafe"
)

// Error is a problem with an input file, at a line (0 when it concerns the
// whole file): the one error type of the INEX files readsim reads. Err says
// what is wrong.
type Error struct {
	File string
	Line int
	Err  error
}

// Error returns "file:line: problem" (without the line when it is unknown).
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

// Unwrap returns the problem.
func (e *Error) Unwrap() error { return e.Err }

func errorf(file string, line int, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Err: fmt.Errorf(format, args...)}
}

// Limits on input files, so that hostile or mistaken input is refused at
// once instead of hanging readsim or exhausting memory. Real INEX files are
// far below them.
const (
	// MaxLineBytes is the longest line of a text file (a FOL judgment line
	// with thousands of passages is a few hundred kilobytes).
	MaxLineBytes = 16 << 20
	// MaxLength is the largest article length, offset or passage length, in
	// characters (the longest Wikipedia article is under 2 million).
	MaxLength = 1 << 30
	// MaxRank is the largest rank accepted in a run's rank column.
	MaxRank = 1 << 40
)

// Stdin is the file name that means standard input.
const Stdin = "-"

// open returns a reader of the file's content, decompressing gzip (detected by
// its magic number, whatever the file name). "-" is standard input. A folder,
// a FIFO or a device is refused without opening it (opening a FIFO would
// wait for a writer).
func open(path string) (io.Reader, func() error, error) {
	if path == Stdin {
		r, err := maybeGunzip("standard input", os.Stdin)
		if err != nil {
			return nil, nil, err
		}
		return r, func() error { return nil }, nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, &Error{File: path, Err: unwrapPath(err)}
	}
	switch {
	case st.IsDir():
		return nil, nil, &Error{File: path, Err: errors.New("a folder, not a file")}
	case !st.Mode().IsRegular():
		return nil, nil, &Error{File: path, Err: errors.New("not a regular file (a pipe or a device?): give a file, or - for standard input")}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, &Error{File: path, Err: unwrapPath(err)}
	}
	r, err := maybeGunzip(path, f)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return r, f.Close, nil
}

// unwrapPath drops the path of an *fs.PathError: the Error names the file.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// maybeGunzip decompresses gzip data (detected by its magic number) and
// refuses UTF-16 and UTF-32 text, naming the encoding.
func maybeGunzip(name string, r io.Reader) (io.Reader, error) {
	if br, ok := r.(*bufio.Reader); ok && br.Size() >= 256<<10 {
		r = br
	} else {
		r = bufio.NewReaderSize(r, 256<<10)
	}
	br := r.(*bufio.Reader)
	magic, _ := br.Peek(4)
	if len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, &Error{File: name, Err: fmt.Errorf("corrupt gzip data: %v", err)}
		}
		zr := bufio.NewReaderSize(&gzipErrors{name: name, r: z}, 256<<10)
		if err := checkEncoding(name, zr); err != nil {
			return nil, err
		}
		return zr, nil
	}
	if err := checkEncoding(name, br); err != nil {
		return nil, err
	}
	return br, nil
}

// gzipErrors names a corrupt gzip stream's error as such.
type gzipErrors struct {
	name string
	r    io.Reader
}

func (g *gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("corrupt gzip data: %w", err)
	}
	return n, err
}

// checkEncoding refuses text in UTF-16 or UTF-32 (a byte-order mark, or NUL
// bytes between ASCII characters), which readsim does not read.
func checkEncoding(name string, br *bufio.Reader) error {
	b, _ := br.Peek(64)
	switch {
	case bytes.HasPrefix(b, []byte{0, 0, 0xFE, 0xFF}), bytes.HasPrefix(b, []byte{0xFF, 0xFE, 0, 0}):
		return &Error{File: name, Err: errors.New("a UTF-32 file: readsim reads UTF-8 (or ASCII) text")}
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}), bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return &Error{File: name, Err: errors.New("a UTF-16 file: readsim reads UTF-8 (or ASCII) text; convert it with iconv -f UTF-16 -t UTF-8")}
	case len(b) >= 4 && bytes.Count(b, []byte{0}) >= len(b)/4:
		return &Error{File: name, Err: errors.New("binary data (or UTF-16 without a byte-order mark): not a text file readsim reads")}
	}
	return nil
}

// lineReader yields the lines of a text file without their LF or CRLF end.
type lineReader struct {
	name string
	br   *bufio.Reader
	line int
	long []byte
	err  error // the error that ended nonBlank
}

func newLineReader(name string, r io.Reader) *lineReader {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 256<<10)
	}
	return &lineReader{name: name, br: br}
}

// next returns the next line (valid until the following call), or io.EOF.
// A line longer than MaxLineBytes is an error, read no further.
func (l *lineReader) next() ([]byte, error) {
	b, err := l.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		l.long = append(l.long[:0], b...)
		for err == bufio.ErrBufferFull {
			if len(l.long) > MaxLineBytes {
				return nil, errorf(l.name, l.line+1, "a line longer than %d MiB: not a file readsim reads", MaxLineBytes>>20)
			}
			b, err = l.br.ReadSlice('\n')
			l.long = append(l.long, b...)
		}
		b = l.long
	}
	if err != nil && err != io.EOF {
		return nil, &Error{File: l.name, Line: l.line + 1, Err: err}
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

// skipBOM drops a UTF-8 byte order mark at the start of br: only an exact
// one; it precedes line 1, so line numbers are unaffected.
func skipBOM(br *bufio.Reader) {
	if b, _ := br.Peek(3); len(b) == 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		br.Discard(3)
	}
}

// TextLines reads the text file name from r as readsim reads its other
// text files and calls f with each line (without its line end, valid until
// f returns) and its number: gzip data is decompressed, a UTF-8 byte order
// mark dropped, UTF-16 and UTF-32 text refused naming the encoding, and a
// line longer than MaxLineBytes refused naming the file and line. Every
// error it makes is an *Error; f's are returned as they are.
func TextLines(name string, r io.Reader, f func(line int, b []byte) error) error {
	r, err := maybeGunzip(name, r)
	if err != nil {
		return err
	}
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	skipBOM(br)
	l := newLineReader(name, br)
	for {
		b, err := l.next()
		switch {
		case err == io.EOF:
			return nil
		case err != nil:
			return err
		}
		if err := f(l.line, b); err != nil {
			return err
		}
	}
}

// nonBlank yields the lines that are not blank (each valid until the next);
// l.line is the number of the line yielded. It stops at the end of the file
// or at an error, kept in l.err for the caller to check after the loop.
func (l *lineReader) nonBlank() iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for {
			b, err := l.next()
			if err != nil {
				if err != io.EOF {
					l.err = err
				}
				return
			}
			if !isBlank(b) && !yield(b) {
				return
			}
		}
	}
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

// intField parses a field that must be a non-negative integer of at most
// MaxLength.
func intField(file string, line int, what string, b []byte) (int, error) {
	return boundedInt(file, line, what, b, MaxLength, "not an article readsim reads")
}

// rankField parses a run's rank column: a non-negative integer of at most
// MaxRank.
func rankField(file string, line int, b []byte) (int, error) {
	return boundedInt(file, line, "rank", b, MaxRank, "the largest rank readsim reads")
}

// boundedInt parses a field that must be a non-negative integer of at most
// limit; a larger one is refused as "larger than limit, why".
func boundedInt(file string, line int, what string, b []byte, limit int, why string) (int, error) {
	n, ok := atoi(b)
	if ok && n <= limit {
		return n, nil
	}
	if ok || len(b) > 18 && bytes.Trim(b, "0123456789") == nil {
		return 0, errorf(file, line, "%s %s is larger than %d, %s", what, b, limit, why)
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

// scoreError is the error of line's score field b (what: "rsv", "score")
// that parseFloat refuses.
func scoreError(file string, line int, what string, b []byte) error {
	if bytes.IndexByte(b, '_') >= 0 {
		return errorf(file, line, "%s %q has an underscore, where C's atof (trec_eval's reader) stops, reading %q: readsim refuses it; write the number without underscores", what, b, b[:bytes.IndexByte(b, '_')])
	}
	return errorf(file, line, "%s %q is not a finite number", what, b)
}

func isBlank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

// parseFloat parses a finite number (NaN and infinities are refused). It
// reads b in place (strconv.ParseFloat keeps no reference to its argument),
// so that a million-line run does not allocate a string per score. A number
// with an underscore (1_000, 1e1_0), which Go's syntax accepts and C's atof
// (trec_eval's, the INEX tool's) reads only up to the underscore, is
// refused (scoreError says why).
func parseFloat(b []byte) (float64, bool) {
	if len(b) == 0 || bytes.IndexByte(b, '_') >= 0 {
		return 0, false
	}
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(b), len(b)), 64)
	return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
}
