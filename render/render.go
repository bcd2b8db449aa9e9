package render

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/readsim/readsim/index/article"
)

// Passage is a passage of an article: the characters [Start, End), INEX
// character offsets as in package article. A FOL passage offset:length is
// Passage{offset, offset+length}.
type Passage struct {
	Start, End int
}

// Options says how Page links the page to the rest of the prototype. The
// zero value gives a standalone page: embedded CSS, highlight on, links to
// other articles as "ID.xhtml" next to the page, ← to "./".
type Options struct {
	// ResultsURL is the target of the ← links (back to the result list),
	// e.g. "/search?q=lighthouse+lens". Empty means "./".
	ResultsURL string
	// ArticleURL gives the URL of another article of the collection from its
	// id; an empty result leaves the link as plain text. Nil means
	// url.PathEscape(id) + ".xhtml".
	ArticleURL func(id string) string
	// StylesheetURL, when not empty, is linked as the page's stylesheet (it
	// should serve CSS); when empty, CSS is embedded in a <style> element.
	StylesheetURL string
	// ScriptURL, when not empty, is loaded as an external script (deferred),
	// e.g. a URL that serves Script.
	ScriptURL string
	// NoHighlight starts the page with the passage highlight switched off.
	NoHighlight bool
	// Lang is the language of the article (lang and xml:lang). Empty means
	// "en", the language of the INEX Wikipedia collections.
	Lang string
}

// TopID is the id of the bar at the top of the page, the target of the ↑
// link after the last passage.
const TopID = "top"

// AnchorID returns the id of the anchor at the start of passage k (1-based,
// in the order of NormalizePassages): "p1", "p2", …
func AnchorID(k int) string { return "p" + strconv.Itoa(k) }

// NormalizePassages returns the passages Page shows for an article of n
// characters: clipped to [0, n], empty ones dropped, sorted by start, and
// overlapping ones merged into their union. Passages that only touch (one
// ends where the next starts) stay separate. The input is not modified.
func NormalizePassages(ps []Passage, n int) []Passage {
	out := make([]Passage, 0, len(ps))
	for _, p := range ps {
		p.Start = max(p.Start, 0)
		p.End = min(p.End, n)
		if p.End > p.Start {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Start != out[j].Start {
			return out[i].Start < out[j].Start
		}
		return out[i].End < out[j].End
	})
	k := 0
	for _, p := range out {
		if k > 0 && p.Start < out[k-1].End {
			out[k-1].End = max(out[k-1].End, p.End)
			continue
		}
		out[k] = p
		k++
	}
	return out[:k]
}

// Page writes the page of article a with the given passages (normalised with
// NormalizePassages) to w. It returns an error when a is not consistent (its
// elements' spans do not nest, Len is not the length of Text: an Article not
// made by package article) or when writing fails.
func Page(w io.Writer, a *article.Article, passages []Passage, opt Options) error {
	buf, err := AppendPage(nil, a, passages, opt)
	if err != nil {
		return err
	}
	_, err = w.Write(buf)
	return err
}

// AppendPage is Page appending the page to dst.
func AppendPage(dst []byte, a *article.Article, passages []Passage, opt Options) ([]byte, error) {
	if a == nil || len(a.Elements) == 0 {
		return dst, errors.New("render: an article with no root element")
	}
	if utf8.RuneCountInString(a.Text) != a.Len {
		return dst, fmt.Errorf("render: article %s: Len is %d but Text has %d characters", a.ID, a.Len, utf8.RuneCountInString(a.Text))
	}
	r := &renderer{
		a:     a,
		opt:   opt,
		out:   dst,
		ps:    NormalizePassages(passages, a.Len),
		ascii: len(a.Text) == a.Len,
	}
	if r.opt.ResultsURL == "" {
		r.opt.ResultsURL = "./"
	}
	if r.opt.ArticleURL == nil {
		r.opt.ArticleURL = func(id string) string { return url.PathEscape(id) + ".xhtml" }
	}
	if r.opt.Lang == "" {
		r.opt.Lang = "en"
	}
	// the page is about the text plus 40 bytes an element, the CSS and the
	// head: grow dst once
	if need := len(a.Text) + 48*len(a.Elements) + len(CSS) + 1024 + 256*len(r.ps); cap(dst)-len(dst) < need {
		r.out = make([]byte, len(dst), len(dst)+need)
		copy(r.out, dst)
	}
	r.events()
	r.classify()
	if err := r.page(); err != nil {
		return dst, err
	}
	return r.out, nil
}

