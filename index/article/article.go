package article

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Attr is an attribute of an element, its name as written (prefix:local).
type Attr struct {
	Name  string
	Value string
}

// Element is one element of an article.
type Element struct {
	// Name is the element's name as written, with its prefix if any ("sec", "xlink:x").
	Name string
	// Pos is the element's position among its parent's children of the same
	// name, from 1: the [n] of its XPath step (Article.XPath).
	Pos int
	// Start and End delimit the element's text: characters [Start, End).
	Start, End int
	// Parent is the index of the parent element in Article.Elements, -1 for the root.
	Parent int
	// Depth is 0 for the root, 1 for its children, and so on.
	Depth int
	// Next is the index of the first element after this element's subtree:
	// Elements[i+1 : Next] are the descendants of element i.
	Next int
	// Attrs are the element's attributes in document order.
	Attrs []Attr
}

// Attr returns the value of the attribute whose name (with or without its
// prefix) is name, and whether it is present.
func (e *Element) Attr(name string) (string, bool) {
	for _, a := range e.Attrs {
		if a.Name == name {
			return a.Value, true
		}
	}
	for _, a := range e.Attrs {
		if i := strings.IndexByte(a.Name, ':'); i >= 0 && a.Name[i+1:] == name {
			return a.Value, true
		}
	}
	return "", false
}

// IsWrapper reports whether e is a semantic wrapper of the 2009 collection:
// the YAGO/WordNet elements (<person>, <country>, <sport>, hundreds of names,
// nested around any part of the text) that carry a wordnetid attribute. They
// have no layout meaning: the renderer shows their content as if they were
// not there, and browse never returns one.
func (e *Element) IsWrapper() bool {
	for _, a := range e.Attrs {
		if a.Name == "wordnetid" {
			return true
		}
	}
	return false
}

// maxWrapperNesting bounds the semantic wrappers LayoutParent looks through.
const maxWrapperNesting = 64

// LayoutParent returns the index of the nearest ancestor of element i that is
// not a semantic wrapper (IsWrapper), or -1 for the root: the parent element
// i has on a page. In the 2009 collection a wrapper may hold any part of an
// article, its header included (<article><sport …><header>…). Wrappers
// nested more than 64 deep are not looked through (-1).
func (a *Article) LayoutParent(i int) int {
	n := 0
	for p := a.Elements[i].Parent; p >= 0; p = a.Elements[p].Parent {
		if !a.Elements[p].IsWrapper() {
			return p
		}
		if n++; n > maxWrapperNesting {
			return -1
		}
	}
	return -1
}

// Link is a link from an article to another article of the collection.
type Link struct {
	// Target is the id of the linked article: the file name of its href
	// without ".xml", which Dir.Parse resolves to the collection's id of
	// that article when the file name is several articles' (resolveLink).
	Target string
	// Elem is the index of the link element in Article.Elements.
	Elem int
	// Start and End delimit the link's anchor text.
	Start, End int
}

// Article is a parsed article. Elements are in document order (pre-order), so
// their Start offsets never decrease.
type Article struct {
	// ID is the article id: the file name without ".xml" (IDFromPath), or
	// the qualified id a collection gives it (Dir.Parse, CollectionIDs).
	ID string
	// Title is the text of /article/header/title (2009 collection) or of
	// /article/name (2006 collection); empty when neither exists.
	Title string
	// HeaderID is the text of /article/header/id (2009 collection), which
	// should be ID; empty when there is none.
	HeaderID string
	// Lang is the article's language: the Reader's Lang, the language its
	// folder names (en/, ja/…: LangFolder), or detected from its prose
	// (DetectArticleLang): "en", "zh", "ja", "ko"…
	Lang string
	// Text is the article's text content, UTF-8 encoded.
	Text string
	// Len is the length of Text in characters: the article length of the judgments.
	Len int
	// Elements are all elements in document order; Elements[0] is the root.
	Elements []Element
	// Links are the links to other articles, in document order.
	Links []Link

	// byteAt[i] is the byte offset of character i*checkpointEvery; nil when
	// Text is ASCII (bytes and characters coincide).
	byteAt []int
}

const checkpointEvery = 64

// IDFromPath returns the article id of a file read on its own: its base
// name without ".xml" (in any case). In a collection, a file name several
// files have is qualified by the file's path (CollectionIDs).
func IDFromPath(path string) string {
	base := filepath.Base(path)
	if IsArticleFile(base) {
		base = base[:len(base)-len(".xml")]
	}
	return base
}

