package durable

import (
	"os"
	"path/filepath"
	"testing"
)

func TestInside(t *testing.T) {
	root := t.TempDir()
	in := filepath.Join(root, "in")
	out := filepath.Join(root, "out")
	for _, d := range []string{in, out, filepath.Join(in, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// a link outside dir pointing into it, and one inside pointing out
	if err := os.Symlink(in, filepath.Join(out, "to-in")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(in, "to-out")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want bool
	}{
		{in, true},
		{filepath.Join(in, "."), true},
		{filepath.Join(in, "file"), true},
		{filepath.Join(in, "new", "deeper", "file"), true}, // parents yet to be made
		{filepath.Join(in, "sub", "..", "file"), true},
		{filepath.Join(out, "to-in", "file"), true},
		{filepath.Join(out, "to-in", "new", "file"), true},
		{filepath.Join(in, "to-out", "file"), false},
		{filepath.Join(in, "to-out"), true}, // replacing the link changes in
		{filepath.Join(out, "to-in"), true}, // a folder written through it
		{filepath.Join(in, "..", "out", "file"), false},
		{filepath.Join(root, "in2"), false}, // a sibling sharing the prefix
		{filepath.Join(root, "in2", "x"), false},
		{root, false},
		{out, false},
	} {
		if got := Inside(c.path, in); got != c.want {
			t.Errorf("Inside(%s, in) = %v, want %v", c.path, got, c.want)
		}
	}
	if Inside(filepath.Join(root, "gone", "x"), filepath.Join(root, "gone")) {
		t.Error("a folder that does not exist holds nothing")
	}
}
