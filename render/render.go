package render

import (
	"errors"
	"fmt"
	"github.com/readsim/readsim/effort"
	"io"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/article/wikimarkup"
)

// Options says how Page links the page to the rest of the prototype. The
// zero value gives a standalone page: embedded CSS, highlight on, links to
// other articles as "ID.xhtml" next to the page, ← to "./".
type Options struct {
	// ResultsURL is the target of the ← links (back to the result list),
	// e.g. "/search?q=lighthouse+lens". Empty means "./".
	ResultsURL string
	// ResultsLabel names where the ← links lead, for screen readers (their
	// aria-label). Empty means "Back to the results".
	ResultsLabel string
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
	// IconURL, when not empty, is linked as the page's icon (rel="icon").
	IconURL string
	// NoHighlight starts the page with the passage highlight switched off.
	NoHighlight bool
	// Lang is the language of the page (lang and xml:lang on <html>), which
	// lets a phone pick the right glyphs for Han characters. Empty means the
	// article's Lang, or "en" (the INEX collections' language) when that is
	// empty too.
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
func NormalizePassages(ps []effort.Span, n int) []effort.Span {
	out := make([]effort.Span, 0, len(ps))
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
func Page(w io.Writer, a *article.Article, passages []effort.Span, opt Options) error {
	buf, err := AppendPage(nil, a, passages, opt)
	if err != nil {
		return err
	}
	_, err = w.Write(buf)
	return err
}

// AppendPage is Page appending the page to dst.
func AppendPage(dst []byte, a *article.Article, passages []effort.Span, opt Options) ([]byte, error) {
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
	if r.opt.ResultsLabel == "" {
		r.opt.ResultsLabel = "Back to the results"
	}
	if r.opt.ArticleURL == nil {
		r.opt.ArticleURL = func(id string) string { return url.PathEscape(id) + ".xhtml" }
	}
	if r.opt.Lang == "" {
		r.opt.Lang = a.Lang
	}
	if r.opt.Lang == "" {
		r.opt.Lang = "en"
	}
	if l := strings.ToLower(r.opt.Lang); l != "en" && !strings.HasPrefix(l, "en-") {
		r.uiLang = ` lang="en"`
	}
	// the page is about the text plus 40 bytes an element, the CSS and the
	// head: grow dst once
	if need := len(a.Text) + 48*len(a.Elements) + len(CSS) + 1024 + 256*len(r.ps); cap(dst)-len(dst) < need {
		r.out = make([]byte, len(dst), len(dst)+need)
		copy(r.out, dst)
	}
	r.events()
	mk := wikimarkup.Find(a)
	r.mk, r.caps = wikimarkup.Uncaptioned(mk), wikimarkup.Captions(mk)
	r.classify()
	if err := r.page(); err != nil {
		return dst, err
	}
	return r.out, nil
}

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

var labels = [...]string{"", "Article id", "Revision", "Last edited", "Contributor", "user id", "IP address", "Conversion warnings"}

// Synthetic groups: page elements around consecutive children of one
// element, standing for no article element.
const (
	groupNone  uint8 = iota
	groupAbout       // header metadata: <details class="rs-about">
	groupRow         // cells directly in a table: <tr>
)

type elemInfo struct {
	kind     kind
	hasBlock bool  // some descendant becomes a block element
	level    uint8 // number of section ancestors (and self, for sections)
	label    uint8 // kField, kSubField: labels[label]
	empty    bool  // a shell with nothing to show (emptyShell): class rs-empty
	group    uint8 // the synthetic group this element stands in
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
	structural bool  // ul, ol, table, tr: whitespace here is left alone
	flow       bool  // a container of blocks: whitespace here is not marked
	link       bool  // an <a>, or a footnote mark: no arrows inside
	sup        bool  // a footnote mark written as a sup (not a link)
	group      uint8 // the synthetic group open in this element
}

type renderer struct {
	a     *article.Article
	opt   Options
	out   []byte
	ps    []effort.Span
	ev    []event
	evi   int
	pi    int  // the first passage that does not end at or before the cursor
	c, b  int  // cursor: character and byte offset in a.Text
	ascii bool // characters and bytes coincide

	info      []elemInfo
	eparent   []int32         // the nearest ancestor that is not a wrapper (-1 for the root)
	linkOf    map[int]string  // element index → linked article id
	noteOf    map[int]string  // kFootnote, kRef element index → footnote number
	notes     map[string]bool // footnote numbers that have a target on the page
	flex      bool            // the categories go to the end of the page (CSS order)
	aboutOpen bool            // a passage is in the header metadata: unfold it
	uiLang    string          // ` lang="en"` on the page's own words, when the article is not English
	stack     []frame
	linkDepth int
	mk        []wikimarkup.Range // leftover wiki markup (wikimarkup.Find)
	mi        int                // the first of mk that does not end at or before the cursor
	caps      []wikimarkup.Range // the captions of image links left as text (they may hold mk's ranges)
	ci        int                // the first of caps that does not end at or before the cursor
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
	r.flex = cats && r.rootHoldsBlocks()
	for i := len(els) - 1; i >= 0; i-- { // sub-sections first
		r.info[i].empty = r.emptyShell(i)
	}
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
// entry, or template parameter. CSS hides it (class rs-empty); its
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
	case kImage, kItem, kList, kOList, kPara, kTplParam, kRefList, kFootnote:
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

// title is the page's <title>: the article's title, else the text of its
// title element (a 2009 article whose header stands inside a wrapper), else
// its id.
func (r *renderer) title() string {
	if r.a.Title != "" {
		return r.a.Title
	}
	for i, in := range r.info {
		if in.kind == kTitle {
			e := &r.a.Elements[i]
			if t := strings.Join(strings.Fields(r.a.Slice(e.Start, e.End)), " "); t != "" {
				return t
			}
			break
		}
	}
	return r.a.ID
}

func (r *renderer) page() error {
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
	r.out = appendText(r.out, r.title())
	r.out = append(r.out, "</title>\n"...)
	if r.opt.IconURL != "" {
		r.out = append(r.out, `<link rel="icon" href="`...)
		r.out = appendAttr(r.out, r.opt.IconURL)
		r.out = append(r.out, "\"/>\n"...)
	}
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
<nav id="top" class="rs-ui rs-top" aria-label="Passages"`...)
	r.out = append(r.out, r.uiLang...)
	r.out = append(r.out, '>')
	r.arrow("←", r.opt.ResultsURL, r.opt.ResultsLabel)
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
	r.out = appendAttr(r.out, label)
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
	r.closeGroup(&f)
	r.out = append(r.out, f.close...)
	if f.link {
		r.linkDepth--
		r.fire(false, false)
	}
}

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
	if t := &plainTags[in.kind]; t.tag != "" {
		class := r.classOf(f.el, t.class)
		if e := &r.a.Elements[f.el]; (in.kind == kCell || in.kind == kHeadCell) && e.End-e.Start > longCell &&
			utf8.RuneCountInString(strings.TrimSpace(r.a.Slice(e.Start, e.End))) > longCell {
			class = strings.TrimSpace(class + " rs-long")
		}
		r.simple(f, t.tag, class, off)
		f.flow, f.structural = t.flow, t.structural
		switch {
		case !first:
		case in.kind == kField, in.kind == kSubField:
			r.label(labels[in.label])
		case in.kind == kImage:
			r.label("Image")
		}
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
		r.startTag("div", "rs-table", off)
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
		r.startTag("tr", r.classOf(f.el, ""), off)
		r.out = append(r.out, `><th class="rs-ui">`...)
		if first {
			r.out = appendText(r.out, strings.ReplaceAll(r.a.Elements[f.el].Name, "_", " "))
		}
		r.out = append(r.out, `</th><td>`...)
		f.close = "</td></tr>"
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

// longCell is the number of characters above which a table cell is long
// (class rs-long: at least 10em wide, so that a note is not squeezed to a
// few characters a line).
const longCell = 24

// classOf returns class, with rs-empty added when element i is an empty
// shell (emptyShell).
func (r *renderer) classOf(i int, class string) string {
	switch {
	case !r.info[i].empty:
		return class
	case class == "":
		return "rs-empty"
	}
	return class + " rs-empty"
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
	if n := r.noteOf[f.el]; n != "" {
		if first && r.linkDepth == 0 {
			r.out = append(r.out, ` id="rs-fn-`...)
			r.out = append(r.out, n...)
			r.out = append(r.out, '"')
		}
		r.out = append(r.out, ` value="`...)
		r.out = append(r.out, n...)
		r.out = append(r.out, '"')
	}
	r.out = append(r.out, '>')
	f.close = "</li>"
}

// openRef writes the start tag of a footnote mark at character off: a link
// to its footnote when the footnote is on the page and the mark is not in
// a link, else a sup. Either way its frame counts as a link: arrows follow
// the mark, never stand in it.
func (r *renderer) openRef(f *frame, off int, first bool) {
	n := r.noteOf[f.el]
	if first && (!r.notes[n] || r.linkDepth > 0) || !first && f.sup {
		r.simple(f, "sup", "rs-ref", off)
		f.link, f.sup = true, true // no arrows inside a mark either
		return
	}
	r.startTag("a", "rs-ref", off)
	r.out = append(r.out, ` href="#rs-fn-`...)
	r.out = append(r.out, n...)
	r.out = append(r.out, `">`...)
	f.close = "</a>"
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
		r.simple(f, "span", "rs-link", off)
		return
	}
	r.startTag("a", class, off)
	r.out = append(r.out, ` href="`...)
	r.out = appendAttr(r.out, href)
	if ext {
		r.out = append(r.out, `" rel="external nofollow noopener noreferrer`...)
	}
	r.out = append(r.out, `">`...)
	f.close = "</a>"
	f.link = true
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
		// no anchor (it moves to the next text) unless its passage ends
		// here; arrows only in a flow.
		if top.flow {
			r.fire(false, false)
		}
		r.spaceAnchors(end)
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
		m := rangeAt(r.mk, &r.mi, r.c, &next)
		cp := rangeAt(r.caps, &r.ci, r.c, &next)
		nb := eb
		if next < end {
			nb = r.advance(next)
		}
		closeCaption := r.openCaption(cp)
		closeMarkup := r.openMarkup(m)
		if in {
			r.out = append(r.out, `<mark data-o="`...)
			r.out = strconv.AppendInt(r.out, int64(r.c), 10)
			r.out = append(r.out, `">`...)
			r.out = appendText(r.out, r.a.Text[r.b:nb])
			r.out = append(r.out, "</mark>"...)
		} else {
			r.out = appendText(r.out, r.a.Text[r.b:nb])
		}
		r.out = append(r.out, closeMarkup...)
		r.out = append(r.out, closeCaption...)
		if cp != nil && next == cp.End {
			r.out = append(r.out, `<br class="rs-ui"/>`...)
		}
		r.c, r.b = next, nb
	}
	r.fire(false, false)
}

