package durable

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAppend: lines are added whole to a new file (mode 0600) and to an
// old one; a write that fails or comes short leaves the file as it was;
// a folder or a missing folder is an error naming the path.
func TestAppend(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "log.jsonl")
	for _, l := range []string{"one\n", "two\n"} {
		if err := Append(path, []byte(l)); err != nil {
			t.Fatal(err)
		}
	}
	st, _ := os.Stat(path)
	if b, _ := os.ReadFile(path); string(b) != "one\ntwo\n" || st.Mode().Perm() != 0o600 {
		t.Errorf("the file holds %q, mode %v; want one\\ntwo\\n, 0600", b, st.Mode().Perm())
	}
	for name, write := range map[string]func(*os.File, []byte) (int, error){
		"fails": func(f *os.File, b []byte) (int, error) { f.Write(b[:2]); return 2, errors.New("disk full") },
		"short": func(f *os.File, b []byte) (int, error) { return f.Write(b[:3]) },
	} {
		if err := appendWith(path, []byte("three\n"), write); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v, want one naming %s", name, err, path)
		}
		if b, _ := os.ReadFile(path); string(b) != "one\ntwo\n" {
			t.Errorf("%s: the file holds %q after a failed append, want it as it was", name, b)
		}
	}
	for _, bad := range []string{dir, filepath.Join(dir, "missing", "log")} {
		if err := Append(bad, []byte("x\n")); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("%s: %v, want an error naming it", bad, err)
		}
	}
}
