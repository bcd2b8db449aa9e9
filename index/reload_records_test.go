package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestReloadUnderSearches updates and reloads an index ten times while
// three goroutines search it (Hits, Search and Article with Passages):
// each Reload unmaps the records files of the build it leaves once its
// last request ends, and a request reading a file already unmapped would
// crash the process. Every answer must be the one worked by hand:
// "fresnel" is in 1001 and 3001, 1001's title is "Fresnel lens".
func TestReloadUnderSearches(t *testing.T) {
	articles, idx, _, _ := oneShardTest(t)
	x := openTest(t, idx)
	ctx := context.Background()
	var stop atomic.Bool
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	var answers atomic.Int64
	for _, how := range []string{"Hits", "Search", "Article"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				pq, err := x.Prepare("fresnel")
				if err != nil {
					errs <- err
					return
				}
				var ids []string
				switch how {
				case "Hits":
					var hs []HitResult
					hs, err = x.Hits(ctx, pq, 10, Options{})
					for _, h := range hs {
						ids = append(ids, h.ID+" "+h.Title)
					}
				case "Search":
					var rs []SearchResult
					rs, err = x.Search(ctx, pq, 10, Options{})
					for _, r := range rs {
						ids = append(ids, r.ID+" "+r.Title)
					}
				case "Article":
					var d *StoredArticle
					if d, err = x.Article("1001"); err == nil {
						var ps []Passage
						ps, err = x.Passages(ctx, "fresnel", "1001", Options{})
						if err == nil && len(ps) == 0 {
							err = fmt.Errorf("no passage of 1001 for fresnel")
						}
						ids = []string{"1001 " + d.Title, "3001 Optics"}
					}
				}
				slices.Sort(ids)
				if err == nil && !slices.Equal(ids, []string{"1001 Fresnel lens", "3001 Optics"}) {
					err = fmt.Errorf("%s: %q, want 1001 and 3001", how, ids)
				}
				if err != nil {
					errs <- fmt.Errorf("%s: %w", how, err)
					return
				}
				answers.Add(1)
			}
		}()
	}
	for i := range 10 {
		// 2001 changed: an update appends its record to a copy of the
		// records file, and Reload switches to it
		later := time.Now().Add(time.Duration(i+1) * time.Hour)
		if err := os.Chtimes(filepath.Join(articles, "b", "2001.xml"), later, later); err != nil {
			t.Fatal(err)
		}
		if _, err := Build(BuildOptions{Articles: articles, Index: idx}); err != nil {
			t.Fatal(err)
		}
		if switched, err := x.Reload(); !switched || err != nil {
			t.Fatalf("Reload %d: %v, %v; want the new build", i, switched, err)
		}
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if answers.Load() < 10 {
		t.Errorf("%d answers during ten reloads", answers.Load())
	}
}
