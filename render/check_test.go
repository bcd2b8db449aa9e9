package render

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"github.com/readsim/readsim/effort"
	"io"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/readsim/readsim/index/article"
)

const xhtmlNS = "http://www.w3.org/1999/xhtml"

// Elements and attributes the page may contain; anything else is a leak.
var (
	allowedElems = map[string]bool{
		"html": true, "head": true, "meta": true, "title": true, "link": true, "style": true, "script": true,
		"body": true, "input": true, "nav": true, "label": true, "article": true, "header": true,
		"section": true, "div": true, "span": true, "p": true, "h1": true, "h2": true, "h3": true,
		"h4": true, "h5": true, "h6": true, "ul": true, "ol": true, "li": true, "table": true,
		"tr": true, "td": true, "th": true, "br": true, "b": true, "i": true, "u": true, "sub": true,
		"sup": true, "code": true, "a": true, "mark": true, "details": true, "summary": true,
		"figure": true, "figcaption": true, "caption": true, "button": true,
	}
	allowedAttrs = map[string]bool{
		"lang": true, "xml:lang": true, "charset": true, "name": true, "content": true, "rel": true,
		"href": true, "src": true, "defer": true, "type": true, "id": true, "class": true,
		"checked": true, "aria-label": true, "for": true, "data-o": true, "data-len": true,
		"data-id": true, "role": true, "aria-level": true, "xmlns": true, "value": true, "open": true,
		"popover": true, "popovertarget": true, "popovertargetaction": true, "rowspan": true, "colspan": true,
	}
)

// pageFacts is what checkPage learns from a page.
type pageFacts struct {
	text    string         // the article text on the page (non-UI text inside .rs-doc)
	anchors map[string]int // id → data-o of the passage anchors
	navs    [][]string     // hrefs of each end-of-passage arrow group, in order
	topNav  []string       // hrefs of the top bar
	marked  []bool         // per character of text: inside a <mark>
	hasCSS  bool           // a <style> element
	order   []string       // "a1", "n1", "a2", … in document order
}

