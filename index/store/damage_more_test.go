package store

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGuardOwnPanics checks that a panic of readsim's own code, on the
// caller's goroutine or on one of parallel's, is no damage: guard lets
// it go on.
func TestGuardOwnPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func() error
	}{
		{"caller", func() error { panic("a bug") }},
		{"parallel", func() error {
			return Parallel(2, func(i int) error {
				if i == 1 {
					panic("a bug")
				}
				return nil
			})
		}},
	} {
		func() {
			defer func() {
				r := recover()
				if gp, ok := r.(*goroutinePanic); ok {
					r = gp.val
				}
				if r != "a bug" {
					t.Errorf("%s: a panic of readsim's own code: recovered %v, want it to go on", tc.name, r)
				}
			}()
			err := Guard("idx", "idx", tc.f)
			t.Errorf("%s: guard returned %v", tc.name, err)
		}()
	}
}

func TestCheckFooter(t *testing.T) {
	foot := func(numDocs, stored, fields, sections uint64, version uint32) []byte {
		b := make([]byte, zapFooterSize)
		for i, v := range []uint64{numDocs, stored, fields, sections, 0} {
			binary.BigEndian.PutUint64(b[8*i:], v)
		}
		binary.BigEndian.PutUint32(b[44:], version)
		return b
	}
	tests := []struct {
		name string
		foot []byte
		n    uint64
		ok   bool
	}{
		{"sound", foot(3, 1000, 1024, 1100, 16), 1200, true},
		{"stored index ending at the data's end", foot(25, 1000, 1024, 1100, 16), 1200, true},
		{"one document too many", foot(26, 1000, 1024, 1100, 16), 1200, false},
		{"another version", foot(3, 1000, 1024, 1100, 15), 1200, false},
		{"sections past the end", foot(3, 1000, 1024, 1201, 16), 1200, false},
		{"stored past the end", foot(0, 1201, 1024, 1100, 16), 1200, false},
		{"fields past the end", foot(3, 1000, 5000, 1100, 16), 1200, false},
		{"garbage", []byte(strings.Repeat("\xff", zapFooterSize)), 1200, false},
	}
	for _, tc := range tests {
		if err := checkFooter(tc.foot, tc.n); (err == nil) != tc.ok {
			t.Errorf("%s: %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

// BenchmarkVerifySegment measures the checksum of a 64 MB segment, as
// Open pays it once per segment file and process (a segment whose path,
// size and time were verified is not read again: the cache is cleared
// at each iteration here).
func BenchmarkVerifySegment(b *testing.B) {
	const size = 64 << 20
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(i * 7)
	}
	n := size - zapFooterSize
	foot := data[n:]
	clear(foot)
	binary.BigEndian.PutUint64(foot[8:], uint64(n-8)) // one document, its stored index at the end
	binary.BigEndian.PutUint64(foot[0:], 1)
	binary.BigEndian.PutUint32(foot[44:], zapVersion)
	binary.BigEndian.PutUint32(foot[48:], crc32.ChecksumIEEE(data[:size-4]))
	p := filepath.Join(b.TempDir(), "1.zap")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ResetTimer()
	for range b.N {
		verified.Clear()
		if err := verifySegment(p); err != nil {
			b.Fatal(err)
		}
	}
}

func TestIsIndexManifest(t *testing.T) {
	abs, _ := filepath.Abs("x")
	src := `"` + filepath.ToSlash(abs) + `"`
	tests := []struct {
		name string
		json string
		want bool
	}{
		{"layout 7", `{"version":7,"elements":["sec","p"],"source":` + src + `,"shards":2,"built":"2026-11-26T10:00:00Z","totals":{}}`, true},
		{"layout 1 (no shards)", `{"version":1,"elements":["p"],"source":` + src + `,"built":"2026-11-22T10:00:00Z"}`, true},
		{"a web app's", `{"name":"app","version":"1.0","icons":[]}`, false},
		{"version 0", `{"version":0,"elements":["p"],"source":` + src + `,"built":"2026-11-22T10:00:00Z"}`, false},
		{"relative source", `{"version":7,"elements":["p"],"source":"articles","built":"2026-11-22T10:00:00Z"}`, false},
		{"no elements", `{"version":7,"elements":[],"source":` + src + `,"built":"2026-11-22T10:00:00Z"}`, false},
		{"no build time", `{"version":7,"elements":["p"],"source":` + src + `}`, false},
		{"not JSON", `version: 7`, false},
		{"an array", `[7]`, false},
	}
	for _, tt := range tests {
		if got := IsIndexManifest([]byte(tt.json)); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
