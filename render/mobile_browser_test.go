package render

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/readsim/readsim/internal/ground/headless"
)

// The checks of TestBrowserWikipedia that compare a page with what
// Wikipedia's mobile reader shows (docs/articles.md, "Wikipedia mobile vs
// readsim"). Each expected value comes from the article's XML, read here
// with encoding/xml, independently of package article.

// tableGrid returns, for each table of raw in document order (nested ones
// included), the grid column where each of its own cells starts, cells in
// document order: the HTML table algorithm over the rowspan and colspan
// the XML gives (cells standing directly in a table form a row of their
// own, as on the page).
func tableGrid(t *testing.T, raw string) [][]int {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(raw))
	d.Strict, d.Entity = false, xml.HTMLEntity
	type table struct {
		idx      int // in the result
		row      int // the row being filled (-1 before the first)
		col      int // the next column to look at in the row
		busy     map[[2]int]bool
		inRow    bool // a row element is open
		loose    bool // the last cell stood directly in the table
		depth    int  // element depth of the table
		rowDepth int
	}
	var out [][]int
	var stack []*table
	depth := 0
	span := func(se xml.StartElement, name string) int {
		for _, a := range se.Attr {
			if a.Name.Local == name {
				if n, err := strconv.Atoi(strings.TrimSpace(a.Value)); err == nil && n >= 1 && n <= maxSpan {
					return n
				}
			}
		}
		return 1
	}
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			depth++
			var top *table
			if len(stack) > 0 {
				top = stack[len(stack)-1]
			}
			switch name := tk.Name.Local; {
			case name == "table":
				stack = append(stack, &table{idx: len(out), row: -1, busy: map[[2]int]bool{}, depth: depth})
				out = append(out, nil)
			case top != nil && depth == top.depth+1 && name == "row":
				top.row++
				top.col, top.inRow, top.loose, top.rowDepth = 0, true, false, depth
			case top != nil && (depth == top.depth+1 && (name == "col" || name == "header") || top.inRow && depth == top.rowDepth+1):
				if depth == top.depth+1 && !top.loose {
					top.row++ // cells directly in the table: a row of their own
					top.col, top.loose = 0, true
				}
				for top.busy[[2]int{top.row, top.col}] {
					top.col++
				}
				rs, cs := span(tk, "rowspan"), span(tk, "colspan")
				for r := 0; r < rs; r++ {
					for c := 0; c < cs; c++ {
						top.busy[[2]int{top.row + r, top.col + c}] = true
					}
				}
				out[top.idx] = append(out[top.idx], top.col)
				top.col += cs
			}
		case xml.EndElement:
			if n := len(stack); n > 0 {
				top := stack[n-1]
				switch {
				case depth == top.depth:
					stack = stack[:n-1]
				case top.inRow && depth == top.rowDepth:
					top.inRow = false
				}
			}
			depth--
		}
	}
	return out
}

// checkTableGrid checks that the cells of every table shown line up as the
// XML's spans say: cells starting in the same grid column start at the
// same x, and a later column starts further right.
func checkTableGrid(t *testing.T, s *session, id, raw string) {
	t.Helper()
	want := tableGrid(t, raw)
	var got [][]float64
	js := `JSON.stringify(Array.from(document.querySelectorAll(".rs-table > table")).map(function(tb){
  if (!tb.checkVisibility()) return null;
  return Array.from(tb.querySelectorAll(":scope > tr > :is(td,th)")).map(function(c){return c.getBoundingClientRect().left})}))`
	v, err := chromedp.Run(s.ctx, chromedp.Evaluate[string](js))
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	if err := json.Unmarshal([]byte(v), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d tables on the page, %d in the XML", id, len(got), len(want))
		return
	}
	for k := range want {
		if got[k] == nil {
			continue // hidden (a navigation box)
		}
		if len(got[k]) != len(want[k]) {
			t.Errorf("%s: table %d: %d cells on the page, %d in the XML", id, k+1, len(got[k]), len(want[k]))
			continue
		}
		left := map[int]float64{}
		for c, col := range want[k] {
			if x, ok := left[col]; ok && (got[k][c] < x-1 || got[k][c] > x+1) {
				t.Errorf("%s: table %d: cell %d (column %d) starts at x=%.0f, another cell of that column at x=%.0f: merged cells lost", id, k+1, c+1, col+1, got[k][c], x)
				break
			}
			left[col] = got[k][c]
		}
		for col, x := range left {
			if x2, ok := left[col+1]; ok && x2 <= x {
				t.Errorf("%s: table %d: column %d starts at x=%.0f, not right of column %d (x=%.0f)", id, k+1, col+2, x2, col+1, x)
			}
		}
	}
}

