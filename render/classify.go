package render

import (
	"net/url"
	"sort"
	"strings"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/article/wikimarkup"
)

// kind is what an article element becomes on the page.
type kind uint8

const (
	kGeneric      kind = iota // <span> or, holding blocks, <div>
	kWrapper                  // a semantic wrapper: no element of its own
	kRoot                     // <article class="rs-doc">
	kHeader                   // the 2009 header: <header class="rs-head">
	kTitle                    // the article title: <h1>
	kField                    // a labelled header field: <div class="rs-field">
	kSubField                 // a labelled part of a field: <span class="rs-sub">
	kCategories               // the 2009 categories: <nav class="rs-cats">…<ul>
	kCatItem                  // a category of kCategories: <li class="rs-cat">
	kBody                     // bdy, body: <div class="rs-body">
	kSection                  // <section>
	kHeading                  // section title: <h2>…<h6>
	kPara                     // <p>, or <div class="rs-p"> holding blocks
	kList                     // <ul>
	kOList                    // <ol>
	kItem                     // <li>, in a list
	kRefList                  // reflist: <ol class="rs-refs">
	kFootnote                 // an entry of a reflist: <li class="rs-fn">
	kTable                    // <div class="rs-table"><table>
	kRow                      // <tr>, in a table
	kCell                     // <td>, in a row or a table
	kHeadCell                 // <th>, in a row or a table
	kTableCaption             // <caption>, in a table
	kImage                    // <figure class="rs-img">
	kFigCaption               // <figcaption>, in an image
	kIndent                   // <div class="rs-indent">
	kBreak                    // an empty br: <br/>
	kBold                     // <b>
	kItalic                   // <i>
	kUnder                    // <u>
	kSub                      // <sub>
	kSup                      // <sup>
	kCode                     // <code>
	kMath                     // <code class="rs-math">
	kCategory                 // a category outside kCategories: <span class="rs-cat">
	kRef                      // a footnote mark: <a class="rs-ref"> or <sup class="rs-ref">
	kLink                     // a link to an article: <a href=ArticleURL(id)>
	kExtLink                  // an http(s) link: <a class="rs-ext" href=…>
	kTemplate                 // a template (infobox): <details class="rs-tpl">
	kTplName                  // its name: <summary>
	kTplParams                // its parameters: <table class="rs-ib">
	kTplParam                 // a parameter: <tr><th>label</th><td>…</td></tr>
)

// blockKinds are the kinds that always become block elements.
var blockKinds = func() (b [kTplParam + 1]bool) {
	for _, k := range []kind{kRoot, kHeader, kTitle, kField, kCategories, kCatItem, kBody, kSection,
		kHeading, kPara, kList, kOList, kItem, kRefList, kFootnote, kTable, kRow, kCell, kHeadCell,
		kTableCaption, kImage, kFigCaption, kIndent, kTemplate, kTplName, kTplParams, kTplParam} {
		b[k] = true
	}
	return
}()

// isBlock reports whether k always becomes a block element.
func (k kind) isBlock() bool { return blockKinds[k] }

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
	"reflist": kRefList,
	"table":   kTable,
	"image":   kImage,
	"indent":  kIndent,
	"br":      kBreak,
	"b":       kBold, "bold": kBold, "strong": kBold, "emph3": kBold, "emph4": kBold, "emph5": kBold,
	"it": kItalic, "i": kItalic, "em": kItalic, "emph": kItalic, "emph2": kItalic,
	"u": kUnder, "sub": kSub, "sup": kSup, "tt": kCode, "code": kCode,
	"math":     kMath,
	"category": kCategory,
	"ref":      kRef,
}

// sectionLevel is the least level of the numbered sub-sections of the 2009
// collection: ss1 is a section's sub-section (h3), ss2 a sub-sub-section (h4).
var sectionLevel = map[string]uint8{"ss": 2, "subsection": 2, "ss1": 2, "ss2": 3, "ss3": 4, "ss4": 5, "ss5": 6}

// Labels of the header fields (English: the page's own words, marked
// lang="en" on pages in other languages).
const (
	labelNone uint8 = iota
	labelArticleID
	labelRevision
	labelEdited
	labelContributor
	labelUserID
	labelIP
	labelWarnings
)

// labels are the header fields' labels, by label number.
var labels = [...]string{"", "Article id", "Revision", "Last edited", "Contributor", "user id", "IP address", "Conversion warnings"}

// Synthetic groups: page elements around consecutive children of one
// element, standing for no article element.
const (
	groupNone  uint8 = iota
	groupAbout       // header metadata: <details class="rs-about">
	groupRow         // cells directly in a table: <tr>
)

