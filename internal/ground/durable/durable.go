package durable

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes the file path through write: into a temporary file beside
// it (".name.tmp…"), synced, renamed over path, then the folder synced. A
// failure leaves path as it was and removes the temporary file, and so
// does a signal that ends the program (RemoveTempFiles). The file gets
// the permissions perm, or those of the regular file it replaces. A
// symbolic link at path is replaced by the file, never followed: the file
// it points to is left alone. Errors name path (or its folder) and the
// cause; write's own error is returned as it is.
func Write(path string, perm fs.FileMode, write func(*os.File) error) (err error) {
	mode := perm
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
	renamed := false
	defer func() {
		if err != nil && !renamed {
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
		return fmt.Errorf("%s: %w", path, unwrapRename(err))
	}
	renamed = true
	return SyncDir(filepath.Dir(path))
}

// WriteFile writes data to the file name in dir (Write): a new file is
// readable by its owner alone (0600).
func WriteFile(dir, name string, data []byte) error {
	return Write(filepath.Join(dir, name), 0o600, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	})
}

// WriteOutput writes with write to stdout, or, when out is not "", to the
// file out (Write, 0644 for a new file: a failed write leaves out as it
// was): a command's output option.
func WriteOutput(stdout io.Writer, out string, write func(io.Writer) error) error {
	if out == "" {
		return write(stdout)
	}
	return Write(out, 0o644, func(f *os.File) error { return write(f) })
}

// unwrapPath drops the path of an *fs.PathError (the temporary file's):
// the caller names the file.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// unwrapRename drops the paths of a failed rename: the caller names the
// file.
func unwrapRename(err error) error {
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
