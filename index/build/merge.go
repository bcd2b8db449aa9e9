package build

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
)

// The scorch configuration of a build and the merge of an update.

// buildConfig is the scorch configuration of a build: no segment merging
// while documents are added (merges would rewrite the same postings several
// times over); a build merges once at the end, by tiers, when a shard has
// more than mergeAbove segments (mergeTiers). A large MaxSegmentsPerTier
// alone does not stop the merger: the tiered plan raises the smallest
// segment to FloorSegmentSize (2,000 documents) before it counts the
// segments a tier may hold, so the small segments of a build were merged
// all along (8% of a 10k build's CPU). No segment is eligible for a merge
// when MaxSegmentSize is 1 (a segment must be below half of it).
func buildConfig() map[string]interface{} {
	return map[string]interface{}{
		"scorchMergePlanOptions": map[string]interface{}{"MaxSegmentsPerTier": 1 << 20, "MaxSegmentSize": 1},
		"asyncErrorCallbackName": asyncErrorCallback,
	}
}

// mergeTiers merges the index in dir by Bleve's default (tiered) merge plan
// and waits until the result is persisted and the merged segments' files
// are gone.
func mergeTiers(dir string, idx bleve.Index) error {
	adv, err := idx.Advanced()
	if err != nil {
		return err
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return fmt.Errorf("index %s is not a scorch index", dir)
	}
	// ForceMerge waits for the merger, which retries a failed merge (a full
	// disk, say) without end and reports the failure only through the
	// index's asynchronous error callback: wait for whichever comes first.
	failed := watchAsync(dir)
	defer unwatchAsync(dir)
	merged := make(chan error, 1)
	go func() {
		mo := mergeplan.DefaultMergePlanOptions
		merged <- s.ForceMerge(context.Background(), &mo)
	}()
	select {
	case err := <-merged:
		if err != nil {
			return err
		}
	case err := <-failed:
		return fmt.Errorf("index %s: merging segments: %w", dir, err)
	case <-time.After(mergeTimeout):
		return fmt.Errorf("index %s: merging segments took more than %v", dir, mergeTimeout)
	}
	stat := func(k string) uint64 {
		n, _ := s.StatsMap()[k].(uint64)
		return n
	}
	for t0 := time.Now(); stat("LastPersistedEpoch") < stat("CurRootEpoch"); time.Sleep(5 * time.Millisecond) {
		select {
		case err := <-failed:
			return fmt.Errorf("index %s: writing the merged segments: %w", dir, err)
		default:
		}
		if time.Since(t0) > mergeTimeout {
			return fmt.Errorf("index %s: the merged segments were not written in %v", dir, mergeTimeout)
		}
	}
	// The files of merged segments are removed once no snapshot uses them,
	// when the persister has nothing else to do; a new snapshot (an
	// internal no-op) retires the snapshots from before the merge. Files
	// left behind are only wasted space: give up soon.
	zaps := func() int {
		m, _ := filepath.Glob(filepath.Join(dir, "store", "*.zap"))
		return len(m)
	}
	for t0 := time.Now(); uint64(zaps()) > stat("num_root_filesegments") && time.Since(t0) < 500*time.Millisecond; time.Sleep(10 * time.Millisecond) {
		if err := idx.DeleteInternal([]byte("readsim-merged")); err != nil {
			return err
		}
	}
	return nil
}

// mergeTimeout bounds how long an update waits for its merge.
const mergeTimeout = 10 * time.Minute

// Scorch reports the failures of its background merger and persister only
// through a callback registered by name: asyncError forwards them to the
// build that watches the index.
const asyncErrorCallback = "readsim-index"

var asyncWatchers sync.Map // index store path → chan error

func init() {
	scorch.RegistryAsyncErrorCallbacks[asyncErrorCallback] = func(err error, path string) {
		if ch, ok := asyncWatchers.Load(filepath.Clean(path)); ok {
			select {
			case ch.(chan error) <- err:
			default: // one error is enough
			}
		}
	}
}

// watchAsync returns a channel that receives the first asynchronous error
// of the scorch index in dir (opened with buildConfig).
func watchAsync(dir string) chan error {
	ch := make(chan error, 1)
	asyncWatchers.Store(filepath.Join(dir, "store"), ch)
	return ch
}

func unwatchAsync(dir string) { asyncWatchers.Delete(filepath.Join(dir, "store")) }
