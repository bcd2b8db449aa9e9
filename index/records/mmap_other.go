//go:build !unix

package records

import (
	"io"
	"os"
)

// mapFile reads the first size bytes of f where memory mapping is not
// used.
func mapFile(f *os.File, size int) ([]byte, error) {
	b := make([]byte, size)
	_, err := io.ReadFull(io.NewSectionReader(f, 0, int64(size)), b)
	return b, err
}

// unmapFile does nothing: mapFile read the file into memory.
func unmapFile(b []byte) error { return nil }