// kind is what an article element becomes on the page.
type kind uint8

const (
	kGeneric  kind = iota // <span> or, holding blocks, <div>
	kRoot                 // <article class="rs-doc">
	kHeader               // the 2009 header: <header class="rs-head">
	kTitle                // the article title: <h1>
	kMeta                 // 2006 conversionwarning: <div class="rs-meta">
	kBody                 // bdy, body: <div class="rs-body">
	kSection              // <section>
	kHeading              // section title: <h2>…<h6>
	kPara                 // <p>, or <div class="rs-p"> holding blocks
	kList                 // <ul>
	kOList                // <ol>
	kItem                 // <li>, in a list
	kTable                // <div class="rs-table"><table>
	kRow                  // <tr>, in a table
	kCell                 // <td>, in a row
	kHeadCell             // <th>, in a row
	kBreak                // an empty br: <br/>
	kBold                 // <b>
	kItalic               // <i>
	kUnder                // <u>
	kSub                  // <sub>
	kSup                  // <sup>
	kCode                 // <code>
	kCategory             // <span class="rs-cat">
	kLink                 // a link to an article: <a href=ArticleURL(id)>
	kExtLink              // an http(s) link: <a class="rs-ext" href=…>
)

// isBlock reports whether k always becomes a block element.
func (k kind) isBlock() bool { return k >= kRoot && k <= kHeadCell }

// byName maps element names (both collections) to kinds that depend on the
// name alone.
var byName = map[string]kind{
	"bdy": kBody, "body": kBody,
	"sec": kSection, "section": kSection, "ss": kSection, "ss1": kSection, "ss2": kSection,
	"ss3": kSection, "ss4": kSection, "ss5": kSection, "subsection": kSection,
	"st": kHeading, "title": kHeading,
	"p":    kPara,
	"list": kList, "normallist": kList, "itemize": kList, "ul": kList,
	"numberlist": kOList, "enumerate": kOList, "ol": kOList,
	"table": kTable,
	"br":    kBreak,
	"b":     kBold, "bold": kBold, "strong": kBold, "emph3": kBold, "emph4": kBold, "emph5": kBold,
	"it": kItalic, "i": kItalic, "em": kItalic, "emph": kItalic, "emph2": kItalic,
	"u": kUnder, "sub": kSub, "sup": kSup, "tt": kCode, "code": kCode,
	"category": kCategory,
}

type elemInfo struct {
	kind     kind
	hasBlock bool  // some descendant becomes a block element
	level    uint8 // number of section ancestors (and self, for sections)
}

type eventKind uint8

const (
	evAnchor eventKind = iota // before the passage's first character
	evNav                     // after its last non-whitespace character
)

type event struct {
	kind eventKind
	k    int // 1-based passage number
	at   int // character offset
}

type frame struct {
	el         int
	close      string
	structural bool // ul, ol, table, tr: whitespace here is left alone
	flow       bool // a container of blocks: whitespace here is not marked
	link       bool
}

type renderer struct {
	a     *article.Article
	opt   Options
	out   []byte
	ps    []Passage
	ev    []event
	evi   int
	pi    int  // the first passage that does not end at or before the cursor
	c, b  int  // cursor: character and byte offset in a.Text
	ascii bool // characters and bytes coincide

	info      []elemInfo
	linkOf    map[int]string // element index → linked article id
	stack     []frame
	linkDepth int
}

// events lists the anchors and arrows of the passages in document order.
func (r *renderer) events() {
	r.ev = make([]event, 0, 2*len(r.ps))
	for i, p := range r.ps {
		nav := p.End
		text := r.a.Slice(p.Start, p.End)
		if t := strings.TrimRightFunc(text, unicode.IsSpace); t != "" {
			nav -= utf8.RuneCountInString(text[len(t):])
		}
		r.ev = append(r.ev, event{evAnchor, i + 1, p.Start}, event{evNav, i + 1, nav})
	}
}

