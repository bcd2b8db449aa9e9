package store

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// FuzzManifest feeds arbitrary bytes to what reads a manifest on open and
// on the target check (ReadManifestHead, Validate, IsIndexManifest): no
// panic, and a manifest Validate passes has the fields Open relies on.
func FuzzManifest(f *testing.F) {
	f.Add([]byte(`{"version":7,"elements":["sec","p"],"source":"/a","shards":2,"built":"2026-11-26T10:00:00Z","totals":{"articles":1,"langs":{"en":1}}}`))
	f.Add([]byte(`{"version":7,"elements":["p"],"source":"/a","shards":300,"built":"2026-11-26T10:00:00Z"}`))
	f.Add([]byte(`{"name":"app","version":"1.0"}`))
	f.Add([]byte(`{"version":7,"totals":{"articles":-1,"langs":{"en":-1}}}`))
	f.Add([]byte(`[`))
	f.Add([]byte(`{"version":7,"elements":["p"],"source":"/a","shards":1,"built":"2026-11-26T10:00:00Z","records":[{"size":1,"crc32":2}],"segments":[[{"name":"a.zap","size":60,"crc32":3}]],"elements_fst":{"size":9,"crc32":4}}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		IsIndexManifest(b)
		if err := os.WriteFile(filepath.Join(dir, ManifestName), b, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := ReadManifestHead(dir)
		if err != nil {
			return
		}
		if m.Validate(dir, dir) != nil {
			return
		}
		if m.Shards < 1 || m.Shards > MaxShards || len(m.Elements) == 0 || !filepath.IsAbs(m.Source) || m.Totals.Articles < 0 ||
			m.Segments != nil && len(m.Segments) != m.Shards || m.ElemDF != nil && m.ElemDF.Size < 0 {
			t.Errorf("validate passed %+v", m)
		}
	})
}

// FuzzCheckFooter checks that a footer checkFooter accepts has its
// offsets and its documents' stored index inside the data.
func FuzzCheckFooter(f *testing.F) {
	f.Add(make([]byte, zapFooterSize), uint64(100))
	good := make([]byte, zapFooterSize)
	binary.BigEndian.PutUint64(good[0:], 3)
	binary.BigEndian.PutUint64(good[8:], 1000)
	binary.BigEndian.PutUint32(good[44:], zapVersion)
	f.Add(good, uint64(1200))
	f.Fuzz(func(t *testing.T, foot []byte, n uint64) {
		if len(foot) != zapFooterSize {
			return
		}
		if checkFooter(foot, n) != nil {
			return
		}
		num, stored := binary.BigEndian.Uint64(foot[0:]), binary.BigEndian.Uint64(foot[8:])
		fields, sections := binary.BigEndian.Uint64(foot[16:]), binary.BigEndian.Uint64(foot[24:])
		if stored > n || fields > n || sections > n || num > (n-stored)/8 || binary.BigEndian.Uint32(foot[44:]) != zapVersion {
			t.Errorf("accepted a footer past %d bytes: %x", n, foot)
		}
	})
}

// FuzzVerifySegment writes arbitrary bytes as a segment file: verifySegment
// never panics, and accepts only a file ending in a footer of the version
// Bleve writes.
func FuzzVerifySegment(f *testing.F) {
	f.Add([]byte("short"))
	f.Add(make([]byte, 200))
	p := filepath.Join(f.TempDir(), "1.zap")
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		verified.Clear()
		if verifySegment(p) == nil && (len(b) < zapFooterSize || binary.BigEndian.Uint32(b[len(b)-8:]) != zapVersion) {
			t.Errorf("accepted %x", b)
		}
	})
}
