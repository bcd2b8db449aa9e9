package web

import (
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestSearchPageDOM reads the results page as a browser's HTML5 parser builds
// it (goquery over golang.org/x/net/html), not as text: the hits are an ordered
// list of links in rank order, titles and counts decoded. With the fakes, the
// query's first word "lens" is in the first sentence of 101 ("A Fresnel lens is a
// compact lens.") and of 102 ("A keeper tends the light & the lens."), and in no
// other sentence, so each has one matching passage; 103 does not match.
func TestSearchPageDOM(t *testing.T) {
	s, _, _ := newTestServer(t, nil)
	doc := parseDoc(t, get(t, s, "/search?q=lens+light"))
	var hrefs, titles, metas []string
	doc.Find("ol.hits > li > a.hit").Each(func(_ int, a *goquery.Selection) {
		href, _ := a.Attr("href")
		hrefs = append(hrefs, href)
		titles = append(titles, a.Find(".title").Text())
		metas = append(metas, strings.TrimSpace(a.Find(".meta").Text()))
	})
	want := struct{ hrefs, titles, metas []string }{
		[]string{"/article/101?q=lens+light", "/article/102?q=lens+light"},
		[]string{"Fresnel lens", "Lighthouse <keeper>"},
		[]string{"1 matching passage, 34 characters to read", "1 matching passage, 37 characters to read"},
	}
	if !reflect.DeepEqual(hrefs, want.hrefs) || !reflect.DeepEqual(titles, want.titles) || !reflect.DeepEqual(metas, want.metas) {
		t.Errorf("hits: %q %q %q\nwant %q %q %q", hrefs, titles, metas, want.hrefs, want.titles, want.metas)
	}
	if v, _ := doc.Find(`form[role=search] input[name=q]`).Attr("value"); v != "lens light" {
		t.Errorf("search box holds %q, want the query", v)
	}
	if n := doc.Find("script:not([src]), [style], [onclick], [onload]").Length(); n != 0 {
		t.Errorf("%d inline scripts, styles or handlers", n)
	}
}

// parseDoc parses a page as a browser's HTML5 parser builds it (goquery
// over golang.org/x/net/html).
func parseDoc(t *testing.T, w *httptest.ResponseRecorder) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
