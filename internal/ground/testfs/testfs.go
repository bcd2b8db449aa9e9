// Package testfs writes the small file trees readsim's tests build
// (collections of articles, judgments and runs) in one call. It imports
// only the standard library.
package testfs

import (
	"errors"
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

// ModuleRoot returns the folder of the go.mod above the working folder (a
// test's is its package's folder): where the repository's own files are,
// and ../shared beside it. Its error says no go.mod is above.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("module root (go.mod) not found above the working folder")
		}
		dir = parent
	}
}
