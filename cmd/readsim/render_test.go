package main

import (
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runRenderCmd runs readsim render with args (runCLI).
func runRenderCmd(args ...string) (code int, stdout, stderr string) {
	return runCLI(append([]string{"render"}, args...)...)
}

// renderArticles writes a small collection with articles in nested folders.
func renderArticles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"x/y/42.xml": `<article><header><title>Lens</title></header><bdy><p>abc <b>def</b> ghi</p></bdy></article>`,
		"x/bad.xml":  `<article><p>unclosed</article>`,
		"7.xml":      `<article><name id="7">Seven</name><body><p>seven</p></body></article>`,
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func wellFormed(t *testing.T, page string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(page))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("the page is not well-formed: %v\n%s", err, page)
		}
	}
}

func TestRender(t *testing.T) {
	dir := renderArticles(t)
	// text of 42: "Lens" (0-3), then "abc " (4-7), "def" (8-10), " ghi" (11-14)
	code, out, errs := runRenderCmd("--articles", dir, "42", "--passage", "8:3", "--passage", "0:2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	wellFormed(t, out)
	for _, want := range []string{
		`<title>Lens</title>`,
		`<h1 data-o="0"><span class="rs-ui rs-pass" id="p1" data-o="0"></span><mark data-o="0">Le</mark>`,
		`<b data-o="8"><span class="rs-ui rs-pass" id="p2" data-o="8"></span><mark data-o="8">def</mark>`,
		`href="#p2"`, `href="#top"`, `checked="checked"`, `<style>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %s\n%s", want, out)
		}
	}
	if errs != "" {
		t.Errorf("stderr: %s", errs)
	}

	code, out, _ = runRenderCmd("7", "--no-highlight", "--articles", dir)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	wellFormed(t, out)
	if strings.Contains(out, "checked=") || !strings.Contains(out, `<h1 data-o="0">Seven</h1>`) {
		t.Errorf("--no-highlight page:\n%s", out)
	}
}

func TestRenderWarnings(t *testing.T) {
	dir := renderArticles(t)
	code, out, errs := runRenderCmd("--articles", dir, "42", "--passage", "12:10", "--passage", "0:3", "--passage", "1:2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	wellFormed(t, out)
	checkText(t, "stderr", errs, []string{"passage 12:10 runs past the end of article 42 (15 characters): clipped", "overlapping passages merged: 2 passages shown"}, nil)
}

func TestRenderBadInput(t *testing.T) {
	dir := renderArticles(t)
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"--articles", dir, "99"}, `no article "99" in`},
		{[]string{"--articles", dir, "bad"}, "bad.xml"},
		{[]string{"--articles", filepath.Join(dir, "nope"), "42"}, "nope"},
		{[]string{"--articles", filepath.Join(dir, "7.xml"), "42"}, "not a folder"},
		{[]string{"42"}, "--articles is required"},
		{[]string{"--articles", dir}, "want exactly one ARTICLE_ID"},
		{[]string{"--articles", dir, "42", "7"}, "want exactly one ARTICLE_ID"},
		{[]string{"--articles", dir, "x/../42"}, "bad article id"},
		{[]string{"--articles", dir, "/x/y/42"}, "bad article id"},
		{[]string{"--articles", dir, `x\y\42`}, "bad article id"},
		{[]string{"--articles", dir, "z/42"}, `no article "z/42" in`},
		{[]string{"--articles", dir, "42", "--passage", "5"}, "no colon"},
		{[]string{"--articles", dir, "42", "--passage", "a:3"}, "the offset is not a number"},
		{[]string{"--articles", dir, "42", "--passage", "3:"}, "the length is not a number"},
		{[]string{"--articles", dir, "42", "--passage", "+3:2"}, "the offset is not a number"},
		{[]string{"--articles", dir, "42", "--passage", "-1:3"}, "negative offset"},
		{[]string{"--articles", dir, "42", "--passage", "3:-2"}, "negative length"},
		{[]string{"--articles", dir, "42", "--passage", "3:0"}, "the length must be at least 1"},
		{[]string{"--articles", dir, "42", "--passage", "99999999999999999999:1"}, "too large"},
		{[]string{"--articles", dir, "42", "--passage", "15:1"}, "passage 15:1 starts past the end of article 42 (15 characters)"},
		{[]string{"--articles", dir, "42", "--bogus"}, "flag provided but not defined"},
	}
	for _, tt := range tests {
		code, out, errs := runRenderCmd(tt.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", tt.args, code)
		}
		if !strings.Contains(errs, tt.msg) {
			t.Errorf("%v: stderr %q lacks %q", tt.args, errs, tt.msg)
		}
		if out != "" {
			t.Errorf("%v: output on stdout: %.80q", tt.args, out)
		}
	}
}

// multilang is the collection of two Wikipedias of index/article's tests:
// en/3951 and ja/3951, en/7001 and ja/7001 (file names in both folders),
// 2121, 4001, 4002 (unique).
var multilang = filepath.Join("..", "..", "index", "article", "testdata", "multilang")

// TestRenderQualifiedIDs checks render over a collection whose file names
// clash: a qualified id renders its article (a path names a unique article
// too), the plain id is an input error naming the qualified ones, the
// clash is one warning, and links lead to the pages of the linking
// article's language, relative to its own page (ja/3951.xhtml links
// 7001.xhtml, that is ja/7001.xhtml, and ../2121.xhtml).
func TestRenderQualifiedIDs(t *testing.T) {
	for _, tc := range []struct {
		id    string
		lang  string
		links []string
		not   []string
	}{
		{"ja/3951", `lang="ja"`, []string{`href="7001.xhtml">霧笛</a>`, `href="../2121.xhtml">観音埼灯台</a>`}, nil},
		{"en/3951", `lang="en"`, []string{`href="7001.xhtml">fog signal</a>`}, []string{"8080"}}, // 8080: not in the folder
		{"ja/2121", `lang="ja"`, nil, nil},
		{"2121", `lang="ja"`, nil, nil},
	} {
		code, out, errs := runRenderCmd("--articles", multilang, tc.id)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", tc.id, code, errs)
			continue
		}
		wellFormed(t, out)
		if n := strings.Count(errs, "warning: "); n != 1 || !strings.Contains(errs, "3951 is en/3951 and ja/3951") {
			t.Errorf("%s: stderr %q, want one warning naming the clashes", tc.id, errs)
		}
		for _, want := range append(tc.links, tc.lang) {
			if !strings.Contains(out, want) {
				t.Errorf("%s: page lacks %s", tc.id, want)
			}
		}
		for _, not := range tc.not {
			if strings.Contains(out, not+".xhtml") {
				t.Errorf("%s: page links %s", tc.id, not)
			}
		}
	}
	code, out, errs := runRenderCmd("--articles", multilang, "3951")
	if code != 2 || out != "" || !strings.Contains(errs, "article id 3951 is the file name of 2 articles: name one of en/3951, ja/3951") {
		t.Errorf("plain 3951: exit %d, stderr %q", code, errs)
	}
}

// Links to articles of the folder point to ID.xhtml beside the page; links
// to articles that are not in it stay plain text.
func TestRenderLinks(t *testing.T) {
	dir := renderArticles(t)
	src := `<article xmlns:xlink="http://www.w3.org/1999/xlink"><bdy><p><link xlink:href="../7.xml">in</link> <link xlink:href="../99.xml">out</link></p></bdy></article>`
	if err := os.WriteFile(filepath.Join(dir, "5.xml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runRenderCmd("--articles", dir, "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	wellFormed(t, out)
	// text: "in" 0-1, " " 2, "out" 3-5
	for _, want := range []string{`<a data-o="0" href="7.xhtml">in</a>`, `<span class="rs-link" data-o="3">out</span>`} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %s\n%s", want, out)
		}
	}
	if strings.Contains(out, "99.xhtml") {
		t.Errorf("a link to an article not in the folder")
	}
}

// --lang sets the page's language; --dtd supplies the entities of an
// article whose own DTD is missing.
func TestRenderArticleFlags(t *testing.T) {
	dir := renderArticles(t)
	dtd := filepath.Join(t.TempDir(), "my.dtd")
	if err := os.WriteFile(dtd, []byte(`<!ENTITY rs "readsim">`), 0o644); err != nil {
		t.Fatal(err)
	}
	src := `<?xml version="1.0"?><!DOCTYPE article SYSTEM "nowhere.dtd"><article><bdy><p>&rs; &amp;</p></bdy></article>`
	if err := os.WriteFile(filepath.Join(dir, "8.xml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args    []string
		code    int
		want    []string
		wantErr string
	}{
		{[]string{"42"}, 0, []string{`lang="en" xml:lang="en"`}, ""},
		{[]string{"42", "--lang", "ko"}, 0, []string{`lang="ko" xml:lang="ko"`, `<nav id="top" class="rs-ui rs-top" aria-label="Passages" lang="en">`}, ""},
		{[]string{"42", "--lang", "k o"}, 2, nil, "--lang"},
		{[]string{"8", "--dtd", dtd}, 0, []string{`<p data-o="0">readsim &amp;</p>`}, ""},
		{[]string{"8"}, 2, nil, "rs"}, // the entity is undefined without the DTD
	}
	for _, tt := range tests {
		code, out, errs := runRenderCmd(append([]string{"--articles", dir}, tt.args...)...)
		if code != tt.code {
			t.Errorf("%v: exit %d, want %d: %s", tt.args, code, tt.code, errs)
			continue
		}
		if tt.code == 0 {
			wellFormed(t, out)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: page lacks %s\n%s", tt.args, w, out)
			}
		}
		if !strings.Contains(errs, tt.wantErr) {
			t.Errorf("%v: stderr %q lacks %q", tt.args, errs, tt.wantErr)
		}
	}
}

// The real articles: a passage that starts on white space is anchored at
// its start, not after its end (issue 12 §5), and the page has the
// article's language.
func TestRenderWikipedia(t *testing.T) {
	const dir = "../../../shared/data/wikipedia"
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no real articles in %s (../shared/data/wikipedia from the repository root): %v", dir, err)
	}
	tests := []struct {
		args []string
		want []string
	}{
		// Cuttlefish: characters 163-165 are the three line ends that open
		// <bdy>, before "Cuttlefish" (166)
		{[]string{"20976520", "--passage", "163:3"}, []string{`<span class="rs-ui rs-pass" id="p1" data-o="163"></span>`, `lang="en"`, `<title>Cuttlefish</title>`}},
		{[]string{"51099", "--passage", "300:20"}, []string{`lang="ko" xml:lang="ko"`, `<title>조선 장조</title>`}},
		{[]string{"101991"}, []string{`lang="zh" xml:lang="zh"`, `<title>意大利餃</title>`}},
	}
	for _, tt := range tests {
		code, out, errs := runRenderCmd(append([]string{"--articles", dir}, tt.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.args, code, errs)
		}
		wellFormed(t, out)
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: page lacks %s", tt.args, w)
			}
		}
	}
}
