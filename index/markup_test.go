package index

import (
	"context"
	"html"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"

	"github.com/readsim/readsim/internal/ground/testfs"
)

// markupArticles hold what the collection's converter leaves of wiki
// markup (docs/articles.md): an infobox as a template element, infobox
// parameter lines and an image link left as text, emphasis quotes and a
// doubly escaped entity.
var markupArticles = map[string]string{
	"4689264.xml": `<article><header><title>Oz land</title></header><bdy>
<template><name>Infobox Country</name><parameters><capital>Canberra</capital><largest_city>Sydney</largest_city></parameters></template>
<p>
Image:Australian Coat of Arms.png|thumb|right|200px|The ''coat of arms'' of Australia]]
Australia is a country in the Southern Hemisphere.</p>
<p>Kimchi &amp;gt; History of the dollar.</p></bdy></article>`,
	"152967.xml": `<article><header><title>Kim Dae-jung</title></header><bdy>
|birth_place = Daegu|religion = Roman Catholicism
}}<p>Kim Dae-jung was President of South Korea.</p></bdy></article>`,
}

// The index does not analyse what a page does not show (leftover markup,
// the infobox), and snippets leave it out: no snippet starts in an
// infobox or a parameter line. Wanted snippets written by hand from the
// text as the page shows it.
func TestMarkupUnshown(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, filepath.Join(dir, "a"), markupArticles)
	if _, err := Build(BuildOptions{Articles: filepath.Join(dir, "a"), Index: filepath.Join(dir, "idx")}); err != nil {
		t.Fatal(err)
	}
	x := openTest(t, filepath.Join(dir, "idx"))
	for _, tc := range []struct {
		q       string
		ids     []string
		snippet string // of the first result
	}{
		{"thumb", nil, ""},
		{"200px", nil, ""},
		{"Daegu", nil, ""},
		{"religion", nil, ""},
		{"Canberra", nil, ""},
		// the caption is a line of its own: a separator after it
		{"coat", []string{"4689264"}, "The [coat] of arms of Australia · Australia is a country in the Southern Hemisphere."},
		{"dollar", []string{"4689264"}, "Kimchi > History of the [dollar]."},
		// a title-only hit: the snippet of its lead, the first
		// paragraph shown
		{"oz", []string{"4689264"}, "The coat of arms of Australia · Australia is a country in the Southern Hemisphere."},
		{"kim", []string{"152967"}, "[Kim] Dae-jung was President of South Korea."},
	} {
		res := search(t, x, tc.q)
		var ids []string
		for _, r := range res {
			ids = append(ids, r.ID)
		}
		if len(ids) != len(tc.ids) || len(ids) > 0 && ids[0] != tc.ids[0] {
			t.Errorf("%q: found %v, want %v", tc.q, ids, tc.ids)
			continue
		}
		if len(res) > 0 && res[0].Snippet != tc.snippet {
			t.Errorf("%q: snippet %q, want %q", tc.q, res[0].Snippet, tc.snippet)
		}
	}
}

// leftover are the wiki markup patterns no snippet may show
// (docs/articles.md).
var leftover = regexp.MustCompile(`\|\s*thumb|thumb\s*\||\}\}|\{\{|''|&[a-z]+;|\]\]|(^|\s)\|[^|]*=`)

// TestRealSnippetsClean searches the real articles for each article's
// title and for words of their leftover markup: no snippet of any result
// or passage shows leftover markup, and "thumb" finds only the article
// where it is a word of the prose ("rule of thumb").
func TestRealSnippetsClean(t *testing.T) {
	x, _, _ := realIndex(t)
	files, err := filepath.Glob(filepath.Join(realData, "*", "*.xml"))
	if err != nil {
		t.Fatal(err)
	}
	queries := []string{"kimchi history", "birth place", "religion", "right", "jpg", "file image"}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := titleRE.FindSubmatch(b); m != nil {
			queries = append(queries, html.UnescapeString(string(m[1])))
		}
	}
	snippets := 0
	for _, q := range queries {
		pq, err := x.Prepare(q)
		if err != nil {
			continue // a title of stop words only
		}
		res, err := x.Search(context.Background(), pq, 10, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			all := []string{r.Snippet}
			for _, p := range r.Passages {
				all = append(all, Snippet(r.Doc, p, pq, 160))
			}
			for _, s := range all {
				snippets++
				if m := leftover.FindString(s); m != "" {
					t.Errorf("%q: %s: snippet shows %q: %s", q, r.ID, m, s)
				}
			}
		}
	}
	var ids []string
	for _, r := range search(t, x, "thumb") {
		ids = append(ids, r.ID)
	}
	if !reflect.DeepEqual(ids, []string{"54912"}) {
		t.Errorf("thumb found %v, want only 54912 (Dew point: a rule of thumb)", ids)
	}
	t.Logf("%d queries, %d snippets", len(queries), snippets)
}
