//go:build unix

package durable

import (
	"errors"
	"os"
	"syscall"
)

// SyncDir flushes the entries of the folder dir (files created or renamed
// in it) to disk, so that a power loss does not undo them. A file system
// that cannot sync a folder (EINVAL, ENOTSUP) is not an error.
func SyncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) || errors.Is(err, errors.ErrUnsupported) {
		err = nil
	}
	return errors.Join(err, f.Close())
}
