package app

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/internal/ground/testfs"
	"github.com/readsim/readsim/web"
)

// buildIndex indexes the articles folder into idx.
func buildIndex(t *testing.T, articles, idx string) {
	t.Helper()
	if _, err := index.Build(index.BuildOptions{Articles: articles, Index: idx}); err != nil {
		t.Fatal(err)
	}
}

// twoArticles writes articles 1 ("Fresnel lens" [0,12), then "Lens
// makers." [12,24)) and 2 ("Bridge") into dir/articles and indexes them
// into dir/idx.
func twoArticles(t *testing.T) (dir, articles, idx string) {
	t.Helper()
	dir = t.TempDir()
	articles, idx = filepath.Join(dir, "articles"), filepath.Join(dir, "idx")
	testfs.Write(t, articles, map[string]string{
		"1.xml": `<article><header><title>Fresnel lens</title></header><bdy><p>Lens makers.</p></bdy></article>`,
		"2.xml": `<article><header><title>Bridge</title></header><bdy><p>A bridge over water.</p></bdy></article>`,
	})
	buildIndex(t, articles, idx)
	return dir, articles, idx
}

// TestAssemblyReload switches an assembly to rebuilt indexes and checks
// what each request sees. Article 1 is "Fresnel lens" [0,12) followed by
// one paragraph: "Lens makers." [12,24) first, then "Zorblaxite is a
// unique mineral." [12,43) (offsets by hand).
//
//   - A snapshot taken before a switch keeps the previous build whole: its
//     pages lack the new article 3 and show 1's old text (read before the
//     file changed), its search finds no zorblaxite, and its index stays
//     open until the snapshot is released; then it is closed.
//   - After the switch the pages, the search and a new snapshot are the
//     new build's: 3 is there, zorblaxite is found at [12,43) in 1.
//   - A rebuilt index whose articles folder is gone is not served (the
//     previous build goes on, with an error); once the folder is back, it
//     is served without being opened again.
//   - After Close nothing is served and closing again does nothing.
func TestAssemblyReload(t *testing.T) {
	dir, articles, idx := twoArticles(t)
	a, err := Assemble(ServeConfig{Index: idx})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	logf := func(f string, args ...any) { t.Logf(f, args...) }
	ctx := context.Background()
	oldPages, oldSearch, release := a.Options.Snapshot()
	// the page of 1 is read (and cached) before its file changes
	if _, err := oldPages.Render("1", nil, web.PageOptions{}); err != nil {
		t.Fatal(err)
	}
	testfs.Write(t, articles, map[string]string{
		"1.xml": `<article><header><title>Fresnel lens</title></header><bdy><p>Zorblaxite is a unique mineral.</p></bdy></article>`,
		"3.xml": `<article><header><title>Lens grinding</title></header><bdy><p>Grinding lenses.</p></bdy></article>`,
	})
	buildIndex(t, articles, idx)
	if switched, err := a.reload(ctx, logf); !switched || err != nil {
		t.Fatalf("reload: %v %v, want a switch", switched, err)
	}
	if switched, err := a.reload(ctx, logf); switched || err != nil {
		t.Errorf("second reload: %v %v, want none", switched, err)
	}
	// the snapshot taken before: the first build, whole and open
	page, err := oldPages.Render("1", nil, web.PageOptions{})
	if oldPages.Has("3") || err != nil || !strings.Contains(string(page), "Lens makers.") {
		t.Errorf("old snapshot: has 3 %v, page of 1 %v %s; want the first build's", oldPages.Has("3"), err, page)
	}
	// the first build has no zorblaxite in 1: its passage is the lead
	// (index/browse's Lead), "Lens makers." [12,24)
	if ps, err := oldSearch.Passages(ctx, "zorblaxite", "1"); err != nil || !reflect.DeepEqual(ps, []effort.Span{{Start: 12, End: 24}}) {
		t.Errorf("old snapshot: zorblaxite in 1: %v %v, want the lead [12,24)", ps, err)
	}
	if ps, err := oldSearch.Passages(ctx, "lens", "1"); err != nil || !reflect.DeepEqual(ps, []effort.Span{{Start: 12, End: 24}}) {
		t.Errorf("old snapshot: lens in 1: %v %v, want [12,24)", ps, err)
	}
	// the assembly now: the second build
	pages, search := a.Options.Pages, a.Options.Searcher
	page, err = pages.Render("1", []effort.Span{{Start: 12, End: 43}}, web.PageOptions{Highlight: true})
	if !pages.Has("3") || err != nil || !strings.Contains(string(page), `<mark data-o="12">Zorblaxite is a unique mineral.</mark>`) {
		t.Errorf("new pages: has 3 %v, page of 1 %v %s; want the second build's", pages.Has("3"), err, page)
	}
	if ps, err := search.Passages(ctx, "zorblaxite", "1"); err != nil || !reflect.DeepEqual(ps, []effort.Span{{Start: 12, End: 43}}) {
		t.Errorf("new search: zorblaxite in 1: %v %v, want [12,43)", ps, err)
	}
	newPages, _, releaseNew := a.Options.Snapshot()
	if !newPages.Has("3") {
		t.Error("a snapshot taken after the switch lacks article 3")
	}
	releaseNew()
	// released, the first build's index is closed
	release()
	if _, err := oldSearch.Passages(ctx, "lens", "1"); err == nil {
		t.Error("the first build's index is open after its last request")
	}
	// a rebuild from a folder that then disappears
	other := filepath.Join(dir, "other")
	testfs.Write(t, other, map[string]string{"4.xml": `<article><header><title>Quokka</title></header><bdy><p>A quokka smiles.</p></bdy></article>`})
	buildIndex(t, other, idx)
	hidden := other + ".hidden"
	if err := os.Rename(other, hidden); err != nil {
		t.Fatal(err)
	}
	if switched, err := a.reload(ctx, logf); switched || err == nil || !strings.Contains(err.Error(), "other") {
		t.Errorf("reload without the articles folder: %v %v, want an error naming it", switched, err)
	}
	if !pages.Has("3") || pages.Has("4") || a.pending == nil {
		t.Errorf("without the new folder: has 3 %v, has 4 %v, pending %v; want the second build served, the third pending", pages.Has("3"), pages.Has("4"), a.pending)
	}
	pending := a.pending
	if err := os.Rename(hidden, other); err != nil {
		t.Fatal(err)
	}
	if switched, err := a.reload(ctx, logf); !switched || err != nil || !pages.Has("4") || pages.Has("3") {
		t.Errorf("reload with the folder back: %v %v, has 4 %v, has 3 %v; want the third build", switched, err, pages.Has("4"), pages.Has("3"))
	}
	if a.cur.Load().x != pending || a.pending != nil {
		t.Error("the pending build was opened again")
	}
	// closed
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := search.Search(ctx, "quokka", 10); err == nil || pages.Has("4") {
		t.Errorf("after Close: search %v, has 4 %v; want nothing served", err, pages.Has("4"))
	}
	if err := a.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if switched, err := a.reload(ctx, logf); switched || err == nil {
		t.Errorf("reload after Close: %v %v, want an error", switched, err)
	}
}
