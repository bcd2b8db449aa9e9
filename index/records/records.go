package records

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/golang/snappy"
	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/chars"
	"github.com/readsim/readsim/index/store"
)

// An article's record: what browse, snippets and the article's page read
// of it, kept out of Bleve's stored fields (docs/performance.md, "The
// record store").
//
// Zap keeps a document's stored fields in one snappy block: reading any of
// them decompresses all of them, the whole text included, although a
// search's snippet needs some 200 characters of it. A shard's records file
// holds, per article, a small head that a search reads whole — the
// text's length, each candidate element's span, length in tokens and the
// white space after it, the spans a page does not show, the word breaks,
// the places where a snippet separates two blocks —
// and the text in snappy blocks of about recordBlock bytes, of which a
// snippet decompresses the one or two it shows. The elements' XPaths are
// one more snappy block, read when an article is read whole or browsed
// for its page; a search's hits need only what browse takes from them,
// each element's kind.
//
// A record, every number an unsigned varint but the element starts (the
// difference from the previous element's start, a signed varint), each
// string its length in bytes and its bytes:
//
//	title lang path                  the article's, as strings
//	chars bytes                      the text's length in characters and bytes
//	n {start len tokens gap kind}×n  the candidate elements; gap is the white
//	                                 space after the element, in characters,
//	                                 kind what browse needs of its XPath
//	                                 and place (elemKind: a caption, the
//	                                 body's text, auxiliary text)
//	q quiet×q                        Article's quiet spans (start, end pairs)
//	k breaks×k                       the word breaks
//	s seps×s                         the snippet separators (Spans.Seps)
//	xraw xlen xpaths[xlen]           the XPaths, "\n"-joined, snappy
//	b {chars raw clen}×b             the text blocks' lengths
//	block×b                          each block, snappy
//
// The Bleve document keeps the record's place in the file (RecField), as
// a term of its own, which a search reads for every document when the
// index is opened (docPlaces): a hit's record is found without reading
// the document's stored fields. A
// records file starts with Magic; its size and CRC-32 are in the
// manifest, checked once a process before the file is read
// (checkRecords). Records are read from the file mapped in memory, never
// written in place: an update appends the new articles' records to a copy
// of the file; those of articles deleted or changed stay until the next
// full build (rebuildReason).

// recordBlock is the size of a record's text blocks before compression:
// a snippet of about 184 characters lies in one or two of them.
const recordBlock = 2048

// FileName is the records file of a shard, in the shard's folder.
const FileName = "records"

// Magic starts every records file.
const Magic = "readsim records 1\n"

// Place is where a record lies in its records file.
type Place struct {
	Off int64
	N   uint32
}

// Bytes encodes the place as RecField's term: the offset and the length,
// big-endian, 8 and 4 bytes.
func (p Place) Bytes() []byte {
	b := binary.BigEndian.AppendUint64(nil, uint64(p.Off))
	return binary.BigEndian.AppendUint32(b, p.N)
}

// PlaceOf decodes a place from its term; ok is false for anything else.
func PlaceOf(b []byte) (Place, bool) {
	if len(b) != 12 {
		return Place{}, false
	}
	off := binary.BigEndian.Uint64(b)
	if off > maxRecordsFile {
		return Place{}, false
	}
	return Place{Off: int64(off), N: binary.BigEndian.Uint32(b[8:])}, true
}

// maxRecordText bounds every length a record gives; the counts of its
// lists are bounded by the bytes left in the record before any list is
// allocated (recordReader.count).
const maxRecordText = 1 << 31

// Spans are the lists of character offsets a record keeps beside its
// elements, each increasing.
type Spans struct {
	// Quiet are the spans a page does not show as they stand and the
	// footnote marks (start, end pairs): not analysed, left out of
	// snippets.
	Quiet []int
	// Breaks are the word breaks between block elements that touch.
	Breaks []int
	// Aux are the spans of auxiliary text (start, end pairs: reference
	// lists, bibliographies, links elsewhere; docs/search.md,
	// "Auxiliary text"): an element starting in one is auxiliary
	// (Elem.Aux). The record keeps them in its elements' kinds.
	Aux []int
	// Seps are the places where a snippet writes a separator between
	// two blocks (a heading and its first sentence, a caption and the
	// paragraph after it, two list items): block boundaries that no
	// sentence punctuation already marks (docs/search.md, "Snippets").
	Seps []int
}

