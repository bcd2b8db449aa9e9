package render

import (
	"bytes"
	"fmt"
	"github.com/readsim/readsim/effort"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/readsim/readsim/index/article"
)

// wikiDoc is a real article with what its XML file says, read with regular
// expressions independently of package article.
type wikiDoc struct {
	lang string // the folder: en, zh, ko
	a    *article.Article
	raw  string // the file without its comments and DOCTYPE
}

// wikipedia parses every article of wikipediaDir, or skips the test.
func wikipedia(t testing.TB) []wikiDoc {
	t.Helper()
	d, err := article.OpenDir(wikipediaDir)
	if err != nil {
		t.Skipf("no real articles (../shared/data/wikipedia from the repository root): %v", err)
	}
	var docs []wikiDoc
	for _, id := range d.IDs() {
		a, err := d.Parse(id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		p, _ := d.Path(id)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		raw := regexp.MustCompile(`(?s)<!--.*?-->|<!DOCTYPE[^>]*>|<\?[^>]*\?>`).ReplaceAllString(string(b), "")
		docs = append(docs, wikiDoc{lang: filepath.Base(filepath.Dir(p)), a: a, raw: raw})
	}
	if len(docs) == 0 {
		t.Skipf("no articles in %s", wikipediaDir)
	}
	return docs
}

// bodyPassages are three passages inside an article's bdy: at a fifth, a
// half and four fifths of it, 60 characters long (clipped to the body).
func bodyPassages(a *article.Article) []effort.Span {
	s, e := 0, a.Len
	if i, ok := a.Lookup(bdyPath(a)); ok {
		s, e = a.Elements[i].Start, a.Elements[i].End
	}
	var ps []effort.Span
	for _, f := range []int{1, 2, 4} {
		at := s + (e-s)*f/5
		if f == 2 {
			at = s + (e-s)/2
		}
		ps = append(ps, effort.Span{Start: at, End: min(at+60, e)})
	}
	return ps
}

// bdyPath is the XPath of the article's bdy element, through wrappers.
func bdyPath(a *article.Article) string {
	for i := range a.Elements {
		if a.Elements[i].Name == "bdy" {
			return a.XPath(i)
		}
	}
	return "/article[1]/bdy[1]"
}

func count(s, re string) int { return len(regexp.MustCompile(re).FindAllStringIndex(s, -1)) }

// TestWikipedia renders every real article with several sets of passages:
// every page passes checkPage (all the text, every data-o, anchors inside
// their passages, the chain of arrows), and its structure matches what the
// article's XML says, counted in the file: one title, a heading per section
// title, a th per table header cell, a figure per image, a category list
// item per category, a footnote mark per ref (a link when its entry exists),
// the header's fields, no element for a semantic wrapper, the language of
// the article's folder.
func TestWikipedia(t *testing.T) {
	fields := []struct{ tag, label string }{
		{`<header>\s*<title>[^<]*</title>\s*<id>`, "Article id"},
		{`<revision>\s*<id>`, "Revision"},
		{`<timestamp>`, "Last edited"},
		{`<contributor>`, "Contributor"},
	}
	for _, d := range wikipedia(t) {
		a := d.a
		t.Run(d.lang+"/"+a.ID, func(t *testing.T) {
			n := a.Len
			// a passage on the white space that opens the body, one that
			// starts there and runs into the text, the body passages, the
			// whole article
			i, ok := a.Lookup(bdyPath(a))
			if !ok {
				t.Fatal("no bdy")
			}
			b0 := a.Elements[i].Start
			ws := b0
			for _, r := range a.Slice(b0, a.Elements[i].End) {
				if !unicode.IsSpace(r) {
					break
				}
				ws++
			}
			sets := [][]effort.Span{nil, bodyPassages(a), {{Start: 0, End: n}}, {{Start: b0, End: b0 + 20}}}
			if ws > b0 {
				sets = append(sets, []effort.Span{{Start: b0, End: ws}}, []effort.Span{{Start: b0, End: ws}, {Start: ws, End: ws + 5}, {Start: ws + 5, End: ws + 9}})
			}
			var page string
			for k, ps := range sets {
				var b bytes.Buffer
				if err := Page(&b, a, ps, Options{}); err != nil {
					t.Fatal(err)
				}
				if _, err := checkPage(a, ps, b.Bytes(), Options{}); err != nil {
					t.Fatalf("passages %v: %v", ps, err)
				}
				if k == 1 {
					page = b.String()
				}
			}
			raw := d.raw
			rawTitle := strings.TrimSpace(html.UnescapeString(regexp.MustCompile(`<title>([^<]*)</title>`).FindStringSubmatch(raw)[1]))
			wrappers := count(raw, `<[A-Za-z_][\w.:-]*\s[^>]*wordnetid=`)
			elements := count(raw, `<[A-Za-z_]`)
			// st inside a table cell would be a heading too; headers are
			// table cells but one, the article's
			checks := []struct {
				what      string
				got, want any
			}{
				{"<title>", html.UnescapeString(regexp.MustCompile(`<title>([^<]*)</title>`).FindStringSubmatch(page)[1]), rawTitle},
				{"h1", count(page, `<h1 data-o=`), 1},
				{"the h1 is first in the article", strings.Index(page, `<h1 data-o=`) < strings.Index(page, `<details`), true},
				{"headings", count(page, `<h[2-6] data-o=|role="heading"`), count(raw, `<st>`)},
				{"th", count(page, `<th (class="rs-long" )?data-o=`), count(raw, `<header[ >]`) - 1},
				{"tables", count(page, `class="rs-table[ "]`), count(raw, `<table[ >]`)},
				{"navigation boxes hidden", count(page, `class="rs-table rs-navbox"`), count(raw, `<table [^>]*class="([^"]* )?(navbox|vertical-navbox|nomobile)[ "]`)},
				{"merged cells", count(page, `<t[dh] [^>]*(rowspan|colspan)="`), count(raw, `<(col|header) [^>]*(rowspan|colspan)="0*([2-9]|[1-9][0-9]+)"`)},
				{"nested list entries", count(page, `<li class="rs-l[2-6]`), count(raw, `<entry [^>]*level="[2-9]"`)},
				{"figures", count(page, `<figure class="rs-img`), count(raw, `<image[ >]`)},
				{"figures with no caption hidden", count(page, `<figure class="rs-img rs-empty"`), count(raw, `<image[^>]*>\s*</image>|<image[^>]*/>|<image[^>]*>\s*<caption>\s*alt=[^<\n]*\s*</caption>\s*</image>`)}, // an alt= line alone is no caption (docs/articles.md)
				{"no arrows in a footnote mark", regexp.MustCompile(`<sup class="rs-ref"[^>]*>[^<]*(<[^/][^>]*>[^<]*</[^>]*>)*[^<]*<span class="rs-ui rs-nav"`).MatchString(page), false},
				{"math", count(page, `class="rs-math"`), count(raw, `<math>`)},
				{"categories", count(page, `<li class="rs-cat"`), count(raw, `<category>`)},
				{"hidden colons", count(page, `class="rs-colon"`), count(raw, `<category>:`)},
				{"footnote marks", count(page, `class="rs-ref"`), count(raw, `<ref[ >]`)},
				{"footnote marks opening their note", count(page, `<button class="rs-ref"`), refsWithEntry(raw)},
				{"notes that open as a drawer", count(page, `<li class="rs-fn" data-o="[0-9]+" id="rs-fn-[0-9]+" popover="auto"`), entriesWithText(raw)},
				{"page elements of article elements", count(page, `<[a-z0-9]+ (class="[^"]*" )?data-o=`) - count(page, `<mark |class="rs-colon"|class="rs-(x|em|wcap|note)"`), elements - wrappers},
				{"wrappers' names", strings.Contains(page, "wordnetid") || strings.Contains(page, "confidence="), false},
				{"lang", regexp.MustCompile(`<html [^>]*lang="([^"]*)"`).FindStringSubmatch(page)[1], a.Lang},
				{"a CJK language for a CJK folder", article.IsCJK(a.Lang), d.lang != "en"},
				{"categories last (rs-flex)", strings.Contains(page, `class="rs-doc rs-flex"`), strings.Contains(raw, "<categories>")},
				{"one About block", count(page, `<details class="rs-about">`), 1},
			}
			for _, f := range fields {
				checks = append(checks, struct {
					what      string
					got, want any
				}{"field " + f.label, strings.Contains(page, `<span class="rs-ui rs-label"`+map[bool]string{true: "", false: ` lang="en"`}[d.lang == "en"]+`>`+f.label+`</span>`), regexp.MustCompile(f.tag).MatchString(raw)})
			}
			for _, c := range checks {
				if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
					t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
				}
			}
		})
	}
}

// entriesWithText counts the numbers of raw's reflist entries that hold
// some text (the first such entry of a number is its note).
func entriesWithText(raw string) int {
	return len(noteIDs(raw))
}

// noteIDs are the numbers of raw's reflist entries that hold some text.
func noteIDs(raw string) map[string]bool {
	ids := map[string]bool{}
	for _, rl := range regexp.MustCompile(`(?s)<reflist>.*?</reflist>`).FindAllString(raw, -1) {
		for _, m := range regexp.MustCompile(`<entry id="(\d+)"[^>]*>((?s).*?)</entry>`).FindAllStringSubmatch(rl, -1) {
			if strings.TrimSpace(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(m[2], "")) != "" {
				ids[m[1]] = true // an entry with some text
			}
		}
	}
	return ids
}

// refsWithEntry counts the refs of raw whose reflist entry exists and
// holds some text.
func refsWithEntry(raw string) int {
	ids := noteIDs(raw)
	n := 0
	for _, m := range regexp.MustCompile(`<ref [^>]*entry\[@id=%22(\d+)%22\]`).FindAllStringSubmatch(raw, -1) {
		if ids[m[1]] {
			n++
		}
	}
	return n
}