// elemInfo is what classify decided about an element.
type elemInfo struct {
	kind     kind
	hasBlock bool  // some descendant becomes a block element
	level    uint8 // number of section ancestors (and self, for sections)
	label    uint8 // kField, kSubField: labels[label]
	empty    bool  // a shell with nothing to show (emptyShell): class rs-empty
	navbox   bool  // a navigation box (navbox): class rs-navbox, hidden
	group    uint8 // the synthetic group this element stands in
}

// classify decides what every element becomes.
func (r *renderer) classify() {
	els := r.a.Elements
	r.info = make([]elemInfo, len(els))
	r.eparent = make([]int32, len(els))
	if len(r.a.Links) > 0 {
		r.linkOf = make(map[int]string, len(r.a.Links))
		for _, l := range r.a.Links {
			r.linkOf[l.Elem] = l.Target
		}
	}
	cats := false
	for i := range els {
		e := &els[i]
		ep := -1
		if p := e.Parent; i > 0 && p >= 0 && p < i {
			ep = p
			if r.info[p].kind == kWrapper {
				ep = int(r.eparent[p])
			}
		}
		r.eparent[i] = int32(ep)
		if i > 0 && e.IsWrapper() {
			r.info[i] = elemInfo{kind: kWrapper}
			continue
		}
		k, label, group := r.kindOf(i, ep)
		if k == kGeneric || k >= kBold && k <= kCategory {
			k = r.linkKind(i, k)
		}
		var plevel uint8
		if ep >= 0 {
			plevel = r.info[ep].level
		}
		r.info[i] = elemInfo{kind: k, level: plevel, label: label, group: group}
		cats = cats || k == kCategories // the header is the root's
		if group == groupAbout && !r.aboutOpen && r.touched(e.Start, e.End) {
			r.aboutOpen = true
		}
		if k == kSection {
			lv := plevel + 1
			if lv < sectionLevel[e.Name] {
				lv = sectionLevel[e.Name]
			}
			r.info[i].level = lv
		}
		if k == kFootnote || k == kRef {
			r.note(i, k)
		}
	}
	r.markBlocks()
	for i := range els {
		if r.info[i].kind == kTplParams {
			r.infobox(i)
		}
	}
	r.flex = cats && r.rootHoldsBlocks()
	for i := len(els) - 1; i >= 0; i-- { // sub-sections first
		r.info[i].empty = r.emptyShell(i)
		r.info[i].navbox = r.navbox(i)
	}
}

// navboxClasses are the classes of the boxes Wikipedia's mobile site does
// not show (Minerva hides .navbox, .vertical-navbox and .nomobile): the
// navigation boxes at the end of an article, which the collection keeps
// as tables of those classes (<table class="navbox">).
var navboxClasses = map[string]bool{"navbox": true, "vertical-navbox": true, "nomobile": true}

// navbox reports whether element i is a navigation box with no passage in
// it: a table of one of navboxClasses, or a template named "Navbox…". CSS
// hides it (class rs-navbox); its characters stay on the page.
func (r *renderer) navbox(i int) bool {
	e := &r.a.Elements[i]
	switch r.info[i].kind {
	case kTable:
		c, _ := e.Attr("class")
		found := false
		for _, w := range strings.Fields(c) {
			found = found || navboxClasses[w]
		}
		if !found {
			return false
		}
	case kTemplate:
		if i+1 >= e.Next || r.info[i+1].kind != kTplName {
			return false
		}
		n := &r.a.Elements[i+1]
		if name := strings.ToLower(strings.TrimSpace(r.a.Slice(n.Start, n.End))); !strings.HasPrefix(name, "navbox") {
			return false
		}
	default:
		return false
	}
	return !r.touched(e.Start, e.End)
}