// rangeAt returns the range of rs (sorted, disjoint) that holds character
// c, or nil; *i is the first range that does not end at or before c, moved
// on; *next is lowered to the end of that range, or to the start of the
// next one, so that a chunk of text from c to *next is wholly in or out of
// a range.
func rangeAt(rs []wikimarkup.Range, i *int, c int, next *int) *wikimarkup.Range {
	for *i < len(rs) && rs[*i].End <= c {
		*i++
	}
	if *i == len(rs) {
		return nil
	}
	if m := &rs[*i]; m.Start <= c {
		*next = min(*next, m.End)
		return m
	}
	*next = min(*next, rs[*i].Start)
	return nil
}

// openMarkup writes the start of the text from the cursor on that falls in
// the leftover-markup range m (nil for none) and returns its end tag: hidden
// text in a span.rs-x (CSS hides it), a doubly escaped entity as its
// character (page text, class rs-ui) followed by the hidden reference,
// emphasis as i or b.
func (r *renderer) openMarkup(m *wikimarkup.Range) string {
	if m == nil {
		return ""
	}
	tag, class, close := "span", "rs-x", "</span>"
	switch m.Kind {
	case wikimarkup.Replace:
		if r.c == m.Start {
			r.out = append(r.out, `<span class="rs-ui rs-rep">`...)
			r.out = appendText(r.out, m.Text)
			r.out = append(r.out, `</span>`...)
		}
	case wikimarkup.Italic:
		tag, class, close = "i", "rs-em", "</i>"
	case wikimarkup.Bold:
		tag, class, close = "b", "rs-em", "</b>"
	}
	r.startTag(tag, class, r.c)
	r.out = append(r.out, '>')
	return close
}

