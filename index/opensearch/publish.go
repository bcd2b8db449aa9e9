package opensearch

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// Publish makes the build the index's: it sets its replicas, refreshes it,
// waits until every copy is allocated, writes its statistics into its
// marker, then moves the alias to it in one atomic request (readers of
// the alias see the old build or the new one, never a mix). The build it
// replaces is kept for readers still on it, and so are the builds
// replaced less than ten minutes ago; older builds of the name are
// deleted.
func (b *Build) Publish(ctx context.Context) (map[string]*Lang, error) {
	replicas, _ := strconv.Atoi(b.m.Extra["replicas"])
	c := b.c
	set := map[string]any{"index": map[string]any{"number_of_replicas": replicas}}
	if err := c.call(ctx, "PUT", "/"+b.index+"/_settings", set, nil); err != nil {
		return nil, fmt.Errorf("publishing %s: %w", b.index, err)
	}
	if err := c.call(ctx, "POST", "/"+b.index+"/_refresh", nil, nil); err != nil {
		return nil, fmt.Errorf("publishing %s: %w", b.index, err)
	}
	if err := b.waitGreen(ctx, replicas); err != nil {
		return nil, err
	}
	langs, docs, err := b.stats(ctx)
	if err != nil {
		return nil, err
	}
	b.m.Langs, b.m.Docs, b.m.Complete = langs, docs, true
	mapping := map[string]any{"_meta": map[string]any{"readsim": &b.m}}
	if err := c.call(ctx, "PUT", "/"+b.index+"/_mapping", mapping, nil); err != nil {
		return nil, fmt.Errorf("publishing %s: %w", b.index, err)
	}
	if err := b.swap(ctx); err != nil {
		return nil, err
	}
	return langs, nil
}

// ReplicaWait bounds how long Publish waits for a build's replicas to be
// copied (each poll is bounded by the client's timeout).
const ReplicaWait = 15 * time.Minute

// waitGreen waits until every copy of the build's shards is allocated,
// polling the cluster's health within ReplicaWait.
func (b *Build) waitGreen(ctx context.Context, replicas int) error {
	c := b.c
	ctx, cancel := context.WithTimeout(ctx, ReplicaWait)
	defer cancel()
	poll := max(int(c.timeout.Seconds()/6), 1)
	status := "unknown"
	for ctx.Err() == nil {
		var health struct {
			Status string `json:"status"`
		}
		path := fmt.Sprintf("/_cluster/health/%s?wait_for_status=green&timeout=%ds", b.index, poll)
		err := c.call(ctx, "GET", path, nil, &health)
		if err != nil && !isStatus(err, 408) && !retryable(err) {
			return fmt.Errorf("publishing %s: %w", b.index, err)
		}
		if err == nil && health.Status == "green" {
			return nil
		}
		if health.Status != "" {
			status = health.Status
		}
		if err != nil && !isStatus(err, 408) {
			select { // unreachable for a moment: not in a tight loop
			case <-ctx.Done():
			case <-time.After(500 * time.Millisecond):
			}
		}
	}
	return fmt.Errorf("opensearch %s: publishing %s: its %d replica(s) were not allocated within %v (status %s): the cluster may have too few nodes", c.where(), b.index, replicas, ReplicaWait, status)
}

