package index

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/readsim/readsim/index/article"
)

// TestMemoAnalyzer checks the memoized analyzer against Bleve's English
// analyzer itself: the same terms, offsets and types, on every sample
// article and on text meant to trip it (possessives, case mappings that
// change a word's length, scripts without spaces, numbers, stop words in
// capitals), analyzed twice so that the second pass comes from the memo.
func TestMemoAnalyzer(t *testing.T) {
	texts := []string{
		"Fresnel's lenses' LENS Lens lens THE The the And AND",
		"İstanbul's ΣΊΣΥΦΟΣ Straße STRASSE ǅemal Ⅻ ﬁne café CAFÉ naïve",
		"東京タワーは高い。 서울 3.14 1,000 2026-11-22 x86_64 C++ e-mail",
		"running runs ran runner's relational RELATIONAL generalizations",
		"emoji 🙂 and\u00a0no-break\tspace\n\nnew lines",
		"",
	}
	files, err := filepath.Glob(filepath.Join("..", "corpus-sample", "articles", "*", "*.xml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no sample articles: %v", err)
	}
	for _, f := range files {
		a, err := article.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, a.Title, a.Text)
	}
	en := english()
	m := memoPool.Get().(*memoAnalyzer)
	defer memoPool.Put(m)
	type tok struct {
		Term       string
		Start, End int
		Type       analysis.TokenType
	}
	flat := func(ts analysis.TokenStream) []tok {
		out := []tok{}
		for _, t := range ts {
			out = append(out, tok{string(t.Term), t.Start, t.End, t.Type})
		}
		return out
	}
	for pass := 0; pass < 2; pass++ {
		for i, text := range texts {
			want := flat(en.Analyze([]byte(text)))
			got := flat(m.Analyze([]byte(text)))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("pass %d, text %d (%.40q): memo analyzer %v, English analyzer %v", pass, i, text, got, want)
			}
		}
	}
	if len(m.memo) == 0 {
		t.Error("the memo is empty")
	}
}