// classify decides what every element becomes.
func (r *renderer) classify() {
	els := r.a.Elements
	r.info = make([]elemInfo, len(els))
	if len(r.a.Links) > 0 {
		r.linkOf = make(map[int]string, len(r.a.Links))
		for _, l := range r.a.Links {
			r.linkOf[l.Elem] = l.Target
		}
	}
	for i := range els {
		e := &els[i]
		k, ok := byName[e.Name]
		if !ok {
			k = kGeneric
		}
		var pk kind = kGeneric
		var plevel uint8
		if i == 0 {
			k = kRoot
		} else if p := e.Parent; p >= 0 && p < i {
			pk, plevel = r.info[p].kind, r.info[p].level
		}
		switch {
		case i == 0:
		case e.Depth == 1 && e.Name == "header":
			k = kHeader
		case e.Depth == 1 && e.Name == "name",
			e.Depth == 2 && e.Name == "title" && pk == kHeader:
			k = kTitle
		case e.Depth == 1 && e.Name == "conversionwarning":
			k = kMeta
		case pk == kTable && e.Name == "row", pk == kTable && e.Name == "tr":
			k = kRow
		case pk == kRow && e.Name == "header", pk == kRow && e.Name == "th":
			k = kHeadCell
		case pk == kRow:
			k = kCell // any child of a row, so that rows hold only cells
		case (e.Name == "entry" || e.Name == "item" || e.Name == "li") && (pk == kList || pk == kOList):
			k = kItem
		case k == kRow || k == kCell || k == kHeadCell || k == kItem:
			k = kGeneric
		case k == kBreak && (e.End > e.Start || e.Next > i+1):
			k = kGeneric
		}
		if _, ok := e.Attr("href"); ok && (k == kGeneric || k >= kBold) {
			if _, ok := r.linkOf[i]; ok {
				k = kLink
			} else if href, _ := e.Attr("href"); httpURL(href) != "" && e.End > e.Start {
				k = kExtLink
			}
		}
		r.info[i] = elemInfo{kind: k, level: plevel}
		if k == kSection {
			r.info[i].level++
		}
	}
	for i := len(els) - 1; i > 0; i-- {
		p := els[i].Parent
		if p < 0 || p >= i {
			continue
		}
		if in := r.info[i]; in.kind.isBlock() || in.hasBlock && in.kind == kGeneric {
			r.info[p].hasBlock = true
		}
	}
}

// httpURL returns href when it is an absolute http or https URL, else "".
func httpURL(href string) string {
	href = strings.TrimSpace(href)
	u, err := url.Parse(href)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return ""
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return href
	}
	return ""
}

func (r *renderer) page() error {
	a := r.a
	r.out = append(r.out, `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="`...)
	r.out = appendAttr(r.out, r.opt.Lang)
	r.out = append(r.out, `" xml:lang="`...)
	r.out = appendAttr(r.out, r.opt.Lang)
	r.out = append(r.out, `">
<head>
<meta charset="UTF-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<title>`...)
	title := a.Title
	if title == "" {
		title = a.ID
	}
	r.out = appendText(r.out, title)
	r.out = append(r.out, "</title>\n"...)
	if r.opt.StylesheetURL != "" {
		r.out = append(r.out, `<link rel="stylesheet" href="`...)
		r.out = appendAttr(r.out, r.opt.StylesheetURL)
		r.out = append(r.out, "\"/>\n"...)
	} else {
		r.out = append(r.out, "<style>"...)
		r.out = append(r.out, CSS...)
		r.out = append(r.out, "</style>\n"...)
	}
	if r.opt.ScriptURL != "" {
		r.out = append(r.out, `<script src="`...)
		r.out = appendAttr(r.out, r.opt.ScriptURL)
		r.out = append(r.out, "\" defer=\"defer\"></script>\n"...)
	}
	r.out = append(r.out, "</head>\n<body>\n<input type=\"checkbox\" id=\"rs-hl\" class=\"rs-ui\""...)
	if !r.opt.NoHighlight {
		r.out = append(r.out, ` checked="checked"`...)
	}
	r.out = append(r.out, `/>
<nav id="top" class="rs-ui rs-top" aria-label="Passages">`...)
	r.arrow("←", r.opt.ResultsURL, "Back to the results")
	if len(r.ps) > 0 {
		r.arrow("↓", "#"+AnchorID(1), "First passage")
	}
	r.out = append(r.out, `<label for="rs-hl" class="rs-switch">Highlight</label></nav>
`...)
	if err := r.body(); err != nil {
		return err
	}
	r.out = append(r.out, "\n</body>\n</html>\n"...)
	return nil
}

