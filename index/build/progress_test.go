package build

import (
	"testing"
	"time"
)

func TestProgressString(t *testing.T) {
	for _, tc := range []struct {
		p    Progress
		want string
	}{
		{Progress{Done: 12, Total: 52, Elapsed: 2 * time.Second}, "indexing 12/52 articles (6 articles/s)"},
		// one shard: no shard figures
		{Progress{Done: 3, Total: 3, Elapsed: time.Second, Shards: []ShardProgress{{3, 3}}}, "indexing 3/3 articles (3 articles/s)"},
		// 1/4 and 3/4; a shard with nothing to index counts as done
		{Progress{Done: 4, Total: 8, Elapsed: 4 * time.Second, Shards: []ShardProgress{{1, 4}, {3, 4}}}, "indexing 4/8 articles (1 articles/s), 2 shards 25–75%"},
		{Progress{Done: 1, Total: 2, Elapsed: time.Second, Shards: []ShardProgress{{0, 2}, {0, 0}}}, "indexing 1/2 articles (1 articles/s), 2 shards 0–100%"},
		// no time elapsed yet: 0 articles/s, not a division by zero
		{Progress{Total: 5}, "indexing 0/5 articles (0 articles/s)"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.p, got, tc.want)
		}
	}
}
