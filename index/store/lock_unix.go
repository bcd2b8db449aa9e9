//go:build unix

package store

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive, non-blocking lock on f; false when another
// process holds it.
func lockFile(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == syscall.EWOULDBLOCK {
		return false, nil
	}
	return err == nil, err
}
