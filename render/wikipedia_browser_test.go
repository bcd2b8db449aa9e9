package render

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/chromedp/chromedp"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/article/wikimarkup"
)

// TestBrowserWikipedia loads the page of every real article in the shared
// headless Chromium, one after the other in one tab, as a 360×640 phone
// (mobile emulation), each with three passages inside its body
// (bodyPassages), and checks:
//
//   - the page never scrolls sideways: the document's scrollWidth is at most
//     the viewport's width;
//   - every table box fits the screen and scrolls sideways inside itself;
//   - the title comes first, the categories last (below the body);
//   - the chain of arrows walks every passage: from the top, ↓ brings
//     passage 1's first character into the viewport, the ↓ after passage k
//     brings passage k+1's, and the ↑ after the last goes back to the top;
//   - the page's language is the article's.
//
// Screenshots of one English, one Chinese and one Korean article (top, a
// table, the end) go to a temporary folder, logged.
func TestBrowserWikipedia(t *testing.T) {
	docs := append(wikipedia(t), australiaDoc(t))
	s := newSession(t, "wikipedia", 5*time.Minute)
	ctx, eval, shot := s.ctx, s.eval, s.shot
	type page struct {
		body []byte
		ps   []effort.Span
		text []int // the first non-space character of each passage
	}
	pages := map[string]*page{}
	for _, d := range docs {
		ps := ShownPassages(bodyPassages(d.a), d.a.Len)
		if d.a.ID == "australia" {
			// in the lead and the history, not in the infobox
			ps = nil
			for _, w := range []string{"officially", "Dutch navigator", "Commonwealth was formed"} {
				at := utf8.RuneCountInString(d.a.Text[:strings.Index(d.a.Text, w)])
				ps = append(ps, effort.Span{Start: at, End: at + 30})
			}
		}
		var b bytes.Buffer
		opt := Options{StylesheetURL: "/render.css", ScriptURL: "/render.js", ResultsURL: "/search"}
		if err := Page(&b, d.a, ps, opt); err != nil {
			t.Fatal(err)
		}
		p := &page{body: b.Bytes(), ps: ps}
		// the first character of each passage that is shown: not white
		// space, not hidden markup
		shown := make([]bool, d.a.Len)
		for i := range shown {
			shown[i] = true
		}
		for _, m := range wikimarkup.Find(d.a) {
			if m.Kind == wikimarkup.Hide || m.Kind == wikimarkup.Replace {
				for c := m.Start; c < m.End; c++ {
					shown[c] = false
				}
			}
		}
		for _, q := range ps {
			o := q.Start
			for _, r := range d.a.Slice(q.Start, q.End) {
				if !unicode.IsSpace(r) && shown[o] {
					break
				}
				o++
			}
			if o == q.End {
				o = -1 // nothing of it shown: its anchor is checked instead
			}
			p.text = append(p.text, o)
		}
		pages[d.a.ID] = p
	}
	srv := pageServer(t, func(r *http.Request) ([]byte, error) {
		if p, ok := pages[r.PathValue("id")]; ok {
			return p.body, nil
		}
		return nil, nil
	})
	const width, height = 360, 640
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait, chromedp.EmulateScale(1))); err != nil {
		t.Fatal(err)
	}
	// follow clicks the link that the expression link finds and waits until
	// the location's hash is hash and the scroll has settled
	follow := func(link, hash string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](link+`.click()`)); err != nil {
			t.Fatalf("following %s: %v", link, err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`location.hash === %q`, hash), chromedp.WithPollingTimeout(5*time.Second))); err != nil {
			t.Fatalf("following %s: %v", link, err)
		}
		chromedp.Run(ctx, chromedp.Sleep(50*time.Millisecond))
	}
	shotsOf := map[string]string{"20976520": "en", "178952": "en-table", "11002": "ko", "133770": "zh", "191497": "zh-table", "15165": "en-notes", "152967": "en-remnants", "australia": "en-infobox"}
	scrollsInside, navboxes, hanBreaks, drawers := 0, 0, 0, 0
	for _, d := range docs {
		id := d.a.ID
		p := pages[id]
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/article/"+id), chromedp.WaitVisible(".rs-doc")); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if sw := eval(`document.scrollingElement.scrollWidth`); sw > width {
			t.Errorf("%s: scrollWidth %v > %d: the page scrolls sideways", id, sw, width)
		}
		// tables: inside the screen (or, nested, inside the box of the
		// table around them), scrolling in their own box
		tables := eval(`document.querySelectorAll(".rs-table").length`)
		bad := eval(fmt.Sprintf(`Array.from(document.querySelectorAll(".rs-table")).filter(function(e){var r=e.getBoundingClientRect(); return !e.parentElement.closest(".rs-table") && (r.left < 0 || r.right > %d) || getComputedStyle(e).overflowX != "auto"}).length`, width))
		if bad > 0 {
			t.Errorf("%s: %v of %v tables stand out of the screen or do not scroll", id, bad, tables)
		}
		wide := eval(`(function(){var n=0; document.querySelectorAll(".rs-table").forEach(function(e){if (e.scrollWidth > e.clientWidth) {e.scrollLeft = 40; if (e.scrollLeft > 0 && window.scrollX == 0) n++; e.scrollLeft = 0}}); return n})()`)
		scrollsInside += int(wide)
		// the title first, the categories last
		if eval(`(function(){var h=document.querySelector(".rs-doc h1"), a=document.querySelector(".rs-about"), b=document.querySelector(".rs-body"); return h && h.getBoundingClientRect().bottom <= a.getBoundingClientRect().top && a.getBoundingClientRect().bottom <= b.getBoundingClientRect().top ? 1 : 0})()`) != 1 {
			t.Errorf("%s: the title and the About block do not come first, in that order", id)
		}
		if strings.Contains(d.raw, "<categories>") {
			if eval(`document.querySelector(".rs-cats").getBoundingClientRect().top >= document.querySelector(".rs-body").getBoundingClientRect().bottom ? 1 : 0`) != 1 {
				t.Errorf("%s: the categories are not below the body", id)
			}
		}
		if lang, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.lang`)); err != nil || lang != d.a.Lang {
			t.Errorf("%s: lang %q, want %q (%v)", id, lang, d.a.Lang, err)
		}
		// what a reader sees: no leftover markup, no arrows in a mark or a
		// link, no empty shells, no squeezed column
		if n := eval(`document.querySelectorAll("sup .rs-nav, a .rs-nav, sup .rs-pass, .rs-ref .rs-nav").length`); n > 0 {
			t.Errorf("%s: %v arrows inside a footnote mark or a link", id, n)
		}
		if left, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(`+visibleText+`.match(/\|\s*thumb|thumb\s*\||\}\}|\{\{|''|&[a-z]+;|\]\]|(^|\n)\s*\|[^|\n]*=|(^|\n)[ \t]*\|[ \t]*(\n|$)|=[ \t]*\|[ \t]*(\n|$)|[(（]\s*[)）]|[(（]\s*[,;、，；]|[,;、，；]\s*[)）]/g) || []).join(" ‖ ")`)); err != nil || left != "" {
			t.Errorf("%s: leftover markup shown: %s (%v)", id, left, err)
		}
		if empty, err := chromedp.Run(ctx, chromedp.Evaluate[string](emptyShells)); err != nil || empty != "" {
			t.Errorf("%s: empty shells shown: %s (%v)", id, empty, err)
		}
		if narrow, err := chromedp.Run(ctx, chromedp.Evaluate[string](narrowCells)); err != nil || narrow != "" {
			t.Errorf("%s: table columns too narrow: %s (%v)", id, narrow, err)
		}
		if id == "australia" {
			checkInfobox(t, s)
		}
		// as Wikipedia's mobile reader shows it, and more
		checkTableGrid(t, s, id, d.raw)
		checkScrollSign(t, s, id)
		checkListLevels(t, s, id, d.raw)
		checkContrast(t, s, id)
		if s.eval(firstBodyText) != 0 {
			t.Errorf("%s: the body opens with an external link before its subject", id)
		}
		if n := count(d.raw, `<table [^>]*class="([^"]* )?(navbox|vertical-navbox|nomobile)[ "]`); n > 0 {
			navboxes += n
			if shown := s.eval(`Array.from(document.querySelectorAll(".rs-table")).filter(function(e){return e.querySelector(":scope > table") && /navbox/.test(e.querySelector(":scope > table").parentElement.className) && e.checkVisibility()}).length`); shown > 0 || s.eval(`document.querySelectorAll(".rs-navbox").length`) != float64(n) {
				t.Errorf("%s: %v of %d navigation boxes shown", id, shown, n)
			}
		}
		switch d.lang {
		case "ko":
			if b := countBreaks(t, s, `[\uAC00-\uD7A3]`); b.Inside > 0 {
				t.Errorf("%s: Korean words broken across lines: %s", id, fmtBreaks(b))
			}
		case "zh":
			hanBreaks += countBreaks(t, s, `[\u4E00-\u9FFF]`).Inside
		}
		name := shotsOf[id]
		if name != "" && !strings.HasSuffix(name, "-table") {
			shot(name + "-" + id + "-top")
		}
		// the chain of arrows
		for k := range p.ps {
			// from the top bar for passage 1, else from the arrows after
			// passage k (1-based): the k-th .rs-nav
			href := fmt.Sprintf("#p%d", k+1)
			link := fmt.Sprintf(`document.querySelector('nav#top a[href="%s"]')`, href)
			if k > 0 {
				link = fmt.Sprintf(`document.querySelectorAll(".rs-nav")[%d].querySelector('a[href="%s"]')`, k-1, href)
			}
			follow(link, href)
			if p.text[k] < 0 {
				if top := eval(fmt.Sprintf(`document.getElementById("p%d").getBoundingClientRect().top`, k+1)); top < 0 || top >= height {
					t.Errorf("%s: after following %s, the anchor of passage %d (all hidden markup) is at %vpx, not in the viewport", id, href, k+1, top)
				}
				continue
			}
			top := eval(fmt.Sprintf(`(function(){var p=readsimLocate(%d); if (!p) return -1e9; var r=document.createRange(); r.setStart(p.node,p.index); r.setEnd(p.node,p.index+1); var b=r.getBoundingClientRect(); return b.height > 0 && b.bottom <= %d ? b.top : -1e9})()`, p.text[k], height))
			if top < 0 || top >= height {
				t.Errorf("%s: after following %s, the first character of passage %d (offset %d) is at %vpx, not in the viewport", id, href, k+1, p.text[k], top)
			}
		}
		if len(p.ps) > 0 {
			follow(fmt.Sprintf(`document.querySelectorAll(".rs-nav")[%d].querySelector('a[href="#top"]')`, len(p.ps)-1), "#top")
			if y := eval(`window.scrollY`); y > 1 {
				t.Errorf("%s: after ↑, scrollY %v", id, y)
			}
		}
		var noteShot func(string)
		if name != "" {
			noteShot = func(what string) { shot(name + "-" + id + "-" + what) }
		}
		if checkNoteDrawer(t, s, id, noteShot) {
			drawers++
		}
		if name != "" {
			if eval(`document.querySelector(".rs-table") ? 1 : 0`) == 1 {
				eval(`(function(){var e=document.querySelector(".rs-table"); window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 60); return 0})()`)
				shot(name + "-" + id + "-table")
			}
			if eval(`document.querySelector("li.rs-l2") ? 1 : 0`) == 1 {
				eval(`(function(){var e=document.querySelector("li.rs-l2"); window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 120); return 0})()`)
				shot(name + "-" + id + "-list")
			}
			if !strings.HasSuffix(name, "-table") {
				eval(`(function(){window.scrollTo(0, document.scrollingElement.scrollHeight); return 0})()`)
				shot(name + "-" + id + "-end")
			}
		}
	}
	if scrollsInside == 0 {
		t.Errorf("no table is wider than the screen: the sideways scrolling inside a table box is not tested")
	}
	if navboxes == 0 || drawers == 0 || hanBreaks == 0 {
		t.Errorf("%d navigation boxes, %d pages with notes, %d line breaks between Chinese characters: a check was not exercised", navboxes, drawers, hanBreaks)
	}
	t.Logf("%d articles; %d tables wider than the screen scroll inside their box; %d navigation boxes hidden; notes opened on %d pages; Chinese breaks between characters %d times", len(docs), scrollsInside, navboxes, drawers, hanBreaks)
}