// openCaption writes the start of the text from the cursor on that falls
// in the caption of an image link left as text, c (nil for none), and
// returns its end tag: a span.rs-wcap, on a line of its own (a br before
// it when text of its element precedes it on its line; the caller writes
// one after it), labelled "Image" as an image element is.
func (r *renderer) openCaption(c *wikimarkup.Range) string {
	if c == nil {
		return ""
	}
	if r.c == c.Start {
		if r.textBefore(c.Start) {
			r.out = append(r.out, `<br class="rs-ui"/>`...)
		}
		r.out = append(r.out, `<span class="rs-ui rs-wlabel"`...)
		r.out = append(r.out, r.uiLang...)
		r.out = append(r.out, `>Image</span>`...)
	}
	r.startTag("span", "rs-wcap", r.c)
	r.out = append(r.out, '>')
	return "</span>"
}

// textBefore reports whether text other than white space and hidden
// markup stands before character c on its line within the innermost open
// element.
func (r *renderer) textBefore(c int) bool {
	start := 0
	if n := len(r.stack); n > 0 {
		start = r.a.Elements[r.stack[n-1].el].Start
	}
	k := r.mi
	for i := c - 1; i >= start; i-- {
		for k > 0 && r.mk[k-1].End > i {
			k--
		}
		if k < len(r.mk) && r.mk[k].Start <= i && i < r.mk[k].End && r.mk[k].Kind == wikimarkup.Hide {
			i = r.mk[k].Start
			continue
		}
		ch := r.a.Slice(i, i+1)
		if ch == "\n" {
			return false
		}
		if !isSpace(ch) {
			return true
		}
	}
	return false
}

