package durable

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Append adds data at the end of the file path (created, readable by its
// owner alone, when missing) with one write(2) on a file opened with
// O_APPEND, then fsync; a new file's folder is synced too. A write or
// fsync that fails or comes short is cut off again (the file truncated
// to its size before), so a failed append leaves the file as it was: a
// log of lines (the reading study's audit log and tombstones) never holds
// half a line but at a crash, which its reader then drops. It refuses a
// path that is not a regular file.
func Append(path string, data []byte) error {
	return appendWith(path, data, (*os.File).Write)
}

// appendWith is Append with the file's write call (tests make it fail).
func appendWith(path string, data []byte, write func(*os.File, []byte) (int, error)) error {
	fresh := false
	if st, err := os.Lstat(path); err == nil {
		if !st.Mode().IsRegular() {
			return fmt.Errorf("%s: not a regular file to append to", path)
		}
	} else {
		fresh = true
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	n, err := write(f, data)
	if err == nil && n < len(data) {
		err = io.ErrShortWrite
	}
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		f.Truncate(st.Size())
		f.Sync()
		f.Close()
		return fmt.Errorf("%s: appending: %w", path, unwrapPath(err))
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if fresh {
		return SyncDir(filepath.Dir(path))
	}
	return nil
}
