package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/internal/ground/headless"
)

// tablePages serves the fakes' articles and "wide": a paragraph, then a
// table of 3 rows of 8 cells, each cell's text 12 characters on one line,
// in a box that scrolls sideways (as render's div.rs-table), far wider
// than a phone: its data-o offsets follow render's contract.
type tablePages struct{ fakePages }

// wideCell is the text of cell (r, c) of the wide table.
func wideCell(r, c int) string { return fmt.Sprintf("R%dC%d-abcdefg", r, c) }

const wideIntro = "A table of bridges follows."

func (p *tablePages) Has(id string) bool { return id == "wide" || p.fakePages.Has(id) }

func (p *tablePages) Info(id string) (ArticleInfo, error) {
	if id != "wide" {
		return p.fakePages.Info(id)
	}
	return ArticleInfo{ID: id, Title: "Wide", Length: len(wideIntro) + 3*8*12, Lang: "en"}, nil
}

func (p *tablePages) Render(id string, passages []effort.Span, opt PageOptions) ([]byte, error) {
	if id != "wide" {
		return p.fakePages.Render(id, passages, opt)
	}
	var b strings.Builder
	script := ""
	if opt.ScriptURL != "" {
		script = `<script src="` + html.EscapeString(opt.ScriptURL) + `" defer="defer"></script>`
	}
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Wide</title><meta name="viewport" content="width=device-width, initial-scale=1"/><link rel="stylesheet" href="%s"/>%s</head><body>
<div id="top" class="rs-ui"><a href="%s">←</a></div><article class="rs-doc" data-id="wide" data-o="0"><p data-o="0">%s</p><div class="rs-table"><table>`,
		html.EscapeString(opt.StylesheetURL), script, html.EscapeString(opt.ResultsURL), wideIntro)
	o := len(wideIntro)
	for r := 1; r <= 3; r++ {
		b.WriteString("<tr>")
		for c := 1; c <= 8; c++ {
			fmt.Fprintf(&b, `<td data-o="%d">%s</td>`, o, wideCell(r, c))
			o += 12
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table></div></article></body></html>")
	return []byte(b.String()), nil
}

// wideCSS lays the wide table out as render does (a box that scrolls
// sideways, cells at least 8em), on one line per cell.
const wideCSS = `body{margin:0 16px;font:16px/1.5 sans-serif}.rs-table{max-width:100%;overflow-x:auto}` +
	`td{min-width:8em;padding:4px 8px;white-space:nowrap;border:1px solid #ccc}.rs-ui{height:40px}`

// cellsJS, the test's own reckoning: each cell's span [data-o, data-o +
// 12) and whether it is wholly in view ("on"), wholly out of it ("off") or
// cut by the view's edge; the view is the window above the study bar cut
// by the table's box.
const cellsJS = `(() => {
  const box = document.querySelector(".rs-table").getBoundingClientRect();
  const bar = document.querySelector(".st-bar").getBoundingClientRect();
  const x0 = Math.max(0, box.left), x1 = Math.min(innerWidth, box.right), y0 = Math.max(0, box.top), y1 = Math.min(bar.top, box.bottom);
  return [...document.querySelectorAll("td")].map(td => {
    const r = document.createRange();
    r.selectNodeContents(td.firstChild);
    const q = r.getBoundingClientRect();
    const o = +td.getAttribute("data-o");
    let where = "cut";
    if (q.left >= x0 && q.right <= x1 && q.top >= y0 && q.bottom <= y1) where = "on";
    else if (q.right <= x0 || q.left >= x1 || q.bottom <= y0 || q.top >= y1) where = "off";
    return {from: o, to: o + 12, where: where, text: td.textContent};
  });
})()`

type cellSpan struct {
	From, To int
	Where    string
	Text     string
}

// TestStudyBrowserWideTable: a participant reading an article with a
// table wider than the phone, in a box that scrolls sideways, records the
// characters of the cells in view and none of the cells off the right
// edge of the box (issue 36: they were recorded as read); scrolled
// sideways to its end, the cells now off its left edge are not recorded
// either, those now in view are.
func TestStudyBrowserWideTable(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	headless.Require(t)
	dir := t.TempDir()
	pages := &tablePages{}
	s, err := New(Options{Searcher: fakeSearcher{}, Pages: pages, Replayer: &fakeReplayer{}, RatePerSecond: -1, ArticleCSS: []byte(wideCSS),
		Study: &StudyOptions{Dir: dir, Topics: studyTopics, PerParticipant: 2}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()
	ctx := headless.Tab(t, 360, 640)
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(360, 640, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch),
		chromedp.Navigate(srv.URL+"/study"),
		chromedp.Click(`input[name=consent]`),
		chromedp.Click(`.st-consent button[type=submit]`),
		chromedp.WaitVisible(`#study[data-state=topic]`),
		chromedp.Navigate(srv.URL+"/article/wide?q=bridges"),
		chromedp.WaitVisible(`.st-bar`),
	); err != nil {
		t.Fatal(err)
	}
	// the first screen: the reads recorded, then the test's reckoning
	reads := waitReads(t, ctx, dir, 0)
	first := evalCells(t, ctx)
	checkCells(t, "the first screen", reads, first)
	// scrolled sideways to the table's end
	mark, err := chromedp.Run(ctx, chromedp.Evaluate[int64](`(() => { const m = Date.now() - JSON.parse(localStorage.getItem("readsim-study")).t0;
  document.querySelector(".rs-table").scrollLeft = 100000; return Math.floor(m); })()`))
	if err != nil {
		t.Fatal(err)
	}
	reads = waitReads(t, ctx, dir, mark)
	second := evalCells(t, ctx)
	checkCells(t, "scrolled to the table's end", reads, second)
	var on, off int
	for _, c := range append(first, second...) {
		switch c.Where {
		case "on":
			on++
		case "off":
			off++
		}
	}
	if on < 6 || off < 6 {
		t.Errorf("%d cells in view and %d out of it over both screens: the test shows too little", on, off)
	}
}

// evalCells is cellsJS's answer.
func evalCells(t *testing.T, ctx context.Context) []cellSpan {
	t.Helper()
	cells, err := chromedp.Run(ctx, chromedp.Evaluate[[]cellSpan](cellsJS))
	if err != nil {
		t.Fatal(err)
	}
	return cells
}

// waitReads waits for the recording of dir's participant to hold read
// events at or after time mark that have rested (no new one for 1.5 s),
// and returns their spans.
func waitReads(t *testing.T, ctx context.Context, dir string, mark int64) effort.Spans {
	t.Helper()
	var spans effort.Spans
	n, stable := 0, time.Now()
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		files, _ := filepath.Glob(filepath.Join(dir, "P-*.jsonl"))
		if len(files) != 1 {
			continue
		}
		f, err := os.Open(files[0])
		if err != nil {
			continue
		}
		spans = nil
		k := 0
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var e struct {
				Ev       string
				From, To int
				T        int64
			}
			if json.Unmarshal(sc.Bytes(), &e) == nil && e.Ev == "read" && e.T >= mark {
				spans = effort.Union(spans, effort.Spans{{Start: e.From, End: e.To}})
				k++
			}
		}
		f.Close()
		if k != n {
			n, stable = k, time.Now()
		}
		if n > 0 && time.Since(stable) > 1500*time.Millisecond {
			return spans
		}
	}
	t.Fatalf("no read recorded after t=%d", mark)
	return nil
}

// checkCells checks the reads of a screen against the test's reckoning:
// every cell in view read whole, no character of a cell out of view read.
func checkCells(t *testing.T, name string, reads effort.Spans, cells []cellSpan) {
	t.Helper()
	t.Logf("%s: reads %v", name, reads)
	for _, c := range cells {
		got := effort.IntersectLen(reads, effort.Spans{{Start: c.From, End: c.To}})
		switch {
		case c.Where == "on" && got != c.To-c.From:
			t.Errorf("%s: cell %s [%d,%d) is in view, %d of its characters recorded", name, c.Text, c.From, c.To, got)
		case c.Where == "off" && got != 0:
			t.Errorf("%s: cell %s [%d,%d) is out of view, %d of its characters recorded", name, c.Text, c.From, c.To, got)
		}
	}
}
