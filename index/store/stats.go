package store

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/blevesearch/vellum"

	"github.com/readsim/readsim/internal/ground/durable"
)

// Collection statistics kept beside the Bleve index.
//
// Browse scores candidate elements with BM25 against the collection of all
// candidate elements: it needs their number, their average length and, for
// each query term, the number of elements that contain it. Those statistics
// are all browse reads of the elements, so they are kept in a file of their
// own rather than in a Bleve index of one document per element: a finite
// state transducer (elements.fst, built with vellum, Bleve's own FST library)
// maps each term to its element frequency, and the manifest records each
// article's number of elements and their summed length. Building 166k element
// documents took about as much CPU as the articles index itself; counting
// terms takes a few percent of it.
//
// Fetch passes Bleve the articles' field lengths from the manifest (see
// Index.loadStats), so neither score depends on how the index is split into
// segments.

// ElemDFName is the file of the element frequencies in the index folder.
const ElemDFName = "elements.fst"

// WriteElemDF writes dir/elements.fst: the element frequencies of old (nil
// for none) plus delta. A term whose frequency drops to zero is left out; a
// negative frequency means that delta removes what old does not hold, an
// inconsistent index. Errors name the index idx that dir will become.
func WriteElemDF(dir, idx string, old *vellum.FST, delta map[string]int64) error {
	keys := make([]string, 0, len(delta))
	for k, v := range delta {
		if v != 0 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	b, err := vellum.New(&buf, nil)
	if err != nil {
		return err
	}
	insert := func(k []byte, v int64) error {
		switch {
		case v < 0:
			return fmt.Errorf("index %s: element frequency of %q below zero: the index is inconsistent; build it again with --rebuild", idx, k)
		case v == 0:
			return nil
		}
		return b.Insert(k, uint64(v))
	}
	var it *vellum.FSTIterator
	if old != nil {
		it, err = old.Iterator(nil, nil)
		if errors.Is(err, vellum.ErrIteratorDone) {
			it, err = nil, nil
		}
		if err != nil {
			return fmt.Errorf("index %s: %s: %w; build it again with --rebuild", idx, ElemDFName, err)
		}
	}
	for i := 0; it != nil || i < len(keys); {
		var k []byte
		var v uint64
		if it != nil {
			k, v = it.Current()
		}
		if it == nil || (i < len(keys) && keys[i] < string(k)) {
			err = insert([]byte(keys[i]), delta[keys[i]])
			i++
		} else {
			n := int64(v)
			if i < len(keys) && keys[i] == string(k) {
				n += delta[keys[i]]
				i++
			}
			if err = insert(k, n); err == nil {
				it, err = advance(it)
			}
		}
		if err != nil {
			return fmt.Errorf("index %s: %s: %w; build it again with --rebuild", idx, ElemDFName, err)
		}
	}
	if err := b.Close(); err != nil {
		return err
	}
	return durable.WriteFile(dir, ElemDFName, buf.Bytes())
}

// advance moves an FST iterator on; it returns nil at the end.
func advance(it *vellum.FSTIterator) (*vellum.FSTIterator, error) {
	if err := it.Next(); err != nil {
		if errors.Is(err, vellum.ErrIteratorDone) {
			return nil, nil
		}
		return it, err
	}
	return it, nil
}

// CheckElemDF checks that dir/elements.fst can be read through, as an
// update of the index reads it.
func CheckElemDF(dir string) error {
	df, err := LoadElemDF(dir)
	if err != nil {
		return err
	}
	it, err := df.Iterator(nil, nil)
	for err == nil {
		it, err = advance(it)
		if it == nil {
			break
		}
	}
	if err != nil && !errors.Is(err, vellum.ErrIteratorDone) {
		return fmt.Errorf("%s: %w", filepath.Join(dir, ElemDFName), err)
	}
	return nil
}

// LoadElemDF reads dir/elements.fst.
func LoadElemDF(dir string) (*vellum.FST, error) {
	p := filepath.Join(dir, ElemDFName)
	b, err := ReadSmall(p, MaxArticlesJSON)
	if err != nil {
		return nil, err
	}
	f, err := vellum.Load(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return f, nil
}

// StampFile returns the size and CRC-32 of the file p (elements.fst), for
// the manifest.
func StampFile(p string) (*RecordsStamp, error) {
	// a FIFO in its place would block the open: a regular file only
	if st, err := os.Stat(p); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: p, Err: errors.New("not a regular file")}
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: p, Err: errors.New("not a regular file")}
	}
	h := crc32.NewIEEE()
	n, err := io.Copy(h, f)
	if err != nil {
		return nil, err
	}
	return &RecordsStamp{Size: n, CRC: h.Sum32()}, nil
}

// CheckElemDFStamp checks dir/elements.fst against the stamp the manifest
// gives (nil: an index built before it was recorded, not checked): a
// truncated or replaced file is an index damaged (*DamagedError).
func CheckElemDFStamp(idx, dir string, want *RecordsStamp) error {
	if want == nil {
		return nil
	}
	p := filepath.Join(dir, ElemDFName)
	got, err := StampFile(p)
	switch {
	case err != nil:
		return &DamagedError{Index: idx, File: p, Err: Unwrap(err)}
	case got.Size != want.Size:
		return &DamagedError{Index: idx, File: p, Err: fmt.Errorf("%d bytes, the manifest records %d: truncated or replaced", got.Size, want.Size)}
	case got.CRC != want.CRC:
		return &DamagedError{Index: idx, File: p, Err: fmt.Errorf("checksum %08x, the manifest records %08x: overwritten or replaced", got.CRC, want.CRC)}
	}
	return nil
}
