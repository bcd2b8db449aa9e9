package build

import "github.com/readsim/readsim/index/store"

// shardBytes is how many bytes of XML make a shard worth its fan-out in
// DefaultShards.
const shardBytes = 8 << 20

// DefaultShards is the number of shards of a new index of a collection of
// the given size in bytes of XML on a machine with the given number of
// cores: one per core (so that a build keeps every core busy and a search
// uses them all), but one per 8 MB of XML at most, at least one (a small
// collection gains nothing from being split). An existing index keeps its
// own number (Options.Shards 0).
func DefaultShards(cores int, bytes int64) int {
	n := min(int64(max(cores, 1)), bytes/shardBytes, store.MaxShards)
	return int(max(n, 1))
}
