//go:build unix

package web

import (
	"errors"
	"os"
	"syscall"
)

// flock takes an exclusive flock(2) on f without waiting: ErrStudyLocked
// when another open file holds it (another process, or another open of the
// file in this one).
func flock(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return ErrStudyLocked
	}
	return err
}
