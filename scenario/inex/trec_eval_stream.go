package inex

import (
	"bytes"
	"errors"
	"io"
	"os"
	"runtime"
	"sync"
	"unsafe"

	"github.com/readsim/readsim/effort"
)

// ErrTopicSplit is StreamTrecEvalRun's answer to a run whose topic has
// lines apart, after lines of another topic: read it with OpenTrecEvalRun.
var ErrTopicSplit = errors.New("a topic's lines are not together")

// TrecRunBlock is one topic's results, as StreamTrecEvalRun hands them
// over. Its documents' names live in the block: it may be handed back for
// reuse once they are no longer needed.
type TrecRunBlock struct {
	Topic string
	Docs  []effort.TrecDoc
	text  []byte
}

func (b *TrecRunBlock) str(s []byte) string {
	if len(s) == 0 {
		return ""
	}
	if len(b.text)+len(s) > cap(b.text) {
		b.text = make([]byte, 0, max(2*cap(b.text), len(s), 4096))
	}
	n := len(b.text)
	b.text = append(b.text, s...)
	t := b.text[n:]
	return unsafe.String(&t[0], len(t))
}

// StreamTrecEvalRun reads the run file at path as OpenTrecEvalRun does,
// handing each topic's results to emit as soon as its last line is read,
// so that only the topics in flight are held. It takes the blocks to fill
// from free when it holds one (emit's receiver hands them back there),
// else makes one. A large file (not gzip) is read in chunks, one per
// processor, at once: emit is then called from several goroutines. It
// returns the run id (the last line's) and the file's name, or
// ErrTopicSplit when a topic's lines turn out not to be together (the
// blocks emitted until then are to be dropped).
func StreamTrecEvalRun(path string, free <-chan *TrecRunBlock, emit func(*TrecRunBlock)) (runID, file string, err error) {
	if f, size, ok := plainFile(path); ok {
		defer f.Close()
		if chunks := chunkBounds(f, size, runtime.GOMAXPROCS(0)); len(chunks) > 2 {
			return streamChunks(f, path, chunks, free, emit)
		}
	}
	r, closeFn, err := openDecoded(path)
	if err != nil {
		return "", path, err
	}
	defer closeFn()
	c := streamChunk(path, r, free, emit, false)
	if c.err != nil {
		return "", path, c.err
	}
	if c.results == 0 {
		return "", path, &Error{File: path, Err: errors.New("no result (trec_eval: Cannot read results file)")}
	}
	return string(c.lastID), path, nil
}

// chunkMin is the least size of a file read in chunks.
var chunkMin int64 = 8 << 20

// plainFile opens path when it is a regular file of at least chunkMin
// bytes (and at most MaxInputBytes: Open checks before opening) that
// starts with neither gzip's magic number nor a byte-order mark, for
// reading in chunks; anything else is read through Decode (openDecoded),
// which says what is wrong with it.
func plainFile(path string) (*os.File, int64, bool) {
	if path == Stdin {
		return nil, 0, false
	}
	rc, err := Open(path, 0)
	if err != nil {
		return nil, 0, false
	}
	f, ok := rc.(*os.File)
	if !ok {
		rc.Close()
		return nil, 0, false
	}
	st, err := f.Stat()
	var magic [4]byte
	if err != nil || st.Size() < chunkMin {
		f.Close()
		return nil, 0, false
	}
	if _, err := f.ReadAt(magic[:], 0); err != nil || !plainStart(magic) {
		f.Close()
		return nil, 0, false
	}
	return f, st.Size(), true
}

// plainStart reports whether a file starting with b is plain text without
// a byte-order mark: not gzip, not UTF-8 with a BOM, not UTF-16 or UTF-32.
func plainStart(b [4]byte) bool {
	switch {
	case b[0] == 0x1f && b[1] == 0x8b, // gzip
		b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf,               // UTF-8 BOM
		b[0] == 0xff && b[1] == 0xfe, b[0] == 0xfe && b[1] == 0xff, // UTF-16 (and UTF-32LE)
		b[0] == 0 && b[1] == 0 && b[2] == 0xfe && b[3] == 0xff: // UTF-32BE
		return false
	}
	return true
}

// chunkBounds cuts f (size bytes) into about n chunks at line ends: the
// offsets where they start, and size.
func chunkBounds(f *os.File, size int64, n int) []int64 {
	bounds := []int64{0}
	buf := make([]byte, 64<<10)
	for i := 1; i < n; i++ {
		pos := size * int64(i) / int64(n)
		if pos <= bounds[len(bounds)-1] {
			continue
		}
		for {
			k, err := f.ReadAt(buf, pos)
			if j := bytes.IndexByte(buf[:k], '\n'); j >= 0 {
				pos += int64(j) + 1
				break
			}
			pos += int64(k)
			if err != nil {
				pos = size
				break
			}
		}
		if pos < size {
			bounds = append(bounds, pos)
		}
	}
	return append(bounds, size)
}

