package index

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/article"
)

// TestRecordKinds checks the kind a record gives each candidate element
// (a caption, the body's own text: what browse's caption and lead rules
// need of a hit read without its XPaths) against the element's XPath as
// the article file gives it (candidates, kindOf), on every sample and
// real article, and that browse reads them (Elem.caption, Elem.bodyText
// agree with the XPath rules).
func TestRecordKinds(t *testing.T) {
	for _, dir := range []string{filepath.Join("..", "corpus-sample", "articles"), realData} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			if _, err := os.Stat(dir); err != nil {
				t.Skipf("no articles at %s: %v", dir, err)
			}
			idx := filepath.Join(t.TempDir(), "idx")
			if _, err := Build(BuildOptions{Articles: dir, Index: idx, Reader: &article.Reader{Root: dir}}); err != nil {
				t.Fatal(err)
			}
			x := openTest(t, idx)
			files, err := filepath.Glob(filepath.Join(dir, "*", "*.xml"))
			if err != nil || len(files) == 0 {
				t.Fatalf("no articles in %s: %v", dir, err)
			}
			names := map[string]bool{}
			for _, e := range DefaultElements {
				names[e] = true
			}
			rd := &article.Reader{Root: dir}
			var captions, bodies int
			for _, f := range files {
				a, err := rd.ParseFile(f)
				if err != nil {
					t.Fatal(err)
				}
				id := strings.TrimSuffix(filepath.Base(f), ".xml")
				want := candidates(a, names)
				s := x.snap()
				sh := shardOf(id, len(s.shards))
				r, err := s.recs[sh].read(s.places[sh][docNumber(t, s, sh, id)], false, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(r.elems) != len(want) {
					t.Fatalf("%s: %d elements in the record, %d in the file", id, len(r.elems), len(want))
				}
				for k, w := range want {
					g := r.elems[k]
					if g.Span != w.Span || g.caption() != isCaption(w.XPath) || g.bodyText() != isBodyText(w.XPath) {
						t.Errorf("%s element %d: %v caption %v body %v; the file's %s %v", id, k, g.Span, g.caption(), g.bodyText(), w.XPath, w.Span)
					}
					if isCaption(w.XPath) {
						captions++
					}
					if isBodyText(w.XPath) {
						bodies++
					}
				}
			}
			// the sample has no image captions; the real articles have both
			if bodies == 0 || (dir == realData && captions == 0) {
				t.Errorf("%d captions and %d body texts: the test does not see both rules", captions, bodies)
			}
			t.Logf("%d articles: %d captions, %d body texts", len(files), captions, bodies)
		})
	}
}

// docNumber is the internal number of article id in shard sh.
func docNumber(t *testing.T, s *snapshot, sh int, id string) uint64 {
	t.Helper()
	r, err := shardReader(s.shards[sh])
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n, err := r.InternalID(id)
	if err != nil || len(n) != 8 {
		t.Fatalf("article %s: internal id %v, %v", id, n, err)
	}
	return binary.BigEndian.Uint64(n)
}
