package records

import (
	"bufio"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	"github.com/readsim/readsim/index/store"
)

// A shard's records file (records.go): written by a build, mapped in
// memory by a search.

// Path is the records file of shard dir.
func Path(shardDir string) string { return filepath.Join(shardDir, FileName) }

// Writer appends records to a shard's records file, keeping the
// CRC-32 of all its bytes as it writes them (the file is not read again).
type Writer struct {
	path string
	f    *os.File
	w    *bufio.Writer
	off  int64
	crc  uint32
}

// Create creates the records file p of a new shard.
func Create(p string) (*Writer, error) {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	w := &Writer{path: p, f: f, w: bufio.NewWriterSize(f, 1<<20)}
	w.w.WriteString(Magic)
	w.off = int64(len(Magic))
	w.crc = crc32.ChecksumIEEE([]byte(Magic))
	return w, nil
}

// Append opens the records file p of a shard being updated (a
// copy of the old index's, checked against its stamp old) to append to it.
func Append(p string, old store.RecordsStamp) (*Writer, error) {
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	head := make([]byte, len(Magic))
	if _, err := io.ReadFull(f, head); err != nil || string(head) != Magic {
		f.Close()
		return nil, fmt.Errorf("%s: not a readsim records file", p)
	}
	off, err := f.Seek(0, io.SeekEnd)
	if err == nil && off != old.Size {
		err = fmt.Errorf("%s: %d bytes, its manifest says %d", p, off, old.Size)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Writer{path: p, f: f, w: bufio.NewWriterSize(f, 1<<20), off: off, crc: old.CRC}, nil
}

// Add appends a record and returns its offset.
func (w *Writer) Add(rec []byte) (int64, error) {
	off := w.off
	if _, err := w.w.Write(rec); err != nil {
		return 0, err
	}
	w.off += int64(len(rec))
	w.crc = crc32.Update(w.crc, crc32.IEEETable, rec)
	return off, nil
}

// Finish writes what is buffered, syncs and closes the file, and returns
// its stamp.
func (w *Writer) Finish() (store.RecordsStamp, error) {
	err := w.w.Flush()
	if err == nil {
		err = w.f.Sync()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return store.RecordsStamp{}, err
	}
	return store.RecordsStamp{Size: w.off, CRC: w.crc}, nil
}

// Abort closes the file without syncing it (the build is failing).
func (w *Writer) Abort() { w.f.Close() }

// File is a shard's records file, mapped in memory.
type File struct {
	Index, Path string // the index (for errors) and the file
	data        []byte
	heap        bool // data is in memory, not mapped (Held)
}

// Open maps the records file p of the index idx, after checking it
// against its stamp from the manifest: a regular file of that size,
// starting with Magic, whose CRC-32 matches (computed once per
// file and process, as segments are: verified).
func Open(idx, p string, want store.RecordsStamp) (*File, error) {
	damaged := func(err error) error { return &store.DamagedError{Index: idx, File: p, Err: err} }
	if st, err := os.Stat(p); err != nil {
		return nil, damaged(store.Unwrap(err))
	} else if !st.Mode().IsRegular() {
		return nil, damaged(errors.New("not a regular file")) // a FIFO would block Open
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, damaged(store.Unwrap(err))
	}
	defer f.Close()
	st, err := f.Stat()
	switch {
	case err != nil:
		return nil, damaged(store.Unwrap(err))
	case !st.Mode().IsRegular():
		return nil, damaged(errors.New("not a regular file"))
	case st.Size() != want.Size:
		return nil, damaged(fmt.Errorf("%d bytes, its manifest says %d: truncated or overwritten", st.Size(), want.Size))
	case st.Size() < int64(len(Magic)) || st.Size() > maxRecordsFile:
		return nil, damaged(fmt.Errorf("%d bytes, not a records file", st.Size()))
	}
	data, err := mapFile(f, int(st.Size()))
	if err != nil {
		return nil, damaged(err)
	}
	rf := &File{Index: idx, Path: p, data: data}
	if string(data[:len(Magic)]) != Magic {
		rf.Close()
		return nil, damaged(errors.New("not a readsim records file"))
	}
	if !store.Verified(p, st) {
		// read through the file, not the mapping: a search then brings
		// into memory the records it reads, not the whole file
		h := crc32.NewIEEE()
		if _, err := io.Copy(h, io.NewSectionReader(f, 0, st.Size())); err != nil {
			rf.Close()
			return nil, damaged(store.Unwrap(err))
		}
		if sum := h.Sum32(); sum != want.CRC {
			rf.Close()
			return nil, damaged(fmt.Errorf("checksum %08x, its manifest says %08x: overwritten", sum, want.CRC))
		}
		store.SetVerified(p, st)
	}
	return rf, nil
}

// maxRecordsFile is the largest records file a shard may have (the
// largest Go slice a 64-bit machine maps).
const maxRecordsFile = 1 << 40

// Read decodes the record at place p (its title, language and path only
// when head is true; its lists in arena when not nil); a place outside the
// file or a record that does not decode is a DamagedError naming the file.
func (f *File) Read(p Place, head bool, arena *Arena) (*Record, error) {
	off, n := p.Off, int64(p.N)
	if off < int64(len(Magic)) || n < 0 || off > int64(len(f.data)) || n > int64(len(f.data))-off {
		return nil, Damaged(f.Index, f.Path, off, fmt.Errorf("%d bytes at byte %d lie outside the file's %d", n, off, len(f.data)))
	}
	d, err := Decode(f.data[off:off+n:off+n], head, arena)
	if err != nil {
		return nil, Damaged(f.Index, f.Path, off, err)
	}
	return d, nil
}

// Close unmaps the file.
func (f *File) Close() error {
	if f == nil || f.data == nil {
		return nil
	}
	if f.heap {
		f.data = nil
		return nil
	}
	err := unmapFile(f.data)
	f.data = nil
	return err
}

// Held returns a records file holding the one record rec, in memory, and
// the record's place in it: a record read from elsewhere than a shard's
// file (an index on an OpenSearch cluster keeps each article's record as
// its document's payload). idx and name name it in errors (the index and
// the document).
func Held(idx, name string, rec []byte) (*File, Place) {
	data := make([]byte, 0, len(Magic)+len(rec))
	data = append(append(data, Magic...), rec...)
	return &File{Index: idx, Path: name, data: data, heap: true}, Place{Off: int64(len(Magic)), N: uint32(len(rec))}
}