// chunkRun is what reading one chunk of a run found.
type chunkRun struct {
	first, last *TrecRunBlock // held back: they may go on in the chunks around
	topics      []string      // in order
	lines       int           // every line, blank and comment ones too
	results     int
	lastID      []byte
	err         error
	errLine     int // the line of err within the chunk (0: none)
}

// streamChunk reads the lines of r, emitting each topic's block when the
// next topic starts; with hold, the first and last blocks are kept back
// (chunkRun.first, last), else all are emitted.
func streamChunk(name string, r io.Reader, free <-chan *TrecRunBlock, emit func(*TrecRunBlock), hold bool) chunkRun {
	var c chunkRun
	var fs runFields
	var cur *TrecRunBlock
	seen := map[string]bool{}
	get := func(topic []byte) *TrecRunBlock {
		var b *TrecRunBlock
		select {
		case b = <-free:
			b.Docs, b.text = b.Docs[:0], b.text[:0]
		default:
			b = &TrecRunBlock{Docs: make([]effort.TrecDoc, 0, 1024)}
		}
		b.Topic = string(topic)
		return b
	}
	c.err = trecLines(name, r, func(n int, b []byte) error {
		c.lines = n
		if skip, err := trecRunLine(name, n, b, &fs); skip || err != nil {
			if err != nil {
				c.errLine = n
			}
			return err
		}
		if cur == nil || string(fs.topic) != cur.Topic {
			if seen[string(fs.topic)] {
				return ErrTopicSplit
			}
			if cur != nil {
				if hold && c.first == nil {
					c.first = cur
				} else {
					emit(cur)
				}
			}
			cur = get(fs.topic)
			seen[cur.Topic] = true
			c.topics = append(c.topics, cur.Topic)
		}
		cur.Docs = append(cur.Docs, effort.TrecDoc{Docno: cur.str(fs.doc), Sim: cAtofBytes(fs.score)})
		c.lastID = append(c.lastID[:0], fs.id...)
		c.results++
		return nil
	})
	switch {
	case cur == nil:
	case !hold:
		emit(cur)
	case c.first == nil:
		c.first, c.last = cur, cur
	default:
		c.last = cur
	}
	return c
}

// streamChunks reads the chunks of f (bounds: their offsets) at once and
// joins the topics that go on from one chunk to the next.
func streamChunks(f *os.File, path string, bounds []int64, free <-chan *TrecRunBlock, emit func(*TrecRunBlock)) (runID, file string, err error) {
	cs := make([]chunkRun, len(bounds)-1)
	var wg sync.WaitGroup
	for i := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := io.NewSectionReader(f, bounds[i], bounds[i+1]-bounds[i])
			cs[i] = streamChunk(path, r, free, emit, true)
		}()
	}
	wg.Wait()
	lines, results := 0, 0
	for _, c := range cs {
		if c.err != nil {
			if ie, ok := c.err.(*Error); ok && c.errLine > 0 {
				ie.Line = lines + c.errLine
			}
			return "", path, c.err
		}
		lines += c.lines
		results += c.results
	}
	if results == 0 {
		return "", path, &Error{File: path, Err: errors.New("no result (trec_eval: Cannot read results file)")}
	}
	// a topic may go on across chunk ends, and nowhere else
	where := map[string]int{}
	var pending *TrecRunBlock
	for i, c := range cs {
		for k, t := range c.topics {
			if j, ok := where[t]; ok && !(k == 0 && j == i-1 && pending != nil && pending.Topic == t) {
				return "", path, ErrTopicSplit
			}
			where[t] = i
		}
		if c.first == nil {
			continue
		}
		if pending != nil && pending.Topic == c.first.Topic {
			pending.Docs = append(pending.Docs, c.first.Docs...)
			if c.first != c.last {
				emit(pending)
				pending = c.last
			}
			continue
		}
		if pending != nil {
			emit(pending)
		}
		if c.first != c.last {
			emit(c.first)
		}
		pending = c.last
	}
	emit(pending)
	for i := len(cs) - 1; i >= 0; i-- {
		if cs[i].results > 0 {
			return string(cs[i].lastID), path, nil
		}
	}
	return "", path, nil
}
