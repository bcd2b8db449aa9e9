package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/records"
	"github.com/readsim/readsim/index/store"
)

// reanalysed browses d for q and makes the snippet of each passage as
// browse did before the build kept its tokens: the article analysed again
// whole, each element's length counted on its tokens.
func reanalysed(d *StoredArticle, q *Query, opt Options) ([]Passage, []string) {
	old := d.Reanalysed()
	ps := browseDoc(old, q, opt)
	var snips []string
	for _, p := range ps {
		snips = append(snips, Snippet(old, p, q, 160))
	}
	return ps, snips
}

// sharedQueries are queries over every language of the collections: words
// of the sample's topics, an English word inside many real articles,
// Chinese in both scripts, Korean, and one-character CJK queries (character
// terms, read through every bigram holding them).
var sharedQueries = []string{
	"bridge history", "coffee roasting", "volcano eruption", "lighthouse keeper", "steam railway", "bird migration",
	"computing machine", "fermentation", "the world war", "university",
	"烏龍茶", "乌龙茶", "中国", "茶", "東", "송혜교", "한국", "서울 대학교", "김치",
}

// TestBrowseStoredSame checks that browse and snippets reading the query
// terms' occurrences and the elements' lengths from the index give exactly
// what they gave analysing each article again (the reference, reanalysed):
// on every sample article and every real article, for the shared queries
// and the article's own title, through Passages (an article page) and
// Search (a result list).
// eachCollection runs f as a subtest on an index of the sample articles
// and one of the real articles (skipped, saying why, where they are
// absent), with the collection's folder and article files (at least 50).
func eachCollection(t *testing.T, f func(t *testing.T, dir string, x *Index, files []string)) {
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
			if err != nil || len(files) < 50 {
				t.Fatalf("%d articles in %s, want at least 50: %v", len(files), dir, err)
			}
			f(t, dir, x, files)
		})
	}
}

// articleQueries calls f for every article of files (read from x whole)
// and every query of its title and the shared queries that has terms,
// with the article's passages for it (Passages: an article page), and
// returns the articles' titles.
func articleQueries(t *testing.T, x *Index, files []string, f func(id string, d *StoredArticle, q string, pq *Query, got []Passage)) []string {
	t.Helper()
	var titles []string
	for _, file := range files {
		id := strings.TrimSuffix(filepath.Base(file), ".xml")
		d, err := x.Article(id)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		titles = append(titles, d.Title)
		for _, q := range append([]string{d.Title}, sharedQueries...) {
			pq, err := x.Prepare(q)
			if err != nil || len(pq.Terms) == 0 {
				continue
			}
			got, err := x.Passages(context.Background(), q, id, Options{})
			if err != nil {
				t.Fatalf("%s %q: %v", id, q, err)
			}
			f(id, d, q, pq, got)
		}
	}
	return titles
}

