package store

import (
	"fmt"
	"os"
	"path/filepath"
)

// Lock takes the index's write lock (the file idx.lock) and returns
// its release.
func Lock(idx string) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(idx), 0o755); err != nil {
		return nil, err
	}
	lf, err := os.OpenFile(idx+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if ok, err := lockFile(lf); err != nil {
		lf.Close()
		return nil, fmt.Errorf("locking %s.lock: %w", idx, err)
	} else if !ok {
		lf.Close()
		return nil, fmt.Errorf("%s: %w (%s.lock is held); wait for it to finish", idx, ErrLocked, idx)
	}
	return func() { lf.Close() }, nil
}
