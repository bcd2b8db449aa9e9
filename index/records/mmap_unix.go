//go:build unix

package records

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f read-only.
func mapFile(f *os.File, size int) ([]byte, error) {
	if size == 0 {
		return []byte{}, nil
	}
	return syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
}

// unmapFile unmaps what mapFile mapped.
func unmapFile(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	return syscall.Munmap(b)
}
