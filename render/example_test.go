package render_test

import (
	"fmt"
	"github.com/readsim/readsim/effort"
	"net/url"
	"os"
	"regexp"
	"strings"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/render"
)

// A standalone page, as `readsim render` prints it: the CSS is embedded, the
// passage is marked and anchored, and its arrows follow it.
func ExamplePage() {
	a, err := article.Parse(strings.NewReader(
		`<article><header><title>Lens</title></header><bdy><p>A <b>Fresnel lens</b> is thin.</p></bdy></article>`), "1001.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	// "Fresnel lens" is characters 6 to 18: "Lens" is 0-3, "A " 4-5
	var b strings.Builder
	if err := render.Page(&b, a, []effort.Span{{Start: 6, End: 18}}, render.Options{}); err != nil {
		fmt.Println(err)
		return
	}
	page := b.String()
	fmt.Println(strings.Contains(page, "<style>"))
	fmt.Println(regexp.MustCompile(`<p data-o.*</p>`).FindString(page))
	// Output:
	// true
	// <p data-o="4">A <b data-o="6"><span class="rs-ui rs-pass" id="p1" data-o="6"></span><mark data-o="6">Fresnel lens</mark><span class="rs-ui rs-nav"><a class="rs-arrow" href="./" aria-label="Back to the results">←</a><a class="rs-arrow" href="#top" aria-label="Back to the top of the article">↑</a></span></b> is thin.</p>
}

// A page for the web prototype: ← goes back to the search, links to other
// articles go to the prototype's article view, and the CSS is linked (so a
// Content-Security-Policy without 'unsafe-inline' holds).
func ExamplePage_server() {
	a, err := article.Parse(strings.NewReader(
		`<article xmlns:xlink="http://www.w3.org/1999/xlink"><p>See <link xlink:href="../1002.xml">lighthouse</link>.</p></article>`), "1001.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	q := "fresnel lens"
	opt := render.Options{
		ResultsURL:    "/search?q=" + url.QueryEscape(q),
		ArticleURL:    func(id string) string { return "/article/" + url.PathEscape(id) + "?q=" + url.QueryEscape(q) },
		StylesheetURL: "/static/render.css",
	}
	if err := render.Page(os.Stdout, a, nil, opt); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <!DOCTYPE html>
	// <html xmlns="http://www.w3.org/1999/xhtml" lang="en" xml:lang="en">
	// <head>
	// <meta charset="UTF-8"/>
	// <meta name="viewport" content="width=device-width, initial-scale=1"/>
	// <title>1001</title>
	// <link rel="stylesheet" href="/static/render.css"/>
	// </head>
	// <body>
	// <input type="checkbox" id="rs-hl" class="rs-ui" checked="checked"/>
	// <nav id="top" class="rs-ui rs-top" aria-label="Passages"><a class="rs-arrow" href="/search?q=fresnel+lens" aria-label="Back to the results">←</a><label for="rs-hl" class="rs-switch">Highlight</label></nav>
	// <article class="rs-doc" data-o="0" data-len="15" data-id="1001"><p data-o="0">See <a data-o="4" href="/article/1002?q=fresnel+lens">lighthouse</a>.</p></article>
	// </body>
	// </html>
}

// The passages a page shows, and the anchors a result list can link to.
func ExampleShownPassages() {
	ps := render.ShownPassages([]effort.Span{{Start: 50, End: 90}, {Start: 10, End: 20}, {Start: 80, End: 120}}, 100)
	for k, p := range ps {
		fmt.Printf("#%s: [%d,%d)\n", render.AnchorID(k+1), p.Start, p.End)
	}
	// Output:
	// #p1: [10,20)
	// #p2: [50,100)
}