// Encode appends the record of an article to b: its title,
// language and path, its text (nchars characters), candidate elements,
// their lengths in tokens, and its spans.
func Encode(b []byte, title, lang, path, text string, nchars int, elems []Elem, lens []int, sp Spans) []byte {
	for _, f := range [3]string{title, lang, path} {
		b = binary.AppendUvarint(b, uint64(len(f)))
		b = append(b, f...)
	}
	b = binary.AppendUvarint(b, uint64(nchars))
	b = binary.AppendUvarint(b, uint64(len(text)))
	ci := chars.New(text)
	b = binary.AppendUvarint(b, uint64(len(elems)))
	prev := 0
	for k, el := range elems {
		b = binary.AppendVarint(b, int64(el.Start-prev))
		prev = el.Start
		b = binary.AppendUvarint(b, uint64(max(el.End-el.Start, 0)))
		n := 0
		if k < len(lens) {
			n = lens[k]
		}
		b = binary.AppendUvarint(b, uint64(n))
		b = binary.AppendUvarint(b, uint64(chars.SpaceAfter(ci, el.End)))
		k := kindOf(el.XPath)
		if inSpans(sp.Aux, el.Start) {
			k |= kindAux
		}
		b = append(b, byte(k))
	}
	for _, list := range [3][]int{sp.Quiet, sp.Breaks, sp.Seps} {
		b = binary.AppendUvarint(b, uint64(len(list)))
		for _, v := range list {
			b = binary.AppendUvarint(b, uint64(max(v, 0)))
		}
	}
	xp := make([]string, len(elems))
	for k, el := range elems {
		xp[k] = el.XPath
	}
	raw := strings.Join(xp, "\n")
	z := snappy.Encode(nil, []byte(raw))
	b = binary.AppendUvarint(b, uint64(len(raw)))
	b = binary.AppendUvarint(b, uint64(len(z)))
	b = append(b, z...)
	var blocks [][]byte
	var table []byte
	for rest := text; len(rest) > 0; {
		n := min(recordBlock, len(rest))
		for n < len(rest) && !utf8.RuneStart(rest[n]) {
			n++ // a block ends between characters
		}
		z := snappy.Encode(nil, []byte(rest[:n]))
		table = binary.AppendUvarint(table, uint64(utf8.RuneCountInString(rest[:n])))
		table = binary.AppendUvarint(table, uint64(n))
		table = binary.AppendUvarint(table, uint64(len(z)))
		blocks = append(blocks, z)
		rest = rest[n:]
	}
	b = binary.AppendUvarint(b, uint64(len(blocks)))
	b = append(b, table...)
	for _, z := range blocks {
		b = append(b, z...)
	}
	return b
}

// langName returns the language code b, without a copy for the
// languages readsim knows.
func langName(b []byte) string {
	switch string(b) {
	case "en":
		return "en"
	case "zh":
		return "zh"
	case "ja":
		return "ja"
	case "ko":
		return "ko"
	}
	return string(b)
}

// errRecord is a record that does not decode: a damaged records file
// (the caller names it).
var errRecord = errors.New("a damaged record")

// Record is an article's record, decoded but for its text and XPaths,
// which stay compressed in the mapped file until asked for (text, xpaths).
// It must not be used after the file is unmapped (the snapshot closed).
type Record struct {
	title, lang, path string // copies
	chars, bytes      int
	Elems             []Elem // without XPaths (xpaths)
	lens              []int
	gaps              []int // white space after each element, characters
	quiet, brk, seps  []int
	xraw              int
	xz                []byte // the XPaths, compressed
	Blocks            []Block
}

// Block is one compressed block of a record's text.
type Block struct {
	Char, byte int // where its text starts, characters and bytes
	Chars, raw int
	ZLen       int
	z          []byte
}

// recordReader reads a record's numbers, each checked.
type recordReader struct {
	b   []byte
	err error
}

func (r *recordReader) uint(limit int) int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > uint64(limit) {
		r.err = errRecord
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *recordReader) int(limit int) int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 || v > int64(limit) || v < -int64(limit) {
		r.err = errRecord
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *recordReader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.b) {
		r.err = errRecord
		return nil
	}
	out := r.b[:n:n]
	r.b = r.b[n:]
	return out
}

// count reads a count of items of at least min bytes each that the rest
// of the record can hold.
func (r *recordReader) count(min int) int {
	return r.uint(len(r.b) / min)
}