// spaceAnchors places, in the white space from the cursor to character end
// (between blocks, items, rows or cells, where anchors otherwise wait for
// the next text), the anchors of the passages that end within it: their
// next text would be past their end. Each goes at its passage's start, or at
// the cursor when the passage started earlier, so that it lands inside its
// passage; the arrows of the passage before go first, as always.
func (r *renderer) spaceAnchors(end int) {
	for r.evi < len(r.ev) {
		j := r.evi
		if r.ev[j].kind == evNav {
			j++
		}
		if j >= len(r.ev) {
			return
		}
		ev := r.ev[j]
		if ev.at >= end || r.ps[ev.k-1].End > end {
			return
		}
		if ev.at > r.c {
			nb := r.advance(ev.at)
			r.out = appendText(r.out, r.a.Text[r.b:nb])
			r.c, r.b = ev.at, nb
		}
		r.fire(true, false)
		if r.evi <= j {
			return // cannot happen: the anchor is due and may go here
		}
	}
}

// fire writes the events due at the cursor, in order, as far as the context
// allows: anchors only when a character follows in this context (or at the
// very end, force); arrows only outside links, except when the next
// passage's anchor is due inside the link the arrows wait for: then the link
// is split around the arrows (splitLinks).
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
				if !anchors || r.evi+1 >= len(r.ev) || r.ev[r.evi+1].at > r.c {
					return
				}
				r.splitLinks(ev.k)
				break
			}
			r.nav(ev.k)
		}
		r.evi++
	}
}

// nav writes the arrows after passage k.
func (r *renderer) nav(k int) {
	r.out = append(r.out, `<span class="rs-ui rs-nav">`...)
	r.arrow("←", r.opt.ResultsURL, r.opt.ResultsLabel)
	if k < len(r.ps) {
		r.arrow("↓", "#"+AnchorID(k+1), "Next passage")
	} else {
		r.arrow("↑", "#"+TopID, "Back to the top of the article")
	}
	r.out = append(r.out, "</span>"...)
}

// splitLinks writes the arrows after passage k at the cursor, inside one or
// more links: it closes the open elements down to the outermost link,
// writes the arrows, and opens those elements again (with data-o at the
// cursor), so that no link holds the arrows' links.
func (r *renderer) splitLinks(k int) {
	j := 0
	for j < len(r.stack) && !r.stack[j].link {
		j++
	}
	for t := len(r.stack) - 1; t >= j; t-- {
		f := r.stack[t]
		r.closeGroup(&f)
		r.out = append(r.out, f.close...)
	}
	r.nav(k)
	for t := j; t < len(r.stack); t++ {
		f := &r.stack[t]
		if r.info[f.el].kind == kWrapper {
			continue
		}
		g := f.group
		r.writeOpen(f, r.c, false)
		if g != groupNone {
			r.openGroup(f, g)
		}
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
		size, attrOnly := 1, false // attrOnly: escaped in attribute values only
		switch {
		case c == '<':
			rep = "&lt;"
		case c == '>':
			rep = "&gt;"
		case c == '&':
			rep = "&amp;"
		case c == '"':
			rep, attrOnly = "&quot;", true
		case c == '\r':
			rep = "&#13;"
		case c == '\n':
			rep, attrOnly = "&#10;", true
		case c == '\t':
			rep, attrOnly = "&#9;", true
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
		if attrOnly && !attr {
			i++
			continue
		}
		dst = append(dst, s[last:i]...)
		dst = append(dst, rep...)
		i += size
		last = i
	}
	return append(dst, s[last:]...)
}
