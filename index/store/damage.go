package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A damaged index (docs/safety.md): what can be checked is checked
// when an index is opened (checkShard: every segment file of each shard's
// last snapshot is there, with a plausible footer and, once per file and
// process, its checksum); what cannot be (a segment the checks pass but
// the zap library cannot read) panics inside Bleve, which readsim
// recovers at the boundary where it calls Bleve (guard) and reports as a
// DamagedError.

// DamagedError means that a file of an index is damaged: missing,
// truncated, or not what Bleve wrote. Commands report it with exit status
// 2 (the index is the user's input; building it again repairs it).
type DamagedError struct {
	Index string // the index folder
	File  string // the damaged file, or the shard folder when the file is not known
	Err   error  // what is wrong
}

// BadInput reports that the error is bad input: readsim exits with
// status 2 (docs/cli.md, "Exit status").
func (e *DamagedError) BadInput() bool { return true }

// Error names the index, the file and the problem, and says how to
// repair it.
func (e *DamagedError) Error() string {
	return fmt.Sprintf("index %s is damaged: %s: %v; build it again with readsim index --rebuild", e.Index, e.File, e.Err)
}

// Unwrap returns the cause.
func (e *DamagedError) Unwrap() error { return e.Err }

// zapFooterSize is the size of a zap v16 segment's footer: the number of
// documents, the stored, fields, sections and doc-value offsets (8 bytes
// each), the chunk mode, the version and the CRC-32 of every byte before
// it (4 bytes each). See zapx/v16 write.go, persistFooter.
const zapFooterSize = 5*8 + 3*4

// zapVersion is the version of the zap segments Bleve writes (zapx/v16).
const zapVersion = 16

