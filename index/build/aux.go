package build

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/article/wikimarkup"
)

// What an article's record and fields keep of its layout beyond the
// candidate elements: the footnote marks (left out of analysis and
// snippets), its auxiliary text (indexed in a field of its own, weighed
// less: docs/search.md, "Auxiliary text") and the places where a snippet
// separates two blocks (docs/search.md, "Snippets").

// footnoteMarks returns the spans (start, end pairs, in document order)
// of the article's footnote marks: the ref elements of the 2009
// collection, whose text is the note's number ("tubes.3 In res"). A
// reader sees a raised number; Wikipedia's search indexes none of them.
func footnoteMarks(a *article.Article) []int {
	var out []int
	for i := range a.Elements {
		e := &a.Elements[i]
		if e.Name == "ref" && e.End > e.Start {
			out = append(out, e.Start, e.End)
		}
	}
	return out
}

// auxHeadings are the headings of the sections that hold auxiliary text,
// as normHeading makes them: notes and references, bibliographies,
// further reading, links to other sites, "see also" lists, in the
// languages of the collections (English, Chinese in both scripts,
// Japanese, Korean).
var auxHeadings = func() map[string]bool {
	m := map[string]bool{}
	for _, h := range []string{
		// English
		"references", "reference", "notes", "footnotes", "notes and references",
		"references and notes", "sources", "citations", "bibliography",
		"further reading", "external links", "external link", "see also",
		"literature", "works cited", "notes and sources",
		// Chinese, both scripts
		"参考资料", "參考資料", "参考文献", "參考文獻", "参考", "參考", "参考来源", "參考來源",
		"外部链接", "外部連結", "外部連接", "外部链结", "注释", "註釋", "注解", "註解",
		"脚注", "腳註", "参见", "參見", "参看", "參看", "延伸阅读", "延伸閱讀",
		"相关条目", "相關條目", "来源", "來源", "资料来源", "資料來源", "引用",
		// Japanese
		"出典", "注釈", "外部リンク", "関連項目", "関連文献",
		// Korean
		"주석", "각주", "참고 문헌", "참고", "참고 자료", "외부 링크", "바깥 고리",
		"같이 보기", "함께 보기", "관련 항목", "참고 항목", "출처", "더 읽기",
	} {
		m[normHeading(h)] = true
	}
	return m
}()

// normHeading is a heading as auxHeadings keys it: lower case, without
// white space or punctuation.
func normHeading(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.IsPunct(r) {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// sections are the names of the sections of both collections.
var sections = map[string]bool{"sec": true, "section": true, "ss": true, "ss1": true, "ss2": true,
	"ss3": true, "ss4": true, "ss5": true, "subsection": true}

// auxiliary returns the spans (start, end pairs, in document order, not
// overlapping) of the article's auxiliary text: its reference lists
// (reflist) and the sections whose heading (st, or title in the 2006
// collection) is one of auxHeadings.
func auxiliary(a *article.Article) []int {
	var out []int
	add := func(e *article.Element) {
		if n := len(out); n > 0 && e.Start < out[n-1] {
			out[n-1] = max(out[n-1], e.End) // inside (or touching) the last
			return
		}
		out = append(out, e.Start, e.End)
	}
	for i := 0; i < len(a.Elements); {
		e := &a.Elements[i]
		if e.End > e.Start && (e.Name == "reflist" || sections[e.Name] && auxHeadings[normHeading(headingOf(a, i))]) {
			add(e)
			i = e.Next // its subtree is in the span
			continue
		}
		i++
	}
	return out
}

// headingOf returns the text of section i's heading: its first child
// (semantic wrappers looked through) when that is an st or a title.
func headingOf(a *article.Article, i int) string {
	for c := i + 1; c < a.Elements[i].Next; c++ {
		ce := &a.Elements[c]
		if ce.IsWrapper() {
			continue
		}
		if ce.Name == "st" || ce.Name == "title" {
			return a.Slice(ce.Start, ce.End)
		}
		return ""
	}
	return ""
}

// separated are the elements whose boundaries a snippet may mark with a
// separator (both collections): headings, paragraphs, sections, lists and
// their items, tables and their rows, images and captions, reference
// lists. A cell is any child of a row (separated checks the parent).
// Inline elements, footnote marks and formulas stand inside a sentence.
var separated = map[string]bool{
	"st": true, "title": true, "p": true, "indent": true, "bdy": true, "body": true,
	"list": true, "normallist": true, "numberlist": true, "definitionlist": true,
	"entry": true, "item": true, "li": true, "table": true, "row": true, "tr": true,
	"image": true, "caption": true, "reflist": true,
}

// snippetSeps returns the places (characters, increasing) where a snippet
// writes a separator: the boundaries of the separated elements and of the
// captions that wiki markup left in the text (captions: a page shows each
// on a line of its own), but those the text already separates (the
// shown text before them ends with sentence or clause punctuation) and
// all but the first of those with nothing shown between them. quiet are
// the spans the text does not show (start, end pairs), passed over.
func snippetSeps(a *article.Article, quiet []int, captions []wikimarkup.Range) []int {
	var bounds []int
	for _, c := range captions {
		bounds = append(bounds, c.Start, c.End)
	}
	for i := range a.Elements {
		e := &a.Elements[i]
		if e.IsWrapper() || e.End <= e.Start {
			continue
		}
		cell := e.Parent >= 0 && (a.Elements[e.Parent].Name == "row" || a.Elements[e.Parent].Name == "tr")
		if separated[e.Name] || sections[e.Name] || cell {
			bounds = append(bounds, e.Start, e.End)
		}
	}
	sort.Ints(bounds)
	var out []int
	last := -1
	for k, c := range bounds {
		if c <= 0 || c >= a.Len || (k > 0 && bounds[k-1] == c) {
			continue
		}
		p := lastShown(a, quiet, c)
		if p < 0 || p < last || endsClause(a, quiet, p) {
			continue
		}
		out = append(out, c)
		last = c
	}
	return out
}

// lastShown returns the offset of the last character before c that the
// text shows (not white space, not in a quiet span), or -1.
func lastShown(a *article.Article, quiet []int, c int) int {
	for p := c - 1; p >= 0; p-- {
		k := sort.Search(len(quiet)/2, func(k int) bool { return quiet[2*k+1] > p })
		if k < len(quiet)/2 && quiet[2*k] <= p {
			p = quiet[2*k] // the loop steps before the span
			continue
		}
		r, _ := utf8.DecodeRuneInString(a.Slice(p, p+1))
		if !unicode.IsSpace(r) {
			return p
		}
	}
	return -1
}

// closers are the closing quotes and brackets a sentence's punctuation
// may stand before.
const closers = "\"')]}»”’）」』】〕》〉"

// stops are the punctuation marks that end a sentence or a clause, and so
// separate what follows well enough.
const stops = ".!?;:,…。！？；：，、．"

// endsClause reports whether the shown text ending with the character p
// ends with a stop, closers passed over.
func endsClause(a *article.Article, quiet []int, p int) bool {
	for p >= 0 {
		r, _ := utf8.DecodeRuneInString(a.Slice(p, p+1))
		if strings.ContainsRune(stops, r) {
			return true
		}
		if !strings.ContainsRune(closers, r) {
			return false
		}
		p = lastShown(a, quiet, p)
	}
	return false
}
