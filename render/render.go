package render

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/readsim/readsim/effort"
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
// in the order of ShownPassages): "p1", "p2", …
func AnchorID(k int) string { return "p" + strconv.Itoa(k) }

// Page writes the page of article a with the given passages (those of
// ShownPassages) to w. It returns an error when a is not consistent (its
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
		ps:    ShownPassages(passages, a.Len),
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

// frame is an element open on the page: the renderer's stack holds one
// for each element from the root to the cursor.
type frame struct {
	el         int
	close      string
	structural bool  // ul, ol, table, tr: whitespace here is left alone
	flow       bool  // a container of blocks: whitespace here is not marked
	link       bool  // an <a>, or a footnote mark: no arrows inside
	sup        bool  // a footnote mark written as a sup (not a link)
	group      uint8 // the synthetic group open in this element
}

// renderer holds the state of one AppendPage: the article, its
// passages, what classify decided and the cursor of the walk.
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
	ib        map[int]ibRow   // kTplParam element index → how its row is shown (infobox)
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
