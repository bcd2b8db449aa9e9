package index

import (
	"context"
	"html"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/build"
	"github.com/readsim/readsim/index/records"
)

// realIndex builds an index of the real Wikipedia articles of the shared
// data (skipping the test when they are absent) and returns it with the
// build's result and the Reader's warnings.
// realData is the shared folder of real Wikipedia articles (INEX 2009
// format), relative to this package's folder: ../shared/data/wikipedia
// from the repository's root.
const realData = "../../shared/data/wikipedia"

func realIndex(t *testing.T) (*Index, *BuildResult, []string) {
	t.Helper()
	if _, err := os.Stat(realData); err != nil {
		t.Skipf("no real Wikipedia articles at %s (../shared/data/wikipedia from the repository root): %v", realData, err)
	}
	var w warnings
	idx := filepath.Join(t.TempDir(), "idx")
	res, err := Build(BuildOptions{Articles: realData, Index: idx, Reader: &article.Reader{Root: realData, Warn: w.add}})
	if err != nil {
		t.Fatal(err)
	}
	return openTest(t, idx), res, w.msgs
}

var titleRE = regexp.MustCompile(`(?s)<title>\s*(.*?)\s*</title>`)

// TestRealCollection indexes the 77 real articles (en/, zh/, ko/ below
// one root, the collection's DTD at the root, entities such as &nbsp;
// declared only there) and checks what the folder says: every article
// indexed, nothing skipped but the README, the DTD the collection's, each
// article's language its folder's, and each article found first by its
// own title (read from the file with a regular expression, not the
// parser).
func TestRealCollection(t *testing.T) {
	x, res, warns := realIndex(t)
	files, err := filepath.Glob(filepath.Join(realData, "*", "*.xml"))
	if err != nil || len(files) != 77 {
		t.Fatalf("%d real articles, want 77 (en 27, zh 25, ko 25): %v", len(files), err)
	}
	if res.Indexed != 77 || res.Articles != 77 || len(res.Broken) != 0 || len(res.Dups) != 0 || len(warns) != 0 {
		t.Errorf("indexed %d, articles %d, broken %v, duplicates %v, warnings %v; want 77 and nothing else", res.Indexed, res.Articles, res.Broken, res.Dups, warns)
	}
	if want := []string{filepath.Join(realData, "README.md")}; !reflect.DeepEqual(res.NotXML, want) {
		t.Errorf("not XML %v, want %v", res.NotXML, want)
	}
	if want := []string{filepath.Join(realData, "article.dtd")}; !reflect.DeepEqual(res.DTDs, want) {
		t.Errorf("DTDs %v, want %v", res.DTDs, want)
	}
	if len(res.IDMismatches) != 0 {
		t.Errorf("header id mismatches %v, want none", res.IDMismatches)
	}
	langs := map[string]int{}
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".xml")
		want := filepath.Base(filepath.Dir(f))
		langs[want]++
		d, err := x.Article(id)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if d.Lang != want {
			t.Errorf("%s: language %q, want %q", f, d.Lang, want)
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := titleRE.FindSubmatch(b)
		if m == nil {
			t.Errorf("%s: no <title>", f)
			continue
		}
		title := html.UnescapeString(string(m[1]))
		if d.Title != title {
			t.Errorf("%s: title %q, want %q", f, d.Title, title)
		}
		hits, err := x.Fetch(context.Background(), mustPrepare(t, x, title), 3, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 || hits[0].ID != id {
			t.Errorf("%s: query %q fetched %+v, want %s first", f, title, hits, id)
		}
	}
	if !reflect.DeepEqual(res.Langs, langs) {
		t.Errorf("languages %v, want %v", res.Langs, langs)
	}

	// no candidate of the real articles is near the depth bound
	rd := &article.Reader{Root: realData}
	names := map[string]bool{}
	for _, n := range DefaultElements {
		names[n] = true
	}
	deepest := 0
	for _, f := range files {
		a, err := rd.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range a.Elements {
			if names[e.Name] && !e.IsWrapper() {
				deepest = max(deepest, e.Depth)
			}
		}
	}
	if deepest == 0 || deepest > build.MaxCandidateDepth/2 {
		t.Errorf("deepest candidate at depth %d, bound %d", deepest, build.MaxCandidateDepth)
	}
}

