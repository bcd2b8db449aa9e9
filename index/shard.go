package index

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
)

// Shards.
//
// An index spreads its articles over N Bleve indexes, its shards
// (articles-0 … articles-(N−1) in the index folder): an article is in the
// shard shardOf(id, N), a stable hash of its id, so that an update finds
// it again. A build fills every shard at once (each builds its own
// segments: no single goroutine serialises the build), and fetch searches
// them in parallel with the collection's global statistics (see fetch.go):
// its scores and rankings are those of a one-shard index.

// MaxShards is the largest number of shards an index may have.
const MaxShards = 256

// shardBytes is how many bytes of XML make a shard worth its fan-out in
// DefaultShards.
const shardBytes = 8 << 20

// DefaultShards is the number of shards of a new index of a collection of
// the given size in bytes of XML on a machine with the given number of
// cores: one per core (so that a build keeps every core busy and a search
// uses them all), but one per 8 MB of XML at most, at least one (a small
// collection gains nothing from being split). An existing index keeps its
// own number (BuildOptions.Shards 0).
func DefaultShards(cores int, bytes int64) int {
	n := min(int64(max(cores, 1)), bytes/shardBytes, MaxShards)
	return int(max(n, 1))
}

// shardOf returns the shard of the article id among n: FNV-1a (32 bits) of
// the id, modulo n.
func shardOf(id string, n int) int {
	if n <= 1 {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % uint32(n))
}

// shardDir is the folder of shard i in the index folder dir.
func shardDir(dir string, i int) string {
	return filepath.Join(dir, fmt.Sprintf("%s-%d", articlesDir, i))
}