// index builds the byte-offset checkpoints after parsing.
func (a *Article) index() {
	ascii := true
	for i := 0; i < len(a.Text); i++ {
		if a.Text[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return
	}
	a.byteAt = make([]int, 0, a.Len/checkpointEvery+1)
	c := 0
	for b := range a.Text { // ranges over runes: b is each rune's byte offset
		if c%checkpointEvery == 0 {
			a.byteAt = append(a.byteAt, b)
		}
		c++
	}
}

// ByteOffset converts a character offset into a byte offset of Text. Offsets
// are clamped to [0, Len].
func (a *Article) ByteOffset(char int) int {
	if char <= 0 {
		return 0
	}
	if char >= a.Len {
		return len(a.Text)
	}
	if a.byteAt == nil {
		return char
	}
	b := a.byteAt[char/checkpointEvery]
	for n := char % checkpointEvery; n > 0; n-- {
		_, size := utf8.DecodeRuneInString(a.Text[b:])
		b += size
	}
	return b
}

// CharOffset converts a byte offset of Text into a character offset. A byte
// offset inside a multi-byte character maps to that character. Offsets are
// clamped to [0, len(Text)].
func (a *Article) CharOffset(b int) int {
	if b <= 0 {
		return 0
	}
	if b >= len(a.Text) {
		return a.Len
	}
	if a.byteAt == nil {
		return b
	}
	// the last checkpoint at or before b
	k := sort.Search(len(a.byteAt), func(i int) bool { return a.byteAt[i] > b }) - 1
	c, p := k*checkpointEvery, a.byteAt[k]
	for p < b {
		_, size := utf8.DecodeRuneInString(a.Text[p:])
		if p+size > b {
			break
		}
		p += size
		c++
	}
	return c
}

// Slice returns the text of characters [start, end), clamped to the article.
func (a *Article) Slice(start, end int) string {
	if end < start {
		end = start
	}
	return a.Text[a.ByteOffset(start):a.ByteOffset(end)]
}

// XPath returns the positional XPath of element i, e.g.
// /article[1]/bdy[1]/sec[2]/p[3]. It is built on demand (in time and memory
// proportional to the element's depth): no element keeps its path.
func (a *Article) XPath(i int) string {
	if i < 0 || i >= len(a.Elements) {
		return ""
	}
	steps := make([]int, 0, a.Elements[i].Depth+1)
	n := 0
	for k := i; k >= 0; k = a.Elements[k].Parent {
		steps = append(steps, k)
		n += len(a.Elements[k].Name) + 4
	}
	var b strings.Builder
	b.Grow(n)
	for j := len(steps) - 1; j >= 0; j-- {
		e := &a.Elements[steps[j]]
		b.WriteByte('/')
		b.WriteString(e.Name)
		b.WriteByte('[')
		b.WriteString(itoa(e.Pos))
		b.WriteByte(']')
	}
	return b.String()
}

// EachXPath calls fn for every element in document order with its XPath.
// The xpath slice is valid only during the call. It takes time proportional
// to the output and memory proportional to the deepest nesting.
func (a *Article) EachXPath(fn func(i int, xpath []byte)) {
	var buf []byte
	var ends []int // ends[d]: length of buf holding the path of the open element at depth d
	for i := range a.Elements {
		e := &a.Elements[i]
		if e.Depth < len(ends) {
			ends = ends[:e.Depth]
		}
		if e.Depth > 0 && len(ends) > 0 {
			buf = buf[:ends[len(ends)-1]]
		} else {
			buf = buf[:0]
		}
		buf = append(buf, '/')
		buf = append(buf, e.Name...)
		buf = append(buf, '[')
		buf = strconv.AppendInt(buf, int64(e.Pos), 10)
		buf = append(buf, ']')
		ends = append(ends, len(buf))
		fn(i, buf)
	}
}

// Lookup returns the index of the element with the given positional XPath.
// Steps without a position mean position 1 ("/article/bdy" is
// "/article[1]/bdy[1]"), and a trailing slash is ignored. It walks down from
// the root, one step at a time, over the children of each element.
func (a *Article) Lookup(xpath string) (int, bool) {
	x := NormalizeXPath(xpath)
	if x == "" || len(a.Elements) == 0 {
		return 0, false
	}
	cur := -1 // the element whose children the next step names; -1: the document
	for _, step := range strings.Split(x[1:], "/") {
		name, pos, ok := parseStep(step)
		if !ok {
			return 0, false
		}
		found := -1
		if cur < 0 {
			if a.Elements[0].Name == name && pos == 1 {
				found = 0
			}
		} else {
			for c := cur + 1; c < a.Elements[cur].Next; c = a.Elements[c].Next {
				if e := &a.Elements[c]; e.Name == name && e.Pos == pos {
					found = c
					break
				}
			}
		}
		if found < 0 {
			return 0, false
		}
		cur = found
	}
	return cur, true
}

// parseStep reads an XPath step "name[n]".
func parseStep(step string) (string, int, bool) {
	i := strings.IndexByte(step, '[')
	if i <= 0 || !strings.HasSuffix(step, "]") {
		return "", 0, false
	}
	n, err := strconv.Atoi(step[i+1 : len(step)-1])
	if err != nil || n < 1 {
		return "", 0, false
	}
	return step[:i], n, true
}

// NormalizeXPath writes a positional XPath with every step's position explicit
// ("/article/bdy/sec[2]" → "/article[1]/bdy[1]/sec[2]").
func NormalizeXPath(xpath string) string {
	xpath = strings.TrimSpace(xpath)
	xpath = strings.TrimRight(xpath, "/")
	if xpath == "" {
		return ""
	}
	steps := strings.Split(strings.TrimPrefix(xpath, "/"), "/")
	var b strings.Builder
	for _, s := range steps {
		b.WriteByte('/')
		b.WriteString(s)
		if !strings.HasSuffix(s, "]") {
			b.WriteString("[1]")
		}
	}
	return b.String()
}

// Span returns the [start,end) span of the element with the given XPath.
func (a *Article) Span(xpath string) (start, end int, err error) {
	i, ok := a.Lookup(xpath)
	if !ok {
		return 0, 0, fmt.Errorf("article %s: no element %s", a.ID, xpath)
	}
	return a.Elements[i].Start, a.Elements[i].End, nil
}

// Containing returns the indexes of the elements whose span contains the
// character at offset off, outermost (the root) first. Empty elements contain
// nothing.
func (a *Article) Containing(off int) []int {
	i := a.deepest(off)
	if i < 0 {
		return nil
	}
	out := make([]int, a.Elements[i].Depth+1)
	for k := len(out) - 1; i >= 0; k, i = k-1, a.Elements[i].Parent {
		out[k] = i
	}
	return out
}

// deepest returns the index of the deepest element containing off, or -1.
func (a *Article) deepest(off int) int {
	els := a.Elements
	if off < 0 || len(els) == 0 {
		return -1
	}
	// The last element starting at or before off is the deepest element that
	// contains off, or a descendant of it: every element after that one's
	// subtree starts at or after its end.
	i := sort.Search(len(els), func(i int) bool { return els[i].Start > off }) - 1
	for i >= 0 && !(els[i].Start <= off && off < els[i].End) {
		i = els[i].Parent
	}
	return i
}

// Smallest returns the index of the smallest (deepest) element whose span
// contains [start,end), or -1 when none does (an empty or out-of-range span).
func (a *Article) Smallest(start, end int) int {
	if end <= start {
		return -1
	}
	i := a.deepest(start)
	for i >= 0 && a.Elements[i].End < end {
		i = a.Elements[i].Parent
	}
	return i
}

// Largest returns the largest elements lying entirely inside [start,end): the
// non-empty elements inside the span whose parent is not inside it, in
// document order. They do not overlap.
func (a *Article) Largest(start, end int) []int {
	var out []int
	els := a.Elements
	i := sort.Search(len(els), func(i int) bool { return els[i].Start >= start })
	for i < len(els) && els[i].Start < end {
		e := &els[i]
		if e.End <= end && e.End > e.Start {
			out = append(out, i)
			i = e.Next
			continue
		}
		i++
	}
	return out
}

// Leaves returns the leaf elements (elements with no child elements) lying
// entirely inside [start,end) and containing at least one character, in
// document order.
func (a *Article) Leaves(start, end int) []int {
	var out []int
	els := a.Elements
	i := sort.Search(len(els), func(i int) bool { return els[i].Start >= start })
	for ; i < len(els) && els[i].Start < end; i++ {
		e := &els[i]
		if e.Next == i+1 && e.End <= end && e.End > e.Start {
			out = append(out, i)
		}
	}
	return out
}

// linkTarget returns the article id an href points to ("../../123.xml" →
// "123"), or "" when it is not a link into the collection.
func linkTarget(href string) string {
	if !strings.HasSuffix(href, ".xml") || strings.Contains(href, "://") {
		return ""
	}
	id := IDFromPath(strings.ReplaceAll(href, "\\", "/"))
	if id == "" || id == "." || id == ".." {
		return ""
	}
	return id
}

// itoa is strconv.Itoa, named for brevity in the hot path.
func itoa(n int) string { return strconv.Itoa(n) }
