package build

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/vellum"

	"github.com/readsim/readsim/index/records"
	"github.com/readsim/readsim/index/store"
)

// Applying a plan: the articles parsed in parallel, each sent to its
// shard, every shard batching and indexing its articles on its own
// goroutines, then the element frequencies, the manifest and the swap.

// apply builds the planned index in a folder beside p.Index (a copy of the
// old index for an update) and swaps it in.
func (p *plan) apply() error {
	tmp := fmt.Sprintf("%s.building-%d", p.idx, os.Getpid())
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	ss, oldDF, err := p.openShards(tmp)
	if err != nil {
		return err
	}
	err = p.fill(ss)
	if cerr := ss.close(); err == nil {
		err = cerr
	}
	if err == nil {
		p.next.Records, err = ss.finishRecords()
	}
	ss.abortRecords()
	if err == nil {
		p.next.Segments, err = stampSegments(tmp, len(ss))
	}
	if err != nil {
		return err
	}
	if err := store.WriteElemDF(tmp, p.idx, oldDF, ss.delta()); err != nil {
		return err
	}
	if p.next.ElemDF, err = store.StampFile(filepath.Join(tmp, store.ElemDFName)); err != nil {
		return err
	}
	p.next.Built = time.Now().UTC()
	if err := store.WriteManifest(tmp, p.next); err != nil {
		return err
	}
	if err := store.SwapIn(tmp, p.idx); err != nil {
		return err
	}
	ok = true
	return nil
}

// shardWriter is one shard being built: its Bleve index and the change
// its articles make to the element frequencies.
type shardWriter struct {
	i, n  int    // shard i of n
	index string // the index it builds or updates (dir is in a folder beside it)
	dir   string
	ai    bleve.Index
	delta map[string]int64
	// recs appends the shard's records (index/records); old is the records
	// file of the index being updated, for the articles deleted
	recs *records.Writer
	old  *records.File
}

// shardSet is the shards of an index being built.
type shardSet []*shardWriter

// openShards creates the shards of a new index in tmp or, for an update,
// copies the old index there and opens its shards; it returns the old
// index's element frequencies (nil for a new index).
func (p *plan) openShards(tmp string) (shardSet, *vellum.FST, error) {
	n := p.next.Shards
	var oldDF *vellum.FST
	if p.old == nil {
		if err := os.MkdirAll(tmp, 0o755); err != nil {
			return nil, nil, err
		}
	} else {
		if err := store.CopyDir(p.idx, tmp); err != nil {
			return nil, nil, fmt.Errorf("copying the index to update it: %w", err)
		}
		os.Remove(store.ManifestPath(tmp))
		var err error
		if oldDF, err = store.LoadElemDF(tmp); err != nil {
			return nil, nil, fmt.Errorf("index %s: %w; build it again with --rebuild", p.idx, err)
		}
	}
	ss := make(shardSet, 0, n)
	for i := range n {
		w := &shardWriter{i: i, n: n, index: p.idx, dir: store.ShardDir(tmp, i), delta: map[string]int64{}}
		var err error
		// Bleve's goroutines of the shard (persister, introducer) inherit
		// the label
		stage(fmt.Sprintf("bleve-%d", i), func() {
			err = store.Guard(p.idx, store.ShardDir(p.idx, i), func() (err error) {
				// on an error Bleve returns a typed nil (a nil *indexImpl in
				// the interface), which close would call: w.ai is set only
				// on success (a full disk made readsim index panic there)
				var ai bleve.Index
				if p.old == nil {
					ai, err = bleve.NewUsing(w.dir, newMapping(), bleve.Config.DefaultIndexType, bleve.Config.DefaultKVStore, buildConfig())
				} else {
					ai, err = bleve.OpenUsing(w.dir, buildConfig())
				}
				if err == nil {
					w.ai = ai
				}
				return err
			})
		})
		if err == nil {
			err = w.openRecords(p)
		}
		if err != nil {
			ss = append(ss, w)
			ss.close()
			ss.abortRecords()
			return nil, nil, err
		}
		ss = append(ss, w)
	}
	return ss, oldDF, nil
}

