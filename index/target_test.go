package index

import (
	"os"
	"path/filepath"
	"testing"
)

// TestBuildChecksTargetFirst checks that a refused index path leaves no
// trace: not even the lock file beside it.
func TestBuildChecksTargetFirst(t *testing.T) {
	dir := t.TempDir()
	articles := filepath.Join(dir, "articles")
	os.MkdirAll(articles, 0o755)
	os.WriteFile(filepath.Join(articles, "1.xml"), []byte(testArticles["1001.xml"]), 0o644)
	idx := filepath.Join(dir, "file")
	os.WriteFile(idx, []byte("mine"), 0o644)
	_, err := Build(BuildOptions{Articles: articles, Index: idx, Rebuild: true})
	if _, ok := err.(*InputError); !ok {
		t.Fatalf("%v, want an InputError", err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("%d entries in the folder after a refused build, want the articles and the file", len(ents))
	}
}

// TestLeftoversKeepUserFolders checks that a build removes only the
// folders its interrupted predecessors left beside the index
// (IDX.building-PID, IDX.old-PID holding an index's names), never a
// folder of the user's whose name merely starts like one.
func TestLeftoversKeepUserFolders(t *testing.T) {
	articles, idx, _ := buildTest(t)
	mine := map[string]string{
		idx + ".old-photos/a.jpg":   "jpeg",
		idx + ".old-1/notes.txt":    "notes",
		idx + ".building-/x":        "x",
		idx + ".building-12x/y.txt": "y",
		// a collection whose articles are in a folder named articles
		idx + ".old-7/articles/1.xml": "<article/>",
	}
	for p, body := range mine {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	ours := idx + ".building-99999"
	os.MkdirAll(filepath.Join(ours, "articles-0", "store"), 0o755)
	if _, err := Build(BuildOptions{Articles: articles, Index: idx, Rebuild: true}); err != nil {
		t.Fatal(err)
	}
	for p, body := range mine {
		if b, err := os.ReadFile(p); err != nil || string(b) != body {
			t.Errorf("%s: %q %v, want %q kept", p, b, err, body)
		}
	}
	if _, err := os.Stat(ours); !os.IsNotExist(err) {
		t.Errorf("the leftover %s is still there", ours)
	}
}