// visibleText is a JavaScript expression: the text of the article a reader
// sees (text nodes inside .rs-doc that the browser shows, outside math and
// the page's own words), one string.
const visibleText = `(function(){var w=document.createTreeWalker(document.querySelector(".rs-doc"), NodeFilter.SHOW_TEXT), out=[], n;
while ((n=w.nextNode())) { var e=n.parentElement; if (e.closest(".rs-math, .rs-ui") || !e.checkVisibility()) continue; out.push(n.data) }
return out.join("")})()`

// emptyShells is a JavaScript expression: a description of the shells
// shown with nothing in them (a heading with no text under it in its
// section, unless a passage is in it, a figure with no caption text, an empty list item), "" when
// none.
const emptyShells = `(function(){
function shown(root, skip){var w=document.createTreeWalker(root, NodeFilter.SHOW_TEXT), n, s="";
while ((n=w.nextNode())) { var e=n.parentElement; if ((skip && skip.contains(n)) || e.closest(".rs-ui") || !e.checkVisibility()) continue; s+=n.data }
return s.trim()}
var bad=[];
document.querySelectorAll(".rs-body section").forEach(function(sec){
  var h=sec.querySelector(":scope > :is(h2,h3,h4,h5,h6,.rs-h)");
  if (h && h.checkVisibility() && !sec.querySelector("mark, .rs-pass") && shown(sec, h)=="") bad.push("heading "+JSON.stringify(h.textContent.trim()))});
document.querySelectorAll(".rs-img").forEach(function(f){ if (f.checkVisibility() && shown(f)=="") bad.push("figure at "+f.dataset.o)});
document.querySelectorAll(".rs-doc li").forEach(function(li){ if (li.checkVisibility() && shown(li)=="") bad.push("list item at "+li.dataset.o)});
return bad.slice(0,5).join("; ")})()`

