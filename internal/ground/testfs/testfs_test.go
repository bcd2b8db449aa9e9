package testfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := Temp(t, map[string]string{"a.txt": "one", "sub/deeper/b.xml": "<b/>", "empty": ""})
	for name, want := range map[string]string{"a.txt": "one", "sub/deeper/b.xml": "<b/>", "empty": ""} {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || string(b) != want {
			t.Errorf("%s: %q, %v; want %q", name, b, err, want)
		}
	}
}

func TestReplace(t *testing.T) {
	dir := Temp(t, map[string]string{"idx/old.txt": "old", "next/new.txt": "new"})
	idx, next := filepath.Join(dir, "idx"), filepath.Join(dir, "next")
	Replace(t, next, idx)
	for _, tc := range []struct {
		path string
		want string // "" for gone
	}{
		{filepath.Join(idx, "new.txt"), "new"},
		{filepath.Join(idx, "old.txt"), ""},
		{filepath.Join(next, "new.txt"), ""},
		{filepath.Join(dir, "idx.old-1", "old.txt"), ""},
	} {
		b, err := os.ReadFile(tc.path)
		if tc.want == "" && !os.IsNotExist(err) || tc.want != "" && string(b) != tc.want {
			t.Errorf("%s: %q %v, want %q", tc.path, b, err, tc.want)
		}
	}
}

// ModuleRoot, from this package's folder (internal/ground/testfs), is the
// folder three levels up, whose go.mod is readsim's.
func TestModuleRoot(t *testing.T) {
	got, err := ModuleRoot()
	want, _ := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil || got != want {
		t.Fatalf("ModuleRoot() = %q, %v; want %q", got, err, want)
	}
	if b, err := os.ReadFile(filepath.Join(got, "go.mod")); err != nil || !strings.HasPrefix(string(b), "module github.com/readsim/readsim\n") {
		t.Errorf("%s/go.mod: %v, not readsim's", got, err)
	}
}