func (r *renderer) arrow(glyph, href, label string) {
	r.out = append(r.out, `<a class="rs-arrow" href="`...)
	r.out = appendAttr(r.out, href)
	r.out = append(r.out, `" aria-label="`...)
	r.out = append(r.out, label...)
	r.out = append(r.out, `">`...)
	r.out = append(r.out, glyph...)
	r.out = append(r.out, "</a>"...)
}

// body walks the elements in document order, writing text and tags.
func (r *renderer) body() error {
	els := r.a.Elements
	if els[0].Start != 0 || els[0].End != r.a.Len {
		return r.corrupt(0, "the root does not span the text")
	}
	r.stack = r.stack[:0]
	for i := range els {
		e := &els[i]
		for len(r.stack) > 0 && els[r.stack[len(r.stack)-1].el].Next <= i {
			r.closeTop()
		}
		parent := -1
		if len(r.stack) > 0 {
			parent = r.stack[len(r.stack)-1].el
		} else if i > 0 {
			return r.corrupt(i, "outside the root")
		}
		if e.Parent != parent || e.Start < r.c || e.End < e.Start || e.Next <= i || e.Next > len(els) ||
			parent >= 0 && (e.End > els[parent].End || e.Next > els[parent].Next) {
			return r.corrupt(i, "spans or indexes do not nest")
		}
		r.text(e.Start)
		r.open(i)
	}
	for len(r.stack) > 0 {
		r.closeTop()
	}
	return nil
}

func (r *renderer) corrupt(i int, what string) error {
	return fmt.Errorf("render: article %s: element %d (%s): %s", r.a.ID, i, r.a.XPath(i), what)
}

func (r *renderer) closeTop() {
	f := r.stack[len(r.stack)-1]
	r.text(r.a.Elements[f.el].End)
	r.stack = r.stack[:len(r.stack)-1]
	if f.el == 0 {
		// anchors and arrows still waiting for text (passages of white
		// space at the very end) go at the end of the article
		r.fire(true, true)
	}
	r.out = append(r.out, f.close...)
	if f.link {
		r.linkDepth--
		r.fire(false, false)
	}
}

// startTag writes "<tag" plus a class when not empty, and data-o.
func (r *renderer) startTag(tag, class string, off int) {
	r.out = append(r.out, '<')
	r.out = append(r.out, tag...)
	if class != "" {
		r.out = append(r.out, ` class="`...)
		r.out = append(r.out, class...)
		r.out = append(r.out, '"')
	}
	r.out = append(r.out, ` data-o="`...)
	r.out = strconv.AppendInt(r.out, int64(off), 10)
	r.out = append(r.out, '"')
}

var headings = [...]string{"h1", "h2", "h3", "h4", "h5", "h6"}

// closeTags holds the end tag of every element open writes with simple.
var closeTags = map[string]string{}

func init() {
	for _, tag := range []string{"h1", "h2", "h3", "h4", "h5", "h6", "header", "div", "section", "p", "ul", "ol",
		"li", "tr", "td", "th", "b", "i", "u", "sub", "sup", "code", "span"} {
		closeTags[tag] = "</" + tag + ">"
	}
}

