package scenario

import (
	"bytes"
	"errors"
	"io"
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

// WriteOutput writes to standard output without --out, else to the file,
// which a failed write leaves as it was.
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
