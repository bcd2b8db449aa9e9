package index

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/build"
	"github.com/readsim/readsim/index/records"
)

// TestRecordKinds checks the kind a record gives each candidate element
// (a caption, the body's own text: what browse's caption and lead rules
// need of a hit read without its XPaths) against the element's XPath as
// the article file gives it (candidates, kindOf), on every sample and
// real article, and that browse reads them (Elem.caption, Elem.BodyText
// agree with the XPath rules).
func TestRecordKinds(t *testing.T) {
	names := map[string]bool{}
	for _, e := range DefaultElements {
		names[e] = true
	}
	eachCollection(t, func(t *testing.T, dir string, x *Index, files []string) {
		rd := &article.Reader{Root: dir}
		var captions, bodies int
		for _, f := range files {
			a, err := rd.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			id := strings.TrimSuffix(filepath.Base(f), ".xml")
			want := build.Candidates(a, names)
			r, err := recordOf(t, x.snap(), id)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Elems) != len(want) {
				t.Fatalf("%s: %d elements in the record, %d in the file", id, len(r.Elems), len(want))
			}
			for k, w := range want {
				g := r.Elems[k]
				if g.Span != w.Span || g.Caption() != records.IsCaption(w.XPath) || g.BodyText() != records.IsBodyText(w.XPath) {
					t.Errorf("%s element %d: %v caption %v body %v; the file's %s %v", id, k, g.Span, g.Caption(), g.BodyText(), w.XPath, w.Span)
				}
				if records.IsCaption(w.XPath) {
					captions++
				}
				if records.IsBodyText(w.XPath) {
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
