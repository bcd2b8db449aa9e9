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
	"unicode/utf8"
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

// BadInput reports that the error is bad input: readsim exits with
// status 2 (docs/cli.md, "Exit status").
func (e *Error) BadInput() bool { return true }

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
// far below them. docs/limits.md lists them with their reasons.
const (
	// MaxLineBytes is the longest line of a text file (a FOL judgment line
	// with thousands of passages is a few hundred kilobytes).
	MaxLineBytes = 16 << 20
	// MaxLength is the largest article length, offset or passage length, in
	// characters (the longest Wikipedia article is under 2 million).
	MaxLength = 1 << 30
	// MaxRank is the largest rank accepted in a run's rank column.
	MaxRank = 1 << 40
	// MaxInputBytes is the largest text input, as stored and once
	// decompressed: 4 GiB, 50 million TREC run lines of 80 bytes. A file
	// larger on disk is refused before it is read; a gzip file or standard
	// input is refused when its content passes it.
	MaxInputBytes = 4 << 30
	// MaxGzipRatio bounds how much larger than its compressed bytes a gzip
	// input may grow once its first GzipRatioFloor bytes are out: text
	// compresses 3 to 20 times, a gzip bomb (2 GB of newlines in 2 MB)
	// about 1000 times.
	MaxGzipRatio = 200
	// GzipRatioFloor is what any gzip input may decompress to before
	// MaxGzipRatio applies (a tiny gzip file of a few judgment lines has a
	// large ratio too).
	GzipRatioFloor = 1 << 20
	// MaxLines is the most lines (blank ones counted) of a text input.
	MaxLines = 100_000_000
)

// Stdin is the file name that means standard input.
const Stdin = "-"

// Open opens the input file path for reading, the one way readsim opens
// its inputs: "-" is standard input (closing it does nothing); a folder, a
// FIFO, a device or a socket is refused without opening it (opening a FIFO
// would wait for a writer), and so is a regular file larger than maxBytes
// (MaxInputBytes when 0), by its size, before anything is read. The content
// is returned as it is stored: Decode decompresses and checks it. Every
// error is an *Error naming the file.
func Open(path string, maxBytes int64) (io.ReadCloser, error) {
	if maxBytes <= 0 {
		maxBytes = MaxInputBytes
	}
	if path == Stdin {
		return io.NopCloser(os.Stdin), nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, &Error{File: path, Err: unwrapPath(err)}
	}
	if err := checkStat(st, maxBytes); err != nil {
		return nil, &Error{File: path, Err: err}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{File: path, Err: unwrapPath(err)}
	}
	// the path may have been replaced between the Stat and the open
	if st, err = f.Stat(); err == nil {
		err = checkStat(st, maxBytes)
	}
	if err != nil {
		f.Close()
		return nil, &Error{File: path, Err: err}
	}
	return f, nil
}

// checkStat refuses what is not a regular file of at most maxBytes.
func checkStat(st fs.FileInfo, maxBytes int64) error {
	switch {
	case st.IsDir():
		return errors.New("a folder, not a file")
	case !st.Mode().IsRegular():
		return errors.New("not a regular file (a pipe, a socket or a device?): give a file, or - for standard input")
	case st.Size() > maxBytes:
		return fmt.Errorf("%d bytes, larger than %s: not a file readsim reads", st.Size(), sizeName(maxBytes))
	}
	return nil
}

// sizeName writes a power-of-two size in GiB, MiB or KiB.
func sizeName(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// open opens path (Open with MaxInputBytes) for a reader that decodes it
// (Decode, through maybeGunzip).
func open(path string) (io.Reader, func() error, error) {
	f, err := Open(path, 0)
	if err != nil {
		return nil, nil, err
	}
	return f, f.Close, nil
}

// displayName is the name of path in errors: "standard input" for "-".
func displayName(path string) string {
	if path == Stdin {
		return "standard input"
	}
	return path
}

// unwrapPath drops the path of an *fs.PathError: the Error names the file.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Decode returns the text of the input name read from r, the one rule of
// every text readsim reads: gzip data (detected by its magic number,
// whatever the file's name) is decompressed, and refused once it grows past
// MaxGzipRatio times the compressed bytes read (after GzipRatioFloor); the
// text is refused past maxBytes (MaxInputBytes when 0) as stored or
// decompressed; UTF-16 and UTF-32 text is refused naming the encoding; a
// UTF-8 byte-order mark is dropped (it precedes line 1, so line numbers are
// unaffected). The size errors come from the reader when they happen, so a
// reader of lines reports them with the line being read.
func Decode(name string, r io.Reader, maxBytes int64) (*bufio.Reader, error) {
	if maxBytes <= 0 {
		maxBytes = MaxInputBytes
	}
	raw := &countReader{r: r}
	br := bufio.NewReaderSize(raw, 64<<10) // small: the gzip ratio counts what it holds
	magic, _ := br.Peek(4)
	var text io.Reader = br
	if len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, &Error{File: name, Err: fmt.Errorf("corrupt gzip data: %v", err)}
		}
		text = &gzipErrors{r: z}
	} else {
		raw = nil
	}
	out := bufio.NewReaderSize(&capReader{r: text, max: maxBytes, compressed: raw}, 256<<10)
	if b, _ := out.Peek(2); raw != nil && len(b) == 2 && b[0] == 0x1f && b[1] == 0x8b {
		return nil, &Error{File: name, Err: errors.New("gzip data inside gzip data: readsim decompresses one layer; decompress the file once (gunzip) and give that")}
	}
	skipBOM(out)
	if err := checkEncoding(name, out); err != nil {
		return nil, err
	}
	return out, nil
}