// checkPage re-parses page with encoding/xml and checks every rule of the
// package documentation that can be checked without a browser, against the
// article a and the passages ps (as given to Page). It returns what it found.
func checkPage(a *article.Article, ps []effort.Span, page []byte, opt Options) (*pageFacts, error) {
	d := xml.NewDecoder(bytes.NewReader(page))
	d.Strict = true
	f := &pageFacts{anchors: map[string]int{}}
	type open struct {
		name   string
		ui     bool
		inDoc  bool
		mark   bool
		script bool
		link   bool
	}
	var stack []open
	var text strings.Builder
	ids := map[string]bool{}
	var notes []string // targets of the footnote links
	chars := 0
	var navGroup *[]string
	navDepth, topDepth := -1, -1
	sawRoot, sawDoc := false, false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("not well-formed: %v", err)
		}
		var top open
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Space != xhtmlNS {
				return nil, fmt.Errorf("element %s outside the XHTML namespace (%q)", t.Name.Local, t.Name.Space)
			}
			if !sawRoot {
				if t.Name.Local != "html" {
					return nil, fmt.Errorf("root is %s", t.Name.Local)
				}
				sawRoot = true
			}
			if !allowedElems[t.Name.Local] {
				return nil, fmt.Errorf("element %s on the page", t.Name.Local)
			}
			o := open{name: t.Name.Local, ui: top.ui, inDoc: top.inDoc, mark: top.mark, link: top.link}
			attrs := map[string]string{}
			for _, at := range t.Attr {
				n := at.Name.Local
				if at.Name.Space == "xml" || at.Name.Space == "http://www.w3.org/XML/1998/namespace" {
					n = "xml:" + n
				}
				if !allowedAttrs[n] {
					return nil, fmt.Errorf("attribute %s on <%s>", n, t.Name.Local)
				}
				attrs[n] = at.Value
			}
			class := " " + attrs["class"] + " "
			if strings.Contains(class, " rs-doc ") {
				if sawDoc {
					return nil, fmt.Errorf("two .rs-doc")
				}
				sawDoc, o.inDoc = true, true
			}
			if strings.Contains(class, " rs-ui ") {
				o.ui = true
			}
			if t.Name.Local == "mark" {
				if o.mark || o.ui || !o.inDoc {
					return nil, fmt.Errorf("a mark inside a mark or outside the article text")
				}
				o.mark = true
			}
			if t.Name.Local == "style" {
				f.hasCSS = true
			}
			if t.Name.Local == "script" {
				if opt.ScriptURL == "" || attrs["src"] != opt.ScriptURL {
					return nil, fmt.Errorf("a script element")
				}
				o.script = true
			}
			if t.Name.Local == "a" || t.Name.Local == "button" {
				if top.link {
					return nil, fmt.Errorf("a link or a button inside a link")
				}
				o.link = true
			}
			if v, ok := attrs["popover"]; ok && (v != "auto" || t.Name.Local != "li" || !strings.HasPrefix(attrs["id"], "rs-fn-")) {
				return nil, fmt.Errorf("popover %q on <%s id=%q>: only a note of the reference list is one", v, t.Name.Local, attrs["id"])
			}
			if n, ok := attrs["popovertarget"]; ok {
				if t.Name.Local != "button" || !strings.HasPrefix(n, "rs-fn-") {
					return nil, fmt.Errorf("popovertarget %q on <%s>", n, t.Name.Local)
				}
				notes = append(notes, n)
			}
			for _, span := range []string{"rowspan", "colspan"} {
				if v, ok := attrs[span]; ok {
					if n, err := strconv.Atoi(v); err != nil || n < 2 || n > maxSpan || t.Name.Local != "td" && t.Name.Local != "th" {
						return nil, fmt.Errorf("%s=%q on <%s>", span, v, t.Name.Local)
					}
				}
			}
			if id, ok := attrs["id"]; ok {
				if ids[id] {
					return nil, fmt.Errorf("id %q twice", id)
				}
				ids[id] = true
			}
			if v, ok := attrs["data-o"]; ok {
				n, err := strconv.Atoi(v)
				if err != nil {
					return nil, fmt.Errorf("data-o=%q", v)
				}
				if !o.inDoc {
					return nil, fmt.Errorf("data-o outside the article")
				}
				if n != chars {
					return nil, fmt.Errorf("<%s data-o=%d> stands at character %d", t.Name.Local, n, chars)
				}
			}
			if href, ok := attrs["href"]; ok {
				if err := checkHref(href, t.Name.Local, a, opt); err != nil {
					return nil, err
				}
				if strings.HasPrefix(href, "#rs-fn-") {
					notes = append(notes, href[1:])
				}
			}
			if strings.Contains(class, " rs-pass ") {
				id := attrs["id"]
				if _, dup := f.anchors[id]; dup {
					return nil, fmt.Errorf("anchor %s twice", id)
				}
				f.anchors[id], _ = strconv.Atoi(attrs["data-o"])
				f.order = append(f.order, "a"+strings.TrimPrefix(id, "p"))
			}
			if strings.Contains(class, " rs-nav ") {
				f.navs = append(f.navs, nil)
				navGroup = &f.navs[len(f.navs)-1]
				navDepth = len(stack)
				f.order = append(f.order, "n"+strconv.Itoa(len(f.navs)))
			}
			if attrs["id"] == TopID {
				topDepth = len(stack)
			}
			if t.Name.Local == "a" && o.ui {
				if topDepth >= 0 {
					f.topNav = append(f.topNav, attrs["href"])
				} else if navGroup != nil {
					*navGroup = append(*navGroup, attrs["href"])
				} else {
					return nil, fmt.Errorf("a UI link outside the bars")
				}
			}
			stack = append(stack, o)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			if len(stack) == navDepth {
				navGroup, navDepth = nil, -1
			}
			if len(stack) == topDepth {
				topDepth = -1
			}
		case xml.CharData:
			if top.script && len(bytes.TrimSpace(t)) > 0 {
				return nil, fmt.Errorf("text inside a script")
			}
			if !top.inDoc || top.ui {
				continue
			}
			text.Write(t)
			n := utf8.RuneCount(t)
			for i := 0; i < n; i++ {
				f.marked = append(f.marked, top.mark)
			}
			chars += n
		case xml.ProcInst:
			if t.Target != "xml" {
				return nil, fmt.Errorf("processing instruction %s", t.Target)
			}
		case xml.Comment:
			return nil, fmt.Errorf("a comment on the page")
		}
	}
	if !sawDoc {
		return nil, fmt.Errorf("no .rs-doc")
	}
	for _, n := range notes {
		if !ids[n] {
			return nil, fmt.Errorf("a footnote link to #%s, which is not on the page", n)
		}
	}
	f.text = text.String()
	if want := xmlSafe(a.Text); f.text != want {
		return nil, fmt.Errorf("the text on the page differs from the article's:\n page: %.200q\n want: %.200q", f.text, want)
	}
	return f, checkPassages(a, ShownPassages(ps, a.Len), f, opt)
}

