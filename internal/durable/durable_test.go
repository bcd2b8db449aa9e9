package durable

import (
	"os"
	"path/filepath"
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

// TestSyncDir: a folder syncs; a missing one is an error.
func TestSyncDir(t *testing.T) {
	if err := SyncDir(t.TempDir()); err != nil {
		t.Error(err)
	}
	if err := SyncDir(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing folder: no error")
	}
}