// maybeGunzip is Decode with MaxInputBytes.
func maybeGunzip(name string, r io.Reader) (io.Reader, error) {
	return Decode(name, r, 0)
}

// gzipErrors names a corrupt gzip stream's error as such.
type gzipErrors struct {
	r io.Reader
}

func (g *gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("corrupt gzip data: %w", err)
	}
	return n, err
}

// countReader counts the bytes read from r.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// capReader refuses text past max bytes and, when compressed counts the
// compressed bytes read, text past MaxGzipRatio times them.
type capReader struct {
	r          io.Reader
	n, max     int64
	compressed *countReader
	err        error
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	switch {
	case c.n > c.max && c.compressed != nil:
		c.err = fmt.Errorf("the gzip data decompresses to more than %s: not a file readsim reads", sizeName(c.max))
	case c.n > c.max:
		c.err = fmt.Errorf("more than %s: not a file readsim reads", sizeName(c.max))
	case c.compressed != nil && c.n > GzipRatioFloor && c.n > MaxGzipRatio*c.compressed.n:
		c.err = fmt.Errorf("the gzip data decompresses to more than %d times its size (%d bytes from %d): a gzip bomb, not a file readsim reads", MaxGzipRatio, c.n, c.compressed.n)
	}
	if c.err != nil {
		return 0, c.err
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
	// maxLine is the longest line (MaxLineBytes unless set)
	maxLine int
}

func newLineReader(name string, r io.Reader) *lineReader {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 256<<10)
	}
	return &lineReader{name: name, br: br, maxLine: MaxLineBytes}
}

// next returns the next line (valid until the following call), or io.EOF.
// A line longer than l.maxLine, or past MaxLines, is an error, read no
// further.
func (l *lineReader) next() ([]byte, error) {
	b, err := l.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		l.long = append(l.long[:0], b...)
		for err == bufio.ErrBufferFull {
			if len(l.long) > l.maxLine {
				return nil, errorf(l.name, l.line+1, "a line longer than %s: not a file readsim reads", sizeName(int64(l.maxLine)))
			}
			b, err = l.br.ReadSlice('\n')
			l.long = append(l.long, b...)
		}
		b = l.long
		if len(bytes.TrimRight(b, "\r\n")) > l.maxLine {
			return nil, errorf(l.name, l.line+1, "a line longer than %s: not a file readsim reads", sizeName(int64(l.maxLine)))
		}
	}
	if err != nil && err != io.EOF {
		return nil, &Error{File: l.name, Line: l.line + 1, Err: err}
	}
	if len(b) == 0 && err == io.EOF {
		return nil, io.EOF
	}
	if l.line >= MaxLines {
		return nil, errorf(l.name, l.line+1, "more than %d lines: not a file readsim reads", MaxLines)
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
// f returns) and its number: r is decoded (Decode: gzip decompressed, a
// UTF-8 byte-order mark dropped, UTF-16 and UTF-32 refused, MaxInputBytes),
// and a line longer than MaxLineBytes or a line past MaxLines is refused
// naming the file and line. Every error it makes is an *Error; f's are
// returned as they are.
func TextLines(name string, r io.Reader, f func(line int, b []byte) error) error {
	return TextLinesLimit(name, r, 0, 0, f)
}

// TextLinesLimit is TextLines with other bounds: at most maxBytes of text
// (MaxInputBytes when 0) in lines of at most maxLine bytes (MaxLineBytes
// when 0).
func TextLinesLimit(name string, r io.Reader, maxBytes int64, maxLine int, f func(line int, b []byte) error) error {
	br, err := Decode(name, r, maxBytes)
	if err != nil {
		return err
	}
	l := newLineReader(name, br)
	if maxLine > 0 {
		l.maxLine = maxLine
	}
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

// idField checks an id column (what: "topic id", "article id"): no NUL
// byte and valid UTF-8, which every id readsim writes (JSON, XHTML) needs.
func idField(file string, line int, what string, b []byte) error {
	switch {
	case bytes.IndexByte(b, 0) >= 0:
		return errorf(file, line, "%s %q holds a NUL byte", what, b)
	case !utf8.Valid(b):
		return errorf(file, line, "%s %q is not UTF-8 text", what, b)
	}
	return nil
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
