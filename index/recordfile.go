package index

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

// recordsPath is the records file of shard dir.
func recordsPath(shardDir string) string { return filepath.Join(shardDir, recordsName) }

// recordWriter appends records to a shard's records file, keeping the
// CRC-32 of all its bytes as it writes them (the file is not read again).
type recordWriter struct {
	path string
	f    *os.File
	w    *bufio.Writer
	off  int64
	crc  uint32
}

// createRecords creates the records file p of a new shard.
func createRecords(p string) (*recordWriter, error) {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	w := &recordWriter{path: p, f: f, w: bufio.NewWriterSize(f, 1<<20)}
	w.w.WriteString(recordsMagic)
	w.off = int64(len(recordsMagic))
	w.crc = crc32.ChecksumIEEE([]byte(recordsMagic))
	return w, nil
}

// appendRecords opens the records file p of a shard being updated (a
// copy of the old index's, checked against its stamp old) to append to it.
func appendRecords(p string, old store.RecordsStamp) (*recordWriter, error) {
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	head := make([]byte, len(recordsMagic))
	if _, err := io.ReadFull(f, head); err != nil || string(head) != recordsMagic {
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
	return &recordWriter{path: p, f: f, w: bufio.NewWriterSize(f, 1<<20), off: off, crc: old.CRC}, nil
}

// add appends a record and returns its offset.
func (w *recordWriter) add(rec []byte) (int64, error) {
	off := w.off
	if _, err := w.w.Write(rec); err != nil {
		return 0, err
	}
	w.off += int64(len(rec))
	w.crc = crc32.Update(w.crc, crc32.IEEETable, rec)
	return off, nil
}

// finish writes what is buffered, syncs and closes the file, and returns
// its stamp.
func (w *recordWriter) finish() (store.RecordsStamp, error) {
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

// abort closes the file without syncing it (the build is failing).
func (w *recordWriter) abort() { w.f.Close() }

// recordFile is a shard's records file, mapped in memory.
type recordFile struct {
	idx, path string // the index (for errors) and the file
	data      []byte
}

// openRecords maps the records file p of the index idx, after checking it
// against its stamp from the manifest: a regular file of that size,
// starting with recordsMagic, whose CRC-32 matches (computed once per
// file and process, as segments are: verified).
func openRecords(idx, p string, want store.RecordsStamp) (*recordFile, error) {
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
	case st.Size() < int64(len(recordsMagic)) || st.Size() > maxRecordsFile:
		return nil, damaged(fmt.Errorf("%d bytes, not a records file", st.Size()))
	}
	data, err := mapFile(f, int(st.Size()))
	if err != nil {
		return nil, damaged(err)
	}
	rf := &recordFile{idx: idx, path: p, data: data}
	if string(data[:len(recordsMagic)]) != recordsMagic {
		rf.close()
		return nil, damaged(errors.New("not a readsim records file"))
	}
	if !store.Verified(p, st) {
		// read through the file, not the mapping: a search then brings
		// into memory the records it reads, not the whole file
		h := crc32.NewIEEE()
		if _, err := io.Copy(h, io.NewSectionReader(f, 0, st.Size())); err != nil {
			rf.close()
			return nil, damaged(store.Unwrap(err))
		}
		if sum := h.Sum32(); sum != want.CRC {
			rf.close()
			return nil, damaged(fmt.Errorf("checksum %08x, its manifest says %08x: overwritten", sum, want.CRC))
		}
		store.SetVerified(p, st)
	}
	return rf, nil
}

// maxRecordsFile is the largest records file a shard may have (the
// largest Go slice a 64-bit machine maps).
const maxRecordsFile = 1 << 40

// read decodes the record at place p (its title, language and path only
// when head is true; its lists in arena when not nil); a place outside the
// file or a record that does not decode is a DamagedError naming the file.
func (f *recordFile) read(p recPlace, head bool, arena *blockArena) (*record, error) {
	off, n := p.off, int64(p.n)
	if off < int64(len(recordsMagic)) || n < 0 || off > int64(len(f.data)) || n > int64(len(f.data))-off {
		return nil, recordError(f.idx, f.path, off, fmt.Errorf("%d bytes at byte %d lie outside the file's %d", n, off, len(f.data)))
	}
	d, err := decodeRecord(f.data[off:off+n:off+n], head, arena)
	if err != nil {
		return nil, recordError(f.idx, f.path, off, err)
	}
	return d, nil
}

// close unmaps the file.
func (f *recordFile) close() error {
	if f == nil || f.data == nil {
		return nil
	}
	err := unmapFile(f.data)
	f.data = nil
	return err
}
