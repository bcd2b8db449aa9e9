package render

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// openGroup opens group g in frame f.
func (r *renderer) openGroup(f *frame, g uint8) {
	switch g {
	case groupAbout:
		r.out = append(r.out, `<details class="rs-about"`...)
		if r.aboutOpen {
			r.out = append(r.out, ` open="open"`...)
		}
		r.out = append(r.out, `><summary class="rs-ui"`...)
		r.out = append(r.out, r.uiLang...)
		r.out = append(r.out, `>About this article</summary>`...)
	case groupRow:
		r.out = append(r.out, `<tr>`...)
	}
	f.group = g
}

// closeGroup closes the group open in frame f, if any.
func (r *renderer) closeGroup(f *frame) {
	switch f.group {
	case groupAbout:
		r.out = append(r.out, `</details>`...)
	case groupRow:
		r.out = append(r.out, `</tr>`...)
	}
	f.group = groupNone
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

// headings are the heading tags by level less one.
var headings = [...]string{"h1", "h2", "h3", "h4", "h5", "h6"}

// closeTags holds the end tag of every element writeOpen writes with simple.
var closeTags = map[string]string{}

func init() {
	for _, tag := range []string{"h1", "h2", "h3", "h4", "h5", "h6", "header", "div", "section", "p", "ul", "ol",
		"li", "tr", "td", "th", "b", "i", "u", "sub", "sup", "code", "span", "caption", "figure", "figcaption",
		"summary", "table"} {
		closeTags[tag] = "</" + tag + ">"
	}
}

// open writes element i's start tag(s) and pushes its frame. A wrapper
// writes nothing; its frame takes the white-space rules of its parent's.
func (r *renderer) open(i int) {
	in := r.info[i]
	var top frame
	if len(r.stack) > 0 {
		top = r.stack[len(r.stack)-1]
	}
	if in.kind == kWrapper {
		r.stack = append(r.stack, frame{el: i, structural: top.structural, flow: top.flow})
		return
	}
	if ep := int(r.eparent[i]); ep >= 0 {
		for j := len(r.stack) - 1; j >= 0; j-- {
			if f := &r.stack[j]; f.el == ep {
				if f.group != in.group {
					r.closeGroup(f)
					r.openGroup(f, in.group)
				}
				break
			}
		}
	}
	f := frame{el: i}
	r.writeOpen(&f, r.c, true)
	r.stack = append(r.stack, f)
	if f.link {
		r.linkDepth++
	}
	if e := &r.a.Elements[i]; in.kind == kCatItem && r.linkDepth == 0 && e.End > e.Start && r.b < len(r.a.Text) &&
		r.a.Text[r.b] == ':' && (e.Next == i+1 || r.a.Elements[i+1].Start > e.Start) {
		// the leading colon of a 2009 category (":Edible molluscs"), kept
		// on the page but not shown
		r.startTag("span", "rs-colon", r.c)
		r.out = append(r.out, '>')
		r.text(r.c + 1)
		r.out = append(r.out, "</span>"...)
	}
}

// plainTags are the kinds written as one start tag (with a class when not
// empty) and its end tag; flow and structural are their frame's
// white-space rules.
var plainTags = [kTplParam + 1]struct {
	tag, class       string
	flow, structural bool
}{
	kHeader:       {"header", "rs-head", true, false},
	kField:        {"div", "rs-field", false, false},
	kSubField:     {"span", "rs-sub", false, false},
	kCatItem:      {"li", "rs-cat", false, false},
	kBody:         {"div", "rs-body", true, false},
	kSection:      {"section", "", true, false},
	kList:         {"ul", "", false, true},
	kOList:        {"ol", "", false, true},
	kItem:         {"li", "", false, false},
	kRefList:      {"ol", "rs-refs", false, true},
	kRow:          {"tr", "", false, true},
	kCell:         {"td", "", false, false},
	kHeadCell:     {"th", "", false, false},
	kTableCaption: {"caption", "", false, false},
	kImage:        {"figure", "rs-img", false, false},
	kFigCaption:   {"figcaption", "", false, false},
	kIndent:       {"div", "rs-indent", false, false},
	kBold:         {"b", "", false, false},
	kItalic:       {"i", "", false, false},
	kUnder:        {"u", "", false, false},
	kSub:          {"sub", "", false, false},
	kSup:          {"sup", "", false, false},
	kCode:         {"code", "", false, false},
	kMath:         {"code", "rs-math", false, false},
	kCategory:     {"span", "rs-cat", false, false},
}

// writeOpen writes the start tag(s) of frame f's element at character off
// and sets the frame's end tag and white-space rules. first is false when
// the element is opened again after a split (splitLinks): then it gets no
// id and no label, and a link stays a link as it was.
func (r *renderer) writeOpen(f *frame, off int, first bool) {
	in := r.info[f.el]
	if plainTags[in.kind].tag != "" {
		r.writePlain(f, off, first)
		return
	}
	switch in.kind {
	case kRoot:
		f.flow = true
		class := "rs-doc"
		if r.flex {
			class = "rs-doc rs-flex"
		}
		r.startTag("article", class, 0)
		r.out = append(r.out, ` data-len="`...)
		r.out = strconv.AppendInt(r.out, int64(r.a.Len), 10)
		r.out = append(r.out, `" data-id="`...)
		r.out = appendAttr(r.out, r.a.ID)
		r.out = append(r.out, `">`...)
		f.close = "</article>"
	case kTitle:
		r.heading(f, off, 1)
	case kHeading:
		r.heading(f, off, min(max(int(in.level)+1, 2), 6))
	case kCategories:
		r.startTag("nav", "rs-cats", off)
		r.out = append(r.out, '>')
		if first {
			r.out = append(r.out, `<h2 class="rs-ui"`...)
			r.out = append(r.out, r.uiLang...)
			r.out = append(r.out, `>Categories</h2>`...)
		}
		r.out = append(r.out, `<ul>`...)
		f.close = "</ul></nav>"
		f.structural = true
	case kPara:
		if in.hasBlock {
			r.simple(f, "div", r.classOf(f.el, "rs-p"), off)
		} else {
			r.simple(f, "p", r.classOf(f.el, ""), off)
		}
	case kFootnote:
		r.openFootnote(f, off, first)
	case kTable:
		r.startTag("div", r.classOf(f.el, "rs-table"), off)
		r.out = append(r.out, "><table>"...)
		f.close = "</table></div>"
		f.structural = true
	case kTemplate:
		r.startTag("details", r.classOf(f.el, "rs-tpl"), off)
		if e := &r.a.Elements[f.el]; r.touched(e.Start, e.End) {
			r.out = append(r.out, ` open="open"`...)
		}
		r.out = append(r.out, '>')
		f.close = "</details>"
		f.flow = true
	case kTplName:
		r.simple(f, "summary", r.classOf(f.el, ""), off)
	case kTplParams:
		r.simple(f, "table", r.classOf(f.el, "rs-ib"), off)
		f.structural = true
	case kTplParam:
		r.openParam(f, off, first)
	case kBreak:
		r.startTag("br", "", off)
		r.out = append(r.out, "/>"...)
	case kRef:
		r.openRef(f, off, first)
	case kLink, kExtLink:
		r.openLink(f, off, first)
	default:
		if in.hasBlock {
			r.simple(f, "div", "", off)
			f.flow = true
		} else {
			r.simple(f, "span", "", off)
		}
	}
}

// openParam writes the start of a template parameter's row at character
// off: its label (the first time) and its value's cell.
func (r *renderer) openParam(f *frame, off int, first bool) {
	r.startTag("tr", r.classOf(f.el, r.ibClass(f.el)), off)
	r.out = append(r.out, `><th class="rs-ui"`...)
	r.out = append(r.out, r.uiLang...)
	r.out = append(r.out, '>')
	if first {
		r.out = appendText(r.out, r.ib[f.el].label)
	}
	r.out = append(r.out, `</th><td>`...)
	f.close = "</td></tr>"
}

// writePlain is writeOpen for the kinds of plainTags: one start tag, with
// its class (rs-long for a long cell, a list entry's level), a cell's
// spans, and a field's or an image's label the first time.
func (r *renderer) writePlain(f *frame, off int, first bool) {
	in := r.info[f.el]
	t := &plainTags[in.kind]
	class := r.classOf(f.el, t.class)
	if e := &r.a.Elements[f.el]; (in.kind == kCell || in.kind == kHeadCell) && e.End-e.Start > longCell &&
		utf8.RuneCountInString(strings.TrimSpace(r.a.Slice(e.Start, e.End))) > longCell {
		class = strings.TrimSpace(class + " rs-long")
	}
	if in.kind == kItem {
		class = strings.TrimSpace(class + " " + r.itemClass(f.el))
	}
	r.startTag(t.tag, class, off)
	if in.kind == kCell || in.kind == kHeadCell {
		r.cellSpans(f.el)
	}
	r.out = append(r.out, '>')
	f.close = closeTags[t.tag]
	f.flow, f.structural = t.flow, t.structural
	switch {
	case !first:
	case in.kind == kField, in.kind == kSubField:
		r.label(labels[in.label])
	case in.kind == kImage:
		r.label("Image")
	}
}

// maxSpan is the largest rowspan or colspan a cell keeps (a larger one, or
// one that is not 1 to 4 ASCII digits, is dropped: the cell spans one row
// or column).
const maxSpan = 1000

// cellSpans writes the rowspan and colspan of table cell i, as the article
// gives them, when they are numbers from 2 to maxSpan.
func (r *renderer) cellSpans(i int) {
	e := &r.a.Elements[i]
	for _, name := range [...]string{"rowspan", "colspan"} {
		v, ok := e.Attr(name)
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if n, err := strconv.Atoi(v); err == nil && len(v) <= 4 && isNumber(v) && n >= 2 && n <= maxSpan {
			r.out = append(r.out, ' ')
			r.out = append(r.out, name...)
			r.out = append(r.out, `="`...)
			r.out = strconv.AppendInt(r.out, int64(n), 10)
			r.out = append(r.out, '"')
		}
	}
}

// maxLevel is the deepest level of a list entry shown as such: deeper
// entries are indented as this level.
const maxLevel = 6

// itemClass returns the classes of list entry i from its level and type
// attributes (the collection writes a nested list as one list of entries
// with level="1"…"6", type="bullet" or "number"): rs-l2…rs-l6 for an entry
// nested below the first level, rs-num for a numbered one; "" for none.
func (r *renderer) itemClass(i int) string {
	e := &r.a.Elements[i]
	var c string
	if v, _ := e.Attr("level"); len(v) == 1 && v[0] >= '2' && v[0] <= '9' {
		c = "rs-l" + string(min(v[0], '0'+maxLevel))
	}
	if v, _ := e.Attr("type"); v == "number" {
		c = strings.TrimSpace(c + " rs-num")
	}
	return c
}

// longCell is the number of characters above which a table cell is long
// (class rs-long: at least 10em wide, so that a note is not squeezed to a
// few characters a line).
const longCell = 24

// classOf returns class, with rs-empty added when element i is an empty
// shell (emptyShell) and rs-navbox when it is a navigation box (navbox).
func (r *renderer) classOf(i int, class string) string {
	in := r.info[i]
	if in.empty {
		class += " rs-empty"
	}
	if in.navbox {
		class += " rs-navbox"
	}
	return strings.TrimPrefix(class, " ")
}

// simple writes a start tag (with class when not empty) at character off
// and sets the frame's end tag.
func (r *renderer) simple(f *frame, tag, class string, off int) {
	r.startTag(tag, class, off)
	r.out = append(r.out, '>')
	f.close = closeTags[tag]
}

// label writes the label of a header field or an image: the page's own
// words.
func (r *renderer) label(text string) {
	r.out = append(r.out, `<span class="rs-ui rs-label"`...)
	r.out = append(r.out, r.uiLang...)
	r.out = append(r.out, '>')
	r.out = append(r.out, text...)
	r.out = append(r.out, "</span>"...)
}

// heading writes a heading of the given level (1 to 6) at character off: an
// h1…h6, or a div with the heading role when it holds blocks.
func (r *renderer) heading(f *frame, off, level int) {
	if r.info[f.el].hasBlock {
		r.startTag("div", "rs-h", off)
		r.out = append(r.out, ` role="heading" aria-level="`...)
		r.out = strconv.AppendInt(r.out, int64(level), 10)
		r.out = append(r.out, `">`...)
		f.close = "</div>"
		return
	}
	r.simple(f, headings[level-1], "", off)
}

// openFootnote writes the start tag of a reflist entry at character off:
// an li with its number as value and, the first time and outside links, as
// the target of its marks.
func (r *renderer) openFootnote(f *frame, off int, first bool) {
	r.startTag("li", r.classOf(f.el, "rs-fn"), off)
	n := r.noteOf[f.el]
	target := n != "" && first && r.linkDepth == 0
	if target {
		r.out = append(r.out, ` id="rs-fn-`...)
		r.out = append(r.out, n...)
		r.out = append(r.out, `" popover="auto"`...)
	}
	if n != "" {
		r.out = append(r.out, ` value="`...)
		r.out = append(r.out, n...)
		r.out = append(r.out, '"')
	}
	r.out = append(r.out, '>')
	if target {
		// the drawer's close button, shown while the note is open
		r.out = append(r.out, `<button type="button" class="rs-ui rs-fn-x" popovertarget="rs-fn-`...)
		r.out = append(r.out, n...)
		r.out = append(r.out, `" popovertargetaction="hide" aria-label="Close the note"`...)
		r.out = append(r.out, r.uiLang...)
		r.out = append(r.out, `>×</button>`...)
	}
	f.close = "</li>"
}

// openRef writes the start tag of a footnote mark at character off: a
// button that opens its note in a drawer at the bottom of the screen (the
// note's list item is a popover: no script, and the page does not move)
// when the note is on the page and the mark is not in a link, else a sup.
// Either way its frame counts as a link: arrows follow the mark, never
// stand in it.
func (r *renderer) openRef(f *frame, off int, first bool) {
	n := r.noteOf[f.el]
	if first && (!r.notes[n] || r.linkDepth > 0) || !first && f.sup {
		r.simple(f, "sup", "rs-ref", off)
		f.link, f.sup = true, true // no arrows inside a mark either
		return
	}
	// the button generates no box of its own (CSS display:contents: a
	// button's box is an atomic inline, which a line may break before); the
	// sup inside it is the mark the reader sees and taps
	r.startTag("button", "rs-ref", off)
	r.out = append(r.out, ` type="button" popovertarget="rs-fn-`...)
	r.out = append(r.out, n...)
	r.out = append(r.out, `"><sup class="rs-mark">`...)
	f.close = "</sup></button>"
	f.link = true
}

// openLink writes the start tag of a link to an article (kLink) or an
// external link (kExtLink) at character off: an a, or a span when it has
// no target or is inside another link.
func (r *renderer) openLink(f *frame, off int, first bool) {
	i := f.el
	ext := r.info[i].kind == kExtLink
	var href, class string
	if first || f.link {
		if !ext {
			href = r.opt.ArticleURL(r.linkOf[i])
		} else {
			h, _ := r.a.Elements[i].Attr("href")
			href, class = httpURL(h), "rs-ext"
		}
	}
	if href == "" || first && r.linkDepth > 0 {
		r.simple(f, "span", r.classOf(i, "rs-link"), off)
		return
	}
	r.startTag("a", r.classOf(i, class), off)
	r.out = append(r.out, ` href="`...)
	r.out = appendAttr(r.out, href)
	if ext {
		r.out = append(r.out, `" rel="external nofollow noopener noreferrer`...)
	}
	r.out = append(r.out, `">`...)
	f.close = "</a>"
	f.link = true
}
