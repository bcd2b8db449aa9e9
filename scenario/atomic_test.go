package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A failing write leaves the old file and no temporary file.
	err := WriteFileAtomic(path, func(f *os.File) error {
		f.WriteString("half")
		return errors.New("disk full")
	})
	if err == nil {
		t.Fatal("want the write's error")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("after a failed write the file holds %q, want the old content", b)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*")); len(m) != 0 {
		t.Errorf("temporary files left behind: %v", m)
	}
	// A successful write replaces it with an ordinary 0644 file.
	if err := WriteFileAtomic(path, func(f *os.File) error { _, err := f.WriteString("new"); return err }); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if b, _ := os.ReadFile(path); string(b) != "new" || st.Mode().Perm() != 0o644 {
		t.Errorf("file holds %q with mode %v, want new and 0644", b, st.Mode().Perm())
	}
}