// open writes element i's start tag(s) and pushes its frame.
func (r *renderer) open(i int) {
	e := &r.a.Elements[i]
	in := r.info[i]
	f := frame{el: i}
	simple := func(tag, class string) {
		r.startTag(tag, class, e.Start)
		r.out = append(r.out, '>')
		f.close = closeTags[tag]
	}
	heading := func(level int) {
		if in.hasBlock {
			r.startTag("div", "rs-h", e.Start)
			r.out = append(r.out, ` role="heading" aria-level="`...)
			r.out = strconv.AppendInt(r.out, int64(level), 10)
			r.out = append(r.out, `">`...)
			f.close = "</div>"
			return
		}
		simple(headings[level-1], "")
	}
	switch in.kind {
	case kRoot:
		f.flow = true
		r.startTag("article", "rs-doc", 0)
		r.out = append(r.out, ` data-len="`...)
		r.out = strconv.AppendInt(r.out, int64(r.a.Len), 10)
		r.out = append(r.out, `" data-id="`...)
		r.out = appendAttr(r.out, r.a.ID)
		r.out = append(r.out, `">`...)
		f.close = "</article>"
	case kHeader:
		simple("header", "rs-head")
		f.flow = true
	case kTitle:
		heading(1)
	case kMeta:
		simple("div", "rs-meta")
	case kBody:
		simple("div", "rs-body")
		f.flow = true
	case kSection:
		simple("section", "")
		f.flow = true
	case kHeading:
		heading(min(max(int(in.level)+1, 2), 6))
	case kPara:
		if in.hasBlock {
			simple("div", "rs-p")
		} else {
			simple("p", "")
		}
	case kList:
		simple("ul", "")
		f.structural = true
	case kOList:
		simple("ol", "")
		f.structural = true
	case kItem:
		simple("li", "")
	case kTable:
		r.startTag("div", "rs-table", e.Start)
		r.out = append(r.out, "><table>"...)
		f.close = "</table></div>"
		f.structural = true
	case kRow:
		simple("tr", "")
		f.structural = true
	case kCell:
		simple("td", "")
	case kHeadCell:
		simple("th", "")
	case kBreak:
		r.startTag("br", "", e.Start)
		r.out = append(r.out, "/>"...)
	case kBold:
		simple("b", "")
	case kItalic:
		simple("i", "")
	case kUnder:
		simple("u", "")
	case kSub:
		simple("sub", "")
	case kSup:
		simple("sup", "")
	case kCode:
		simple("code", "")
	case kCategory:
		simple("span", "rs-cat")
	case kLink, kExtLink:
		var href, class string
		if in.kind == kLink {
			href = r.opt.ArticleURL(r.linkOf[i])
		} else {
			h, _ := e.Attr("href")
			href, class = httpURL(h), "rs-ext"
		}
		if href == "" || r.linkDepth > 0 {
			simple("span", "rs-link")
			break
		}
		r.startTag("a", class, e.Start)
		r.out = append(r.out, ` href="`...)
		r.out = appendAttr(r.out, href)
		if in.kind == kExtLink {
			r.out = append(r.out, `" rel="external nofollow noopener noreferrer`...)
		}
		r.out = append(r.out, `">`...)
		f.close = "</a>"
		f.link = true
		r.linkDepth++
	default:
		if in.hasBlock {
			simple("div", "")
			f.flow = true
		} else {
			simple("span", "")
		}
	}
	r.stack = append(r.stack, f)
}

// advance moves the cursor to character c and returns the byte offset.
func (r *renderer) advance(c int) int {
	if r.ascii {
		return c
	}
	t := r.a.Text
	b, n := r.b, r.c
	for n < c && b < len(t) {
		if t[b] < utf8.RuneSelf {
			b++
		} else {
			_, size := utf8.DecodeRuneInString(t[b:])
			b += size
		}
		n++
	}
	return b
}