// Open creates the shard's records file, or, for an update, maps
// the old one (copied into the shard's folder) and opens it to append.
func (w *shardWriter) openRecords(p *plan) error {
	rp := records.Path(w.dir)
	if p.old == nil {
		var err error
		w.recs, err = records.Create(rp)
		return err
	}
	if w.i >= len(p.old.Records) {
		return fmt.Errorf("index %s: %d records files for %d shards; build it again with --rebuild", p.idx, len(p.old.Records), p.old.Shards)
	}
	// rp is a copy, gone with a failed build: a damaged record is said
	// to be in the index's own file
	own := records.Path(store.ShardDir(p.idx, w.i))
	var err error
	if w.old, err = records.Open(p.idx, rp, p.old.Records[w.i]); err != nil {
		var de *store.DamagedError
		if errors.As(err, &de) {
			de.File = own
		}
		return err
	}
	w.old.Path = own
	w.recs, err = records.Append(rp, p.old.Records[w.i])
	return err
}

// finishRecords syncs and closes every shard's records file and returns
// their stamps, in shard order.
func (ss shardSet) finishRecords() ([]store.RecordsStamp, error) {
	out := make([]store.RecordsStamp, len(ss))
	for i, w := range ss {
		st, err := w.recs.Finish()
		w.recs = nil
		if err != nil {
			return nil, err
		}
		out[i] = st
	}
	return out, nil
}

// abortRecords closes the records files left open (a failed build) and
// unmaps the old ones.
func (ss shardSet) abortRecords() {
	for _, w := range ss {
		if w.recs != nil {
			w.recs.Abort()
			w.recs = nil
		}
		w.old.Close()
		w.old = nil
	}
}

// fill deletes the planned articles from every shard, indexes the planned
// files, and merges each shard's segments by Bleve's own tiered policy (as
// a live scorch index does in the background), the shards at once, when a
// shard has more than mergeAbove segments. A build makes a segment per
// batch (scorch's persister merges some), and a search pays for each
// segment in every term's look-up (the cost of a fetch grew with the
// collection): merged by tiers, a shard of the 500k synthetic collection
// has 16–19 segments rather than 125, for 3% of the build's CPU (the
// notes). Scores do not depend on the segments.
func (p *plan) fill(ss shardSet) error {
	if len(p.del) > 0 {
		if err := ss.each(func(w *shardWriter) error { return w.deleteArticles(p.idx, p.del) }); err != nil {
			return err
		}
	}
	if err := p.indexFiles(ss); err != nil {
		return err
	}
	if BeforeMerge != nil {
		ss.each(func(w *shardWriter) error { BeforeMerge(w.ai); return nil })
	}
	if !MergeSegments {
		return nil
	}
	return ss.each(func(w *shardWriter) error {
		if segmentCount(w.ai) <= mergeAbove {
			return nil
		}
		var err error
		stage(fmt.Sprintf("merge-%d", w.i), func() { err = mergeTiers(w.dir, w.ai) })
		return err
	})
}

// mergeAbove is the number of segments a shard may keep unmerged after a
// build. Merging a few small segments (all below the tiered plan's floor,
// so merged into one) costs a build CPU, but a search pays for every
// segment in each query term's look-up, twice since browse reads the
// terms' locations from the postings (index/records). On the held-out 10k
// synthetic collection (2 shards of 14 segments) merging cost the build 7%
// more CPU (21.4 s against 20.0 s; 16% more wall time) and made the index
// 17% smaller (97 MB against 117 MB) and search 26–30% faster at p50
// (BenchmarkSideBySide; docs/performance.md). It was 32 before browse read
// the index.
const mergeAbove = 4

// segmentCount is the number of segments of a scorch index, in memory and
// in files (0 if unknown).
func segmentCount(ai bleve.Index) uint64 {
	adv, err := ai.Advanced()
	if err != nil {
		return 0
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return 0
	}
	st := s.StatsMap()
	f, _ := st["num_root_filesegments"].(uint64)
	m, _ := st["num_root_memorysegments"].(uint64)
	return f + m
}

// MergeSegments is true but in tests that need an index of several
// segments.
var MergeSegments = true

// BeforeMerge is nil but in tests, which set it to a function called
// with each shard's Bleve index once its articles are indexed, before the
// final merge.
var BeforeMerge func(bleve.Index)

