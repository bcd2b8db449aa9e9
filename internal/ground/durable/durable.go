package durable

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
)

// lstat is os.Lstat; a test makes it tell of a device.
var lstat = os.Lstat

// Write writes the file path through write: into a temporary file beside
// it (".name.tmp…"), synced, renamed over path, then the folder synced. A
// failure leaves path as it was and removes the temporary file, and so
// does a signal that ends the program (RemoveTempFiles). The file gets
// the permissions perm, or those of the regular file it replaces. A
// symbolic link at path is replaced by the file, never followed: the file
// it points to is left alone. Only a regular file is ever replaced: a
// folder, a FIFO, a socket or a device at path is an error that leaves it
// as it was (WriteOutput writes into them as a stream). Errors name path
// (or its folder) and the cause; write's own error is returned as it is.
func Write(path string, perm fs.FileMode, write func(*os.File) error) (err error) {
	mode := perm
	if st, err := lstat(path); err == nil {
		switch m := st.Mode(); {
		case st.IsDir():
			return fmt.Errorf("%s: a folder, not a file to write", path)
		case m.IsRegular():
			mode = m.Perm()
		case m&fs.ModeSymlink == 0:
			return &SpecialError{Path: path, Kind: Kind(m)}
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
// was): a command's output option. When out is a FIFO, a device or a
// socket, the output is written into it as a stream (Stream), never
// renamed over it.
func WriteOutput(stdout io.Writer, out string, write func(io.Writer) error) error {
	if out == "" {
		return write(stdout)
	}
	err := Write(out, 0o644, func(f *os.File) error { return write(f) })
	var se *SpecialError
	if errors.As(err, &se) {
		return Stream(out, se.Kind, write)
	}
	return err
}

// SpecialError is a path that Write would replace but that is no regular
// file: a FIFO, a socket or a device. Write leaves it as it was.
type SpecialError struct {
	Path string
	Kind string // Kind of its mode: "a FIFO", "a socket", "a device"
}

// Error says what the path is.
func (e *SpecialError) Error() string {
	return fmt.Sprintf("%s: %s, not a regular file: readsim replaces only a regular file", e.Path, e.Kind)
}

// Kind names the kind of a file that is neither regular, a folder nor a
// symbolic link.
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// Stream writes with write into path, a FIFO, a device or a socket (kind,
// as Kind names it), as a shell's redirection does: opened for writing
// without truncating or creating anything (a FIFO waits for its reader), a
// socket connected to. Nothing is renamed or removed.
func Stream(path, kind string, write func(io.Writer) error) error {
	if kind == "a socket" {
		c, err := net.Dial("unix", path)
		if err != nil {
			return fmt.Errorf("%s: a socket that takes no connection: %w", path, unwrapPath(err))
		}
		defer c.Close()
		if err := write(c); err != nil {
			return err
		}
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	return nil
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