// stats sums the build's documents and field lengths by language.
func (b *Build) stats(ctx context.Context) (map[string]*Lang, int64, error) {
	body := map[string]any{
		"size": 0, "track_total_hits": true,
		// the documents with a language: not the blobs (PutBlob)
		"query": map[string]any{"exists": map[string]any{"field": "lang"}},
		"aggs": map[string]any{"langs": map[string]any{
			"terms": map[string]any{"field": "lang", "size": MaxLangs + 1},
			"aggs": map[string]any{
				"title": map[string]any{"sum": map[string]any{"field": "title_len"}},
				"text":  map[string]any{"sum": map[string]any{"field": "text_len"}},
				"aux":   map[string]any{"sum": map[string]any{"field": "aux_len"}},
			},
		}},
	}
	var res struct {
		Hits struct {
			Total struct {
				Value int64 `json:"value"`
			} `json:"total"`
		} `json:"hits"`
		Aggs struct {
			Langs struct {
				Buckets []struct {
					Key   string `json:"key"`
					Count int64  `json:"doc_count"`
					Title struct {
						Value float64 `json:"value"`
					} `json:"title"`
					Text struct {
						Value float64 `json:"value"`
					} `json:"text"`
					Aux struct {
						Value float64 `json:"value"`
					} `json:"aux"`
				} `json:"buckets"`
			} `json:"langs"`
		} `json:"aggregations"`
	}
	if err := b.c.call(ctx, "POST", "/"+b.index+"/_search", body, &res); err != nil {
		return nil, 0, fmt.Errorf("publishing %s: %w", b.index, err)
	}
	langs := map[string]*Lang{}
	for _, k := range res.Aggs.Langs.Buckets {
		langs[k.Key] = &Lang{Docs: k.Count, TitleLen: int64(k.Title.Value), TextLen: int64(k.Text.Value), AuxLen: int64(k.Aux.Value)}
	}
	return langs, res.Hits.Total.Value, nil
}

// keepReplaced is how long a build the alias left stays for the readers
// still on it. A server switches within seconds of a publication; minutes
// also cover one that was still making the collection of the next build
// while two more were published. Tests set it to 0.
var keepReplaced = 10 * time.Minute

// swap moves the alias to the build, marks the build it replaces with the
// time, and deletes the older builds replaced more than keepReplaced ago
// (and the unfinished ones older than this build).
func (b *Build) swap(ctx context.Context) error {
	c := b.c
	olds, err := c.builds(ctx, b.name)
	if err != nil {
		return fmt.Errorf("publishing %s: %w", b.index, err)
	}
	actions := []any{map[string]any{"add": map[string]any{"index": b.index, "alias": b.name}}}
	var replaced []builtIndex
	for _, o := range olds {
		if o.aliased && o.name != b.index {
			actions = append(actions, map[string]any{"remove": map[string]any{"index": o.name, "alias": b.name}})
			replaced = append(replaced, o)
		}
	}
	if err := c.call(ctx, "POST", "/_aliases", map[string]any{"actions": actions}, nil); err != nil {
		return fmt.Errorf("publishing %s: moving alias %s: %w", b.index, b.name, err)
	}
	now := time.Now()
	for _, o := range replaced {
		m := *o.meta
		m.Replaced = now.Unix()
		mapping := map[string]any{"_meta": map[string]any{"readsim": &m}}
		if err := c.call(ctx, "PUT", "/"+o.name+"/_mapping", mapping, nil); err != nil {
			return fmt.Errorf("published %s, but marking the build it replaced, %s: %w", b.index, o.name, err)
		}
	}
	for _, o := range olds {
		kept := o.meta.Replaced > 0 && now.Sub(time.Unix(o.meta.Replaced, 0)) < keepReplaced
		if o.name == b.index || o.aliased || o.name > b.index || kept {
			continue // this build, the one just replaced, a newer one being built, or one replaced lately
		}
		if err := c.call(ctx, "DELETE", "/"+o.name, nil, nil); err != nil && !isType(err, "index_not_found_exception") {
			return fmt.Errorf("published %s, but deleting the old build %s: %w", b.index, o.name, err)
		}
	}
	return nil
}

// Abort deletes a build that was not published.
func (b *Build) Abort(ctx context.Context) error {
	if b.m.Complete {
		return fmt.Errorf("opensearch: %s is published: not deleted", b.index)
	}
	err := b.c.call(ctx, "DELETE", "/"+b.index, nil, nil)
	if err != nil && !isType(err, "index_not_found_exception") {
		return err
	}
	return nil
}

// Drop deletes every build of the index name that readsim made, and so
// the index (an index or alias of the name that is not readsim's is
// ErrForeign, and left alone). A name with no build is not an error.
func (c *Client) Drop(ctx context.Context, name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	bs, err := c.builds(ctx, name)
	if err != nil {
		return err
	}
	for _, o := range bs {
		if err := c.call(ctx, "DELETE", "/"+o.name, nil, nil); err != nil && !isType(err, "index_not_found_exception") {
			return fmt.Errorf("dropping %s: %w", o.name, err)
		}
	}
	return nil
}
