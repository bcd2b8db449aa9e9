package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// realArticles is the shared folder of real Wikipedia articles, relative to
// this package's folder (../shared/data/wikipedia from the repository root).
const realArticles = "../../../shared/data/wikipedia"

// TestIndexRealCollection indexes the real articles with readsim index and
// searches them in Korean, Chinese and English with readsim search.
func TestIndexRealCollection(t *testing.T) {
	if _, err := os.Stat(realArticles); err != nil {
		t.Skipf("no real Wikipedia articles at %s (../shared/data/wikipedia from the repository root): %v", realArticles, err)
	}
	idx := filepath.Join(t.TempDir(), "idx")
	code, _, stderr := runCLI("index", "--articles", realArticles, "--index", idx)
	if code != 0 {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	// 27 + 25 + 25 articles, each in its folder's language
	want := []string{
		"built " + idx + ": 77 articles",
		"indexed 77",
		"the collection's DTD: " + filepath.Join(realArticles, "article.dtd") + "\n",
		"ignored " + filepath.Join(realArticles, "README.md") + ": not an article",
		"languages: en 27, ko 25, zh 25\n",
	}
	checkText(t, "index summary", stderr, want, []string{"skipped", "warning", ".dtd: not an article"})

	for _, tc := range []struct {
		query []string
		first string // rank, id, language and title of the first line
		mark  string // a marked match in one of its snippets
	}{
		{[]string{"송혜교"}, "11002\tko\t송혜교", "[송혜교]는"},
		{[]string{"马王堆汉墓"}, "7481\tzh\t马王堆汉墓", "[马王堆汉墓]"},
		{[]string{"martial", "arts"}, "19501\ten\tMartial arts", "[martial] [arts]"},
	} {
		code, out, stderr := runCLI(append([]string{"search", "--index", idx, "--k", "3"}, tc.query...)...)
		if code != 0 {
			t.Fatalf("search %v: exit %d: %s", tc.query, code, stderr)
		}
		if !utf8.ValidString(out) {
			t.Errorf("search %v: output is not UTF-8", tc.query)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		f := strings.Split(lines[0], "\t")
		if len(f) != 5 || f[0] != "1" || strings.Join([]string{f[1], f[3], f[4]}, "\t") != tc.first {
			t.Errorf("search %v: first line %q, want 1, %q", tc.query, lines[0], tc.first)
		}
		marked := false
		for _, l := range lines[1:] {
			if !strings.HasPrefix(l, "\t") {
				break // the next article
			}
			marked = marked || strings.Contains(strings.ToLower(l), tc.mark)
		}
		if !marked {
			t.Errorf("search %v: no snippet of the first article holds %q:\n%s", tc.query, tc.mark, out)
		}
	}
	// a run of topics in two languages: each finds its article first
	topics := filepath.Join(t.TempDir(), "topics.txt")
	os.WriteFile(topics, []byte("T1 송혜교\nT2 意大利餃\nT3 kimchi\n"), 0o644)
	code, out, stderr := runCLI("run", "--index", idx, "--topics", topics, "--k", "1", "--task", "bic", "--run-id", "r")
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("run: %d lines, want 3:\n%s", len(lines), out)
	}
	for i, want := range []string{"T1 Q0 11002 1 ", "T2 Q0 101991 1 ", "T3 Q0 178952 1 "} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("run line %d: %q, want %q…", i+1, lines[i], want)
		}
	}
}

