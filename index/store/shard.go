package store

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
)

// Shards.
//
// An index spreads its articles over N Bleve indexes, its shards
// (articles-0 … articles-(N−1) in the index folder): an article is in the
// shard ShardOf(id, N), a stable hash of its id, so that an update finds
// it again. A build fills every shard at once (each builds its own
// segments: no single goroutine serialises the build), and fetch searches
// them in parallel with the collection's global statistics (see index/fetch):
// its scores and rankings are those of a one-shard index.

// MaxShards is the largest number of shards an index may have.
const MaxShards = 256

// ShardOf returns the shard of the article id among n: FNV-1a (32 bits) of
// the id, modulo n.
func ShardOf(id string, n int) int {
	if n <= 1 {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % uint32(n))
}

// ShardDir is the folder of shard i in the index folder dir.
func ShardDir(dir string, i int) string {
	return filepath.Join(dir, fmt.Sprintf("%s-%d", ArticlesDir, i))
}