// checkPassages checks the anchors, arrows and marks against the passages.
func checkPassages(a *article.Article, ps []effort.Span, f *pageFacts, opt Options) error {
	results := opt.ResultsURL
	if results == "" {
		results = "./"
	}
	wantTop := []string{results}
	if len(ps) > 0 {
		wantTop = append(wantTop, "#p1")
	}
	if fmt.Sprint(f.topNav) != fmt.Sprint(wantTop) {
		return fmt.Errorf("top bar %v, want %v", f.topNav, wantTop)
	}
	if len(f.anchors) != len(ps) || len(f.navs) != len(ps) {
		return fmt.Errorf("%d anchors and %d arrow groups for %d passages", len(f.anchors), len(f.navs), len(ps))
	}
	var order []string
	for k := range ps {
		order = append(order, fmt.Sprintf("a%d", k+1), fmt.Sprintf("n%d", k+1))
		next := "#top"
		if k+1 < len(ps) {
			next = fmt.Sprintf("#p%d", k+2)
		}
		if want := fmt.Sprint([]string{results, next}); fmt.Sprint(f.navs[k]) != want {
			return fmt.Errorf("arrows after passage %d: %v, want %v", k+1, f.navs[k], want)
		}
		o, ok := f.anchors[fmt.Sprintf("p%d", k+1)]
		if !ok {
			return fmt.Errorf("no anchor p%d", k+1)
		}
		// the anchor is inside its passage: at its start, or later only
		// past white space
		if o < ps[k].Start || o >= ps[k].End || strings.TrimSpace(a.Slice(ps[k].Start, o)) != "" {
			return fmt.Errorf("anchor p%d at %d, outside its passage [%d,%d) or past its text", k+1, o, ps[k].Start, ps[k].End)
		}
	}
	if fmt.Sprint(f.order) != fmt.Sprint(order) {
		return fmt.Errorf("anchors and arrows in the order %v, want %v", f.order, order)
	}
	// every marked character is in a passage; every non-white character of a
	// passage is marked
	in := make([]bool, a.Len)
	for _, p := range ps {
		for c := p.Start; c < p.End; c++ {
			in[c] = true
		}
	}
	c := 0
	for _, r := range a.Text {
		if f.marked[c] && !in[c] {
			return fmt.Errorf("character %d (%q) is marked but in no passage", c, r)
		}
		if in[c] && !f.marked[c] && !strings.ContainsRune(" \t\n\r", r) {
			return fmt.Errorf("character %d (%q) is in a passage but not marked", c, r)
		}
		c++
	}
	return nil
}

// checkHref accepts the URLs a page may link to.
func checkHref(href, elem string, a *article.Article, opt Options) error {
	switch {
	case elem == "link" && href != "" && (href == opt.StylesheetURL || href == opt.IconURL):
		return nil
	case elem != "a":
		return fmt.Errorf("href on <%s>", elem)
	case href == "#top" || strings.HasPrefix(href, "#p") && isNumber(href[2:]):
		return nil
	case strings.HasPrefix(href, "#rs-fn-") && isNumber(href[len("#rs-fn-"):]):
		return nil // and the target is on the page: checkPage
	case href == opt.ResultsURL || opt.ResultsURL == "" && href == "./":
		return nil
	case strings.HasPrefix(href, "http://") || strings.HasPrefix(href, "https://"):
		return nil
	}
	for _, l := range a.Links {
		if opt.ArticleURL == nil && href == url.PathEscape(l.Target)+".xhtml" ||
			opt.ArticleURL != nil && href == opt.ArticleURL(l.Target) {
			return nil
		}
	}
	return fmt.Errorf("unexpected href %q", href)
}

// xmlSafe is what the page shows of text: characters XML cannot carry
// replaced by U+FFFD, one for one.
func xmlSafe(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		ok := r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xD7FF ||
			r >= 0xE000 && r <= 0xFFFD && !(r == utf8.RuneError && size == 1) || r >= 0x10000 && r <= 0x10FFFF
		if ok {
			b.WriteString(s[i : i+size])
		} else {
			b.WriteRune(utf8.RuneError)
		}
		i += size
	}
	return b.String()
}