// TestIndexArticleFlags checks --dtd and --lang of readsim index, the
// single warning for a missing DTD, and the header id warning.
func TestIndexArticleFlags(t *testing.T) {
	dir := t.TempDir()
	articles := filepath.Join(dir, "articles")
	art := func(id, title string) string {
		return `<?xml version="1.0"?><!DOCTYPE article SYSTEM "../article.dtd"><article><header><title>` + title +
			`</title><id>` + id + `</id></header><bdy><p>` + title + `&nbsp;lens</p></bdy></article>`
	}
	for name, body := range map[string]string{
		"a/1.xml": art("1", "One"), "a/2.xml": art("2", "Two"), "b/3.xml": art("33", "Three"),
		"dtds/my.dtd": `<!ENTITY nbsp "&#160;">`,
	} {
		p := filepath.Join(dir, name)
		if name != "dtds/my.dtd" {
			p = filepath.Join(articles, name)
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	idx := filepath.Join(dir, "idx")
	// no DTD anywhere: one warning for the collection, the built-in entities
	code, _, stderr := runCLI("index", "--articles", articles, "--index", idx)
	if code != 0 {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	if n := strings.Count(stderr, "article.dtd\" is not at"); n != 1 {
		t.Errorf("%d warnings about the missing DTD, want 1:\n%s", n, stderr)
	}
	if !strings.Contains(stderr, "warning: 1 articles whose <header><id> is not their file name are indexed under their file name: "+filepath.Join(articles, "b", "3.xml")+" has id 33") {
		t.Errorf("no header id warning:\n%s", stderr)
	}
	// --dtd names it: no warning, and the index is rebuilt (a new DTD)
	code, _, stderr = runCLI("index", "--articles", articles, "--index", idx, "--dtd", filepath.Join(dir, "dtds", "my.dtd"))
	if code != 0 || strings.Contains(stderr, "is not at") || !strings.Contains(stderr, "my.dtd is new") || !strings.Contains(stderr, "indexed 3") {
		t.Errorf("--dtd: exit %d:\n%s", code, stderr)
	}
	// --lang forces the language
	code, _, stderr = runCLI("index", "--articles", articles, "--index", idx, "--dtd", filepath.Join(dir, "dtds", "my.dtd"), "--lang", "ko")
	if code != 0 || !strings.Contains(stderr, "languages: ko 3\n") {
		t.Errorf("--lang ko: exit %d:\n%s", code, stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--lang", "k"}, "--lang"},
		{[]string{"--dtd", filepath.Join(dir, "none.dtd")}, "none.dtd"},
	} {
		code, _, stderr := runCLI(append([]string{"index", "--articles", articles, "--index", idx}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestSearchTerminal checks that search's snippets of CJK text are cut
// between characters, about 80 characters (160 terminal columns) wide, and
// that control characters and line ends in titles do not reach the
// terminal.
func TestSearchTerminal(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("甲乙丙丁戊己庚辛壬癸", 20) // 200 characters
	files := map[string]string{
		"1.xml": `<article><header><title>十干` + "\u009b" + `31m</title></header><bdy><p>` + long + `子丑寅卯` + long + `</p></bdy></article>`,
	}
	for name, body := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
	}
	idx := filepath.Join(t.TempDir(), "idx")
	if code, _, stderr := runCLI("index", "--articles", dir, "--index", idx); code != 0 {
		t.Fatalf("index: %d %s", code, stderr)
	}
	code, out, stderr := runCLI("search", "--index", idx, "丑寅")
	if code != 0 {
		t.Fatalf("search: %d %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("output:\n%s", out)
	}
	if want := "\tzh\t十干\ufffd31m"; !strings.HasSuffix(lines[0], want) {
		t.Errorf("article line %q, want it to end with %q", lines[0], want)
	}
	snippet := lines[1][strings.LastIndexByte(lines[1], '\t')+1:]
	// 80 characters around the match, which starts 20 characters in (a
	// quarter of the width): 19 before it, "子[丑寅]卯", 57 after it.
	want := "…" + long[len(long)-19*3:] + "子[丑寅]卯" + long[:57*3] + "…"
	if !utf8.ValidString(snippet) || snippet != want {
		t.Errorf("snippet %q,\nwant %q", snippet, want)
	}
}

// TestIndexTwoWikipedias indexes the collection of two Wikipedias of
// index/article's tests (multilang: en/3951 and ja/3951, en/7001 and
// ja/7001 share file names) and searches it: the clash is one warning,
// hits carry qualified ids and their languages, a one-character query
// finds the articles holding the character, a query of stop words finds
// the article it titles, and the contributor is not searchable.
func TestIndexTwoWikipedias(t *testing.T) {
	idx := filepath.Join(t.TempDir(), "idx")
	code, _, stderr := runCLI("index", "--articles", multilang, "--index", idx)
	if code != 0 {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	if n := strings.Count(stderr, "warning"); n != 1 || !strings.Contains(stderr, "readsim index: warning: 2 article ids are each the file name of several articles") ||
		!strings.Contains(stderr, "languages: en 4, ja 3\n") || !strings.Contains(stderr, "7 articles") {
		t.Errorf("index summary:\n%s", stderr)
	}
	for _, tc := range []struct {
		query []string
		ids   []string // the hits' ids and languages, the first one first, the others sorted
	}{
		// 灯台 is the title of ja/3951 and a bigram of 2121's
		{[]string{"灯台"}, []string{"ja/3951 ja", "2121 ja", "en/3951 en", "ja/7001 ja"}},
		// 塔 is in two bigrams of each (い塔 塔が, の塔 塔で): 2121's text is
		// the shorter, one sentence to ja/3951's lead and section
		{[]string{"塔"}, []string{"2121 ja", "ja/3951 ja"}},
		{[]string{"The", "Who"}, []string{"4001 en"}},
		{[]string{"fog", "signal"}, []string{"en/7001 en", "en/3951 en"}},
	} {
		code, out, stderr := runCLI(append([]string{"search", "--index", idx}, tc.query...)...)
		if code != 0 {
			t.Errorf("search %v: exit %d: %s", tc.query, code, stderr)
			continue
		}
		var ids []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if f := strings.Split(l, "\t"); len(f) == 5 {
				ids = append(ids, f[1]+" "+f[3])
			}
		}
		if len(ids) > 2 {
			sort.Strings(ids[2:])
		}
		if strings.Join(ids, ",") != strings.Join(tc.ids, ",") {
			t.Errorf("search %v: %v, want %v\n%s", tc.query, ids, tc.ids, out)
		}
	}
	code, out, stderr := runCLI("search", "--index", idx, "gullwingbot")
	if code != 0 || out != "" || !strings.Contains(stderr, "no article matches") {
		t.Errorf("the contributor: exit %d, %q %q; want no article", code, out, stderr)
	}
	if code, _, stderr := runCLI("search", "--index", idx, "the"); code != 2 || !strings.Contains(stderr, "no searchable word") {
		t.Errorf("a stop word that titles nothing: exit %d: %s", code, stderr)
	}
}
