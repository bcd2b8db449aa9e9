package article

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/readsim/readsim/internal/ground/testfs"
)

// An article's DOCTYPE may name any path; readsim opens it only when it is
// a regular *.dtd file inside the collection or directly beside it
// (docs/safety.md, "The DTD an article names"). Every other place is
// refused by name before it is opened: the article is read with the
// built-in entities and a warning names the place. The file outside the
// collection declares &who; as "secret": reading it would show in the text,
// and no message may quote a byte of it ("r" and "Zq" are its first
// characters).
func TestDTDPlaces(t *testing.T) {
	const secret = "rZq <!ENTITY who \"secret\">"
	const good = `<!ENTITY who "good">`
	doc := func(sys string) string {
		return `<!DOCTYPE article SYSTEM "` + sys + `"><article><p>&eacute;</p></article>`
	}
	docWho := func(sys string) string {
		return `<!DOCTYPE article SYSTEM "` + sys + `"><article><p>&who;</p></article>`
	}
	tests := []struct {
		name    string
		sys     string // the article's system identifier ("OUT" stands for the outside folder)
		files   map[string]string
		setup   func(t *testing.T, top string)
		root    string // the collection root, relative to top ("" for none)
		article string // relative to top
		who     string // the text when &who; is used ("" to use &eacute; and expect the built-in é)
		refused string // what the warning says of the place ("" for no refusal)
	}{
		{name: "the INEX layout: ../article.dtd beside the language folders, root at en/",
			sys: "../article.dtd", files: map[string]string{"coll/article.dtd": good},
			root: "coll/en", article: "coll/en/1.xml", who: "good"},
		{name: "the INEX layout, root at the collection",
			sys: "../article.dtd", files: map[string]string{"coll/article.dtd": good},
			root: "coll", article: "coll/en/1.xml", who: "good"},
		{name: "a DTD in a folder of the collection",
			sys: "../dtd/a.dtd", files: map[string]string{"coll/dtd/a.dtd": good},
			root: "coll", article: "coll/en/1.xml", who: "good"},
		{name: "a file read alone: the DTD beside its folder",
			sys: "../article.dtd", files: map[string]string{"coll/article.dtd": good},
			article: "coll/en/1.xml", who: "good"},
		{name: "an absolute path",
			sys: "OUT/secret.dtd", root: "coll", article: "coll/en/1.xml", refused: "is an absolute path"},
		{name: "a path climbing out of the collection",
			sys: "../../out/secret.dtd", root: "coll/en", article: "coll/en/1.xml", refused: "is outside the collection"},
		{name: "climbing out from a file read alone",
			sys: "../../../out/secret.dtd", article: "coll/en/x/1.xml", refused: "is outside the collection"},
		{name: "a file that is not a .dtd",
			sys: "../notes.txt", files: map[string]string{"coll/notes.txt": secret},
			root: "coll", article: "coll/en/1.xml", refused: "is not a *.dtd file"},
		{name: "a link to a file outside",
			sys: "../link.dtd", setup: func(t *testing.T, top string) {
				symlink(t, filepath.Join(top, "out", "secret.dtd"), filepath.Join(top, "coll", "link.dtd"))
			},
			root: "coll", article: "coll/en/1.xml", refused: "is outside the collection"},
		{name: "a FIFO named .dtd",
			sys: "../fifo.dtd", setup: func(t *testing.T, top string) {
				if err := syscall.Mkfifo(filepath.Join(top, "coll", "fifo.dtd"), 0o600); err != nil {
					t.Skip("no FIFO here:", err)
				}
			},
			root: "coll", article: "coll/en/1.xml", refused: "is not a regular file"},
		{name: "a folder named .dtd",
			sys: "../d.dtd", files: map[string]string{"coll/d.dtd/x": "x"},
			root: "coll", article: "coll/en/1.xml", refused: "is a folder"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			top := t.TempDir()
			files := map[string]string{"out/secret.dtd": secret}
			for k, v := range tc.files {
				files[k] = v
			}
			sys := strings.ReplaceAll(tc.sys, "OUT", filepath.Join(top, "out"))
			if tc.who != "" {
				files[tc.article] = docWho(sys)
			} else {
				files[tc.article] = doc(sys)
			}
			testfs.Write(t, top, files)
			if tc.setup != nil {
				tc.setup(t, top)
			}
			var warnings []string
			rd := &Reader{Warn: func(m string) { warnings = append(warnings, m) }}
			if tc.root != "" {
				rd.Root = filepath.Join(top, tc.root)
			}
			done := make(chan struct{})
			var a *Article
			var err error
			go func() { a, err = rd.ParseFile(filepath.Join(top, tc.article)); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the article's DTD blocked the read (a FIFO opened?)")
			}
			if err != nil {
				t.Fatal(err)
			}
			want := tc.who
			if want == "" {
				want = "é"
			}
			if a.Text != want {
				t.Errorf("text %q, want %q", a.Text, want)
			}
			all := strings.Join(warnings, "\n")
			if strings.Contains(all, "Zq") || strings.Contains(all, "'r'") {
				t.Errorf("a warning quotes the refused file: %q", all)
			}
			switch {
			case tc.refused == "" && len(warnings) > 0:
				t.Errorf("warnings %q, want none", warnings)
			case tc.refused != "" && !strings.Contains(all, "is not read: ") || !strings.Contains(all, tc.refused):
				t.Errorf("warnings %q, want one saying the DTD %s", warnings, tc.refused)
			}
		})
	}
}

func symlink(t *testing.T, to, at string) {
	t.Helper()
	if err := os.Symlink(to, at); err != nil {
		t.Skip("no symbolic links here:", err)
	}
}
