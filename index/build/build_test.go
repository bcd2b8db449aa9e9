package build

import (
	"path/filepath"
	"testing"
)

// TestShardBatchBytes: the shards share a build's batch bytes, each at
// least 1 MiB (or all of them, when they are fewer).
func TestShardBatchBytes(t *testing.T) {
	for _, tc := range []struct {
		total int64
		n     int
		want  int64
	}{{4 << 20, 1, 4 << 20}, {4 << 20, 2, 2 << 20}, {4 << 20, 3, 4 << 20 / 3}, {4 << 20, 16, 1 << 20}, {512 << 10, 4, 512 << 10}, {4 << 20, 0, 4 << 20}} {
		if got := shardBatchBytes(tc.total, tc.n); got != tc.want {
			t.Errorf("shardBatchBytes(%d, %d) = %d, want %d", tc.total, tc.n, got, tc.want)
		}
	}
}

func TestWithin(t *testing.T) {
	sep := string(filepath.Separator)
	tests := []struct {
		p, dir string
		want   bool
	}{
		{sep + "a" + sep + "b", sep + "a", true},
		{sep + "a" + sep + "b" + sep + "c", sep + "a", true},
		{sep + "a", sep + "a", false},
		{sep + "a", sep + "a" + sep + "b", false},
		{sep + "ab", sep + "a", false}, // a prefix of the name is not a parent
		{sep + "a" + sep + "..b", sep + "a", true},
		{sep + "b", sep + "a", false},
	}
	for _, tt := range tests {
		if got := within(tt.p, tt.dir); got != tt.want {
			t.Errorf("within(%q, %q) = %v, want %v", tt.p, tt.dir, got, tt.want)
		}
	}
}
