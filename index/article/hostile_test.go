package article

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// chain declares entities e0 … en, each referring to the one before, e0
// being "x": &en; is n references deep.
func chain(n int) string {
	var b strings.Builder
	b.WriteString(`<!ENTITY e0 "x">`)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `<!ENTITY e%d "&e%d;">`, i, i-1)
	}
	return b.String()
}

// The bounds of docs/articles.md ("The DTD and the entities") hold
// whatever the order the entities are expanded in: one entity's text of
// at most 2²⁰ characters (written out or expanded), entities nested at most
// 64 deep. A repeated attribute and a character reference to a surrogate
// are not XML: each is refused, naming the file and line. A reference to a
// surrogate inside CDATA or a comment is text and passes. Each refused case
// passed before (the entity chain in all but 1 of 65 orders of Go's maps:
// it is read three times).
func TestHostileArticles(t *testing.T) {
	long := strings.Repeat("y", MaxEntityChars)
	tests := []struct {
		name, doc string
		line      int    // the error's line (0 when the article reads)
		msg       string // in the error; or, when it reads, its text
	}{
		{"an entity written out at the bound", `<!DOCTYPE article [<!ENTITY k "` + long + `">]>` + "\n<article>&k;</article>", 0, long},
		{"an entity written out past the bound", `<!DOCTYPE article [<!ENTITY k "` + long + `y">]>` + "\n<article>&k;</article>", 2, "longer than 1048576 characters"},
		{"entities 64 deep", "<!DOCTYPE article [" + chain(64) + "]>\n<article>&e64;</article>", 0, "x"},
		{"entities 65 deep", "<!DOCTYPE article [" + chain(65) + "]>\n<article>&e65;</article>", 2, "nested deeper than 64"},
		{"entities 100 deep", "<!DOCTYPE article [" + chain(100) + "]>\n<article>&e100;</article>", 2, "nested deeper than 64"},
		{"a repeated attribute", "<article>\n<p a=\"1\" b=\"2\" a=\"1\">x</p></article>", 2, "attribute a given twice in <p>"},
		{"a repeated attribute among many", "<article>\n<p" + manyAttrs(40) + ` a20="again">x</p></article>`, 2, "attribute a20 given twice"},
		{"a repeated namespaced attribute", "<article xmlns:x=\"u\">\n\n<p x:a=\"1\" x:a=\"2\">x</p></article>", 3, "attribute x:a given twice"},
		{"a surrogate in text", "<article>\n<p>a&#xD800;b</p></article>", 2, "U+D800, a surrogate"},
		{"a surrogate in decimal", "<article><p>\n\n&#57343;</p></article>", 3, "U+DFFF, a surrogate"},
		{"a surrogate with leading zeros", "<article><p>&#x" + strings.Repeat("0", 100) + "dC00;</p></article>", 1, "U+DC00, a surrogate"},
		{"a surrogate in an attribute", "<article>\n<p title=\"&#xDBFF;\">x</p></article>", 2, "U+DBFF, a surrogate"},
		{"a surrogate in CDATA is text", "<article><p><![CDATA[&#xD800;]]]]>&#65;</p></article>", 0, "&#xD800;]]A"},
		{"a surrogate in a comment is nothing", "<article><!-- &#xD800; -> > --><p>&#x41;</p></article>", 0, "A"},
		{"a surrogate in a processing instruction is nothing", "<article><?pi &#xD800; ?><p>&#xE000;</p></article>", 0, "\uE000"},
		{"the characters around the surrogates pass", "<article>&#xD7FF;&#xE000;&#x10000;</article>", 0, "\uD7FF\uE000\U00010000"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for range 3 {
				a, err := Parse(strings.NewReader(tc.doc), "h.xml")
				if tc.line == 0 {
					if err != nil {
						t.Fatal(err)
					}
					if a.Text != tc.msg {
						t.Fatalf("text %.40q (%d bytes), want %.40q", a.Text, len(a.Text), tc.msg)
					}
					continue
				}
				var e *Error
				if !errors.As(err, &e) || e.File != "h.xml" || e.Line != tc.line || !strings.Contains(e.Msg, tc.msg) {
					t.Fatalf("err = %v, want h.xml:%d: …%s…", err, tc.line, tc.msg)
				}
			}
		})
	}
}

func manyAttrs(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, ` a%d="%d"`, i, i)
	}
	return b.String()
}

// The text entities add counts against the article's bound (32 MiB,
// 33,554,432 bytes), as if it stood in the file: in a file of 1 MiB and
// some, 8,200 references to 1,000 four-byte characters (8.2 M characters,
// under MaxExpandedChars; 32.8 MB, 33.85 MB with the file) are refused,
// 8,000 (32 MB, 33.05 MB with the file) read.
func TestExpansionCountsAgainstTheArticleBound(t *testing.T) {
	doc := func(refs int) string {
		return `<!DOCTYPE article [<!ENTITY k "` + strings.Repeat("\U0001F600", 1000) + `">]>` + "\n<article>" + strings.Repeat("&k;", refs) + "</article><!--" + strings.Repeat("c", 1<<20) + "-->"
	}
	if _, err := Parse(strings.NewReader(doc(8000)), "ok.xml"); err != nil {
		t.Fatal(err)
	}
	_, err := Parse(strings.NewReader(doc(8200)), "big.xml")
	var e *Error
	if !errors.As(err, &e) || e.Line != 2 || !strings.Contains(e.Msg, "larger than 32 MiB with its entities expanded") {
		t.Errorf("err = %v, want big.xml:2: larger than 32 MiB with its entities expanded", err)
	}
}