// each runs f on every shard at once and returns their errors. A panic
// of f (the zap library reading a damaged segment) is a DamagedError
// naming the shard.
func (ss shardSet) each(f func(*shardWriter) error) error {
	errs := make([]error, len(ss))
	var wg sync.WaitGroup
	for i, w := range ss {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = store.Guard(w.index, store.ShardDir(w.index, w.i), func() error { return f(w) })
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// close closes every shard.
func (ss shardSet) close() error {
	var errs []error
	for _, w := range ss {
		if w.ai != nil {
			errs = append(errs, w.ai.Close())
			w.ai = nil
		}
	}
	return errors.Join(errs...)
}

// delta sums the shards' changes to the element frequencies.
func (ss shardSet) delta() map[string]int64 {
	if len(ss) == 1 {
		return ss[0].delta
	}
	out := map[string]int64{}
	for _, w := range ss {
		for t, d := range w.delta {
			out[t] += d
		}
	}
	return out
}

// deleteArticles deletes the articles of del that are in this shard,
// taking their elements' terms out of the element frequencies.
func (w *shardWriter) deleteArticles(idx string, del []store.Entry) error {
	ab := w.ai.NewBatch()
	for _, e := range del {
		if store.ShardOf(e.ID, w.n) != w.i {
			continue
		}
		d, err := w.ai.Document(e.ID)
		if err != nil {
			return err
		}
		if d == nil {
			return fmt.Errorf("index %s: article %s is in the manifest but not in the index; rebuild it with --rebuild", idx, e.ID)
		}
		sd, err := records.DecodeDoc(w.old, e.ID, d, records.ReadWhole)
		if err != nil {
			return err
		}
		c := docElementCounts(sd)
		for i, t := range c.terms {
			w.delta[t] -= int64(c.df[i])
		}
		ab.Delete(e.ID)
	}
	if ab.Size() == 0 {
		return nil
	}
	return w.ai.Batch(ab)
}

// feed indexes the parsed articles it receives in batches (Options'
// Batch and BatchBytes), Bleve building each batch's segment on a
// goroutine of its own while the next batch fills. After an error it
// drains in (so that the sender never blocks) and returns the error.
func (w *shardWriter) feed(in <-chan parsed, opt Options) error {
	batches, indexed := make(chan *bleve.Batch, 1), make(chan error, 1)
	go stage(fmt.Sprintf("segment-%d", w.i), func() {
		var err error
		for b := range batches {
			if err == nil {
				err = store.Guard(w.index, store.ShardDir(w.index, w.i), func() error { return w.ai.Batch(b) })
			}
		}
		indexed <- err
	})
	var err error
	ab := w.ai.NewBatch()
	n, size := 0, int64(0)
	flush := func() {
		if n > 0 {
			batches <- ab
			ab = w.ai.NewBatch()
			n, size = 0, 0
		}
	}
	for pr := range in {
		if err != nil {
			continue
		}
		var off int64
		if off, err = w.recs.Add(pr.rec); err != nil {
			continue
		}
		pr.doc.AddField(newPlaceField(records.Place{Off: off, N: uint32(len(pr.rec))}))
		if err = ab.IndexAdvanced(pr.doc); err != nil {
			continue
		}
		for k, t := range pr.elemDF.terms {
			w.delta[t] += int64(pr.elemDF.df[k])
		}
		n++
		size += pr.f.size
		if n >= opt.Batch || size >= opt.BatchBytes {
			flush()
		}
	}
	if err == nil {
		flush()
	}
	close(batches)
	return errors.Join(err, <-indexed)
}

// minShardBatch is the least XML a shard's batch holds (shardBatchBytes):
// a segment of a few articles costs more to build and to search than it
// saves in memory.
const minShardBatch = 1 << 20

// shardBatchBytes is each of n shards' share of a build's batch bytes, at
// least minShardBatch (or all of them, if fewer).
func shardBatchBytes(total int64, n int) int64 {
	return max(total/int64(max(n, 1)), min(total, minShardBatch))
}

// indexFiles parses the planned files in parallel (opt.Workers) and sends
// each article, in path order, to its shard's feed; the results (indexed,
// broken, header ids) are recorded in path order.
func (p *plan) indexFiles(ss shardSet) error {
	files, opt := p.todo, p.opt
	out := parseAll(files, opt)
	defer out.stop()
	shardOpt := opt
	shardOpt.BatchBytes = shardBatchBytes(opt.BatchBytes, len(ss))
	feeds := make([]chan parsed, len(ss))
	errs := make(chan error, len(ss))
	for i, w := range ss {
		feeds[i] = make(chan parsed, 64)
		go stage(fmt.Sprintf("batch-%d", i), func() { errs <- w.feed(feeds[i], shardOpt) })
	}
	prog := newProgress(files, len(ss))
	stage("route", func() { p.route(ss, out, feeds, prog) })
	var err error
	for _, f := range feeds {
		close(f)
	}
	for range ss {
		err = errors.Join(err, <-errs)
	}
	return err
}

// route reads the parsed articles in path order, records them (progress,
// manifest, broken articles, header ids) and sends each to its shard's
// feed.
func (p *plan) route(ss shardSet, out *parsedFiles, feeds []chan parsed, prog *progress) {
	for i := range p.todo {
		pr := out.next(i)
		s := store.ShardOf(pr.f.id, len(ss))
		prog.add(pr.f, s)
		p.res.Bytes += pr.f.size
		if p.opt.Progress != nil {
			p.opt.Progress(prog.Progress)
		}
		if pr.err != nil {
			p.res.Broken = append(p.res.Broken, Skipped{pr.f.path, pr.err.Error()})
			continue
		}
		p.next.Articles[pr.f.rel] = pr.entry
		if pr.headerID != "" {
			p.res.IDMismatches = append(p.res.IDMismatches, IDMismatch{Path: pr.f.path, ID: pr.f.id, HeaderID: pr.headerID})
		}
		p.res.Indexed++
		feeds[s] <- pr
	}
}

// progress counts a build's progress, for the whole and per shard.
type progress struct {
	Progress
	start time.Time
}

func newProgress(files []srcFile, shards int) *progress {
	p := &progress{start: time.Now(), Progress: Progress{Total: len(files), Shards: make([]ShardProgress, shards)}}
	for _, f := range files {
		p.TotalBytes += f.size
		p.Shards[store.ShardOf(f.id, shards)].Total++
	}
	return p
}

func (p *progress) add(f srcFile, shard int) {
	p.Done++
	p.Bytes += f.size
	p.Shards[shard].Done++
	p.Elapsed = time.Since(p.start)
}

// parsedFiles are the articles being parsed by parseAll's workers.
type parsedFiles struct {
	out  []chan parsed // per file, to keep path order
	quit chan struct{}
	wg   sync.WaitGroup
	// ahead bounds the articles parsed ahead of indexing: enough to keep
	// the workers busy
	ahead chan struct{}
}

// parseAll parses files on opt.Workers goroutines, in order and at most
// 16 per worker ahead of the reader (next).
func parseAll(files []srcFile, opt Options) *parsedFiles {
	pf := &parsedFiles{out: make([]chan parsed, len(files)), quit: make(chan struct{}), ahead: make(chan struct{}, 16*opt.Workers)}
	for i := range pf.out {
		pf.out[i] = make(chan parsed, 1)
	}
	names := map[string]bool{}
	for _, n := range opt.Elements {
		names[n] = true
	}
	jobs := make(chan int)
	for range opt.Workers {
		pf.wg.Add(1)
		go stage("parse", func() {
			defer pf.wg.Done()
			for i := range jobs {
				pf.out[i] <- parseOne(opt.Reader, files[i], names)
			}
		})
	}
	go func() {
		defer close(jobs)
		for i := range files {
			select {
			case pf.ahead <- struct{}{}:
			case <-pf.quit:
				return
			}
			select {
			case jobs <- i:
			case <-pf.quit:
				return
			}
		}
	}()
	return pf
}

// next returns the i-th file's article (files are read in order).
func (pf *parsedFiles) next(i int) parsed {
	p := <-pf.out[i]
	pf.out[i] = nil
	<-pf.ahead
	return p
}

// stop stops the workers (their out channels are buffered: they never
// block on them).
func (pf *parsedFiles) stop() {
	close(pf.quit)
	pf.wg.Wait()
}

// stage runs f with the profiler label stage=name: a CPU profile of a
// build (BenchmarkScale -cpuprofile; go tool pprof -tags) tells the time
// of each stage (parse, route, batch-i, segment-i, bleve-i for shard i's
// Bleve goroutines), and that no single goroutine bounds the build.
func stage(name string, f func()) {
	pprof.Do(context.Background(), pprof.Labels("stage", name), func(context.Context) { f() })
}

// stampSegments returns the segment stamps of the n closed shards of the
// index being built in dir, for its manifest.
func stampSegments(dir string, n int) ([][]store.SegmentStamp, error) {
	out := make([][]store.SegmentStamp, n)
	for i := range out {
		segs, err := store.ShardSegments(store.ShardDir(dir, i))
		if err != nil {
			return nil, fmt.Errorf("index %s: shard %d: %w", dir, i, err)
		}
		if segs == nil {
			segs = []store.SegmentStamp{}
		}
		out[i] = segs
	}
	return out, nil
}