// text writes the article text from the cursor up to character end: marks
// around passage text, anchors and arrows where they fall.
func (r *renderer) text(end int) {
	if end <= r.c {
		return
	}
	var top frame
	if len(r.stack) > 0 {
		top = r.stack[len(r.stack)-1]
	}
	eb := r.advance(end)
	if (top.structural || top.flow) && isSpace(r.a.Text[r.b:eb]) {
		// white space between blocks, list items, rows or cells: no mark,
		// no anchor (it moves to the next text); arrows only in a flow.
		if top.flow {
			r.fire(false, false)
		}
		r.out = appendText(r.out, r.a.Text[r.b:eb])
		r.c, r.b = end, eb
		if top.flow {
			r.fire(false, false)
		}
		return
	}
	for r.c < end {
		r.fire(true, false)
		for r.pi < len(r.ps) && r.ps[r.pi].End <= r.c {
			r.pi++
		}
		next, in := end, false
		if r.pi < len(r.ps) {
			if p := r.ps[r.pi]; p.Start <= r.c {
				next, in = min(next, p.End), true
			} else {
				next = min(next, p.Start)
			}
		}
		if r.evi < len(r.ev) && r.ev[r.evi].at > r.c {
			next = min(next, r.ev[r.evi].at)
		}
		nb := eb
		if next < end {
			nb = r.advance(next)
		}
		if in {
			r.out = append(r.out, `<mark data-o="`...)
			r.out = strconv.AppendInt(r.out, int64(r.c), 10)
			r.out = append(r.out, `">`...)
			r.out = appendText(r.out, r.a.Text[r.b:nb])
			r.out = append(r.out, "</mark>"...)
		} else {
			r.out = appendText(r.out, r.a.Text[r.b:nb])
		}
		r.c, r.b = next, nb
	}
	r.fire(false, false)
}

// fire writes the events due at the cursor, in order, as far as the context
// allows: anchors only when a character follows in this context (or at the
// very end, force), arrows only outside links.
func (r *renderer) fire(anchors, force bool) {
	for r.evi < len(r.ev) {
		ev := r.ev[r.evi]
		if ev.at > r.c && !force {
			return
		}
		switch ev.kind {
		case evAnchor:
			if !anchors {
				return
			}
			r.out = append(r.out, `<span class="rs-ui rs-pass" id="`...)
			r.out = append(r.out, AnchorID(ev.k)...)
			r.out = append(r.out, `" data-o="`...)
			r.out = strconv.AppendInt(r.out, int64(r.c), 10)
			r.out = append(r.out, `"></span>`...)
		case evNav:
			if r.linkDepth > 0 && !force {
				return
			}
			r.out = append(r.out, `<span class="rs-ui rs-nav">`...)
			r.arrow("←", r.opt.ResultsURL, "Back to the results")
			if ev.k < len(r.ps) {
				r.arrow("↓", "#"+AnchorID(ev.k+1), "Next passage")
			} else {
				r.arrow("↑", "#"+TopID, "Back to the top of the article")
			}
			r.out = append(r.out, "</span>"...)
		}
		r.evi++
	}
}

// isSpace reports whether s is empty or all white space.
func isSpace(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}

// appendText appends s escaped as XML character data. Characters XML cannot
// carry (most C0 controls, U+FFFE, U+FFFF, invalid UTF-8 bytes) become
// U+FFFD, one for one; CR becomes &#13; so that it is not normalised away.
func appendText(dst []byte, s string) []byte { return appendEscaped(dst, s, false) }

// appendAttr appends s escaped for a double-quoted attribute value; tab and
// line ends are written as character references, which attribute-value
// normalisation keeps.
func appendAttr(dst []byte, s string) []byte { return appendEscaped(dst, s, true) }

func appendEscaped(dst []byte, s string, attr bool) []byte {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < utf8.RuneSelf && c != '<' && c != '>' && c != '&' && c != '"' {
			i++
			continue
		}
		var rep string
		size := 1
		switch {
		case c == '<':
			rep = "&lt;"
		case c == '>':
			rep = "&gt;"
		case c == '&':
			rep = "&amp;"
		case c == '"':
			if !attr {
				i++
				continue
			}
			rep = "&quot;"
		case c == '\r':
			rep = "&#13;"
		case c == '\n':
			if !attr {
				i++
				continue
			}
			rep = "&#10;"
		case c == '\t':
			if !attr {
				i++
				continue
			}
			rep = "&#9;"
		case c < 0x20:
			rep = "\uFFFD"
		default:
			var ru rune
			ru, size = utf8.DecodeRuneInString(s[i:])
			if (ru != utf8.RuneError || size > 1) && ru != 0xFFFE && ru != 0xFFFF {
				i += size
				continue
			}
			rep = "\uFFFD"
		}
		dst = append(dst, s[last:i]...)
		dst = append(dst, rep...)
		i += size
		last = i
	}
	return append(dst, s[last:]...)
}
