package index

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/store"
)

// editManifest rewrites the manifest of the index idx as edit changes
// it, read as JSON (its numbers kept exact).
func editManifest(t *testing.T, idx string, edit func(m map[string]any)) {
	t.Helper()
	p := store.ManifestPath(idx)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // the articles' times stay exact
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// setArticleCount writes n as the number of articles (in all, and in
// English: the test articles' language) into the manifest of the index
// idx: a manifest that lies about its count, which Open cannot see
// without reading the shards.
func setArticleCount(t *testing.T, idx string, n int) {
	t.Helper()
	editManifest(t, idx, func(m map[string]any) {
		tot := m["totals"].(map[string]any)
		tot["articles"] = n
		tot["langs"] = map[string]any{"en": n}
	})
}

// TestHitsManifestCount: a search's results are as many as its hits
// (1001 and 3001 for "fresnel", the test articles read by hand), whatever
// number of articles the manifest gives and however many results are
// asked for. A manifest giving more articles than the index holds must
// not make a search set aside room for them (it did: min(k, articles)
// results, a panic or an out-of-memory crash for a large k); one giving
// fewer is damage, a DamagedError naming the manifest.
func TestHitsManifestCount(t *testing.T) {
	for _, tc := range []struct {
		name     string
		articles int
		k        int
		damaged  bool
	}{
		{"as built", 3, 10, false},
		{"as built, k huge", 3, math.MaxInt, false},
		{"too many, k huge", 1 << 62, 1 << 62, false},
		{"too many, k max", math.MaxInt, math.MaxInt, false},
		{"too few", 1, 10, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, idx, _, _ := oneShardTest(t)
			setArticleCount(t, idx, tc.articles)
			x := openTest(t, idx)
			pq, err := x.Prepare("fresnel")
			if err != nil {
				t.Fatal(err)
			}
			for _, how := range []string{"Hits", "Search"} {
				var ids []string
				func() {
					defer func() {
						if r := recover(); r != nil {
							err = fmt.Errorf("panic: %v", r)
						}
					}()
					if how == "Hits" {
						var hs []HitResult
						hs, err = x.Hits(context.Background(), pq, tc.k, Options{})
						for _, h := range hs {
							ids = append(ids, h.ID)
						}
						return
					}
					var rs []SearchResult
					rs, err = x.Search(context.Background(), pq, tc.k, Options{})
					for _, r := range rs {
						ids = append(ids, r.ID)
					}
				}()
				if tc.damaged {
					var de *DamagedError
					if !errors.As(err, &de) || de.File != store.ManifestPath(idx) || !strings.Contains(err.Error(), store.ManifestPath(idx)) {
						t.Errorf("%s: %v (%v), want a DamagedError naming %s: more hits than its articles", how, ids, err, store.ManifestPath(idx))
					}
					continue
				}
				slices.Sort(ids)
				if err != nil || !slices.Equal(ids, []string{"1001", "3001"}) {
					t.Errorf("%s: %v (%v), want 1001 and 3001", how, ids, err)
				}
			}
		})
	}
}