// TestRealSearch checks searches of the real collection in three
// languages: the article first, and a passage's snippet (each matched
// English word marked, matched CJK bigrams marked as one, the Korean name
// matched before its particle). The Chinese and Korean titles are in the
// articles' leads, bare text in bdy (candidates' own text runs).
func TestRealSearch(t *testing.T) {
	x, _, _ := realIndex(t)
	for _, tc := range []struct {
		q, id, lang string
		snippet     string // a part of the first passage's snippet
	}{
		// en/19501.xml: its header is wrapped in <sport wordnetid=…>
		{"Martial arts", "19501", "en", "[martial] [arts]"},
		{"Oracle bone script", "480299", "en", "[oracle] [bone] [script]"},
		{"意大利餃", "101991", "zh", "[意大利餃]"},
		{"马王堆汉墓", "7481", "zh", "[马王堆汉墓]"},
		{"송혜교", "11002", "ko", "[송혜교]는"},
		{"고추냉이", "48729", "ko", "[고추냉이]"},
	} {
		pq := mustPrepare(t, x, tc.q)
		res, err := x.Search(context.Background(), pq, 5, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res) == 0 || res[0].ID != tc.id || res[0].Lang != tc.lang {
			t.Errorf("%q: %+v, want %s (%s) first", tc.q, res, tc.id, tc.lang)
			continue
		}
		found := false
		var got []string
		for _, p := range res[0].Passages {
			s := Snippet(res[0].Doc, p, pq, 160)
			got = append(got, s)
			found = found || strings.Contains(strings.ToLower(s), tc.snippet)
		}
		if !found {
			t.Errorf("%q: no snippet of %s holds %q: %q", tc.q, tc.id, tc.snippet, got)
		}
	}
}

// TestChineseScripts searches the real Chinese article 铁观音 (56352),
// whose text writes oolong tea in traditional characters (烏龍茶, from its
// first sentence on), with the simplified and the traditional query: both
// find it first, browse it to the same passages, and mark the traditional
// word in its snippet.
func TestChineseScripts(t *testing.T) {
	x, _, _ := realIndex(t)
	var first []Passage
	for _, q := range []string{"乌龙茶", "烏龍茶"} {
		pq, err := x.Prepare(q)
		if err != nil {
			t.Fatal(err)
		}
		res, err := x.Search(context.Background(), pq, 5, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res) == 0 || res[0].ID != "56352" {
			t.Fatalf("%s: hits %v, want 56352 (铁观音) first", q, res)
		}
		if !strings.Contains(res[0].Snippet, "[烏龍茶]") {
			t.Errorf("%s: snippet %q does not mark 烏龍茶", q, res[0].Snippet)
		}
		if first == nil {
			first = res[0].Passages
		} else if !reflect.DeepEqual(res[0].Passages, first) {
			t.Errorf("%s: passages %v, the other script's %v", q, res[0].Passages, first)
		}
	}
}

// TestLeadPassages checks the lead rule of browse on every real article
// (English, Chinese, Korean): searched for its own title, an article whose
// lead holds the title word for word, outside the text the index does not
// analyse (its metadata and leftover markup, StoredArticle.quiet), has a
// passage holding the lead's start. The lead is found here from the
// XPaths: the first body text run or body paragraph (an image's caption
// before it passed over) with text outside the quiet spans.
func TestLeadPassages(t *testing.T) {
	x, _, _ := realIndex(t)
	files, err := filepath.Glob(filepath.Join(realData, "*", "*.xml"))
	if err != nil {
		t.Fatal(err)
	}
	checked := map[string]int{}
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".xml")
		d, err := x.Article(id)
		if err != nil {
			t.Fatal(err)
		}
		text := []rune(d.Text)
		// the characters of [s, e) outside the quiet spans
		shown := func(s, e int) string {
			var b []rune
			for c := s; c < e; c++ {
				in := false
				for k := 0; k+1 < len(d.Quiet); k += 2 {
					if d.Quiet[k] <= c && c < d.Quiet[k+1] {
						in = true
						break
					}
				}
				if in {
					b = append(b, ' ')
				} else {
					b = append(b, text[c])
				}
			}
			return string(b)
		}
		var lead *records.Elem
		for i := range d.Elems {
			el := &d.Elems[i]
			if strings.Contains(el.XPath, "/caption[") || strings.TrimSpace(shown(el.Start, el.End)) == "" {
				continue
			}
			if strings.HasSuffix(el.XPath, "/bdy[1]/text()") || regexp.MustCompile(`/bdy\[1\]/p\[\d+\]$`).MatchString(el.XPath) {
				lead = el
			}
			break
		}
		if lead == nil || !strings.Contains(strings.ToLower(shown(lead.Start, lead.End)), strings.ToLower(d.Title)) {
			continue
		}
		ps, err := x.Passages(context.Background(), d.Title, id, Options{})
		if err != nil {
			t.Fatal(err)
		}
		covered := false
		for _, p := range ps {
			covered = covered || p.Start <= lead.Start && lead.Start < p.End
		}
		if !covered {
			t.Errorf("%s (%s, %s): passages %v, want one holding the lead's start %d", id, d.Lang, d.Title, ps, lead.Start)
		}
		checked[d.Lang]++
	}
	for _, l := range []string{"en", "zh", "ko"} {
		if checked[l] < 5 {
			t.Errorf("%d %s articles have their title in their lead, want at least 5 (checked %v)", checked[l], l, checked)
		}
	}
	t.Logf("leads checked: %v", checked)
}