// kindOf decides what element i becomes, with its label and synthetic
// group, from its name and its nearest ancestor that is not a wrapper, ep
// (-1 for none); links aside (linkKind).
func (r *renderer) kindOf(i, ep int) (k kind, label, group uint8) {
	e := &r.a.Elements[i]
	if i == 0 {
		return kRoot, labelNone, groupNone
	}
	k, ok := byName[e.Name]
	if !ok {
		k = kGeneric
	}
	var pk kind = kGeneric
	pname := ""
	if ep >= 0 {
		pk, pname = r.info[ep].kind, r.a.Elements[ep].Name
	}
	if ep == 0 || pk == kHeader || pk == kCategories || pname == "revision" || pname == "contributor" {
		// the only parents headerKind knows: a cheap test first, since
		// every element comes here
		if hk, label, group, ok := r.headerKind(e, ep, pk, pname, k); ok {
			return hk, label, group
		}
	}
	switch {
	case e.Name == "template" && pk != kTemplate && pk != kTplParams:
		k = kTemplate
	case pk == kTemplate && e.Name == "name":
		k = kTplName
	case pk == kTemplate && e.Name == "parameters":
		k = kTplParams
	case pk == kTplParams:
		k = kTplParam
	case pk == kTable && (e.Name == "row" || e.Name == "tr"):
		k = kRow
	case pk == kTable && (e.Name == "header" || e.Name == "th"):
		k, group = kHeadCell, groupRow
	case pk == kTable && (e.Name == "col" || e.Name == "td"):
		k, group = kCell, groupRow
	case pk == kTable && e.Name == "caption":
		k = kTableCaption
	case pk == kRow && (e.Name == "header" || e.Name == "th"):
		k = kHeadCell
	case pk == kRow:
		k = kCell // any child of a row, so that rows hold only cells
	case pk == kImage && e.Name == "caption":
		k = kFigCaption
	case pk == kRefList && e.Name == "entry":
		k = kFootnote
	case (e.Name == "entry" || e.Name == "item" || e.Name == "li") && (pk == kList || pk == kOList):
		k = kItem
	case k == kHeading && e.Name == "title" && ep == 0:
		k = kTitle
	case k == kBreak && (e.End > e.Start || e.Next > i+1):
		k = kGeneric
	}
	return k, labelNone, group
}

// headerKind decides what the title, the 2009 header and its metadata and
// a 2006 article's conversion warnings become: ok is false for any other
// element. e's nearest ancestor that is not a wrapper is ep, of kind pk and
// name pname; k is e's kind by name alone.
func (r *renderer) headerKind(e *article.Element, ep int, pk kind, pname string, k kind) (_ kind, label, group uint8, ok bool) {
	switch {
	case ep == 0 && e.Name == "header":
		k = kHeader
	case ep == 0 && e.Name == "name", pk == kHeader && e.Name == "title":
		k = kTitle
	case ep == 0 && e.Name == "conversionwarning":
		k, label, group = kField, labelWarnings, groupAbout
	case pk == kHeader && e.Name == "categories":
		k = kCategories
	case pk == kHeader:
		k, group = kGeneric, groupAbout
		switch e.Name {
		case "id":
			k, label = kField, labelArticleID
		}
	case pk == kCategories && e.Name == "category":
		k = kCatItem
	case pname == "revision" && ep > 0 && r.eparent[ep] >= 0 && r.info[r.eparent[ep]].kind == kHeader:
		switch e.Name {
		case "id":
			k, label = kField, labelRevision
		case "timestamp":
			k, label = kField, labelEdited
		case "contributor":
			k, label = kField, labelContributor
		}
	case pname == "contributor" && r.info[ep].label == labelContributor:
		switch e.Name {
		case "id":
			k, label = kSubField, labelUserID
		case "ip":
			k, label = kSubField, labelIP
		}
	default:
		return k, labelNone, groupNone, false
	}
	return k, label, group, true
}

// linkKind returns what element i of kind k (generic or inline) becomes
// when it has an href: a link to an article of the collection (kLink), an
// external link (kExtLink), or still k.
func (r *renderer) linkKind(i int, k kind) kind {
	e := &r.a.Elements[i]
	href, ok := e.Attr("href")
	if !ok {
		return k
	}
	if _, ok := r.linkOf[i]; ok {
		return kLink
	}
	if httpURL(href) != "" && e.End > e.Start {
		return kExtLink
	}
	return k
}

// note records the footnote number of element i of kind k: the number of a
// reflist entry (the first entry of each number with some text is its
// target) or the one a footnote mark points to.
func (r *renderer) note(i int, k kind) {
	e := &r.a.Elements[i]
	switch k {
	case kFootnote:
		if r.blank(e.Start, e.End) {
			return // an empty entry is no target: its marks are plain text
		}
		if id, _ := e.Attr("id"); isNumber(id) && !r.notes[id] {
			if r.notes == nil {
				r.notes = map[string]bool{}
			}
			if r.noteOf == nil {
				r.noteOf = map[int]string{}
			}
			r.notes[id], r.noteOf[i] = true, id
		}
	case kRef:
		if href, _ := e.Attr("href"); href != "" {
			if n := refTarget(href); n != "" {
				if r.noteOf == nil {
					r.noteOf = map[int]string{}
				}
				r.noteOf[i] = n
			}
		}
	}
}