// Decode decodes the record b (a view of the mapped file): its
// title, language and path only when head is true. Its lists are taken
// from arena when it is not nil (a search's hit).
func Decode(b []byte, head bool, arena *Arena) (*Record, error) {
	r := &recordReader{b: b}
	d := &Record{}
	for i, f := range [3]*string{&d.title, &d.lang, &d.path} {
		b := r.bytes(r.uint(maxRecordText))
		if i == 1 {
			*f = langName(b)
		} else {
			*f = string(b)
		}
	}
	if head {
		return d, r.err
	}
	d.chars = r.uint(maxRecordText)
	d.bytes = r.uint(maxRecordText)
	if n := r.count(5); r.err == nil {
		d.Elems = arena.takeElems(n)
		ints := arena.takeInts(2 * n) // lens and gaps in one allocation
		d.lens, d.gaps = ints[:n:n], ints[n:]
		start := 0
		for k := range n {
			start += r.int(maxRecordText)
			end := start + r.uint(maxRecordText)
			d.lens[k] = r.uint(maxRecordText)
			d.gaps[k] = r.uint(maxRecordText)
			kind := elemKind(r.uint(int(kindKnown | kindCaption | kindBodyText | kindAux)))
			if start < 0 || end > d.chars || kind&kindKnown == 0 {
				r.err = errRecord
			}
			d.Elems[k] = Elem{Span: effort.Span{Start: start, End: end}, kind: kind}
		}
	}
	for _, list := range [3]*[]int{&d.quiet, &d.brk, &d.seps} {
		if n := r.count(1); n > 0 {
			*list = arena.takeInts(n)
			for i := range n {
				(*list)[i] = r.uint(d.chars)
			}
		}
	}
	d.xraw = r.uint(maxRecordText)
	d.xz = r.bytes(r.uint(maxRecordText))
	// a build's blocks hold recordBlock bytes or more but the last, and
	// none is empty: a count beyond that is damage, found before its
	// table is allocated
	nb := r.count(3)
	if nb > d.bytes/recordBlock+1 {
		r.err = errRecord
	}
	if r.err == nil {
		d.Blocks = make([]Block, nb)
	}
	char, byt := 0, 0
	for i := range d.Blocks {
		bl := &d.Blocks[i]
		bl.Char, bl.byte = char, byt
		bl.Chars, bl.raw = r.uint(recordBlock), r.uint(recordBlock+utf8.UTFMax)
		bl.ZLen = r.uint(maxRecordText)
		if bl.raw == 0 {
			r.err = errRecord
		}
		char += bl.Chars
		byt += bl.raw
	}
	for i := range d.Blocks {
		d.Blocks[i].z = r.bytes(d.Blocks[i].ZLen)
	}
	if r.err != nil {
		return nil, r.err
	}
	if char != d.chars || byt != d.bytes || len(r.b) != 0 {
		return nil, errRecord
	}
	return d, nil
}

// block decompresses the i-th block of the text into dst (len raw).
func (d *Record) block(i int, dst []byte) error {
	bl := &d.Blocks[i]
	if n, err := snappy.DecodedLen(bl.z); err != nil || n != bl.raw {
		return errRecord
	}
	out, err := snappy.Decode(dst[:bl.raw:bl.raw], bl.z)
	if err != nil || len(out) != bl.raw || (len(out) > 0 && &out[0] != &dst[0]) {
		return errRecord
	}
	return nil
}

// text decompresses the whole text, into memory of its own.
func (d *Record) text() (string, error) {
	if d.bytes == 0 {
		return "", nil
	}
	buf := make([]byte, d.bytes)
	for i, bl := range d.Blocks {
		if err := d.block(i, buf[bl.byte:]); err != nil {
			return "", err
		}
	}
	return unsafe.String(&buf[0], len(buf)), nil
}

// xpaths decompresses the elements' XPaths, into memory of their own.
func (d *Record) xpaths() ([]string, error) {
	if len(d.Elems) == 0 {
		return nil, nil
	}
	if n, err := snappy.DecodedLen(d.xz); err != nil || n != d.xraw {
		return nil, errRecord
	}
	raw, err := snappy.Decode(nil, d.xz)
	if err != nil {
		return nil, errRecord
	}
	out := strings.Split(string(raw), "\n")
	if len(out) != len(d.Elems) {
		return nil, errRecord
	}
	return out, nil
}

// blockText is a record's text read block by block: what a snippet
// shows, without decompressing the rest. Blocks are decompressed once,
// into the memory of a search (Arena).
type blockText struct {
	d     *Record
	off   int64    // the record's place in its file, for errors
	done  [][]byte // decompressed blocks, nil until read
	arena *Arena
	err   error // the first block that did not decompress
}

