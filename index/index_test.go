package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/readsim/readsim/index/build"
	"github.com/readsim/readsim/index/store"
	"github.com/readsim/readsim/internal/ground/testfs"
)

// The test collection. Offsets were counted by hand from the text content
// (no white space between elements):
//
// 1001: "Fresnel lens" [0,12); p[1] "Lighthouses use lenses." [12,35);
// sec[1] [35,83) = st "History" [35,42) + p[1] "The Fresnel lens was
// invented by Fresnel." [42,83).
//
// 2001: name "Suspension bridge" [0,17); p[1] "A suspension bridge hangs
// from cables." [17,55); p[2] "Cables are spun from steel wire." [55,87);
// p[3] "Café owners like bridges." [87,112) (é is one character, two bytes).
var testArticles = map[string]string{
	"1001.xml": `<article><header><title>Fresnel lens</title></header><bdy><p>Lighthouses use lenses.</p><sec><st>History</st><p>The Fresnel lens was invented by Fresnel.</p></sec></bdy></article>`,
	"b/2001.xml": `<?xml version="1.0" encoding="UTF-8"?>
<article><name id="2001">Suspension bridge</name><body><p>A suspension bridge hangs from cables.</p><p>Cables are spun from steel wire.</p><p>Café owners like bridges.</p></body></article>`,
	"c/d/3001.xml": `<article><header><title>Optics</title></header><bdy><p>Optics studies light. Many lenses exist, among them one named after Fresnel.</p></bdy></article>`,
	"notes.txt":    "not an article",
	"broken.xml":   "<article>\n<p>unclosed\n</article>",
}

func buildTest(t *testing.T) (articles, idx string, res *BuildResult) {
	t.Helper()
	dir := t.TempDir()
	articles = filepath.Join(dir, "articles")
	idx = filepath.Join(dir, "idx")
	testfs.Write(t, articles, testArticles)
	res, err := Build(BuildOptions{Articles: articles, Index: idx, Batch: 2})
	if err != nil {
		t.Fatal(err)
	}
	return articles, idx, res
}

func TestBuildSummary(t *testing.T) {
	_, _, res := buildTest(t)
	if !res.Full || res.Indexed != 3 || res.Articles != 3 {
		t.Errorf("full=%v indexed=%d articles=%d, want a full build of 3 articles", res.Full, res.Indexed, res.Articles)
	}
	// candidate elements: 1001 p, sec, sec/p; 2001 three p; 3001 one p
	if res.Elements != 7 {
		t.Errorf("elements = %d, want 7", res.Elements)
	}
	if len(res.NotXML) != 1 || filepath.Base(res.NotXML[0]) != "notes.txt" {
		t.Errorf("not XML = %v, want notes.txt", res.NotXML)
	}
	if len(res.Broken) != 1 || filepath.Base(res.Broken[0].Path) != "broken.xml" || !strings.Contains(res.Broken[0].Reason, "line 3") {
		t.Errorf("broken = %+v, want broken.xml at line 3", res.Broken)
	}
	if len(res.Dups) != 0 || len(res.IDClashes) != 0 {
		t.Errorf("dups = %+v, clashes %+v; want none", res.Dups, res.IDClashes)
	}
}