// checkScrollSign checks that every table box wider than its screen shows
// that it scrolls: shadow gradients fixed to the box, covers moving with
// the table.
func checkScrollSign(t *testing.T, s *session, id string) {
	t.Helper()
	bad := s.eval(`Array.from(document.querySelectorAll(".rs-table")).filter(function(e){ if (!e.checkVisibility() || e.scrollWidth <= e.clientWidth) return false;
  var st=getComputedStyle(e); return (st.backgroundImage.match(/gradient/g)||[]).length < 4 || !/local/.test(st.backgroundAttachment) || !/scroll/.test(st.backgroundAttachment)}).length`)
	if bad > 0 {
		t.Errorf("%s: %v wide tables do not show that they scroll", id, bad)
	}
}

// wordBreaks is a JavaScript expression: the line breaks in the visible
// article text that fall between two characters of class cls (a regular
// expression character class) with no space between them, as
// {"inside": n, "lines": m, "examples": […]}; words longer than 12
// characters (which may have to break) are left out.
func wordBreaks(cls string) string {
	return `(function(){var re=/^` + cls + `$/, w=document.createTreeWalker(document.querySelector(".rs-doc"), NodeFilter.SHOW_TEXT), n, inside=0, lines=0, ex=[], r=document.createRange();
while ((n=w.nextNode())) { var e=n.parentElement; if (e.closest(".rs-ui, .rs-math, table") || !e.checkVisibility()) continue;
  var s=n.data, prev=null;
  for (var i=0; i<s.length; i++) { r.setStart(n,i); r.setEnd(n,i+1); var b=r.getBoundingClientRect();
    if (b.width === 0 && b.height === 0) { prev=null; continue }
    if (prev && b.top > prev.top + 2 && !/\s/.test(s[i-1])) { lines++;
      if (re.test(s[i-1]) && re.test(s[i])) { var a=i, z=i; while (a>0 && re.test(s[a-1])) a--; while (z<s.length && re.test(s[z])) z++;
        if (z-a <= 12) { inside++; if (ex.length < 5) ex.push(s.slice(a,i)+"/"+s.slice(i,z)) } } }
    prev=b }
}
return JSON.stringify({inside: inside, lines: lines, examples: ex})})()`
}

// breakCount is the answer of wordBreaks.
type breakCount struct {
	Inside, Lines int
	Examples      []string
}

// countBreaks runs wordBreaks on the page loaded.
func countBreaks(t *testing.T, s *session, cls string) breakCount {
	t.Helper()
	v, err := chromedp.Run(s.ctx, chromedp.Evaluate[string](wordBreaks(cls)))
	if err != nil {
		t.Fatal(err)
	}
	var b breakCount
	if err := json.Unmarshal([]byte(v), &b); err != nil {
		t.Fatal(err)
	}
	return b
}

// checkNoteDrawer taps the first footnote mark that opens a note (scrolled
// to the middle of the screen) and checks that its note shows at the
// bottom of the screen, whole or scrolling, its text visible, the page not
// moved; a tap on the close button and a tap outside dismiss it. It
// returns whether the page had such a mark.
func checkNoteDrawer(t *testing.T, s *session, id string, shot func(string)) bool {
	t.Helper()
	if s.eval(`document.querySelector("button.rs-ref") ? 1 : 0`) == 0 {
		return false
	}
	s.eval(`(function(){var m=document.querySelector("button.rs-ref sup"); window.scrollTo(0, m.getBoundingClientRect().top + window.scrollY - 300); return 0})()`)
	y := s.eval(`window.scrollY`)
	// a real tap on the mark
	x0 := s.eval(`(function(){var b=document.querySelector("button.rs-ref sup").getBoundingClientRect(); return b.left + b.width/2})()`)
	y0 := s.eval(`(function(){var b=document.querySelector("button.rs-ref sup").getBoundingClientRect(); return b.top + b.height/2})()`)
	if _, err := chromedp.Run(s.ctx, chromedp.MouseClickXY(x0, y0)); err != nil {
		t.Fatalf("%s: tapping the mark: %v", id, err)
	}
	chromedp.Run(s.ctx, chromedp.Poll[bool](`!!document.querySelector(":popover-open")`, chromedp.WithPollingTimeout(2*time.Second)))
	open := s.eval(`(function(){var b=document.querySelector("button.rs-ref"), n=document.querySelector(":popover-open");
  if (!n || n.id !== b.getAttribute("popovertarget") || !n.classList.contains("rs-fn")) return 0;
  var r=n.getBoundingClientRect(); if (r.height <= 0 || r.top < 0 || Math.abs(r.bottom - window.innerHeight) > 1 || r.left > 0 || r.right < window.innerWidth - 1) return -1;
  var w=document.createTreeWalker(n, NodeFilter.SHOW_TEXT), t, seen=0; while ((t=w.nextNode())) { if (!t.parentElement.closest(".rs-ui") && /\S/.test(t.data) && t.parentElement.checkVisibility()) seen++ }
  return seen > 0 ? 1 : -2})()`)
	switch open {
	case 0:
		t.Errorf("%s: a tap on the footnote mark opened no note", id)
		return true
	case -1:
		t.Errorf("%s: the note opened is not a drawer along the bottom of the screen", id)
	case -2:
		t.Errorf("%s: the note opened shows no text", id)
	}
	if y2 := s.eval(`window.scrollY`); y2 != y {
		t.Errorf("%s: opening a note scrolled the page from %v to %v", id, y, y2)
	}
	if shot != nil {
		shot("note")
	}
	// the close button, then a tap outside
	s.eval(`(function(){document.querySelector(":popover-open .rs-fn-x").click(); return 0})()`)
	if s.eval(`document.querySelector(":popover-open") ? 1 : 0`) != 0 {
		t.Errorf("%s: the close button does not close the note", id)
	}
	chromedp.Run(s.ctx, chromedp.MouseClickXY(x0, y0))
	chromedp.Run(s.ctx, chromedp.Poll[bool](`!!document.querySelector(":popover-open")`, chromedp.WithPollingTimeout(2*time.Second)))
	chromedp.Run(s.ctx, chromedp.MouseClickXY(20, 60))
	chromedp.Run(s.ctx, chromedp.Poll[bool](`!document.querySelector(":popover-open")`, chromedp.WithPollingTimeout(2*time.Second)))
	if s.eval(`document.querySelector(":popover-open") ? 1 : 0`) != 0 {
		t.Errorf("%s: a tap outside the note does not close it", id)
	}
	if y2 := s.eval(`window.scrollY`); y2 != y {
		t.Errorf("%s: the note's drawer scrolled the page from %v to %v", id, y, y2)
	}
	return true
}

