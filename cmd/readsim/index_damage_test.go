package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/readsim/readsim/internal/app"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/internal/ground/testfs"
)

// cmdSegment is the first segment file of the first shard of idx.
func cmdSegment(t *testing.T, idx string) string {
	t.Helper()
	zaps, _ := filepath.Glob(filepath.Join(idx, "articles-0", "store", "*.zap"))
	if len(zaps) == 0 {
		t.Fatalf("no segment in %s", idx)
	}
	return zaps[0]
}

// cmdDamages are issue 24's damaged segments: truncated, garbled (a run
// of bytes overwritten in the middle), deleted.
var cmdDamages = []struct {
	name   string
	damage func(p string) error
}{
	{"truncated", func(p string) error {
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		return os.Truncate(p, st.Size()/2)
	}},
	{"garbled", func(p string) error {
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		st, _ := f.Stat()
		_, err = f.WriteAt([]byte(strings.Repeat("\xa5", 256)), st.Size()/2)
		return err
	}},
	{"deleted", os.Remove},
}

// startServeErr runs serve on loopback and returns its error, failing the
// test when it starts (it should not, on a damaged index) or hangs.
func startServeErr(t *testing.T, cfg app.ServeConfig) error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e := &cli.Env{Stdout: &syncBuffer{}, Stderr: &syncBuffer{}}
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, e, cfg, app.Listen{Addr: "127.0.0.1:0", RatePerSecond: -1})
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(60 * time.Second):
		t.Fatal("serve on a damaged index neither failed nor stopped")
	}
	return nil
}

// TestDamagedIndexCommands damages a segment of an index each way of
// cmdDamages: search, run and serve's start-up fail with exit status 2 (a
// damaged index is bad input: docs/safety.md) naming the segment
// file, never a panic nor "no article matches"; readsim index then
// rebuilds it, saying which file was damaged, and search answers again as
// before (article 1 first for "fresnel").
func TestDamagedIndexCommands(t *testing.T) {
	for _, tc := range cmdDamages {
		t.Run(tc.name, func(t *testing.T) {
			dir, idx := cmdIndex(t)
			seg := cmdSegment(t, idx)
			if err := tc.damage(seg); err != nil {
				t.Fatal(err)
			}
			topics := filepath.Join(dir, "topics.txt")
			os.WriteFile(topics, []byte("T1 fresnel\n"), 0o644)
			for _, args := range [][]string{
				{"search", "--index", idx, "fresnel"},
				{"run", "--index", idx, "--topics", topics},
			} {
				status, out, stderr := runCLI(args...)
				if status != 2 || out != "" {
					t.Errorf("%s: exit %d, output %q, want 2 and none", args[0], status, out)
				}
				checkText(t, args[0], stderr, []string{"is damaged", seg, "readsim index"}, []string{"panic", "no article"})
			}
			err := startServeErr(t, app.ServeConfig{Index: idx})
			if err == nil || cli.InputStatus(err) != 2 || !strings.Contains(err.Error(), seg) {
				t.Errorf("serve: %v (exit %d), want exit 2 naming %s", err, cli.InputStatus(err), seg)
			}
			status, _, stderr := runCLI("index", "--articles", filepath.Join(dir, "articles"), "--index", idx)
			if status != 0 {
				t.Fatalf("index: exit %d: %s", status, stderr)
			}
			checkText(t, "index", stderr, []string{"again from scratch", seg + " is damaged"}, nil)
			status, out, stderr := runCLI("search", "--index", idx, "fresnel")
			if status != 0 || !strings.HasPrefix(out, "1\t1\t") {
				t.Errorf("search after the rebuild: exit %d: %s%s", status, out, stderr)
			}
		})
	}
}

// TestServeKeepsServingDamagedRebuild serves an index that is then
// rebuilt into a damaged one (a new article 3 "Lens grinding", and the
// segment holding it truncated): serve logs that the rebuilt index cannot
// be served, naming the damaged file, and goes on answering from the
// build it has (article 2 for "bridge", no article 3); once the index is
// repaired by readsim index, it serves article 3.
func TestServeKeepsServingDamagedRebuild(t *testing.T) {
	dir, idx := cmdIndex(t)
	articles := filepath.Join(dir, "articles")
	base, stderr := startServeListen(t, app.ServeConfig{Index: idx}, app.Listen{RatePerSecond: -1, ReloadEvery: 20 * time.Millisecond})
	if body, err := getOK(base + "/api/search?q=bridge"); err != nil || !strings.Contains(body, `"2"`) {
		t.Fatalf("before: %v %s", err, body)
	}
	os.MkdirAll(filepath.Join(articles, "z"), 0o755)
	os.WriteFile(filepath.Join(articles, "z", "3.xml"), []byte(`<article><header><title>Lens grinding</title></header><bdy><p>Grinding lenses.</p></bdy></article>`), 0o644)
	next := filepath.Join(dir, "next")
	if status, _, e := runCLI("index", "--articles", articles, "--index", next); status != 0 {
		t.Fatal(e)
	}
	seg := cmdSegment(t, next)
	if err := cmdDamages[0].damage(seg); err != nil {
		t.Fatal(err)
	}
	testfs.Replace(t, next, idx)
	damaged := filepath.Join(idx, "articles-0", "store", filepath.Base(seg))
	waitLog := func(want ...string) {
		t.Helper()
		for t0 := time.Now(); time.Since(t0) < 30*time.Second; time.Sleep(10 * time.Millisecond) {
			s := stderr.String()
			found := true
			for _, w := range want {
				found = found && strings.Contains(s, w)
			}
			if found {
				return
			}
		}
		t.Fatalf("serve never logged %q:\n%s", want, stderr)
	}
	waitLog("cannot be served (still serving the previous one)", damaged, "is damaged")
	for range 3 {
		body, err := getOK(base + "/api/search?q=bridge")
		if err != nil || !strings.Contains(body, `"2"`) {
			t.Errorf("after the damaged rebuild: %v %s, want article 2 served", err, body)
		}
		if body, err := getOK(base + "/api/search?q=grinding"); err != nil || strings.Contains(body, `"3"`) {
			t.Errorf("after the damaged rebuild: %v %s, want the old build (no article 3)", err, body)
		}
	}
	if status, _, e := runCLI("index", "--articles", articles, "--index", idx); status != 0 {
		t.Fatal(e)
	}
	waitLog("now serving 3 articles")
	if body, err := getOK(base + "/api/search?q=grinding"); err != nil || !strings.Contains(body, `"3"`) {
		t.Errorf("after the repair: %v %s, want article 3", err, body)
	}
	if strings.Contains(stderr.String(), "panic") {
		t.Errorf("serve's log holds a panic:\n%s", stderr)
	}
}