func openTest(t *testing.T, idx string) *Index {
	t.Helper()
	x, err := Open(idx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

func search(t *testing.T, x *Index, q string) []SearchResult {
	t.Helper()
	pq, err := x.Prepare(q)
	if err != nil {
		t.Fatal(err)
	}
	res, err := x.Search(context.Background(), pq, 10, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

type span struct {
	start, end int
	xpaths     string
}

func spans(ps []Passage) []span {
	var out []span
	for _, p := range ps {
		out = append(out, span{p.Start, p.End, strings.Join(p.XPaths, " ")})
	}
	return out
}

func TestFetchAndBrowse(t *testing.T) {
	_, idx, _ := buildTest(t)
	x := openTest(t, idx)
	if x.Articles() != 3 || x.Elements() != 7 {
		t.Fatalf("articles %d elements %d, want 3 and 7", x.Articles(), x.Elements())
	}
	tests := []struct {
		query string
		ids   []string // fetch order
		first []span   // passages of the first article
	}{
		// 1001 has fresnel in its title and twice in its text; 3001 once.
		// The paragraph and its section both hold both occurrences: the
		// shorter paragraph scores higher and the section overlaps it.
		{"Fresnel", []string{"1001", "3001"}, []span{{42, 83, "/article[1]/bdy[1]/sec[1]/p[1]"}}},
		// steel is rarer than cable: p[2] scores more than twice p[1]; p[1]
		// is the lead (the body's first paragraph) but does not hold steel
		{"cables steel", []string{"2001"}, []span{{55, 87, "/article[1]/body[1]/p[2]"}}},
		// p[1] and p[2] each hold one "cables" and three other words:
		// equal scores, adjacent, merged
		{"cables", []string{"2001"}, []span{{17, 87, "/article[1]/body[1]/p[1] /article[1]/body[1]/p[2]"}}},
		// bridge and bridges stem alike; p[2] between them does not match
		{"bridge", []string{"2001"}, []span{{17, 55, "/article[1]/body[1]/p[1]"}, {87, 112, "/article[1]/body[1]/p[3]"}}},
	}
	for _, tc := range tests {
		res := search(t, x, tc.query)
		var ids []string
		for _, r := range res {
			ids = append(ids, r.ID)
		}
		if !reflect.DeepEqual(ids, tc.ids) {
			t.Errorf("%q: fetched %v, want %v", tc.query, ids, tc.ids)
			continue
		}
		if got := spans(res[0].Passages); !reflect.DeepEqual(got, tc.first) {
			t.Errorf("%q: passages %v, want %v", tc.query, got, tc.first)
		}
	}
	res := search(t, x, "bridge")
	if res[0].Title != "Suspension bridge" || res[0].Doc.Len != 112 {
		t.Errorf("title %q len %d, want Suspension bridge and 112", res[0].Title, res[0].Doc.Len)
	}
	pq, _ := x.Prepare("bridge")
	if got, want := Snippet(res[0].Doc, res[0].Passages[1], pq, 160), "Café owners like [bridges]."; got != want {
		t.Errorf("snippet %q, want %q", got, want)
	}
}

func TestNoTerms(t *testing.T) {
	_, idx, _ := buildTest(t)
	x := openTest(t, idx)
	for _, q := range []string{"the and of", "AND OR NOT", `+"-" ()`, ""} {
		if _, err := x.Prepare(q); !errors.Is(err, ErrNoTerms) {
			t.Errorf("%q: err %v, want ErrNoTerms", q, err)
		}
	}
}

func TestIncremental(t *testing.T) {
	articles, idx, _ := buildTest(t)
	// add 4001, remove 3001, change 2001
	testfs.Write(t, articles, map[string]string{
		"4001.xml":   `<article><header><title>Lens grinding</title></header><bdy><p>Grinding a Fresnel lens by hand.</p></bdy></article>`,
		"b/2001.xml": `<article><name id="2001">Suspension bridge</name><body><p>Cables of steel.</p></body></article>`,
	})
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(articles, "b", "2001.xml"), later, later)
	os.Remove(filepath.Join(articles, "c", "d", "3001.xml"))
	res, err := Build(BuildOptions{Articles: articles, Index: idx})
	if err != nil {
		t.Fatal(err)
	}
	if res.Full || res.Indexed != 2 || res.Unchanged != 1 || res.Removed != 1 || res.Articles != 3 {
		t.Errorf("full=%v indexed=%d unchanged=%d removed=%d articles=%d, want 2, 1, 1, 3",
			res.Full, res.Indexed, res.Unchanged, res.Removed, res.Articles)
	}
	// 1001: 3 elements, 2001: 1, 4001: 1
	if res.Elements != 5 {
		t.Errorf("elements %d, want 5", res.Elements)
	}
	x := openTest(t, idx)
	if x.Elements() != 5 {
		t.Errorf("candidate elements %d, want 5", x.Elements())
	}
	var ids []string
	for _, r := range search(t, x, "fresnel") {
		ids = append(ids, r.ID)
	}
	if !reflect.DeepEqual(ids, []string{"1001", "4001"}) && !reflect.DeepEqual(ids, []string{"4001", "1001"}) {
		t.Errorf("fetched %v, want 1001 and 4001 only", ids)
	}
	if r := search(t, x, "cables"); len(r) != 1 || spans(r[0].Passages)[0] != (span{17, 33, "/article[1]/body[1]/p[1]"}) {
		t.Errorf("changed article not re-indexed: %+v", r)
	}
	// nothing changed: nothing to do
	res, err = Build(BuildOptions{Articles: articles, Index: idx})
	if err != nil || res.Indexed != 0 || res.Unchanged != 3 {
		t.Errorf("re-run: %+v %v, want 3 unchanged", res, err)
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	var ie *InputError
	if _, err := Build(BuildOptions{Articles: filepath.Join(dir, "none"), Index: filepath.Join(dir, "idx")}); !errors.As(err, &ie) {
		t.Errorf("missing folder: %v, want an InputError", err)
	}
	os.Mkdir(filepath.Join(dir, "empty"), 0o755)
	if _, err := Build(BuildOptions{Articles: filepath.Join(dir, "empty"), Index: filepath.Join(dir, "idx")}); !errors.As(err, &ie) {
		t.Errorf("empty folder: %v, want an InputError", err)
	}
	// an interrupted build: a folder without manifest
	os.MkdirAll(filepath.Join(dir, "half", "articles"), 0o755)
	if _, err := Open(filepath.Join(dir, "half")); !errors.As(err, &ie) || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("half-built index: %v", err)
	}
	if _, err := Open(filepath.Join(dir, "nothing")); !errors.As(err, &ie) {
		t.Errorf("missing index: %v", err)
	}
}

func TestLocked(t *testing.T) {
	articles, idx, _ := buildTest(t)
	release, err := store.Lock(idx)
	if err != nil {
		t.Fatalf("the lock of a finished build: %v", err)
	}
	defer release()
	// flock locks belong to the open file: a second open in this process
	// conflicts like another process would
	_, err = Build(BuildOptions{Articles: articles, Index: idx, Rebuild: true})
	if !errors.Is(err, ErrLocked) {
		t.Errorf("build while locked: %v, want ErrLocked", err)
	}
}

func TestLeftoversRemoved(t *testing.T) {
	articles, idx, _ := buildTest(t)
	left := idx + ".building-99999"
	os.MkdirAll(filepath.Join(left, "articles-0"), 0o755)
	if _, err := Build(BuildOptions{Articles: articles, Index: idx, Rebuild: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Errorf("leftover %s still there", left)
	}
}

// TestScoresIndependentOfSegments checks that an index built in several
// segments (one article per batch, not merged), and an index updated
// incrementally,
// score exactly as a full build in one segment does. Without the
// collection's own statistics Bleve would take a field's average length to
// be its number of distinct terms, summed over segments, per article: here
// the text field's would be ⌈8/3⌉ = 3 in one segment and ⌈17/3⌉ = 6 in three
// (or ⌈12/3⌉ = 4 in two), instead of 21/3 = 7 tokens.
//
// Text tokens (the title is part of the text): a: alpha | alpha beta gamma
// delta epsilon zeta (7 tokens, 6 distinct); b: beta | beta gamma delta
// epsilon zeta eta theta (8, 7); c: gamma | gamma gamma delta epsilon zeta
// (6, 4); 8 distinct in all.
func TestScoresIndependentOfSegments(t *testing.T) {
	defer func() { build.MergeSegments = true }()
	build.MergeSegments = false
	files := map[string]string{
		"a.xml": `<article><header><title>Alpha</title></header><bdy><p>alpha beta gamma delta epsilon zeta</p></bdy></article>`,
		"b.xml": `<article><header><title>Beta</title></header><bdy><p>beta gamma delta epsilon zeta eta theta</p></bdy></article>`,
		"c.xml": `<article><header><title>Gamma</title></header><bdy><p>gamma gamma delta epsilon zeta</p></bdy></article>`,
	}
	dir := t.TempDir()
	articles := filepath.Join(dir, "articles")
	testfs.Write(t, articles, files)
	one, split, updated := filepath.Join(dir, "one"), filepath.Join(dir, "split"), filepath.Join(dir, "updated")
	if _, err := Build(BuildOptions{Articles: articles, Index: one}); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(BuildOptions{Articles: articles, Index: split, Batch: 1}); err != nil {
		t.Fatal(err)
	}
	// updated: built without c and with another b, then brought up to date
	os.Remove(filepath.Join(articles, "c.xml"))
	testfs.Write(t, articles, map[string]string{"b.xml": `<article><header><title>Beta</title></header><bdy><p>beta beta</p></bdy></article>`})
	if _, err := Build(BuildOptions{Articles: articles, Index: updated, Batch: 1}); err != nil {
		t.Fatal(err)
	}
	testfs.Write(t, articles, map[string]string{"b.xml": files["b.xml"], "c.xml": files["c.xml"]})
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(articles, "b.xml"), later, later)
	if res, err := Build(BuildOptions{Articles: articles, Index: updated, Batch: 1}); err != nil || res.Full || res.Indexed != 2 {
		t.Fatalf("update: %+v %v, want b and c indexed again", res, err)
	}

	y := openTest(t, one)
	if n := segments(y.snap().Bleve[0]); n != 1 {
		t.Fatalf("a full build of 3 small articles left %d segments, want 1", n)
	}
	if y.snap().BM25.FieldCardinality["text"] != 21 {
		t.Errorf("text tokens %d, want 21", y.snap().BM25.FieldCardinality["text"])
	}
	for _, c := range []struct {
		name string
		x    *Index
	}{{"split", openTest(t, split)}, {"updated", openTest(t, updated)}} {
		x := c.x
		if c.name == "split" && segments(x.snap().Bleve[0]) < 2 {
			t.Fatalf("split: %d segment(s): the test needs several", segments(x.snap().Bleve[0]))
		}
		if x.snap().elemAvg != y.snap().elemAvg || x.snap().elemN != y.snap().elemN || !reflect.DeepEqual(x.snap().BM25, y.snap().BM25) {
			t.Errorf("%s: statistics N %v avg %v fetch %+v, one segment N %v avg %v fetch %+v",
				c.name, x.snap().elemN, x.snap().elemAvg, x.snap().BM25, y.snap().elemN, y.snap().elemAvg, y.snap().BM25)
		}
		for _, q := range []string{"gamma", "beta theta", "alpha zeta"} {
			if a, b := search(t, x, q), search(t, y, q); !reflect.DeepEqual(a, b) {
				t.Errorf("%s: %q: %+v, one segment %+v", c.name, q, a, b)
			}
		}
	}
}

// TestCollectionStatistics checks the statistics fetch and browse score
// with, counted by hand, after a full build and after an update. Tokens
// (English analyzer: Porter stems, no stop word here):
//
// A title "Red fox": red fox (2). Text "Red fox" | "Red fox jumps." |
// "Dens" | "Fox dens hold cubs." (block boundaries split words): red fox
// red fox jump den fox den hold cub (10). Candidate elements: bdy/p[1] red
// fox jump (3); sec[1] den fox den hold cub (5); sec[1]/p[1] fox den hold
// cub (4).
//
// B title "Blue whale" (2); text blue whale whale song (4); p[1] whale song
// (2).
//
// C title "Fox" (1); text fox fox fox fox (4); p[1] fox fox fox (3).
func TestCollectionStatistics(t *testing.T) {
	const (
		a = `<article><header><title>Red fox</title></header><bdy><p>Red fox jumps.</p><sec><st>Dens</st><p>Fox dens hold cubs.</p></sec></bdy></article>`
		b = `<article><header><title>Blue whale</title></header><bdy><p>Whale song.</p></bdy></article>`
		c = `<article><header><title>Fox</title></header><bdy><p>Fox, fox, fox.</p></bdy></article>`
	)
	dir := t.TempDir()
	articles, idx := filepath.Join(dir, "articles"), filepath.Join(dir, "idx")
	type want struct {
		elems       float64
		avg         float64
		title, text int
		articles    float64
		df          map[string]float64
	}
	check := func(stage string, w want) {
		t.Helper()
		x := openTest(t, idx)
		if x.snap().elemN != w.elems || x.snap().elemAvg != w.avg {
			t.Errorf("%s: elements %v avg length %v, want %v and %v", stage, x.snap().elemN, x.snap().elemAvg, w.elems, w.avg)
		}
		if x.snap().BM25.DocCount != w.articles || x.snap().BM25.FieldCardinality["title"] != w.title || x.snap().BM25.FieldCardinality["text"] != w.text {
			t.Errorf("%s: fetch statistics %+v, want %v articles, title %d, text %d tokens", stage, x.snap().BM25, w.articles, w.title, w.text)
		}
		terms := ""
		for term := range w.df {
			terms += term + " "
		}
		pq, err := x.Prepare(terms)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(pq.stats.DF, w.df) {
			t.Errorf("%s: element frequencies %v, want %v", stage, pq.stats.DF, w.df)
		}
	}
	testfs.Write(t, articles, map[string]string{"a.xml": a, "b.xml": b})
	if _, err := Build(BuildOptions{Articles: articles, Index: idx, Batch: 1}); err != nil {
		t.Fatal(err)
	}
	check("full build", want{elems: 4, avg: 14.0 / 4, title: 4, text: 14, articles: 2,
		df: map[string]float64{"fox": 3, "red": 1, "jump": 1, "den": 2, "hold": 2, "cub": 2, "whale": 1, "song": 1, "blue": 0}})

	os.Remove(filepath.Join(articles, "b.xml"))
	testfs.Write(t, articles, map[string]string{"c.xml": c})
	if _, err := Build(BuildOptions{Articles: articles, Index: idx}); err != nil {
		t.Fatal(err)
	}
	check("update", want{elems: 4, avg: 15.0 / 4, title: 3, text: 14, articles: 2,
		df: map[string]float64{"fox": 4, "red": 1, "jump": 1, "den": 2, "hold": 2, "cub": 2, "whale": 0, "song": 0}})
}

// TestUnupdatableIndexRebuilt checks that an index whose element
// frequencies are missing or damaged, or whose Bleve index lacks an article
// of its manifest, is built again by the next build, even with no article
// changed, and then searches as a fresh build does.
func TestUnupdatableIndexRebuilt(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(idx string) error
		reason string
	}{
		{"missing elements.fst", func(idx string) error { return os.Remove(filepath.Join(idx, store.ElemDFName)) }, store.ElemDFName},
		{"missing articles.json", func(idx string) error { return os.Remove(filepath.Join(idx, store.ArticlesName)) }, store.ArticlesName},
		{"truncated elements.fst", func(idx string) error {
			p := filepath.Join(idx, store.ElemDFName)
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(p, b[:len(b)/2], 0o644)
		}, store.ElemDFName},
		{"article missing from Bleve", func(idx string) error {
			m, err := store.ReadManifest(idx)
			if err != nil {
				return err
			}
			m.Articles["gone.xml"] = store.Entry{ID: "gone"}
			return store.WriteManifest(idx, m)
		}, "holds 3 articles, its manifest 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			articles, idx, _ := buildTest(t)
			if err := tc.damage(idx); err != nil {
				t.Fatal(err)
			}
			res, err := Build(BuildOptions{Articles: articles, Index: idx})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Full || res.Indexed != 3 || !strings.Contains(res.Rebuilt, tc.reason) {
				t.Errorf("full=%v indexed=%d rebuilt=%q, want a full build of 3 saying %q", res.Full, res.Indexed, res.Rebuilt, tc.reason)
			}
			fresh := filepath.Join(t.TempDir(), "fresh")
			if _, err := Build(BuildOptions{Articles: articles, Index: fresh}); err != nil {
				t.Fatal(err)
			}
			x, y := openTest(t, idx), openTest(t, fresh)
			for _, q := range []string{"fresnel lens", "bridge cables"} {
				if a, b := search(t, x, q), search(t, y, q); !reflect.DeepEqual(a, b) {
					t.Errorf("%q: rebuilt %+v, fresh %+v", q, a, b)
				}
			}
		})
	}
}

// segments is the number of segments of a scorch index (0 if unknown).
func segments(idx bleve.Index) uint64 {
	adv, err := idx.Advanced()
	if err != nil {
		return 0
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return 0
	}
	n, _ := s.StatsMap()["num_root_filesegments"].(uint64)
	return n
}

// A build merges no segment while it indexes (buildConfig): the sample,
// one article a batch, makes 52 small segments, far below the tiered
// plan's floor of 2,000 documents, which Bleve's merger would otherwise
// merge as they come.
func TestBuildPlansNoMerge(t *testing.T) {
	defer func() { build.MergeSegments, build.BeforeMerge = true, nil }()
	build.MergeSegments = false
	var tasks, plans uint64
	build.BeforeMerge = func(ai bleve.Index) {
		adv, err := ai.Advanced()
		if err != nil {
			t.Fatal(err)
		}
		st := adv.(*scorch.Scorch).StatsMap()
		n, _ := st["TotFileMergePlanTasks"].(uint64)
		p, _ := st["TotFileMergePlan"].(uint64)
		tasks += n
		plans += p
	}
	articles := filepath.Join("..", "corpus-sample", "articles")
	if _, err := Build(BuildOptions{Articles: articles, Index: filepath.Join(t.TempDir(), "idx"), Batch: 1, Shards: 1}); err != nil {
		t.Fatal(err)
	}
	if plans == 0 {
		t.Fatal("the merger planned nothing at all: the statistic read is not the merger's")
	}
	if tasks != 0 {
		t.Errorf("the merger planned %d merge tasks during a build (%d plans), want none", tasks, plans)
	}
}

// NewOptions: a zero boost switches its field off (offBoost), not to the
// default; out-of-range values are refused with the flag's name.
func TestNewOptions(t *testing.T) {
	for _, tc := range []struct {
		title, text, threshold float64
		want                   Options
		err                    string
	}{
		{2, 1, 0.5, Options{TitleBoost: 2, TextBoost: 1, Threshold: 0.5}, ""},
		{0, 3, 1, Options{TitleBoost: 1e-9, TextBoost: 3, Threshold: 1}, ""},
		{4, 0, 0.1, Options{TitleBoost: 4, TextBoost: 1e-9, Threshold: 0.1}, ""},
		{0, 0, 0.5, Options{}, "--title-boost and --text-boost must be non-negative, not both zero"},
		{-1, 2, 0.5, Options{}, "--title-boost and --text-boost must be non-negative, not both zero"},
		{1, 1, 0, Options{}, "--threshold must be in (0, 1]"},
		{1, 1, 1.5, Options{}, "--threshold must be in (0, 1]"},
		{0, 0, 2, Options{}, "--threshold must be in (0, 1]"}, // the threshold is checked first
	} {
		got, err := NewOptions(tc.title, tc.text, tc.threshold)
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err {
			t.Errorf("NewOptions(%v, %v, %v) = %+v, %v; want %+v, %q", tc.title, tc.text, tc.threshold, got, err, tc.want, tc.err)
		}
	}
}
