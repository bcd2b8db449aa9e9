package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/readsim/readsim/index/build"
	"github.com/readsim/readsim/index/opensearch"
	"github.com/readsim/readsim/index/store"
)

// Building an index on a cluster (docs/cluster.md): the collection is
// listed and parsed as for a folder (build.List, Listing.Parse), each
// article loaded as its terms with its record as payload into a new build,
// the element frequencies stored beside as a blob, and the build
// published: the alias moves to it in one request. A build is always made
// whole (a cluster keeps no copy of an article's terms to update from); a
// collection whose listing is the one the index was built from (same
// files, sizes, times, elements, language: Listing.Fingerprint) is left
// as it is.

// clusterBatch is how many articles one Build.Add call loads.
const clusterBatch = 500

// buildCluster builds the index on a cluster that opt.Index names.
func buildCluster(opt BuildOptions) (*BuildResult, error) {
	start := time.Now()
	u, err := ParseURL(opt.Index)
	if err != nil {
		return nil, err
	}
	l, err := build.List(opt)
	if err != nil {
		return nil, err
	}
	c, err := opensearch.New(opensearch.Config{URLs: u.Nodes, Timeout: u.Timeout})
	if err != nil {
		return nil, &InputError{Msg: fmt.Sprintf("--index %s: %v", u, err)}
	}
	defer c.Close()
	ctx := context.Background()
	res := l.Result
	old, err := c.Open(ctx, u.Name)
	switch {
	case err == nil && !opt.Rebuild && old.Extra(extraPrint) == l.Fingerprint():
		res.Full, res.Unchanged, res.Articles = false, int(old.Docs()), int(old.Docs())
		res.Elements, _ = strconv.Atoi(old.Extra(extraElements))
		res.Langs, res.Shards = map[string]int{}, 0
		for lang, s := range old.Langs() {
			res.Langs[lang] = int(s.Docs)
		}
		res.Elapsed = time.Since(start)
		return res, nil
	case errors.Is(err, opensearch.ErrLayout):
		res.Rebuilt = "it was built by another version of readsim (another layout)"
	case err != nil && (errors.Is(err, opensearch.ErrForeign) || errors.Is(err, opensearch.ErrUnreachable)):
		return nil, clusterError(u, err)
	}
	settings, err := clusterSettings(ctx, c, u, opt.Shards)
	if err != nil {
		return nil, err
	}
	b, err := c.NewBuild(ctx, u.Name, settings)
	if err != nil {
		return nil, clusterError(u, err)
	}
	st, err := loadCluster(ctx, b, l)
	if err == nil {
		err = finishCluster(ctx, b, l, opt, st)
	}
	if err != nil {
		if aerr := b.Abort(context.Background()); aerr != nil {
			err = errors.Join(err, fmt.Errorf("the unfinished build %s stays (the next build deletes it): %w", b.Index(), aerr))
		}
		return nil, err
	}
	langs, err := b.Publish(ctx)
	if err != nil {
		return nil, err
	}
	res.Langs = map[string]int{}
	for lang, s := range langs {
		res.Langs[lang] = int(s.Docs)
		res.Articles += int(s.Docs)
	}
	res.Elements, res.Shards = int(st.elems), settings.Shards
	res.Elapsed = time.Since(start)
	return res, nil
}

// clusterSettings are a new build's shards (shards, or one per data node)
// and replicas (u's, or one when the cluster has two data nodes or more).
func clusterSettings(ctx context.Context, c *opensearch.Client, u *ClusterURL, shards int) (opensearch.Settings, error) {
	nodes, err := c.DataNodes(ctx)
	if err != nil {
		return opensearch.Settings{}, err
	}
	s := opensearch.Settings{Shards: shards, Replicas: u.Replicas}
	if s.Shards <= 0 {
		s.Shards = max(nodes, 1)
	}
	if s.Replicas < 0 {
		s.Replicas = min(1, max(nodes-1, 0))
	}
	if s.Replicas >= max(nodes, 1) {
		return s, &InputError{Msg: fmt.Sprintf("--index %s: %d replicas on a cluster of %d data nodes: a copy is never on its primary's node, so at most %d", u, s.Replicas, nodes, max(nodes-1, 0))}
	}
	return s, nil
}

// clusterStats are what a build sums of its articles.
type clusterStats struct {
	elems, elemLen int64
	df             map[string]int64
}

// loadCluster parses the listed articles and loads them into b, two
// batches at a time, summing their element statistics.
func loadCluster(ctx context.Context, b *opensearch.Build, l *build.Listing) (*clusterStats, error) {
	st := &clusterStats{df: map[string]int64{}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan []opensearch.Doc, 2)
	var wg sync.WaitGroup
	var once sync.Once
	var loadErr error
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for docs := range batches {
				if err := b.Add(ctx, docs); err != nil {
					once.Do(func() { loadErr = err; cancel() })
				}
			}
		}()
	}
	var batch []opensearch.Doc
	err := l.Parse(func(p *build.Parsed) error {
		st.elems += int64(p.Elems)
		st.elemLen += int64(p.ElemLen)
		for i, t := range p.ElemTerms {
			st.df[t] += int64(p.ElemDF[i])
		}
		batch = append(batch, opensearch.Doc{ID: p.ID, Lang: p.Lang, Title: p.Title, Text: p.Text, Aux: p.Aux, TitleKeys: p.TitleKeys, Payload: p.Record})
		if len(batch) < clusterBatch {
			return nil
		}
		select {
		case batches <- batch:
		case <-ctx.Done():
			return ctx.Err()
		}
		batch = nil
		return nil
	})
	if err == nil && len(batch) > 0 {
		select {
		case batches <- batch:
		case <-ctx.Done():
		}
	}
	close(batches)
	wg.Wait()
	if loadErr != nil {
		return nil, loadErr
	}
	return st, err
}

// finishCluster stores what a search needs beside the articles: the
// element frequencies (a blob, the FST of a folder's store.ElemDFName),
// the element counts, the articles folder and the listing's fingerprint.
func finishCluster(ctx context.Context, b *opensearch.Build, l *build.Listing, opt BuildOptions, st *clusterStats) error {
	tmp, err := os.MkdirTemp("", "readsim-elemdf-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := store.WriteElemDF(tmp, opt.Index, nil, st.df); err != nil {
		return err
	}
	fst, err := os.ReadFile(filepath.Join(tmp, store.ElemDFName))
	if err != nil {
		return err
	}
	if err := b.PutBlob(ctx, blobElemDF, fst); err != nil {
		return err
	}
	src, err := filepath.Abs(opt.Articles)
	if err != nil {
		return err
	}
	for k, v := range map[string]string{extraSource: src, extraPrint: l.Fingerprint(),
		extraElements: strconv.FormatInt(st.elems, 10), extraElemLen: strconv.FormatInt(st.elemLen, 10)} {
		if err := b.SetExtra(k, v); err != nil {
			return err
		}
	}
	return nil
}
