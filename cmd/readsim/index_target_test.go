package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// snapshotTree returns every file below root (slash-separated path →
// content), every folder (path → "<dir>") and every symbolic link (path
// → "<link to target>"); a missing root is nil.
func snapshotTree(t *testing.T, root string) map[string]string {
	t.Helper()
	if _, err := os.Lstat(root); os.IsNotExist(err) {
		return nil
	}
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			out[rel] = "<dir>"
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			to, err := os.Readlink(p)
			out[rel] = "<link to " + to + ">"
			return err
		}
		b, err := os.ReadFile(p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestIndexOnlyReplacesAnIndex runs readsim index with --index naming what
// is not a readsim index (the four ways issue 24 found to lose the
// user's files, and their kin): each is refused with exit status 2 and a
// message naming the path and what is in it, and every file of the
// temporary folder (articles, the user's files) is left byte for byte,
// with nothing added beside it (no lock, no half-built index).
func TestIndexOnlyReplacesAnIndex(t *testing.T) {
	tests := []struct {
		name  string
		setup func(dir string) (articles, idx string)
		want  []string // in the message
	}{
		{"the articles folder itself", func(dir string) (string, string) {
			a := filepath.Join(dir, "articles")
			return a, a
		}, []string{"is the articles folder"}},
		{"a folder of the user's files", func(dir string) (string, string) {
			os.MkdirAll(filepath.Join(dir, "mine", "sub"), 0o755)
			os.WriteFile(filepath.Join(dir, "mine", "thesis.tex"), []byte("\\chapter{One}"), 0o644)
			os.WriteFile(filepath.Join(dir, "mine", "data.csv"), []byte("a,b\n1,2\n"), 0o600)
			os.WriteFile(filepath.Join(dir, "mine", "sub", "x"), []byte("x"), 0o644)
			return filepath.Join(dir, "articles"), filepath.Join(dir, "mine")
		}, []string{"mine holds 2 files and 1 folder", "not a readsim index (no manifest.json)"}},
		{"an existing regular file", func(dir string) (string, string) {
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("twelve bytes"), 0o644)
			return filepath.Join(dir, "articles"), filepath.Join(dir, "notes.txt")
		}, []string{"notes.txt is a file (12 bytes)", "not a readsim index"}},
		{"a parent of the articles folder", func(dir string) (string, string) {
			os.WriteFile(filepath.Join(dir, "beside.txt"), []byte("beside the articles"), 0o644)
			return filepath.Join(dir, "articles"), dir
		}, []string{"holds the articles folder"}},
		{"a folder inside the articles folder", func(dir string) (string, string) {
			a := filepath.Join(dir, "articles")
			return a, filepath.Join(a, "x")
		}, []string{"is inside the articles folder"}},
		{"the articles folder through a trailing slash and dot", func(dir string) (string, string) {
			a := filepath.Join(dir, "articles")
			return a, a + string(filepath.Separator) + "."
		}, []string{"is the articles folder"}},
		{"a symbolic link to the user's folder", func(dir string) (string, string) {
			os.MkdirAll(filepath.Join(dir, "mine"), 0o755)
			os.WriteFile(filepath.Join(dir, "mine", "thesis.tex"), []byte("\\chapter{One}"), 0o644)
			os.Symlink(filepath.Join(dir, "mine"), filepath.Join(dir, "link"))
			return filepath.Join(dir, "articles"), filepath.Join(dir, "link")
		}, []string{"link is a symbolic link"}},
		{"a folder with someone else's manifest.json", func(dir string) (string, string) {
			os.MkdirAll(filepath.Join(dir, "app"), 0o755)
			os.WriteFile(filepath.Join(dir, "app", "manifest.json"), []byte(`{"name":"My app","version":"1.0"}`), 0o644)
			os.WriteFile(filepath.Join(dir, "app", "index.html"), []byte("<p>hi</p>"), 0o644)
			return filepath.Join(dir, "articles"), filepath.Join(dir, "app")
		}, []string{"app holds 2 files", "its manifest.json is not a readsim index's manifest"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range cmdArticles {
				p := filepath.Join(dir, "articles", name)
				os.MkdirAll(filepath.Dir(p), 0o755)
				os.WriteFile(p, []byte(body), 0o644)
			}
			articles, idx := tt.setup(dir)
			before := snapshotTree(t, dir)
			for _, extra := range [][]string{nil, {"--rebuild"}} {
				args := append([]string{"index", "--articles", articles, "--index", idx}, extra...)
				status, _, stderr := runCLI(args...)
				if status != 2 {
					t.Errorf("%v: exit %d, want 2: %s", extra, status, stderr)
				}
				checkText(t, "message", stderr, append([]string{idx}, tt.want...), []string{"panic"})
				if after := snapshotTree(t, dir); !sameTree(before, after) {
					t.Errorf("%v: the folder changed:\nbefore %v\nafter  %v", extra, keys(before), keys(after))
				}
			}
		})
	}
}

// TestIndexReplacesItsIndex checks the other side: a new path, an empty
// folder and a readsim index are written; an index holding a file of the
// user's is refused and the file kept.
func TestIndexReplacesItsIndex(t *testing.T) {
	dir, idx := cmdIndex(t)
	articles := filepath.Join(dir, "articles")
	if status, _, stderr := runCLI("index", "--articles", articles, "--index", idx, "--rebuild"); status != 0 {
		t.Fatalf("rebuilding an index: exit %d: %s", status, stderr)
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	if status, _, stderr := runCLI("index", "--articles", articles, "--index", empty); status != 0 {
		t.Fatalf("into an empty folder: exit %d: %s", status, stderr)
	}
	if _, err := os.Stat(filepath.Join(empty, "manifest.json")); err != nil {
		t.Errorf("no index built in the empty folder: %v", err)
	}
	mine := filepath.Join(idx, "my-notes.txt")
	os.WriteFile(mine, []byte("keep"), 0o644)
	status, _, stderr := runCLI("index", "--articles", articles, "--index", idx, "--rebuild")
	if status != 2 {
		t.Errorf("an index holding the user's file: exit %d, want 2: %s", status, stderr)
	}
	checkText(t, "message", stderr, []string{"is a readsim index but also holds my-notes.txt"}, nil)
	if b, err := os.ReadFile(mine); err != nil || string(b) != "keep" {
		t.Errorf("the user's file: %q, %v", b, err)
	}
}

func sameTree(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func keys(m map[string]string) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return strings.Join(ks, " ")
}

// index refuses by name, exit 2, candidate element names no element can
// have, before anything is written (they built 0 elements without a word).
func TestIndexElementsRefused(t *testing.T) {
	for _, tc := range []struct{ elements, want string }{
		{"p,,sec", "--elements: name 2 of 3 is empty"},
		{"<p>", `--elements: "<p>" is not an element name`},
		{"sec p", `--elements: "sec p" is not an element name`},
		{" , ", "--elements names no element"},
	} {
		t.Run(tc.elements, func(t *testing.T) {
			idx := filepath.Join(t.TempDir(), "idx")
			status, _, stderr := runCLI("index", "--articles", "../../corpus-sample/articles", "--index", idx, "--elements", tc.elements)
			if status != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", status, stderr, tc.want)
			}
			if _, err := os.Lstat(idx); err == nil {
				t.Errorf("%s was written", idx)
			}
		})
	}
}
