package store

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/readsim/readsim/internal/ground/durable"
)

// TestSyncTree: before a swap every folder of the new index is synced,
// the deepest first (a shard's store before the shard, the shard before
// the index), the files' folders included.
func TestSyncTree(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"articles-0/store", "articles-1/store"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var synced []string
	defer func() { syncFolder = durable.SyncDir }()
	syncFolder = func(dir string) error {
		rel, _ := filepath.Rel(root, dir)
		synced = append(synced, rel)
		return durable.SyncDir(dir)
	}
	if err := syncTree(root); err != nil {
		t.Fatal(err)
	}
	want := []string{"articles-1/store", "articles-1", "articles-0/store", "articles-0", "."}
	if !slices.Equal(synced, want) {
		t.Errorf("synced %q, want %q", synced, want)
	}
}
