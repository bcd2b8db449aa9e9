package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/readsim/readsim/internal/app"
)

// TestServeFromAnotherFolder indexes with a relative --articles path, then
// serves the index from another working folder: the article page is there
// (the manifest's articles folder is absolute), with the passage of the
// query highlighted: article 1's "Fresnel made lenses for lighthouses."
// after "Fresnel lens" and "Lens makers." is [24,60) (by hand).
func TestServeFromAnotherFolder(t *testing.T) {
	dir := t.TempDir()
	for name, body := range cmdArticles {
		p := filepath.Join(dir, "work", "arts", name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	os.MkdirAll(filepath.Join(dir, "elsewhere"), 0o755)
	t.Chdir(filepath.Join(dir, "work"))
	if code, _, errs := runCLI("index", "--articles", "arts", "--index", "idx"); code != 0 {
		t.Fatalf("index: %d %s", code, errs)
	}
	t.Chdir(filepath.Join(dir, "elsewhere"))
	base, stderr := startServe(t, app.ServeConfig{Index: filepath.Join("..", "work", "idx")})
	page, err := getOK(base + "/article/1?q=lighthouses")
	if err != nil || !strings.Contains(page, `<mark data-o="24">Fresnel made lenses for lighthouses.</mark>`) {
		t.Errorf("article 1 served from another folder: %v\n%s\n%s", err, page, stderr)
	}
	if _, err := getOK(base + "/api/article/2"); err != nil {
		t.Errorf("article 2 served from another folder: %v", err)
	}
}

// TestServeSwitchesToRebuiltIndex serves an index, with the live run of a
// topic, on loopback while eight clients search it and open article pages
// (HTML and JSON) without pause, rebuilds the index with readsim index
// three times and checks that serve switches to each new index, its
// article pages and its live run together, within moments, without a
// restart and without a failed request:
//
//   - an update: article 1 changed (a paragraph "Zorblaxite is a unique
//     mineral." after its title "Fresnel lens": [12,43) by hand, 31
//     characters) and a new article 3 "Lens grinding": once search finds 3,
//     its page is there, 1's page highlights exactly the new paragraph, and
//     the live run of topic 1 ("lens grinding") ranks 3;
//   - a rebuild from another articles folder (the manifest's source
//     changes): its own article 4 is served, and 1's text is the new
//     folder's ("Wombatite is rare." after the title: [12,30), 18);
//   - a rebuild from scratch in 2 shards.
func TestServeSwitchesToRebuiltIndex(t *testing.T) {
	dir, idx := cmdIndex(t)
	topics, qrels := filepath.Join(dir, "topics.xml"), filepath.Join(dir, "judgments.qrels")
	os.WriteFile(topics, []byte(`<inex-topic-file><topic id="1"><title>lens grinding</title></topic></inex-topic-file>`), 0o644)
	os.WriteFile(qrels, []byte("1 Q0 1 5 40 0 0:5\n"), 0o644)
	base, stderr := startServeListen(t, app.ServeConfig{Index: idx, Topics: topics, Qrels: qrels}, app.Listen{RatePerSecond: -1, ReloadEvery: 20 * time.Millisecond})
	get := func(path string) (string, error) { return getOK(base + path) }
	// ids returns the ids of the hits of a search for q, or an error
	ids := func(q string) ([]string, error) {
		body, err := get("/api/search?q=" + q)
		if err != nil {
			return nil, err
		}
		var r struct{ Hits []struct{ ID string } }
		if err := json.Unmarshal([]byte(body), &r); err != nil {
			return nil, err
		}
		var out []string
		for _, h := range r.Hits {
			out = append(out, h.ID)
		}
		return out, nil
	}
	var stop atomic.Bool
	var requests, failures atomic.Int64
	var wg sync.WaitGroup
	t.Cleanup(func() { // before the server stops, even after a failure
		stop.Store(true)
		wg.Wait()
	})
	for c := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				var err error
				switch (c + i) % 4 {
				case 0:
					_, err = ids([]string{"fresnel", "bridge", "grinding"}[i%3])
				case 1:
					_, err = get("/article/1?q=fresnel")
				case 2:
					_, err = get("/api/article/2?q=bridge")
				case 3:
					_, err = get("/article/2")
				}
				if err != nil {
					failures.Add(1)
					t.Logf("client %d: %v", c, err)
				}
				requests.Add(1)
			}
		}()
	}
	waitFor := func(what, q, id string) {
		t.Helper()
		for t0 := time.Now(); time.Since(t0) < 20*time.Second; time.Sleep(10 * time.Millisecond) {
			if got, err := ids(q); err == nil && slices.Contains(got, id) {
				return
			}
		}
		t.Fatalf("%s: serve never found article %s for %q\n%s", what, id, q, stderr)
	}
	// marked returns the passages of article id for q (JSON) and the
	// text the page highlights, each run of <mark> as "offset:text"
	marked := func(id, q string) (string, []string) {
		t.Helper()
		js, err := get("/api/article/" + id + "?q=" + q)
		if err != nil {
			t.Fatal(err)
		}
		var a struct{ Passages json.RawMessage }
		json.Unmarshal([]byte(js), &a)
		page, err := get("/article/" + id + "?q=" + q)
		if err != nil {
			t.Fatal(err)
		}
		var marks []string
		for _, m := range regexp.MustCompile(`<mark data-o="(\d+)">([^<]*)</mark>`).FindAllStringSubmatch(page, -1) {
			marks = append(marks, m[1]+":"+m[2])
		}
		return string(a.Passages), marks
	}
	// write writes a file whole (a page being read never sees half of it)
	write := func(p, body string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p+".tmp", []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(p+".tmp", p); err != nil {
			t.Fatal(err)
		}
	}
	index := func(articles string, more ...string) {
		t.Helper()
		if code, _, errs := runCLI(append([]string{"index", "--articles", articles, "--index", idx}, more...)...); code != 0 {
			t.Fatalf("index %v: %d %s", more, code, errs)
		}
	}
	liveDocs := func() string {
		body, err := get("/api/replay?topic=1&run=readsim-live")
		if err != nil {
			t.Fatal(err)
		}
		var r struct{ Docs []struct{ ID string } }
		json.Unmarshal([]byte(body), &r)
		return fmt.Sprint(r.Docs)
	}
	if got := liveDocs(); got != "[{1}]" {
		t.Errorf("the first live run of topic 1: %s, want [{1}] (lens)", got)
	}
	// an update: 1 changed, 3 new
	articles := filepath.Join(dir, "articles")
	write(filepath.Join(articles, "x", "1.xml"), `<article><header><title>Fresnel lens</title></header><bdy><p>Zorblaxite is a unique mineral.</p><p>Lens makers.</p><p>Fresnel made lenses for lighthouses.</p></bdy></article>`)
	write(filepath.Join(articles, "z", "3.xml"), `<article><header><title>Lens grinding</title></header><bdy><p>Grinding lenses by hand.</p></bdy></article>`)
	index(articles)
	waitFor("update", "grinding", "3")
	if _, err := get("/article/3"); err != nil {
		t.Errorf("update: search finds article 3 but its page fails: %v", err)
	}
	if ps, marks := marked("1", "zorblaxite"); ps != `[{"offset":12,"length":31}]` || fmt.Sprint(marks) != "[12:Zorblaxite is a unique mineral.]" {
		t.Errorf("update: changed article 1 for zorblaxite: passages %s, marked %q; want [12,43) on its new paragraph", ps, marks)
	}
	if got := liveDocs(); got != "[{3} {1}]" {
		t.Errorf("update: the live run of topic 1: %s, want [{3} {1}] (lens grinding, then lens)", got)
	}
	// a rebuild from another folder
	other := filepath.Join(dir, "other")
	write(filepath.Join(other, "1.xml"), `<article><header><title>Fresnel lens</title></header><bdy><p>Wombatite is rare.</p><p>Fresnel made lenses.</p></bdy></article>`)
	write(filepath.Join(other, "2.xml"), cmdArticles["y/2.xml"])
	write(filepath.Join(other, "4.xml"), `<article><header><title>Quokka</title></header><bdy><p>A quokka smiles.</p></bdy></article>`)
	index(other)
	waitFor("another folder", "quokka", "4")
	if page, err := get("/article/4"); err != nil || !strings.Contains(page, "A quokka smiles.") {
		t.Errorf("another folder: search finds article 4 but its page is %v", err)
	}
	if ps, marks := marked("1", "wombatite"); ps != `[{"offset":12,"length":18}]` || fmt.Sprint(marks) != "[12:Wombatite is rare.]" {
		t.Errorf("another folder: article 1 for wombatite: passages %s, marked %q; want [12,30) on the new folder's paragraph", ps, marks)
	}
	if _, err := get("/article/3"); err == nil {
		t.Error("another folder: article 3, which it lacks, is still served")
	}
	// a rebuild from scratch
	index(other, "--shards", "2")
	for t0 := time.Now(); strings.Count(stderr.String(), "was rebuilt") < 3; time.Sleep(10 * time.Millisecond) {
		if time.Since(t0) > 20*time.Second {
			t.Fatalf("serve did not switch three times:\n%s", stderr)
		}
	}
	waitFor("rebuild in 2 shards", "fresnel", "1")
	time.Sleep(50 * time.Millisecond)
	stop.Store(true)
	wg.Wait()
	if failures.Load() > 0 || requests.Load() < 20 {
		t.Errorf("%d requests, %d failed\n%s", requests.Load(), failures.Load(), stderr)
	}
}