// checkShard checks the Bleve index in the shard folder dir of the index
// idx before Bleve opens it: its index_meta.json parses, its store's
// root.bolt opens, and every segment file its last snapshot lists exists
// with a zap footer whose offsets lie inside the file and whose CRC-32
// matches (verifySegment). Bleve itself would log a segment it cannot
// open and fall back to an earlier snapshot, or to none (an empty index:
// every search "no match"), and panic on a truncated one.
func checkShard(idx, dir string, want []SegmentStamp) error {
	damaged := func(file string, err error) error { return &DamagedError{Index: idx, File: file, Err: err} }
	meta := filepath.Join(dir, "index_meta.json")
	b, err := ReadSmall(meta, MaxManifest)
	if err != nil {
		return damaged(meta, Unwrap(err))
	}
	var m struct {
		IndexType string `json:"index_type"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return damaged(meta, err)
	}
	if m.IndexType != "scorch" {
		return damaged(meta, fmt.Errorf("index type %q, want scorch", m.IndexType))
	}
	root := filepath.Join(dir, "store", "root.bolt")
	st, err := os.Stat(root)
	if err != nil {
		return damaged(root, Unwrap(err))
	}
	if !st.Mode().IsRegular() {
		return damaged(root, errors.New("not a regular file"))
	}
	segs, err := snapshotSegments(root)
	if err != nil {
		if errors.Is(err, errBoltLocked) {
			return fmt.Errorf("index %s: %w (its files are locked); try again when it has finished", idx, ErrLocked)
		}
		return damaged(root, err)
	}
	for _, s := range segs {
		p := filepath.Join(dir, "store", s)
		if err := verifySegment(p); err != nil {
			return damaged(p, err)
		}
	}
	if want == nil {
		return nil
	}
	got, err := segmentStamps(dir, segs)
	if err != nil {
		return damaged(root, err)
	}
	return sameSegments(idx, dir, got, want)
}

// sameSegments tells a shard's segments (got) from those its manifest
// records (want), naming the first that differs.
func sameSegments(idx, dir string, got, want []SegmentStamp) error {
	store := filepath.Join(dir, "store")
	for i, g := range got {
		p := filepath.Join(store, g.Name)
		if i >= len(want) {
			return &DamagedError{Index: idx, File: p, Err: fmt.Errorf("a segment the manifest does not record (it records %d): not this index's", len(want))}
		}
		if w := want[i]; g != w {
			return &DamagedError{Index: idx, File: p, Err: fmt.Errorf("%d bytes with checksum %08x, the manifest records %s, %d bytes with checksum %08x: a segment of another index, or replaced", g.Size, g.CRC, w.Name, w.Size, w.CRC)}
		}
	}
	if len(got) < len(want) {
		return &DamagedError{Index: idx, File: filepath.Join(store, want[len(got)].Name), Err: fmt.Errorf("the manifest records %d segments, the shard's last snapshot lists %d: not this index's snapshot", len(want), len(got))}
	}
	return nil
}

// ShardSegments returns the stamps of the segment files of the last
// snapshot of the shard in dir (closed), for the manifest.
func ShardSegments(dir string) ([]SegmentStamp, error) {
	segs, err := snapshotSegments(filepath.Join(dir, "store", "root.bolt"))
	if err != nil {
		return nil, err
	}
	return segmentStamps(dir, segs)
}

// segmentStamps stamps the segment files segs of the shard in dir: their
// size and the CRC-32 their footer ends with (verifySegment checks it).
func segmentStamps(dir string, segs []string) ([]SegmentStamp, error) {
	out := make([]SegmentStamp, 0, len(segs))
	for _, s := range segs {
		f, err := os.Open(filepath.Join(dir, "store", s))
		if err != nil {
			return nil, err
		}
		st, err := f.Stat()
		var crc [4]byte
		if err == nil {
			_, err = f.ReadAt(crc[:], st.Size()-4)
		}
		f.Close()
		if err != nil {
			return nil, err
		}
		out = append(out, SegmentStamp{Name: s, Size: st.Size(), CRC: binary.BigEndian.Uint32(crc[:])})
	}
	return out, nil
}

// errBoltLocked means that root.bolt is locked by a process writing it.
var errBoltLocked = errors.New("root.bolt is locked")

// snapshotSegments returns the segment files (relative to the store
// folder) of the last snapshot recorded in the store's root.bolt, where
// scorch keeps them: the bucket "s" holds a bucket per snapshot, keyed by
// its epoch in ascending order; a snapshot's bucket holds its metadata
// ("m", with the segment type and version), its internal values ("i")
// and a bucket per segment holding the segment's file name ("p"). See
// bleve/v2 index/scorch/persister.go, loadSnapshot.
func snapshotSegments(root string) (segs []string, err error) {
	defer func() {
		// bbolt panics on some damaged pages
		if r := recover(); r != nil {
			segs, err = nil, fmt.Errorf("unreadable: %v", r)
		}
	}()
	db, err := bolt.Open(root, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		if errors.Is(err, bolt.ErrTimeout) {
			return nil, errBoltLocked
		}
		return nil, err
	}
	defer db.Close()
	err = db.View(func(tx *bolt.Tx) error {
		snaps := tx.Bucket([]byte("s"))
		if snaps == nil {
			return errors.New("no snapshot in it")
		}
		k, _ := snaps.Cursor().Last()
		if k == nil {
			return errors.New("no snapshot in it")
		}
		snap := snaps.Bucket(k)
		if snap == nil {
			return fmt.Errorf("snapshot %x is not a bucket", k)
		}
		// the version is written big-endian in a 5-byte buffer
		// (persister.go)
		if md := snap.Bucket([]byte("m")); md == nil {
			return fmt.Errorf("snapshot %x has no metadata", k)
		} else if t, v := md.Get([]byte("type")), md.Get([]byte("version")); string(t) != "zap" || len(v) < 4 || binary.BigEndian.Uint32(v) != zapVersion {
			return fmt.Errorf("snapshot %x: segments of type %q version % x, want zap %d", k, t, v, zapVersion)
		}
		return snap.ForEachBucket(func(sk []byte) error {
			if sk[0] == 'i' || sk[0] == 'm' {
				return nil
			}
			p := snap.Bucket(sk).Get([]byte("p"))
			if len(p) == 0 || strings.ContainsAny(string(p), `/\`) || string(p) == ".." {
				return fmt.Errorf("snapshot %x: segment %x has no file name", k, sk)
			}
			segs = append(segs, string(p))
			return nil
		})
	})
	return segs, err
}

// verified remembers the segment files whose checksum matched, by path,
// size and modification time: scorch never changes a segment file once
// written (an update of the index hard-links the unchanged ones), so a
// server reloading a rebuilt index checks only its new segments.
var verified sync.Map // segmentStamp → struct{}

type segmentStamp struct {
	path  string
	size  int64
	mtime int64
}

// Verified reports whether the file p, as st describes it, was checked
// whole in this process (verified).
func Verified(p string, st os.FileInfo) bool {
	_, ok := verified.Load(segmentStamp{path: p, size: st.Size(), mtime: st.ModTime().UnixNano()})
	return ok
}

// SetVerified remembers that the file p, as st describes it, was checked
// whole (verified).
func SetVerified(p string, st os.FileInfo) {
	verified.Store(segmentStamp{path: p, size: st.Size(), mtime: st.ModTime().UnixNano()}, struct{}{})
}

// verifySegment checks the zap segment file p: its footer (zapFooterSize
// bytes at its end) gives the version Bleve writes and offsets inside the
// file, and the CRC-32 it ends with is that of every byte before it.
func verifySegment(p string) error {
	if st, err := os.Stat(p); err != nil {
		return Unwrap(err)
	} else if !st.Mode().IsRegular() {
		return errors.New("not a regular file") // a FIFO would block Open
	}
	f, err := os.Open(p)
	if err != nil {
		return Unwrap(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Unwrap(err)
	}
	if !st.Mode().IsRegular() {
		return errors.New("not a regular file")
	}
	size := st.Size()
	if size < zapFooterSize {
		return fmt.Errorf("truncated: %d bytes, shorter than a segment's %d-byte footer", size, zapFooterSize)
	}
	if Verified(p, st) {
		return nil
	}
	foot := make([]byte, zapFooterSize)
	if _, err := f.ReadAt(foot, size-zapFooterSize); err != nil {
		return err
	}
	if err := checkFooter(foot, uint64(size-zapFooterSize)); err != nil {
		return err
	}
	h := crc32.NewIEEE()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, size-4)); err != nil {
		return err
	}
	if want := binary.BigEndian.Uint32(foot[zapFooterSize-4:]); h.Sum32() != want {
		return fmt.Errorf("checksum %08x, its footer says %08x: truncated or overwritten", h.Sum32(), want)
	}
	SetVerified(p, st)
	return nil
}

// checkFooter checks a zap v16 footer of a segment whose data (the file
// without its footer) is n bytes long: its version, and that its offsets
// and its documents' stored-field index lie inside the data.
func checkFooter(foot []byte, n uint64) error {
	r := bytes.NewReader(foot)
	var f struct {
		NumDocs, Stored, Fields, Sections, DocValues uint64
		ChunkMode, Version, CRC                      uint32
	}
	if err := binary.Read(r, binary.BigEndian, &f); err != nil {
		return err
	}
	switch {
	case f.Version != zapVersion:
		return fmt.Errorf("footer: zap version %d, want %d: truncated or overwritten", f.Version, zapVersion)
	case f.Stored > n || f.Fields > n || f.Sections > n:
		return fmt.Errorf("footer: offsets %d, %d, %d past the %d bytes of data: truncated or overwritten", f.Stored, f.Fields, f.Sections, n)
	case f.NumDocs > (n-f.Stored)/8:
		return fmt.Errorf("footer: %d documents cannot fit in %d bytes: truncated or overwritten", f.NumDocs, n)
	}
	return nil
}

// Guard runs f, a call into Bleve on the index idx, and turns a panic of
// the libraries that read the index's files (Bleve, zap, bbolt, vellum,
// roaring) into a DamagedError naming file (a shard folder, or the index
// folder when the shard is not known). Any other panic is a bug of
// readsim's: it goes on, with its stack. A panic on another goroutine is
// not recovered here: parallel and shardSet.each raise their goroutines'
// panics on the caller's (as a goroutinePanic, with the goroutine's stack).
func Guard(idx, file string, f func() error) (err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		val, stack := r, debug.Stack()
		if gp, ok := r.(*goroutinePanic); ok {
			val, stack = gp.val, gp.stack
		}
		if !fromIndexLibrary(stack) {
			panic(r)
		}
		err = &DamagedError{Index: idx, File: file, Err: fmt.Errorf("Bleve failed reading it: %v", val)}
	}()
	return f()
}

// indexLibraries are the packages that read an index's files: a panic
// with one of them on its stack comes from a file they could not read.
var indexLibraries = []string{"github.com/blevesearch/", "go.etcd.io/bbolt", "github.com/RoaringBitmap/"}

// fromIndexLibrary reports whether a panic's stack passes through one of
// indexLibraries.
func fromIndexLibrary(stack []byte) bool {
	for _, l := range indexLibraries {
		if bytes.Contains(stack, []byte(l)) {
			return true
		}
	}
	return false
}

// goroutinePanic is a panic of one of parallel's goroutines, raised again
// on the caller's goroutine: its value and the stack of the goroutine it
// happened on.
type goroutinePanic struct {
	val   any
	stack []byte
}

// String is the panic's value and the goroutine's stack, as a crash would
// print them.
func (p *goroutinePanic) String() string {
	return fmt.Sprintf("%v\n\n[on a goroutine of parallel]\n%s", p.val, p.stack)
}

// CheckShards checks every shard of the index idx in the folder dir
// (checkShard).
func CheckShards(idx, dir string, m *Manifest) error {
	for i := range max(m.Shards, 1) {
		var want []SegmentStamp
		if i < len(m.Segments) {
			want = m.Segments[i]
			if want == nil {
				want = []SegmentStamp{}
			}
		}
		if err := checkShard(idx, ShardDir(dir, i), want); err != nil {
			return err
		}
	}
	return nil
}

// Parallel runs f(i) for i in [0, n), on goroutines when n > 1, and
// returns their errors. A panic of f (the zap library reading a damaged
// segment) is raised again on the caller's goroutine, with the stack of
// the goroutine it happened on (goroutinePanic), where guard turns it
// into an error.
func Parallel(n int, f func(i int) error) error {
	if n == 1 {
		return f(0)
	}
	errs := make([]error, n)
	panics := make([]any, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					panics[i] = &goroutinePanic{r, debug.Stack()}
				}
			}()
			errs[i] = f(i)
		}()
	}
	wg.Wait()
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
	return errors.Join(errs...)
}