func TestBrowseStoredSame(t *testing.T) {
	eachCollection(t, func(t *testing.T, dir string, x *Index, files []string) {
		ctx := context.Background()
		opt := Options{}
		compared, nonEmpty, withPassages := 0, 0, 0
		some := map[string]bool{}
		titles := articleQueries(t, x, files, func(id string, d *StoredArticle, q string, pq *Query, got []Passage) {
			want, wantSnips := reanalysed(d, pq, opt)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %q: passages from the index %v, analysed again %v", id, q, got, want)
				return
			}
			// the snippets of an article browsed through Browse
			d2 := d.WithoutMatches()
			ps := x.Browse(d2, pq, opt)
			if !d2.HasMatches() {
				t.Fatalf("%s %q: Browse read no occurrences from the index", id, q)
			}
			var snips []string
			for _, p := range ps {
				snips = append(snips, Snippet(d2, p, pq, 160))
			}
			if !reflect.DeepEqual(ps, want) || !reflect.DeepEqual(snips, wantSnips) {
				t.Errorf("%s %q: Browse %v snippets %q, analysed again %v %q", id, q, ps, snips, want, wantSnips)
			}
			compared++
			if len(want) > 0 {
				nonEmpty++
				if !some[id] {
					some[id] = true
					withPassages++
				}
			}
		})
		if withPassages*10 < len(files)*9 {
			t.Errorf("%d of %d articles have passages for some query: the comparison must cover nine in ten at least", withPassages, len(files))
		}
		// result lists: every hit's passages and snippet
		for _, q := range sharedQueries {
			pq, err := x.Prepare(q)
			if err != nil {
				continue
			}
			res, err := x.Search(ctx, pq, 50, opt)
			if err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			for _, r := range res {
				if !r.Doc.HasMatches() {
					t.Fatalf("%q %s: Search read no occurrences from the index", q, r.ID)
				}
				want, _ := reanalysed(r.Doc, pq, opt)
				if !reflect.DeepEqual(r.Passages, want) {
					t.Errorf("%q %s: Search's passages %v, analysed again %v", q, r.ID, r.Passages, want)
				}
				old := r.Doc.WithoutMatches()
				p := Passage{}
				if len(r.Passages) > 0 {
					p = r.Passages[0]
				} else if len(old.Elems) > 0 {
					p.Start, p.End = old.Elems[0].Start, old.Len
				} else {
					p.End = old.Len
				}
				w := Options{}.snippetWidth(r.Lang)
				if got, want := Snippet(r.Doc, p, pq, w), Snippet(old, p, pq, w); got != want || got != r.Snippet {
					t.Errorf("%q %s: snippet %q (Search's %q), analysed again %q", q, r.ID, got, r.Snippet, want)
				}
				compared++
			}
		}
		t.Logf("%d articles (%d with passages), %d comparisons (%d with passages)", len(files), withPassages, compared, nonEmpty)
		// result lists read by blocks (Hits) against Search, for the
		// shared queries and every article's title
		var c hitsCover
		for _, q := range append(sharedQueries, titles...) {
			pq, err := x.Prepare(q)
			if err != nil || len(pq.Terms) == 0 {
				continue
			}
			compareHits(t, x, q, pq, &c)
		}
		t.Logf("Hits = Search: %v", c)
		if dir == realData && (c.twoBlocks == 0 || c.longPass == 0 || c.cjk == 0 || c.quietSnips == 0) {
			t.Errorf("Hits = Search went through %v: the real articles must give each case", c)
		}
	})
}

// TestOldLayoutRefused: an index of the layout before the record store
// (manifest version 9: the text in Bleve's stored fields, no records
// files; 10 and 11 had records without titles or without the elements'
// kinds, and were never part of a release; 12 had no auxiliary text
// field) is never read: Open refuses
// it, naming the fix, and the next build rebuilds it from scratch,
// saying why.
func TestOldLayoutRefused(t *testing.T) {
	articles, idx, _ := buildTest(t)
	man := filepath.Join(idx, "manifest.json")
	b, err := os.ReadFile(man)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(string(b), `"version": 13,`, `"version": 9,`, 1)
	if old == string(b) {
		t.Fatalf("no version 13 in %s", b)
	}
	for i := 0; ; i++ {
		// a layout-9 shard has no records file
		if err := os.Remove(records.Path(store.ShardDir(idx, i))); err != nil {
			break
		}
	}
	if err := os.WriteFile(man, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	x, err := Open(idx)
	if err == nil {
		x.Close()
		t.Fatal("an index of layout 9 opened")
	}
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "layout 9, want 13") || !strings.Contains(err.Error(), "rebuild with readsim index") {
		t.Errorf("error %v (%T), want an InputError naming layouts 9 and 13 and the rebuild", err, err)
	}
	res, err := Build(BuildOptions{Articles: articles, Index: idx})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Rebuilt, "layout 9, now 13") {
		t.Errorf("rebuilt %q, want the layouts named", res.Rebuilt)
	}
	openTest(t, idx)
}
