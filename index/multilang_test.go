package index

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	bsearch "github.com/blevesearch/bleve/v2/search"

	"github.com/readsim/readsim/index/analysis"
	"github.com/readsim/readsim/internal/ground/testfs"
)

// multilang is the hand-written collection of two Wikipedias shared with
// index/article's tests: en/3951 and ja/3951, en/7001 and ja/7001 (file
// names in both folders), en/4001 "The Who", en/4002 "It", ja/2121.
const multilang = "article/testdata/multilang"

// copyCollection copies the files of a test collection into a new temporary
// folder (a build may then change it).
func copyCollection(t *testing.T, from string) string {
	t.Helper()
	to := filepath.Join(t.TempDir(), "articles")
	err := filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		testfs.Write(t, to, map[string]string{filepath.ToSlash(rel): string(b)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}

func hitIDs(rs []SearchResult) []string {
	var ids []string
	for _, r := range rs {
		ids = append(ids, r.ID)
	}
	return ids
}

// TestIDClashesIndexed checks a collection whose page ids are numbered per
// language: both articles of a file name are indexed under their paths,
// with one warning; an update that makes a file name clash re-indexes the
// article that had it under its new id.
func TestIDClashesIndexed(t *testing.T) {
	articles := copyCollection(t, multilang)
	idx := filepath.Join(filepath.Dir(articles), "idx")
	res, err := Build(BuildOptions{Articles: articles, Index: idx})
	if err != nil {
		t.Fatal(err)
	}
	if res.Articles != 7 || len(res.Dups) != 0 || len(res.IDMismatches) != 0 {
		t.Errorf("%d articles, dups %v, header id mismatches %v; want 7, none, none", res.Articles, res.Dups, res.IDMismatches)
	}
	if want := map[string]int{"en": 4, "ja": 3}; !reflect.DeepEqual(res.Langs, want) {
		t.Errorf("languages %v, want %v", res.Langs, want)
	}
	var warned []string
	for _, l := range res.Summary(idx) {
		if strings.Contains(l, "3951 is en/3951 and ja/3951") {
			warned = append(warned, l)
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "7001 is en/7001 and ja/7001") {
		t.Errorf("summary lines naming the clashes: %q, want one naming 3951 and 7001", warned)
	}
	x := openTest(t, idx)
	for id, title := range map[string]string{"en/3951": "Harbour lighthouse", "ja/3951": "灯台", "en/7001": "Fog signal", "ja/7001": "霧笛", "2121": "観音埼灯台"} {
		if d, err := x.Article(id); err != nil || d.Title != title {
			t.Errorf("article %s: %v %v, want %s", id, d, err, title)
		}
	}
	if d, err := x.Article("3951"); err == nil {
		t.Errorf("article 3951: %+v", d)
	}
	if ids := hitIDs(search(t, x, "fog signal")); len(ids) == 0 || ids[0] != "en/7001" {
		t.Errorf("fog signal: %v, want en/7001 first", ids)
	}
	if ids := hitIDs(search(t, x, "霧笛")); !reflect.DeepEqual(ids, []string{"ja/7001", "ja/3951"}) {
		t.Errorf("霧笛: %v, want ja/7001 (title and text), ja/3951 (a link's text)", ids)
	}
	x.Close()

	// en/2121.xml makes 2121 a clash: ja/2121 is indexed again under its
	// path, en/2121 is new; the other six are unchanged, none removed
	testfs.Write(t, articles, map[string]string{"en/2121.xml": `<article><header><title>Sea mark</title></header><bdy><p>A sea mark guides ships.</p></bdy></article>`})
	res, err = Build(BuildOptions{Articles: articles, Index: idx})
	if err != nil {
		t.Fatal(err)
	}
	if res.Full || res.Indexed != 2 || res.Unchanged != 6 || res.Removed != 0 || res.Articles != 8 {
		t.Errorf("update: full %v indexed %d unchanged %d removed %d articles %d; want false 2 6 0 8", res.Full, res.Indexed, res.Unchanged, res.Removed, res.Articles)
	}
	x = openTest(t, idx)
	if _, err := x.Article("2121"); err == nil {
		t.Error("article 2121 is still there")
	}
	for _, id := range []string{"ja/2121", "en/2121"} {
		if _, err := x.Article(id); err != nil {
			t.Errorf("article %s: %v", id, err)
		}
	}
}

// The collection of TestCharacterQueries. Tokens worked out by hand (the
// title is part of the text; | is the break between title and paragraph):
//
//	301 zh  title 电视 (1)   text 电视 | 电视 视塔 塔很 很高 (5): 塔 in 2 bigrams
//	302 zh  title 古迹 (1)   text 古迹 | 古塔 (2): 塔 in 1 bigram
//	303 en  title pagoda (1) text pagoda | pagoda 塔 stand (4): 塔 alone
//	304 zh  title 河流 (1)   text 河流 | 河流 流很 很长 (4): no 塔
var charArticles = map[string]string{
	"zh/301.xml": `<article><header><title>电视</title></header><bdy><p>电视塔很高。</p></bdy></article>`,
	"zh/302.xml": `<article><header><title>古迹</title></header><bdy><p>古塔。</p></bdy></article>`,
	"en/303.xml": `<article><header><title>Pagoda</title></header><bdy><p>The pagoda 塔 stands.</p></bdy></article>`,
	"zh/304.xml": `<article><header><title>河流</title></header><bdy><p>河流很长。</p></bdy></article>`,
}

// TestCharacterQueries checks that a query of one CJK character finds the
// articles holding it, in bigrams or alone, scored as one BM25 term, while
// a query of several characters keeps to its bigrams.
//
// 塔: title df 0, text df 3 (301, 302, 303), N 4; average lengths title
// ⌈4/4⌉ = 1, text ⌈15/4⌉ = 4. Bleve's BM25: idf = ln(1 + (N−df+½)/(df+½)),
// so title ln 10, text ln(10/7); query norm 1/√((2·ln 10)² + ln(10/7)²);
// a document's score is idf·√f·k1/(√f + k1·(1−b+b·dl/4)) times the text
// term's weight ln(10/7)·norm, times ½ (one of two query terms matched):
// 302 (f 1, dl 2), 301 (f 2, dl 5), 303 (f 1, dl 4).
func TestCharacterQueries(t *testing.T) {
	dir := t.TempDir()
	articles, idx := filepath.Join(dir, "articles"), filepath.Join(dir, "idx")
	testfs.Write(t, articles, charArticles)
	if _, err := Build(BuildOptions{Articles: articles, Index: idx}); err != nil {
		t.Fatal(err)
	}
	x := openTest(t, idx)
	k1, b := bsearch.BM25_k1, bsearch.BM25_b
	idfX := math.Log(10.0 / 7)
	norm := 1 / math.Sqrt(math.Pow(2*math.Log(10), 2)+idfX*idfX)
	score := func(f, dl float64) float64 {
		tf := math.Sqrt(f)
		return idfX * tf * k1 / (tf + k1*(1-b+b*dl/4)) * idfX * norm / 2
	}
	pq := mustPrepare(t, x, "塔")
	res, err := x.Search(context.Background(), pq, 10, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		id      string
		score   float64
		snippet string
	}{
		{"302", score(1, 2), "古[塔]。"},
		{"301", score(2, 5), "电视[塔]很高。"},
		{"303", score(1, 4), "The pagoda [塔] stands."},
	}
	if len(res) != len(want) {
		t.Fatalf("塔: %v, want 302 301 303", hitIDs(res))
	}
	for i, w := range want {
		r := res[i]
		if r.ID != w.id || math.Abs(r.Score-w.score) > 1e-6*w.score {
			t.Errorf("塔 rank %d: %s %.9f, want %s %.9f", i+1, r.ID, r.Score, w.id, w.score)
		}
		if len(r.Passages) != 1 || r.Snippet != w.snippet {
			t.Errorf("塔 in %s: passages %+v snippet %q, want the paragraph, %q", r.ID, r.Passages, r.Snippet, w.snippet)
		}
	}
	// browse's element frequency of 塔: its terms' summed (视塔 1, 塔很 1,
	// 古塔 1, 塔 1), at most the 4 elements
	if df := pq.stats.DF["塔"]; df != 4 {
		t.Errorf("element frequency of 塔: %v, want 4", df)
	}
	for _, tc := range []struct {
		q   string
		ids []string
	}{
		{"塔楼", nil},              // the bigram 塔楼 is nowhere: no single-character match
		{"电视塔", []string{"301"}}, // 电视 视塔: 302, 303 share only 塔
		{"古", []string{"302"}},   // 古迹, 古塔
		{"pagoda 塔", []string{"301", "302", "303"}},
	} {
		ids := hitIDs(search(t, x, tc.q))
		if tc.q == "pagoda 塔" && (len(ids) == 0 || ids[0] != "303") {
			t.Errorf("%q: %v, want 303 first", tc.q, ids)
		}
		sort.Strings(ids)
		if !reflect.DeepEqual(ids, tc.ids) {
			t.Errorf("%q: %v, want %v", tc.q, ids, tc.ids)
		}
	}
}

// TestTitleSearch checks queries made only of stop words: they find the
// articles whose title they are (lower case, white space folded), or whose
// title they are but for a qualifier in parentheses, scored by the title
// key field's TF-IDF: idf 1 + ln(N/(df+1)) times the field norm, 1 for an
// exact title (one key), 1/√2 for a qualified one (two keys). N is 9: the
// seven of multilang, 4003 "It (film)" and 4004 "This Is It (song)". A
// query of stop words that is no title has no searchable word.
func TestTitleSearch(t *testing.T) {
	articles := copyCollection(t, multilang)
	testfs.Write(t, articles, map[string]string{
		"en/4003.xml": `<article><header><title>It (film)</title></header><bdy><p>A film of the novel.</p></bdy></article>`,
		"en/4004.xml": `<article><header><title>This  Is It (song)</title></header><bdy><p>A song of farewell.</p></bdy></article>`,
	})
	idx := filepath.Join(filepath.Dir(articles), "idx")
	if _, err := Build(BuildOptions{Articles: articles, Index: idx}); err != nil {
		t.Fatal(err)
	}
	x := openTest(t, idx)
	idf1, idf2 := 1+math.Log(9.0/2), 1+math.Log(9.0/3) // df 1, df 2
	type hit struct {
		id    string
		score float64
	}
	for _, tc := range []struct {
		q       string
		hits    []hit
		snippet string // of the first hit
	}{
		{"The Who", []hit{{"4001", idf1}}, "The Who are an English rock band"},
		{"  the\tWHO ", []hit{{"4001", idf1}}, "The Who are an English rock band"},
		{"it", []hit{{"4002", idf2}, {"4003", idf2 / math.Sqrt2}}, "It is a horror novel"},
		{"IT", []hit{{"4002", idf2}, {"4003", idf2 / math.Sqrt2}}, "It is a horror novel"},
		{"this is it", []hit{{"4004", idf1 / math.Sqrt2}}, "A song of farewell."},
	} {
		res := search(t, x, tc.q)
		var got []hit
		for _, r := range res {
			got = append(got, hit{r.ID, r.Score})
		}
		ok := len(got) == len(tc.hits)
		for i := 0; ok && i < len(got); i++ {
			ok = got[i].id == tc.hits[i].id && math.Abs(got[i].score-tc.hits[i].score) < 1e-6*tc.hits[i].score && res[i].Lang == "en"
		}
		if !ok {
			t.Errorf("%q: %v, want %v", tc.q, got, tc.hits)
			continue
		}
		// no term to browse for: the passage is the lead, marked, and
		// the snippet starts at the body, not the header
		if len(res[0].Passages) != 1 || !res[0].Passages[0].NoMatch || !strings.HasPrefix(res[0].Snippet, tc.snippet) {
			t.Errorf("%q: passages %v, snippet %q; want the lead, from %q", tc.q, res[0].Passages, res[0].Snippet, tc.snippet)
		}
	}
	for _, q := range []string{"the", "who", "this is", "!?"} {
		if _, err := x.Prepare(q); !errors.Is(err, ErrNoTerms) {
			t.Errorf("%q: err %v, want ErrNoTerms", q, err)
		}
	}
	for _, tc := range []struct {
		title string
		keys  []string
	}{
		{" The\u00a0Who\n", []string{"the who"}},
		{"It (novel)", []string{"it (novel)", "it"}},
		{"This Is It (Michael Jackson song)", []string{"this is it (michael jackson song)", "this is it"}},
		{"(Untitled)", []string{"(untitled)"}},
		{"", nil},
	} {
		if got := analysis.TitleKeys(tc.title); !reflect.DeepEqual(got, tc.keys) {
			t.Errorf("titleKeys(%q) = %q, want %q", tc.title, got, tc.keys)
		}
	}
}

// TestHeaderMetadata checks that the header's ids, revision, timestamp and
// contributor are not searched, while the title and the categories are,
// and that every offset stays. Counted by hand:
//
// A text: "Harbour light" [0,13) "42" [13,15) "987654" [15,21)
// "2011-06-05T14:03:28Z" [21,41) "Zebrabot" [41,49) "5" [49,50)
// "Lighthouses" [50,61) "A harbour light guides ships." [61,90). Tokens:
// harbour light | lighthous | harbour light guid ship (7); title 2.
// B text: "Zebra" "Zebra crossing.": zebra | zebra cross (3); title 1.
// Text 10 tokens, title 3 (the header's numbers and the contributor
// would add at least 6 more).
func TestHeaderMetadata(t *testing.T) {
	const (
		a = `<article><header><title>Harbour light</title><id>42</id><revision><id>987654</id><timestamp>2011-06-05T14:03:28Z</timestamp><contributor><username>Zebrabot</username><id>5</id></contributor></revision><categories><category>Lighthouses</category></categories></header><bdy><p>A harbour light guides ships.</p></bdy></article>`
		b = `<article><header><title>Zebra</title></header><bdy><p>Zebra crossing.</p></bdy></article>`
	)
	dir := t.TempDir()
	articles, idx := filepath.Join(dir, "articles"), filepath.Join(dir, "idx")
	testfs.Write(t, articles, map[string]string{"42.xml": a, "b.xml": b})
	if _, err := Build(BuildOptions{Articles: articles, Index: idx}); err != nil {
		t.Fatal(err)
	}
	x := openTest(t, idx)
	if st := x.snap().BM25; st.FieldCardinality["text"] != 10 || st.FieldCardinality["title"] != 3 {
		t.Errorf("field lengths %v, want text 10, title 3", st.FieldCardinality)
	}
	for _, tc := range []struct {
		q    string
		ids  []string
		span []span // of the first hit
	}{
		{"zebrabot", nil, nil},
		{"987654", nil, nil},
		{"2011", nil, nil},
		{"zebra", []string{"b"}, []span{{5, 20, "/article[1]/bdy[1]/p[1]"}}},
		// a category: no candidate element holds it, the passage is the lead
		{"lighthouses", []string{"42"}, []span{{61, 90, "/article[1]/bdy[1]/p[1]"}}},
		{"harbour", []string{"42"}, []span{{61, 90, "/article[1]/bdy[1]/p[1]"}}},
	} {
		res := search(t, x, tc.q)
		if ids := hitIDs(res); !reflect.DeepEqual(ids, tc.ids) {
			t.Errorf("%q: %v, want %v", tc.q, ids, tc.ids)
			continue
		}
		if len(res) > 0 && !reflect.DeepEqual(spans(res[0].Passages), tc.span) {
			t.Errorf("%q: passages %v, want %v", tc.q, spans(res[0].Passages), tc.span)
		}
	}
	d, err := x.Article("42")
	if err != nil || d.Len != 90 || d.Text[41:49] != "Zebrabot" {
		t.Errorf("stored article: %v, want its 90 characters, Zebrabot at 41", err)
	}
	x.Close()
	// removing 42 takes exactly its element terms out (an update analyses
	// the stored article as the build did): harbour, light, guid, ship 0
	os.Remove(filepath.Join(articles, "42.xml"))
	if _, err := Build(BuildOptions{Articles: articles, Index: idx}); err != nil {
		t.Fatal(err)
	}
	x = openTest(t, idx)
	pq := mustPrepare(t, x, "harbour light guides ships zebra crossing")
	if want := map[string]float64{"harbour": 0, "light": 0, "guid": 0, "ship": 0, "zebra": 1, "cross": 1}; !reflect.DeepEqual(pq.stats.DF, want) {
		t.Errorf("element frequencies %v, want %v", pq.stats.DF, want)
	}
}
