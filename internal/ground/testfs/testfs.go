// Package testfs writes the small file trees readsim's tests build
// (collections of articles, judgments and runs) in one call. It imports
// only the standard library.
package testfs

import (
	"os"
	"path/filepath"
	"testing"
)

// Write creates the files (slash-separated name below dir → content),
// making their folders, and fails the test on any error.
func Write(tb testing.TB, dir string, files map[string]string) {
	tb.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// Temp is Write into a new temporary folder, removed when the test ends;
// it returns the folder.
func Temp(tb testing.TB, files map[string]string) string {
	tb.Helper()
	dir := tb.TempDir()
	Write(tb, dir, files)
	return dir
}

// Replace puts the folder src in the place of the folder dst as readsim
// index swaps a build in: dst renamed away, src renamed to dst, the old
// folder removed. It fails the test on any error.
func Replace(tb testing.TB, src, dst string) {
	tb.Helper()
	old := dst + ".old-1"
	if err := os.Rename(dst, old); err != nil {
		tb.Fatal(err)
	}
	if err := os.Rename(src, dst); err != nil {
		tb.Fatal(err)
	}
	if err := os.RemoveAll(old); err != nil {
		tb.Fatal(err)
	}
}