// narrowCells is a JavaScript expression: the table cells shown narrower
// than 3em (45 px at the tables' 15 px) or, holding more than 24
// characters, narrower than 9em; "" when none.
const narrowCells = `(function(){var bad=[];
document.querySelectorAll(".rs-table td, .rs-table th").forEach(function(c){ if (!c.checkVisibility()) return;
  var w=c.getBoundingClientRect().width, n=c.textContent.trim().length;
  if (w < 45 || n > 24 && w < 135) bad.push(JSON.stringify(c.textContent.trim().slice(0,20))+" "+Math.round(w)+"px")});
return bad.slice(0,5).join("; ")})()`

// australiaDoc is an article with the infobox markup of the held-out
// Australia article (the collection keeps a template as its name and its
// parameters, each an element named after the parameter), written by hand
// from the description.
func australiaDoc(t *testing.T) wikiDoc {
	t.Helper()
	raw := `<article xmlns:xlink="http://www.w3.org/1999/xlink"><header><title>Australia</title><id>4689264</id><revision><id>1</id><timestamp>2010-01-01T00:00:00Z</timestamp><contributor><username>X</username><id>1</id></contributor></revision><categories><category>:Countries</category></categories></header><bdy>
<template><name>Infobox Country</name><parameters>
<conventional_long_name>Commonwealth of Australia</conventional_long_name>
<common_name>Australia</common_name>
<image_flag>Flag of Australia.svg</image_flag>
<image_coat>Coat of Arms of Australia.svg</image_coat>
<calling_code>61</calling_code>
<capital>Canberra</capital>
<latd>35</latd><latm>18</latm><latNS>S</latNS><longd>149</longd><longm>7</longm><longEW>E</longEW>
<largest_city>Sydney</largest_city>
<official_languages>None N2</official_languages>
<national_language>English (de facto)</national_language>
<government_type>Federal parliamentary democracy and constitutional monarchy</government_type>
<area_km2>7,617,930</area_km2>
<area_rank>6th</area_rank>
<sovereignty_type>Independence</sovereignty_type>
<established_event1>Constitution</established_event1>
<established_date1>1 January 1901</established_date1>
<established_event2>Statute of Westminster Adoption Act</established_event2>
<established_date2>9 October 1942</established_date2>
<population_estimate>22,328,632</population_estimate>
<GDP_PPP>$851.7 billion</GDP_PPP>
<ISO_3166-1_numeric>036</ISO_3166-1_numeric>
<currency>Australian dollar</currency>
<time_zone></time_zone>
<map_caption>Location of Australia</map_caption>
<cctld>.au</cctld>
</parameters></template>
<p>
Image:Australian Coat of Arms.png|thumb|right|200px|The ''coat of arms'' of Australia]]
<b>Australia</b>, officially the Commonwealth of Australia, is a country in the Southern Hemisphere comprising the mainland of the world's smallest continent, the island of Tasmania, and numerous smaller islands.</p>
<sec><st>History</st>
<p>Human habitation of Australia is estimated to have begun between 42,000 and 48,000 years ago. The Dutch navigator Willem Janszoon sighted the coast in 1606; Kimchi &amp;gt; History.</p>
<p>The Commonwealth was formed on 1 January 1901 and the colonies became its states.</p></sec>
<sec><st>References</st>
</sec>
</bdy></article>`
	a, err := article.Parse(strings.NewReader(raw), "australia")
	if err != nil {
		t.Fatal(err)
	}
	a.ID = "australia"
	return wikiDoc{lang: "en", a: a, raw: raw}
}

