package index

import (
	"path/filepath"
	"testing"
)

// TestSyncDir checks that a folder syncs and that a missing one is an
// error.
func TestSyncDir(t *testing.T) {
	dir := t.TempDir()
	if err := syncDir(dir); err != nil {
		t.Errorf("sync %s: %v", dir, err)
	}
	if err := syncDir(filepath.Join(dir, "missing")); err == nil {
		t.Error("sync of a missing folder: no error")
	}
}
