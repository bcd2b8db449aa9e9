package scenario

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// WriteFileAtomic writes path through write into a temporary file beside it,
// syncs it and renames it into place, so that a failure (or a signal: see
// RemoveTempFiles) never leaves a half-written file behind. The new file
// keeps the mode of the file it replaces (0644 for a new one). A symbolic
// link at path is replaced by the file, never followed: the file it points
// to is left alone.
func WriteFileAtomic(path string, write func(*os.File) error) (err error) {
	mode := fs.FileMode(0o644)
	if st, err := os.Lstat(path); err == nil {
		switch {
		case st.IsDir():
			return fmt.Errorf("%s: a folder, not a file to write", path)
		case st.Mode().IsRegular():
			mode = st.Mode().Perm()
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	temps.add(tmp.Name())
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
		temps.remove(tmp.Name())
	}()
	if err = write(tmp); err != nil {
		return err
	}
	if err = tmp.Chmod(mode); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	return nil
}

// WriteOutput writes with write to stdout, or, when out is not "", to the
// file out (WriteFileAtomic: a failed write leaves out as it was): a
// command's --out.
func WriteOutput(stdout io.Writer, out string, write func(io.Writer) error) error {
	if out == "" {
		return write(stdout)
	}
	return WriteFileAtomic(out, func(f *os.File) error { return write(f) })
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// tempSet is the temporary files being written.
type tempSet struct {
	mu    sync.Mutex
	names map[string]bool
}

var temps = &tempSet{names: map[string]bool{}}

func (t *tempSet) add(n string) {
	t.mu.Lock()
	t.names[n] = true
	t.mu.Unlock()
}

func (t *tempSet) remove(n string) {
	t.mu.Lock()
	delete(t.names, n)
	t.mu.Unlock()
}

// RemoveTempFiles removes the temporary files WriteFileAtomic is writing:
// a command calls it when a signal ends it, so that nothing half-written
// is left behind.
func RemoveTempFiles() {
	temps.mu.Lock()
	defer temps.mu.Unlock()
	for n := range temps.names {
		os.Remove(n)
	}
	clear(temps.names)
}
