//go:build linux

package build

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/readsim/readsim/index/store"
	"github.com/readsim/readsim/internal/ground/testfs"
)

// A build on a full disk (a small tmpfs, which needs root: skipped
// otherwise) is refused as bad input naming the cause, without a panic
// (Bleve's typed nil index was closed), and an index built before is left
// as it was. The disk is filled to several levels, so that the build fails
// at each of its stages: the lock, a shard, the records, the manifest.
func TestBuildOnFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	disk := t.TempDir()
	if err := syscall.Mount("tmpfs", disk, "tmpfs", 0, "size=512k"); err != nil {
		t.Skipf("mount tmpfs: %v", err)
	}
	defer syscall.Unmount(disk, 0)
	articles := testfs.Temp(t, map[string]string{
		"a/1.xml": "<article><header><title>One</title><id>1</id></header><bdy><p>" + strings.Repeat("bridge cables hold ", 400) + "</p></bdy></article>",
		"a/2.xml": "<article><header><title>Two</title><id>2</id></header><bdy><p>" + strings.Repeat("fresnel lens ", 400) + "</p></bdy></article>",
	})
	idx := filepath.Join(disk, "idx")
	if _, err := Build(Options{Articles: articles, Index: idx}); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(store.ManifestPath(idx))
	if err != nil {
		t.Fatal(err)
	}
	filler := filepath.Join(disk, "filler")
	var st syscall.Statfs_t
	for _, left := range []int64{0, 4 << 10, 12 << 10, 24 << 10, 40 << 10} {
		os.Remove(filler)
		if err := syscall.Statfs(disk, &st); err != nil {
			t.Fatal(err)
		}
		free := int64(st.Bavail) * int64(st.Bsize)
		os.WriteFile(filler, make([]byte, max(free-left, 0)), 0o644) // a full disk stops it short: as wanted
		_, err := Build(Options{Articles: articles, Index: idx, Rebuild: true})
		var ie *store.InputError
		if err == nil || !errors.As(err, &ie) || !strings.Contains(err.Error(), "the disk is full") || !strings.Contains(err.Error(), idx) {
			t.Errorf("%d bytes left: %v, want an InputError saying the disk of %s is full", left, err, idx)
		}
		if after, err := os.ReadFile(store.ManifestPath(idx)); err != nil || string(after) != string(before) {
			t.Errorf("%d bytes left: the index was changed (%v)", left, err)
		}
	}
}

// diskFull turns only a full disk or quota into bad input.
func TestDiskFull(t *testing.T) {
	for _, tc := range []struct {
		err  error
		full bool
	}{
		{&os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}, true},
		{&os.PathError{Op: "write", Path: "x", Err: syscall.EDQUOT}, true},
		{&os.PathError{Op: "write", Path: "x", Err: syscall.EIO}, false},
		{errors.New("segment: persist err: write x: no space left on device"), true},
		{errors.New("other"), false},
	} {
		err := diskFull("idx", tc.err)
		var ie *store.InputError
		if errors.As(err, &ie) != tc.full {
			t.Errorf("%v: %v, want bad input %v", tc.err, err, tc.full)
		}
	}
}
