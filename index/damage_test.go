package index

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"

	"github.com/readsim/readsim/index/records"
	"github.com/readsim/readsim/index/store"
	"github.com/readsim/readsim/internal/ground/testfs"
)

// firstSegment returns the first segment file of shard 0 of the index idx.
func firstSegment(t *testing.T, idx string) string {
	t.Helper()
	zaps, _ := filepath.Glob(filepath.Join(store.ShardDir(idx, 0), "store", "*.zap"))
	if len(zaps) == 0 {
		t.Fatalf("no segment file in %s", store.ShardDir(idx, 0))
	}
	return zaps[0]
}

// overwrite writes b at offset off of the file p.
func overwrite(p string, off int64, b []byte) error {
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteAt(b, off); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// breakKeepingChecksum makes the zap segment p unreadable to Bleve while
// it passes verifySegment: its footer's sections offset points at the
// last byte of the data, which says 127 fields follow (zapx/v16
// loadFieldsNew then reads their offsets past the end, which panics), and
// the CRC-32 is computed again over the changed bytes.
func breakKeepingChecksum(p string) error {
	// a zap v16 footer: five 8-byte offsets and counts, the chunk mode,
	// the version and the CRC-32 (zapx/v16 write.go, persistFooter)
	const zapFooterSize = 5*8 + 3*4
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	n := len(b) - zapFooterSize // the data
	b[n-1] = 0x7f
	foot := b[n:]
	binary.BigEndian.PutUint64(foot[24:32], uint64(n-1)) // the sections offset
	binary.BigEndian.PutUint32(foot[zapFooterSize-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
	return os.WriteFile(p, b, 0o600)
}

// damages are the ways issue 24 found to damage an index's segments,
// each with the file the error must name (relative to the index).
var damages = []struct {
	name   string
	damage func(t *testing.T, idx string) error
	file   func(t *testing.T, idx string) string
}{
	{"truncated segment", func(t *testing.T, idx string) error {
		p := firstSegment(t, idx)
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		return os.Truncate(p, st.Size()/2)
	}, firstSegment},
	{"segment cut to a few bytes", func(t *testing.T, idx string) error { return os.Truncate(firstSegment(t, idx), 10) }, firstSegment},
	{"garbled segment", func(t *testing.T, idx string) error {
		p := firstSegment(t, idx)
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		return overwrite(p, st.Size()/2, []byte(strings.Repeat("\xff", 64)))
	}, firstSegment},
	{"missing segment", func(t *testing.T, idx string) error { return os.Remove(firstSegment(t, idx)) }, firstSegment},
	// its checksum right, but not the one the manifest records
	{"segment unreadable with a right checksum", func(t *testing.T, idx string) error { return breakKeepingChecksum(firstSegment(t, idx)) }, firstSegment},
	{"garbled root.bolt", func(t *testing.T, idx string) error {
		return overwrite(filepath.Join(store.ShardDir(idx, 0), "store", "root.bolt"), 0, []byte(strings.Repeat("\x00", 8192)))
	}, func(t *testing.T, idx string) string {
		return filepath.Join(store.ShardDir(idx, 0), "store", "root.bolt")
	}},
	{"missing root.bolt", func(t *testing.T, idx string) error {
		return os.Remove(filepath.Join(store.ShardDir(idx, 0), "store", "root.bolt"))
	}, func(t *testing.T, idx string) string {
		return filepath.Join(store.ShardDir(idx, 0), "store", "root.bolt")
	}},
	{"missing index_meta.json", func(t *testing.T, idx string) error {
		return os.Remove(filepath.Join(store.ShardDir(idx, 0), "index_meta.json"))
	}, func(t *testing.T, idx string) string { return filepath.Join(store.ShardDir(idx, 0), "index_meta.json") }},
	// the records file (index/records): checked against its size and CRC-32
	// in the manifest
	// a segment's identity, and elements.fst, checked against the manifest
	{"segment of another index, its checksum right", func(t *testing.T, idx string) error {
		other := filepath.Join(t.TempDir(), "other")
		testfs.Write(t, filepath.Join(other, "articles"), testArticles)
		if _, err := Build(BuildOptions{Articles: filepath.Join(other, "articles"), Index: filepath.Join(other, "idx"), Batch: 1}); err != nil {
			return err
		}
		b, err := os.ReadFile(firstSegment(t, filepath.Join(other, "idx")))
		if err != nil {
			return err
		}
		return os.WriteFile(firstSegment(t, idx), b, 0o644)
	}, firstSegment},
	{"truncated elements.fst", func(t *testing.T, idx string) error {
		p := filepath.Join(idx, store.ElemDFName)
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		return os.Truncate(p, st.Size()-8)
	}, func(t *testing.T, idx string) string { return filepath.Join(idx, store.ElemDFName) }},
	{"missing records", func(t *testing.T, idx string) error { return os.Remove(firstRecords(t, idx)) }, firstRecords},
	{"truncated records", func(t *testing.T, idx string) error {
		p := firstRecords(t, idx)
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		return os.Truncate(p, st.Size()/2)
	}, firstRecords},
	{"records with one byte flipped", func(t *testing.T, idx string) error {
		p := firstRecords(t, idx)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		i := len(records.Magic) + (len(b)-len(records.Magic))/2
		return overwrite(p, int64(i), []byte{b[i] ^ 0x10})
	}, firstRecords},
	{"records cut to their magic", func(t *testing.T, idx string) error {
		return os.Truncate(firstRecords(t, idx), int64(len(records.Magic)))
	}, firstRecords},
	{"records of another kind", func(t *testing.T, idx string) error {
		return overwrite(firstRecords(t, idx), 0, []byte("readsim records 0\n"))
	}, firstRecords},
	{"records a folder", func(t *testing.T, idx string) error {
		p := firstRecords(t, idx)
		if err := os.Remove(p); err != nil {
			return err
		}
		return os.Mkdir(p, 0o755)
	}, firstRecords},
}

// firstRecords returns the records file of shard 0 of the index idx.
func firstRecords(t *testing.T, idx string) string {
	t.Helper()
	return records.Path(store.ShardDir(idx, 0))
}

// TestDamagedIndex damages an index each way of damages: Open fails with
// a DamagedError naming the damaged file (never a panic, never an empty
// index), and readsim index rebuilds it from scratch, saying why, into an
// index that searches as a fresh one does.
func TestDamagedIndex(t *testing.T) {
	for _, tc := range damages {
		t.Run(tc.name, func(t *testing.T) {
			articles, idx, _ := buildTest(t)
			file := tc.file(t, idx)
			if err := tc.damage(t, idx); err != nil {
				t.Fatal(err)
			}
			x, err := Open(idx)
			var de *DamagedError
			if !errors.As(err, &de) || de.File != file || !strings.Contains(err.Error(), file) {
				t.Errorf("Open: %v, want a DamagedError naming %s", err, file)
			}
			if x != nil {
				x.Close()
			}
			res, err := Build(BuildOptions{Articles: articles, Index: idx})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Full || res.Indexed != 3 || !strings.Contains(res.Rebuilt, file) {
				t.Errorf("update: full=%v indexed=%d rebuilt=%q, want a full build of 3 naming %s", res.Full, res.Indexed, res.Rebuilt, file)
			}
			fresh := filepath.Join(t.TempDir(), "fresh")
			if _, err := Build(BuildOptions{Articles: articles, Index: fresh}); err != nil {
				t.Fatal(err)
			}
			x, y := openTest(t, idx), openTest(t, fresh)
			for _, q := range []string{"fresnel lens", "bridge cables"} {
				if a, b := search(t, x, q), search(t, y, q); !reflect.DeepEqual(a, b) || len(a) == 0 {
					t.Errorf("%q: rebuilt %+v, fresh %+v", q, a, b)
				}
			}
		})
	}
}

// TestReloadIntoDamaged swaps a damaged build into the folder of an open
// index (as readsim index does, the old folder removed): Reload fails with
// a DamagedError and the index goes on answering from the build it has;
// once a sound build is in place, Reload switches to it.
func TestReloadIntoDamaged(t *testing.T) {
	for _, tc := range damages {
		t.Run(tc.name, func(t *testing.T) {
			articles, idx, _ := buildTest(t)
			x := openTest(t, idx)
			before := search(t, x, "fresnel lens")
			if len(before) != 2 {
				t.Fatalf("%d results before, want 1001 and 3001", len(before))
			}
			os.WriteFile(filepath.Join(articles, "4001.xml"), []byte(`<article><header><title>Fresnel zones</title></header><bdy><p>Fresnel lens zones.</p></bdy></article>`), 0o644)
			next := filepath.Join(filepath.Dir(idx), "next")
			if _, err := Build(BuildOptions{Articles: articles, Index: next}); err != nil {
				t.Fatal(err)
			}
			if err := tc.damage(t, next); err != nil {
				t.Fatal(err)
			}
			testfs.Replace(t, next, idx)
			switched, err := x.Reload()
			var de *DamagedError
			if switched || !errors.As(err, &de) {
				t.Errorf("Reload into a damaged build: switched %v, %v; want a DamagedError", switched, err)
			}
			if got := search(t, x, "fresnel lens"); !reflect.DeepEqual(got, before) {
				t.Errorf("after the failed reload: %+v, want the old build's %+v", got, before)
			}
			if _, err := Build(BuildOptions{Articles: articles, Index: idx}); err != nil {
				t.Fatal(err)
			}
			if switched, err := x.Reload(); !switched || err != nil || x.Articles() != 4 {
				t.Errorf("Reload after the repair: switched %v, %v, %d articles; want the 4 of the repaired build", switched, err, x.Articles())
			}
		})
	}
}

// TestGuardedPanics checks the boundary itself with a real panic of the
// zap library (opening a segment breakKeepingChecksum broke, which the
// checks on open let through): in a request, on the caller's goroutine or
// on one of parallel's, it is a DamagedError naming the index, and the
// index still answers after it (TestGuardOwnPanics: a panic of readsim's
// own code is no damage).
func TestGuardedPanics(t *testing.T) {
	_, idx, _ := buildTest(t)
	x := openTest(t, idx)
	broken := filepath.Join(t.TempDir(), "broken")
	if err := store.CopyDir(store.ShardDir(idx, 0), broken); err != nil {
		t.Fatal(err)
	}
	zaps, _ := filepath.Glob(filepath.Join(broken, "store", "*.zap"))
	if len(zaps) == 0 {
		t.Fatal("no segment")
	}
	if err := breakKeepingChecksum(zaps[0]); err != nil {
		t.Fatal(err)
	}
	openBroken := func() error {
		ai, err := bleve.OpenUsing(broken, map[string]interface{}{"read_only": true})
		if err == nil {
			ai.Close()
		}
		return err
	}
	for _, tc := range []struct {
		name string
		f    func(s *snapshot) (int, error)
	}{
		{"caller", func(*snapshot) (int, error) { return 0, openBroken() }},
		{"parallel", func(*snapshot) (int, error) {
			return 0, store.Parallel(3, func(i int) error {
				if i == 1 {
					return openBroken()
				}
				return nil
			})
		}},
	} {
		_, err := withSnapshot(x, tc.f)
		var de *DamagedError
		if !errors.As(err, &de) || de.Index != idx || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("%s: %v, want a DamagedError of %s saying what zap said", tc.name, err, idx)
		}
	}
	if got := search(t, x, "bridge"); len(got) != 1 || got[0].ID != "2001" {
		t.Errorf("after the panics: %+v, want 2001", got)
	}

}

// TestDamagedManifest damages an index's manifest: Open names it in a
// DamagedError, and readsim index accepts the folder (its names are an
// index's, its first shard a Bleve index) and builds it again.
func TestDamagedManifest(t *testing.T) {
	edit := func(f func(m map[string]any)) func(b []byte) []byte {
		return func(b []byte) []byte {
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				panic(err)
			}
			f(m)
			out, _ := json.Marshal(m)
			return out
		}
	}
	for _, tc := range []struct {
		name   string
		change func(b []byte) []byte
		say    string
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)/2] }, "unexpected end of JSON input"},
		{"a string for a number", edit(func(m map[string]any) { m["shards"] = "two" }), "cannot unmarshal"},
		{"a million shards", edit(func(m map[string]any) { m["shards"] = 1000000 }), "1000000 shards, want 1 to 256"},
		{"no shard", edit(func(m map[string]any) { m["shards"] = 0 }), "0 shards"},
		{"no element", edit(func(m map[string]any) { m["elements"] = []string{} }), "no candidate element"},
		{"relative source", edit(func(m map[string]any) { m["source"] = "articles" }), `"articles" is not an absolute path`},
		{"negative totals", edit(func(m map[string]any) { m["totals"].(map[string]any)["text_len"] = -1 }), "negative totals"},
		{"languages not adding up", edit(func(m map[string]any) { m["totals"].(map[string]any)["articles"] = 4 }), "4 articles, 3 by language"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			articles, idx, _ := buildTest(t)
			p := store.ManifestPath(idx)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, tc.change(b), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = Open(idx)
			var de *DamagedError
			if !errors.As(err, &de) || de.File != p || !strings.Contains(err.Error(), tc.say) {
				t.Errorf("Open: %v, want a DamagedError naming %s and saying %q", err, p, tc.say)
			}
			res, err := Build(BuildOptions{Articles: articles, Index: idx})
			if err != nil {
				t.Fatalf("rebuilding: %v", err)
			}
			if !res.Full || res.Indexed != 3 {
				t.Errorf("full=%v indexed=%d, want a full build of 3", res.Full, res.Indexed)
			}
			if got := search(t, openTest(t, idx), "bridge"); len(got) != 1 || got[0].ID != "2001" {
				t.Errorf("after the rebuild: %+v, want 2001", got)
			}
		})
	}
}
