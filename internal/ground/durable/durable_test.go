package durable

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFile: a file is written whole, replaces the old one, and
// leaves no temporary file; a folder that does not exist is an error
// that leaves nothing.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	for _, want := range []string{"first\n", "second, longer\n"} {
		if err := WriteFile(dir, "f.json", []byte(want)); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(filepath.Join(dir, "f.json")); err != nil || string(got) != want {
			t.Errorf("f.json = %q, %v; want %q", got, err, want)
		}
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("%d files in the folder, want f.json alone", len(es))
	}
	if err := WriteFile(filepath.Join(dir, "missing"), "f.json", nil); err == nil {
		t.Error("a missing folder: no error")
	}
}

// TestWrite: a failing write leaves the old file and no temporary file; a
// successful one replaces it.
func TestWrite(t *testing.T) {
	dir, path := oldFile(t)
	err := Write(path, 0o644, func(f *os.File) error {
		f.WriteString("half")
		return errors.New("disk full")
	})
	if err == nil || err.Error() != "disk full" {
		t.Fatalf("error %v, want the write's own", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("after a failed write the file holds %q, want the old content", b)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*")); len(m) != 0 {
		t.Errorf("temporary files left behind: %v", m)
	}
	if err := Write(path, 0o644, func(f *os.File) error { _, err := f.WriteString("new"); return err }); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if b, _ := os.ReadFile(path); string(b) != "new" || st.Mode().Perm() != 0o644 {
		t.Errorf("file holds %q with mode %v, want new and 0644", b, st.Mode().Perm())
	}
}

// oldFile is a new folder holding out.txt, whose content is "old".
func oldFile(t *testing.T) (dir, path string) {
	dir = t.TempDir()
	path = filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

// TestWriteMode: a new file gets the permissions asked for, a replaced
// regular file keeps its own.
func TestWriteMode(t *testing.T) {
	for _, tc := range []struct {
		name string
		old  fs.FileMode // 0: no file before
		perm fs.FileMode
		want fs.FileMode
	}{
		{"new, output", 0, 0o644, 0o644},
		{"new, private", 0, 0o600, 0o600},
		{"replaces a private file", 0o600, 0o644, 0o600},
		{"replaces a shared file", 0o664, 0o600, 0o664},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f")
			if tc.old != 0 {
				if err := os.WriteFile(path, []byte("old"), tc.old); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path, tc.old); err != nil { // past the umask
					t.Fatal(err)
				}
			}
			if err := Write(path, tc.perm, func(f *os.File) error { _, err := f.WriteString("new"); return err }); err != nil {
				t.Fatal(err)
			}
			if st, err := os.Stat(path); err != nil || st.Mode().Perm() != tc.want {
				t.Errorf("mode %v (%v), want %v", st.Mode().Perm(), err, tc.want)
			}
		})
	}
}

// TestWriteRefuses: a folder at the path is an error that leaves it as it
// was; a symbolic link there is replaced by the file, and the file it
// pointed to is left alone.
func TestWriteRefuses(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	wrote := false
	if err := Write(sub, 0o644, func(*os.File) error { wrote = true; return nil }); err == nil || !strings.Contains(err.Error(), sub+": a folder") {
		t.Errorf("a folder at the path: error %v, want one that names it a folder", err)
	}
	if wrote {
		t.Error("a folder at the path: written before it was refused")
	}
	if st, err := os.Stat(sub); err != nil || !st.IsDir() {
		t.Errorf("the folder is gone: %v", err)
	}
	target, link := filepath.Join(dir, "target"), filepath.Join(dir, "link")
	if err := os.WriteFile(target, []byte("target"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := Write(link, 0o644, func(f *os.File) error { _, err := f.WriteString("new"); return err }); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || !st.Mode().IsRegular() {
		t.Errorf("the link was not replaced by a file: %v", err)
	}
	if b, _ := os.ReadFile(link); string(b) != "new" {
		t.Errorf("the new file holds %q", b)
	}
	if b, _ := os.ReadFile(target); string(b) != "target" {
		t.Errorf("the link's target was changed: it holds %q", b)
	}
}

// TestRemoveTempFiles: the temporary file being written is removed (as on
// a signal), so the write fails and leaves the old file.
func TestRemoveTempFiles(t *testing.T) {
	dir, path := oldFile(t)
	err := Write(path, 0o644, func(f *os.File) error {
		f.WriteString("half")
		if m, _ := filepath.Glob(filepath.Join(dir, ".out.txt.tmp*")); len(m) != 1 {
			t.Errorf("while writing: temporary files %v, want one", m)
		}
		RemoveTempFiles()
		return nil
	})
	if err == nil {
		t.Error("a write whose temporary file was removed: no error")
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 || es[0].Name() != "out.txt" {
		t.Errorf("the folder holds %d files, want out.txt alone", len(es))
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("the file holds %q, want the old content", b)
	}
}

// TestWriteOutput: standard output without a file, else the file, which a
// failed write leaves as it was.
func TestWriteOutput(t *testing.T) {
	var stdout bytes.Buffer
	hello := func(w io.Writer) error { _, err := io.WriteString(w, "hello\n"); return err }
	if err := WriteOutput(&stdout, "", hello); err != nil || stdout.String() != "hello\n" {
		t.Errorf("to standard output: %q, %v", stdout.String(), err)
	}
	out := filepath.Join(t.TempDir(), "out.txt")
	stdout.Reset()
	if err := WriteOutput(&stdout, out, hello); err != nil || stdout.Len() != 0 {
		t.Fatalf("to %s: %v; standard output %q", out, err, stdout.String())
	}
	if b, _ := os.ReadFile(out); string(b) != "hello\n" {
		t.Errorf("%s holds %q", out, b)
	}
	if err := WriteOutput(&stdout, out, func(w io.Writer) error { io.WriteString(w, "half"); return errors.New("disk full") }); err == nil {
		t.Error("a failed write: no error")
	}
	if b, _ := os.ReadFile(out); string(b) != "hello\n" {
		t.Errorf("after a failed write %s holds %q", out, b)
	}
}

// TestSyncDir: a folder syncs; a missing one is an error.
func TestSyncDir(t *testing.T) {
	if err := SyncDir(t.TempDir()); err != nil {
		t.Error(err)
	}
	if err := SyncDir(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing folder: no error")
	}
}
