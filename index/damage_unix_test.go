//go:build unix

package index

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/readsim/readsim/index/records"
	"github.com/readsim/readsim/index/store"
)

// TestIndexFileFIFO replaces each file of an index in turn by a FIFO
// (which would block a read until something writes into it): Open fails
// at once naming the file (articles.json aside: only builds read it), and
// an update either builds the index again or fails naming the file;
// neither blocks.
func TestIndexFileFIFO(t *testing.T) {
	for _, name := range []string{store.ManifestName, store.ArticlesName, store.ElemDFName, "articles-0/index_meta.json", "articles-0/store/root.bolt", "articles-0/" + records.FileName, "segment"} {
		t.Run(name, func(t *testing.T) {
			articles, idx, _ := buildTest(t)
			p := filepath.Join(idx, filepath.FromSlash(name))
			if name == "segment" {
				p = firstSegment(t, idx)
			}
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skip("no FIFO here:", err)
			}
			x, err := Open(idx)
			switch {
			case name == store.ArticlesName && err != nil:
				t.Errorf("Open: %v, want it opened", err)
			case name != store.ArticlesName && (err == nil || !strings.Contains(err.Error(), p)):
				t.Errorf("Open: %v, want an error naming %s", err, p)
			}
			if x != nil {
				x.Close()
			}
			res, err := Build(BuildOptions{Articles: articles, Index: idx})
			if err == nil && !res.Full {
				t.Errorf("update: %+v, want the index built again", res)
			}
			if err != nil && !strings.Contains(err.Error(), p) {
				t.Errorf("update: %v, want it built again or an error naming %s", err, p)
			}
		})
	}
}
