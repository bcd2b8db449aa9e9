package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runRenderCmd(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = runMain(&env{stdout: &o, stderr: &e}, append([]string{"render"}, args...))
	return code, o.String(), e.String()
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
	for _, want := range []string{"passage 12:10 runs past the end of article 42 (15 characters): clipped", "overlapping passages merged: 2 passages shown"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q: %s", want, errs)
		}
	}
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
		{[]string{"--articles", dir, "x/y/42"}, "bad article id"},
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