// listLevels are the level attributes of raw's list entries, in document
// order (0 for an entry without one).
func listLevels(raw string) []int {
	var out []int
	for _, m := range regexp.MustCompile(`<entry(\s[^>]*)?>`).FindAllStringSubmatch(raw, -1) {
		if strings.Contains(m[1], ` id="`) {
			continue // a reference list's entry
		}
		lv := 0
		if l := regexp.MustCompile(`level="(\d+)"`).FindStringSubmatch(m[1]); l != nil {
			lv, _ = strconv.Atoi(l[1])
		}
		out = append(out, lv)
	}
	return out
}

// checkListLevels checks that the list entries of the body are indented
// by their level: an entry one level deeper than the one before starts
// further right, an entry of the same level at the same x.
func checkListLevels(t *testing.T, s *session, id, raw string) {
	t.Helper()
	want := listLevels(raw)
	// each item: its x, and its list (-1 when hidden)
	v, err := chromedp.Run(s.ctx, chromedp.Evaluate[string](`(function(){var lists=[]; return JSON.stringify(Array.from(document.querySelectorAll(".rs-doc li:not(.rs-fn):not(.rs-cat)")).map(function(li){
  var l=li.parentElement, k=lists.indexOf(l); if (k < 0) { k=lists.length; lists.push(l) }
  return [li.getBoundingClientRect().left, li.checkVisibility() ? k : -1]}))})()`))
	if err != nil {
		t.Fatal(err)
	}
	var got [][2]float64
	json.Unmarshal([]byte(v), &got)
	if len(got) != len(want) {
		t.Errorf("%s: %d list items on the page, %d entries in the XML", id, len(got), len(want))
		return
	}
	for k := 1; k < len(want); k++ {
		x, x0 := got[k][0], got[k-1][0]
		switch {
		case want[k] == 0 || want[k-1] == 0 || got[k][1] < 0 || got[k][1] != got[k-1][1]:
		case want[k] > want[k-1] && x <= x0:
			t.Errorf("%s: entry %d (level %d) at x=%.0f, not right of entry %d (level %d) at x=%.0f", id, k+1, want[k], x, k, want[k-1], x0)
			return
		case want[k] == want[k-1] && x != x0:
			t.Errorf("%s: entries %d and %d (level %d) at x=%.0f and %.0f", id, k, k+1, want[k], x0, x)
			return
		}
	}
}

// checkContrast checks the contrast of every text shown on the page
// loaded (headless.LowContrast).
func checkContrast(t *testing.T, s *session, id string) {
	t.Helper()
	if low, err := chromedp.Run(s.ctx, chromedp.Evaluate[string](headless.LowContrast)); err != nil || low != "" {
		t.Errorf("%s: text below 4.5:1 contrast: %s (%v)", id, low, err)
	}
}

// firstBodyText is a JavaScript expression: whether the first text a
// reader sees in the body is inside an external link (1) or not (0).
const firstBodyText = `(function(){var w=document.createTreeWalker(document.querySelector(".rs-body"), NodeFilter.SHOW_TEXT), n;
while ((n=w.nextNode())) { var e=n.parentElement; if (!/\S/.test(n.data) || e.closest(".rs-ui, details:not([open]) > :not(summary)") || !e.checkVisibility()) continue;
  return e.closest("a.rs-ext") ? 1 : 0 }
return 0})()`

// fmtBreaks describes a breakCount.
func fmtBreaks(b breakCount) string {
	return fmt.Sprintf("%d of %d line breaks inside a word (%s)", b.Inside, b.Lines, strings.Join(b.Examples, ", "))
}
