//go:build unix

package index

import (
	"errors"
	"os"
	"syscall"
)

// syncDir flushes the entries of the folder dir (files created or renamed
// in it) to disk, so that a power loss does not undo them. A file system
// that cannot sync a folder (EINVAL) is not an error.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) {
		err = nil
	}
	return errors.Join(err, f.Close())
}
