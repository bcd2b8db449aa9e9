package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Two articles; offsets counted by hand. 1: "Fresnel lens" [0,12), p[1]
// "Lens makers." [12,24), p[2] "Fresnel made lenses for lighthouses." [24,60).
// 2: "Bridge" [0,6), p[1] "A bridge over water." [6,26).
var cmdArticles = map[string]string{
	"x/1.xml": `<article><header><title>Fresnel lens</title></header><bdy><p>Lens makers.</p><p>Fresnel made lenses for lighthouses.</p></bdy></article>`,
	"y/2.xml": `<article><name>Bridge</name><body><p>A bridge over water.</p></body></article>`,
	"bad.xml": `<article><p>oops</article>`,
	"read.me": "hello",
}

func cmdIndex(t *testing.T) (dir, idx string) {
	t.Helper()
	dir = t.TempDir()
	for name, body := range cmdArticles {
		p := filepath.Join(dir, "articles", name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	idx = filepath.Join(dir, "idx")
	code, _, stderr := runCLI("index", "--articles", filepath.Join(dir, "articles"), "--index", idx)
	if code != 0 {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	checkText(t, "index summary", stderr, []string{"2 articles", "skipped broken article", "bad.xml", "ignored " + filepath.Join(dir, "articles", "read.me") + ": not an article", "skipped 1 files: 1 broken, 0 duplicate ids", "languages: en 2\n"}, nil)
	return dir, idx
}

func TestIndexSearchRun(t *testing.T) {
	dir, idx := cmdIndex(t)

	code, out, stderr := runCLI("search", "--index", idx, "fresnel", "--k", "5")
	if code != 0 {
		t.Fatalf("search: exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "1\t1\t") || !strings.HasSuffix(lines[0], "\ten\tFresnel lens") {
		t.Fatalf("search output:\n%s", out)
	}
	if want := "\t24:36\t/article[1]/bdy[1]/p[2]\t[Fresnel] made lenses for lighthouses."; lines[1] != want {
		t.Errorf("passage line %q, want %q", lines[1], want)
	}

	topics := filepath.Join(dir, "topics.txt")
	os.WriteFile(topics, []byte("T1 fresnel\nT2 bridge water\nT3 the and\n"), 0o644)
	for _, tc := range []struct {
		task string
		want []string
	}{
		{"ric", []string{"T1 Q0 1 1 ", " r 24 36", "T2 Q0 2 1 ", " r 6 20"}},
		{"bic", []string{"T1 Q0 1 1 ", " r 24 36", "T2 Q0 2 1 ", " r 6 20"}},
		{"focused", []string{"T1 Q0 1 1 ", " r 24 36", "T2 Q0 2 1 ", " r 6 20"}},
		{"doc", []string{"T1 Q0 1 1 ", " r", "T2 Q0 2 1 ", " r"}},
	} {
		code, out, stderr := runCLI("run", "--index", idx, "--topics", topics, "--task", tc.task, "--run-id", "r")
		if code != 0 {
			t.Fatalf("run %s: exit %d: %s", tc.task, code, stderr)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 2 {
			t.Fatalf("run %s: %d lines, want 2:\n%s", tc.task, len(lines), out)
		}
		for i, l := range lines {
			if !strings.HasPrefix(l, tc.want[2*i]) || !strings.HasSuffix(l, tc.want[2*i+1]) {
				t.Errorf("run %s line %d: %q, want %q…%q", tc.task, i+1, l, tc.want[2*i], tc.want[2*i+1])
			}
		}
		if !strings.Contains(stderr, "topic T3") {
			t.Errorf("run %s: no warning for the stop-word topic: %q", tc.task, stderr)
		}
	}
	// --out writes the same run to a file
	outFile := filepath.Join(dir, "run.fol")
	if code, _, stderr := runCLI("run", "--index", idx, "--topics", topics, "--out", outFile); code != 0 {
		t.Fatalf("run --out: %d %s", code, stderr)
	}
	if b, _ := os.ReadFile(outFile); strings.Count(string(b), "\n") != 2 {
		t.Errorf("run --out wrote %q", b)
	}
}

func TestRetrievalBadInput(t *testing.T) {
	dir, idx := cmdIndex(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"index", "--articles", filepath.Join(dir, "missing"), "--index", idx}, 2, "missing"},
		{[]string{"index", "--articles", filepath.Join(dir, "articles")}, 2, "required"},
		{[]string{"index", "--articles", filepath.Join(dir, "articles"), "--index", idx, "--shards", "257"}, 2, "--shards must be between 1 and 256"},
		{[]string{"index", "--articles", filepath.Join(dir, "articles"), "--index", idx, "--shards", "-1"}, 2, "--shards"},
		{[]string{"search", "--index", idx, "the", "AND", "of"}, 2, "no searchable word"},
		{[]string{"search", "--index", filepath.Join(dir, "nope"), "lens"}, 2, "nope"},
		{[]string{"search", "--index", idx}, 2, "no query"},
		{[]string{"run", "--index", idx, "--topics", filepath.Join(dir, "none.xml")}, 2, "none.xml"},
		{[]string{"run", "--index", idx, "--topics", "x", "--task", "thorough"}, 2, "unknown task"},
		{[]string{"run", "--index", idx, "--topics", "x", "--fields", "summary"}, 2, "unknown topic field"},
	} {
		code, _, stderr := runCLI(tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
}

// TestIndexShards indexes the articles in three shards: the summary says
// so, and search prints what the one-shard index prints.
func TestIndexShards(t *testing.T) {
	dir, idx := cmdIndex(t)
	idx3 := filepath.Join(dir, "idx3")
	code, _, stderr := runCLI("index", "--articles", filepath.Join(dir, "articles"), "--index", idx3, "--shards", "3")
	if code != 0 || !strings.Contains(stderr, "2 articles, 3 elements in 3 shards") {
		t.Fatalf("index --shards 3: exit %d:\n%s", code, stderr)
	}
	for _, q := range []string{"fresnel", "bridge lens", "lighthouses"} {
		_, one, _ := runCLI("search", "--index", idx, q)
		_, three, _ := runCLI("search", "--index", idx3, q)
		if one != three || one == "" {
			t.Errorf("%q: three shards print\n%s\none shard\n%s", q, three, one)
		}
	}
}
