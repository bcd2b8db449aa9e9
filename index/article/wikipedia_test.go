package article

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/article/shareddata"
)

// Every real article reads with its DTD: its language is its folder's, its
// header id its file name, and it holds no placeholder of the entity
// machinery.
func TestRealArticles(t *testing.T) {
	root := shareddata.Wikipedia(t)
	d, err := OpenDir(root)
	if err != nil {
		t.Fatal(err)
	}
	warned := false
	d.Reader.Warn = func(string) { warned = true }
	if n := len(d.IDs()); n != 77 {
		t.Errorf("%d articles, want 77 (see its README)", n)
	}
	for _, id := range d.IDs() {
		path, _ := d.Path(id)
		a, err := d.Parse(id)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if want := filepath.Base(filepath.Dir(path)); a.Lang != want {
			t.Errorf("%s: language %s, want %s", path, a.Lang, want)
		}
		if a.HeaderID != id || a.Title == "" {
			t.Errorf("%s: header id %q, title %q", path, a.HeaderID, a.Title)
		}
		if strings.Contains(a.Text, placeholderMark) {
			t.Errorf("%s: a placeholder is left in the text", path)
		}
		if err := checkInvariants(a); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
	if warned {
		t.Error("the collection's DTD was not found")
	}
}

// The length and every element span of every real article agree with expat
// (Python's binding of the C parser), which reads the article's external DTD
// itself: an independent implementation of formats.md's counting.
func TestRealArticlesAgainstExpat(t *testing.T) {
	root := shareddata.Wikipedia(t)
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 is needed for the comparison with expat")
		}
		t.Skip("python3 not found: skipping the comparison with expat")
	}
	files, _ := filepath.Glob(filepath.Join(root, "*", "*.xml"))
	script, _ := filepath.Abs(filepath.Join("testdata", "expat_spans.py"))
	out, err := exec.Command(py, append([]string{script}, files...)...).Output()
	if err != nil {
		t.Fatalf("expat: %v", err)
	}
	rd := &Reader{Root: root}
	var ours bytes.Buffer
	for _, f := range files {
		a, err := rd.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(&ours, a.Len)
		a.EachXPath(func(i int, x []byte) {
			fmt.Fprintf(&ours, "%s\t%d\t%d\n", x, a.Elements[i].Start, a.Elements[i].End)
		})
	}
	if !bytes.Equal(ours.Bytes(), out) {
		want := strings.Split(string(out), "\n")
		got := strings.Split(ours.String(), "\n")
		for i := range min(len(want), len(got)) {
			if want[i] != got[i] {
				t.Fatalf("line %d: readsim %q, expat %q", i+1, got[i], want[i])
			}
		}
		t.Fatalf("readsim wrote %d lines, expat %d", len(got), len(want))
	}
	if len(out) < 10000 {
		t.Fatalf("expat wrote only %d bytes", len(out))
	}
}