// checkInfobox checks the infobox of australiaDoc on the page loaded: a
// folded box right after the About block, before the lead; opened, its
// rows as docs/articles.md says (readable labels, Wikipedia's order, pairs
// on one row, technical parameters and empty ones not shown, a note's
// label as a mark), none squeezed.
func checkInfobox(t *testing.T, s *session) {
	t.Helper()
	ctx := s.ctx
	if s.eval(`(function(){var d=document.querySelector("details.rs-tpl"), a=document.querySelector(".rs-about"); return d && !d.open && a.getBoundingClientRect().bottom <= d.getBoundingClientRect().top && d.getBoundingClientRect().bottom <= document.querySelector(".rs-body p").getBoundingClientRect().top ? 1 : 0})()`) != 1 {
		t.Errorf("australia: the infobox is not a folded box between the About block and the lead")
	}
	if h := s.eval(`document.querySelector("details.rs-tpl").getBoundingClientRect().height`); h > 60 {
		t.Errorf("australia: the folded infobox is %vpx tall", h)
	}
	s.eval(`(function(){document.querySelector("details.rs-tpl").open=true; return 0})()`)
	// the rows as the reader sees them: the visible cells of the box by
	// line, left to right, "label=value"
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(function(){var by={};
document.querySelectorAll("details.rs-tpl .rs-ib th, details.rs-tpl .rs-ib td").forEach(function(c){ if (!c.checkVisibility()) return;
  var r=c.getBoundingClientRect(), k=Math.round(r.top); (by[k]=by[k]||[]).push([r.left, c.textContent.trim()])});
return Object.keys(by).map(Number).sort(function(a,b){return a-b}).map(function(k){var cs=by[k].sort(function(a,b){return a[0]-b[0]}); return cs[0][1]+"="+cs.slice(1).map(function(c){return c[1]}).join(" ")}).join("|")})()`))
	// written from docs/articles.md's rules: labels of the parameters'
	// names, groups in Wikipedia's order (name, images, where, languages
	// and government, when, figures, practical facts), pairs as one row,
	// images, coordinates' parts and codes hidden, the title not repeated
	want := "Official name=Commonwealth of Australia|Map=Location of Australia|Capital=Canberra|Largest city=Sydney|" +
		"Official languages=None N2|National language=English (de facto)|Government=Federal parliamentary democracy and constitutional monarchy|" +
		"Sovereignty=Independence|Constitution=1 January 1901|Statute of Westminster Adoption Act=9 October 1942|" +
		"Area (km²)=7,617,930|Area rank=6th|Population (estimate)=22,328,632|GDP (PPP)=$851.7 billion|" +
		"Calling code=61|Currency=Australian dollar|Internet TLD=.au"
	if err != nil || rows != want {
		t.Errorf("australia: infobox rows\n%s\nwant\n%s (%v)", rows, want, err)
	}
	if bad := s.eval(`Array.from(document.querySelectorAll("details.rs-tpl .rs-ib :is(th,td)")).filter(function(c){return c.checkVisibility() && (c.getBoundingClientRect().width < 60 || c.getBoundingClientRect().right > 360)}).length`); bad > 0 {
		t.Errorf("australia: %v infobox cells squeezed or out of the screen", bad)
	}
	// the note's label is a raised mark
	if s.eval(`(function(){var n=document.querySelector("details.rs-tpl .rs-note"); return n && n.textContent=="N2" && getComputedStyle(n).verticalAlign=="super" ? 1 : 0})()`) != 1 {
		t.Errorf("australia: the note label N2 is not a raised mark")
	}
	s.shot("en-infobox-australia-open")
	s.eval(`(function(){document.querySelector("details.rs-tpl").open=false; return 0})()`)
}