// markBlocks sets hasBlock on every element with a descendant that becomes
// a block element (through generic elements and wrappers that hold one).
func (r *renderer) markBlocks() {
	els := r.a.Elements
	for i := len(els) - 1; i > 0; i-- {
		p := els[i].Parent
		if p < 0 || p >= i {
			continue
		}
		if in := r.info[i]; in.kind.isBlock() || in.hasBlock && (in.kind == kGeneric || in.kind == kWrapper) {
			r.info[p].hasBlock = true
		}
	}
}

// rootHoldsBlocks reports whether the root holds only block elements and
// white space (through wrappers): then the page may order its blocks with
// CSS without changing how its text flows.
func (r *renderer) rootHoldsBlocks() bool {
	els := r.a.Elements
	prev := 0
	for i := 1; i < len(els); {
		e := &els[i]
		in := r.info[i]
		if in.kind == kWrapper {
			i++
			continue
		}
		if !in.kind.isBlock() && !(in.kind == kGeneric && in.hasBlock) || !isSpace(r.a.Slice(prev, e.Start)) {
			return false
		}
		prev = max(prev, e.End)
		i = e.Next
	}
	return isSpace(r.a.Slice(prev, r.a.Len))
}

// emptyShell reports whether element i is a shell with nothing to show
// and no passage wholly in it: a section with nothing but white space (and
// hidden markup) beside its heading and its empty sub-sections, an image
// with no caption, an empty list, list item, paragraph, reference list or
// entry, template parameter, or link (a link whose text is all hidden
// markup: a website left in a template's parameter). CSS hides it (class rs-empty); its
// characters stay on the page.
func (r *renderer) emptyShell(i int) bool {
	e := &r.a.Elements[i]
	switch r.info[i].kind {
	case kSection:
		// the text beside its own headings
		s := e.Start
		for j := i + 1; j < e.Next; j++ {
			if r.info[j].kind == kHeading && r.touched(r.a.Elements[j].Start, r.a.Elements[j].End) {
				return false // a passage in its heading: shown
			}
			if r.info[j].kind == kHeading && int(r.eparent[j]) == i || r.info[j].kind == kSection && r.info[j].empty {
				if !r.blank(s, r.a.Elements[j].Start) {
					return false
				}
				s = max(s, r.a.Elements[j].End)
				j = r.a.Elements[j].Next - 1
			}
		}
		if !r.blank(s, e.End) {
			return false
		}
	case kImage, kItem, kList, kOList, kPara, kTplParam, kRefList, kFootnote, kLink, kExtLink:
		if !r.blank(e.Start, e.End) {
			return false
		}
	default:
		return false
	}
	return !r.holds(e.Start, e.End)
}

// holds reports whether a passage lies wholly in [start, end): its anchor
// would stand there (a passage that goes on beyond has its anchor moved to
// its next text).
func (r *renderer) holds(start, end int) bool {
	k := sort.Search(len(r.ps), func(k int) bool { return r.ps[k].Start >= start })
	return k < len(r.ps) && r.ps[k].End <= end
}

// blank reports whether the characters [start, end) are white space or
// hidden markup only.
func (r *renderer) blank(start, end int) bool {
	k := sort.Search(len(r.mk), func(k int) bool { return r.mk[k].End > start })
	for c := start; c < end; {
		if k < len(r.mk) && r.mk[k].Start <= c && r.mk[k].Kind == wikimarkup.Hide {
			c = r.mk[k].End
			k++
			continue
		}
		stop := end
		if k < len(r.mk) && r.mk[k].Start < stop {
			stop = r.mk[k].Start
		}
		if stop > c {
			if !isSpace(r.a.Slice(c, stop)) {
				return false
			}
			c = stop
		} else {
			k++
		}
	}
	return true
}

// touched reports whether a passage has a character in [start, end).
func (r *renderer) touched(start, end int) bool {
	k := sort.Search(len(r.ps), func(k int) bool { return r.ps[k].End > start })
	return k < len(r.ps) && r.ps[k].Start < end
}

// isNumber reports whether s is 1 to 9 ASCII digits.
func isNumber(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// refTarget returns the footnote number a ref's href points to, as the 2009
// collection writes it: "#xpointer(//reflist/entry[@id=%2212%22])" → "12";
// "" when it points to nothing of that form.
func refTarget(href string) string {
	_, rest, ok := strings.Cut(href, "entry[@id=")
	if !ok {
		return ""
	}
	var q string
	switch {
	case strings.HasPrefix(rest, "%22"), strings.HasPrefix(rest, "%27"):
		q = rest[:3]
	case strings.HasPrefix(rest, `"`), strings.HasPrefix(rest, "'"):
		q = rest[:1]
	default:
		return ""
	}
	n, rest, ok := strings.Cut(rest[len(q):], q)
	if !ok || !strings.HasPrefix(rest, "]") || !isNumber(n) {
		return ""
	}
	return n
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
