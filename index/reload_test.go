package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/store"
	"github.com/readsim/readsim/internal/ground/testfs"
)

// TestPassages checks an article page's retrieval in one call: the
// passages of TestFetchAndBrowse (offsets by hand in testArticles), none
// for an article the index does not have, ErrNoTerms, and a cancelled
// context.
func TestPassages(t *testing.T) {
	_, idx, _ := buildTest(t)
	x := openTest(t, idx)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		q, id string
		ctx   context.Context
		want  []span
		err   error
	}{
		{"Fresnel", "1001", context.Background(), []span{{42, 83, "/article[1]/bdy[1]/sec[1]/p[1]"}}, nil},
		{"bridge", "2001", context.Background(), []span{{17, 55, "/article[1]/body[1]/p[1]"}, {87, 112, "/article[1]/body[1]/p[3]"}}, nil},
		{"bridge", "9999", context.Background(), nil, nil},
		{"the and of", "1001", context.Background(), nil, ErrNoTerms},
		{"Fresnel", "1001", cancelled, nil, context.Canceled},
	}
	for _, tc := range tests {
		ps, err := x.Passages(tc.ctx, tc.q, tc.id, Options{})
		if !errors.Is(err, tc.err) || (tc.err == nil && err != nil) {
			t.Errorf("%q in %s: error %v, want %v", tc.q, tc.id, err, tc.err)
		}
		if got := spans(ps); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q in %s: passages %v, want %v", tc.q, tc.id, got, tc.want)
		}
	}
}

// shardDocs is the number of documents in the shards of the build x has
// open.
func shardDocs(t *testing.T, x *Index) int {
	t.Helper()
	n := 0
	for _, s := range x.snap().Bleve {
		c, err := s.DocCount()
		if err != nil {
			t.Fatal(err)
		}
		n += int(c)
	}
	return n
}

// TestOpenSwappedMidway swaps another build into the index's folder while
// Open is between two of its steps (after the manifest, after the element
// frequencies, after the first shard): the first build has 3 articles in
// 2 shards, the second 4 in 3. Open must notice and open the second build
// whole: its manifest's count, its 3 shards, their 4 documents. A folder
// rebuilt at every attempt is an error.
func TestOpenSwappedMidway(t *testing.T) {
	defer func() { openHook = nil }()
	tests := []struct {
		step  string
		every bool // swap at every attempt
	}{
		{"manifest", false},
		{"elements", false},
		{"shard", false},
		{"manifest", true},
	}
	for _, tc := range tests {
		dir := t.TempDir()
		first, second, idx := filepath.Join(dir, "first"), filepath.Join(dir, "second"), filepath.Join(dir, "idx")
		testfs.Write(t, first, map[string]string{"1001.xml": testArticles["1001.xml"], "b/2001.xml": testArticles["b/2001.xml"], "c/d/3001.xml": testArticles["c/d/3001.xml"]})
		testfs.Write(t, second, map[string]string{"1001.xml": testArticles["1001.xml"], "b/2001.xml": testArticles["b/2001.xml"], "c/d/3001.xml": testArticles["c/d/3001.xml"],
			"4001.xml": `<article><header><title>Lens grinding</title></header><bdy><p>Grinding lenses.</p></bdy></article>`})
		if _, err := Build(BuildOptions{Articles: first, Index: idx, Shards: 2}); err != nil {
			t.Fatal(err)
		}
		swaps, building := 0, false
		shards := 2
		openHook = func(step string) {
			if step != tc.step || building || (swaps > 0 && !tc.every) {
				return
			}
			building = true
			defer func() { building = false }()
			from, n := second, 3
			if swaps%2 == 1 {
				from, n = first, 2
			}
			if _, err := Build(BuildOptions{Articles: from, Index: idx, Shards: n}); err != nil {
				t.Fatal(err)
			}
			swaps++
			shards = n
		}
		x, err := Open(idx)
		openHook = nil
		if tc.every {
			if err == nil || !strings.Contains(err.Error(), "rebuilt 5 times while it was being opened") {
				t.Errorf("swapped at every attempt: %v, want an error", err)
			}
			if x != nil {
				x.Close()
			}
			continue
		}
		if err != nil {
			t.Fatalf("swap after %s: %v", tc.step, err)
		}
		if swaps != 1 || shards != 3 || x.Articles() != 4 || x.Shards() != 3 || shardDocs(t, x) != 4 {
			t.Errorf("swap after %s: opened %d articles in %d shards holding %d documents; want the second build's 4 in 3", tc.step, x.Articles(), x.Shards(), shardDocs(t, x))
		}
		x.Close()
	}
}

// TestReloadFindsLeftover checks the recovery rule of Open in Reload and
// Reopen: with the index folder gone and a complete build left beside it
// (a build killed between its renames), an open index switches to that
// build, as Open would open it; once a build puts it in place (the same
// manifest, renamed), nothing switches again.
func TestReloadFindsLeftover(t *testing.T) {
	articles, idx, _ := buildTest(t)
	x := openTest(t, idx)
	y := openTest(t, idx)
	testfs.Write(t, articles, map[string]string{"4001.xml": `<article><header><title>Lens grinding</title></header><bdy><p>Grinding lenses.</p></bdy></article>`})
	next := filepath.Join(filepath.Dir(idx), "next")
	if _, err := Build(BuildOptions{Articles: articles, Index: next}); err != nil {
		t.Fatal(err)
	}
	// the state a build killed between its renames leaves
	if err := os.Rename(idx, idx+".old-1"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, idx+".building-2"); err != nil {
		t.Fatal(err)
	}
	if switched, err := x.Reload(); !switched || err != nil || x.Articles() != 4 {
		t.Errorf("Reload with a leftover build: switched %v (%v), %d articles; want the leftover's 4", switched, err, x.Articles())
	}
	z, err := y.Reopen()
	if err != nil || z == nil {
		t.Fatalf("Reopen with a leftover build: %v %v, want it opened", z, err)
	}
	defer z.Close()
	if z.Articles() != 4 || y.Articles() != 3 {
		t.Errorf("Reopen: new %d articles, old %d; want 4 and 3", z.Articles(), y.Articles())
	}
	// the next build's recovery puts the leftover in place
	if err := store.RecoverSwap(idx); err != nil {
		t.Fatal(err)
	}
	if switched, err := x.Reload(); switched || err != nil {
		t.Errorf("Reload after the leftover was put in place: switched %v (%v), want no switch", switched, err)
	}
	if w, err := z.Reopen(); w != nil || err != nil {
		t.Errorf("Reopen after the leftover was put in place: %v %v, want nil", w, err)
	}
}