func newBlockText(d *Record, a *Arena) *blockText {
	return &blockText{d: d, done: make([][]byte, len(d.Blocks)), arena: a}
}

// Arena is the memory of a search's hits read without their text
// (ReadHit): their records' lists and the blocks their snippets
// decompress, reused from search to search (blockArenas). Nothing of a
// hit outlives its search: a HitResult holds copies.
type Arena struct {
	buf   []byte
	ints  []int
	elems []Elem
}

// takeInts returns n ints of the arena (or of their own, with no arena),
// which the caller sets.
func (a *Arena) takeInts(n int) []int {
	if a == nil {
		return make([]int, n)
	}
	return take(&a.ints, n, 4096)
}

// takeElems returns n elements of the arena (or of their own), which the
// caller sets (a hit's have no XPath).
func (a *Arena) takeElems(n int) []Elem {
	if a == nil {
		return make([]Elem, n)
	}
	return take(&a.elems, n, 1024)
}

// take returns the next n items of *buf, a new buffer of at least least
// items when it has no room.
func take[T any](buf *[]T, n, least int) []T {
	if cap(*buf)-len(*buf) < n {
		*buf = make([]T, 0, max(least, n))
	}
	b := *buf
	*buf = b[:len(b)+n]
	return b[len(b) : len(b)+n : len(b)+n]
}

// reset empties the arena for its next search.
func (a *Arena) reset() {
	a.buf, a.ints, a.elems = a.buf[:0], a.ints[:0], a.elems[:0]
}

// take returns n bytes of the arena.
func (a *Arena) take(n int) []byte { return take(&a.buf, n, 64<<10) }

// blockArenas are the arenas of the searches: an arena goes back once
// its search's snippets are made, and no block is read after.
var blockArenas = sync.Pool{New: func() any { return &Arena{} }}

// GetArena returns an arena for a search's hits, from blockArenas (give
// it back with Release).
func GetArena() *Arena { return blockArenas.Get().(*Arena) }

// Release empties the arena and gives it back to blockArenas: nothing
// it held may be read after.
func (a *Arena) Release() {
	a.reset()
	blockArenas.Put(a)
}

// get returns block i decompressed.
func (t *blockText) get(i int) []byte {
	if t.done[i] == nil {
		buf := t.arena.take(t.d.Blocks[i].raw)
		if err := t.d.block(i, buf); err != nil {
			// the caller asks err once the snippet is made
			if t.err == nil {
				t.err = err
			}
			clear(buf)
		}
		t.done[i] = buf
	}
	return t.done[i]
}

// at returns the block holding character c (0 ≤ c < chars).
func (t *blockText) at(c int) int {
	lo, hi := 0, len(t.d.Blocks)
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if t.d.Blocks[m].Char <= c {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// byteIn returns the byte offset in block i's text of its character k.
func (t *blockText) byteIn(i, k int) int {
	b := t.get(i)
	if t.d.Blocks[i].Chars == len(b) {
		return k // ASCII
	}
	off := 0
	for ; k > 0 && off < len(b); k-- {
		_, n := utf8.DecodeRune(b[off:])
		off += n
	}
	return off
}

// slice returns the text of characters [s, e). Within a block it is the
// block's own memory, valid until the search gives its arena back
// (fetched.close): callers copy what they keep.
func (t *blockText) Slice(s, e int) string {
	s, e = max(s, 0), min(e, t.d.chars)
	if e <= s {
		return ""
	}
	i, j := t.at(s), t.at(e-1)
	bs := t.byteIn(i, s-t.d.Blocks[i].Char)
	if i == j {
		// no copy: the bytes are the search's (Arena), and what a
		// snippet keeps of them it copies (chars.SpaceWriter)
		b := t.get(i)[bs:t.byteIn(i, e-t.d.Blocks[i].Char)]
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	var sb strings.Builder
	sb.Write(t.get(i)[bs:])
	for k := i + 1; k < j; k++ {
		sb.Write(t.get(k))
	}
	sb.Write(t.get(j)[:t.byteIn(j, e-t.d.Blocks[j].Char)])
	return sb.String()
}

// Damaged names the records file a damaged record is in.
func Damaged(idx, file string, off int64, err error) error {
	return &store.DamagedError{Index: idx, File: file, Err: fmt.Errorf("the record at byte %d: %w", off, err)}
}
