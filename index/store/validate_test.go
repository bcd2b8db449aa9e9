package store

import (
	"strings"
	"testing"
	"time"
)

// A manifest's segment and elements.fst stamps must agree with its
// shards: one list of segments per shard (or none, an index built before
// they were recorded), a size that is not negative.
func TestValidateStamps(t *testing.T) {
	good := func() *Manifest {
		return &Manifest{Version: Version, Elements: []string{"p"}, Source: "/a", Shards: 2, Built: time.Unix(1, 0),
			Records: []RecordsStamp{{}, {}}, Totals: Totals{Langs: map[string]int{}}}
	}
	for _, tc := range []struct {
		name string
		edit func(m *Manifest)
		want string // "" when valid
	}{
		{"no stamps", func(m *Manifest) {}, ""},
		{"a list per shard", func(m *Manifest) { m.Segments = [][]SegmentStamp{{}, {{Name: "a.zap", Size: 60}}} }, ""},
		{"one list for two shards", func(m *Manifest) { m.Segments = [][]SegmentStamp{{}} }, "segments of 1 shards for 2 shards"},
		{"elements.fst stamped", func(m *Manifest) { m.ElemDF = &RecordsStamp{Size: 10, CRC: 1} }, ""},
		{"elements.fst of a negative size", func(m *Manifest) { m.ElemDF = &RecordsStamp{Size: -1} }, "elements.fst of -1 bytes"},
	} {
		m := good()
		tc.edit(m)
		err := m.Validate("idx", "idx")
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
