package render

import (
	"net/url"
	"path"
	"strings"
)

// PageLink is the link from the page of article from to the page of
// article to, each saved as its id + ".xhtml" under one folder (readsim
// render: ja/3951's page is ja/3951.xhtml): "7001.xhtml" from ja/3951 to
// ja/7001, "../555.xhtml" from ja/3951 to 555. Each step is escaped.
func PageLink(from, to string) string {
	fromDir := strings.Split(path.Dir(from), "/")
	if fromDir[0] == "." {
		fromDir = nil
	}
	steps := strings.Split(to, "/")
	n := 0
	for n < len(fromDir) && n < len(steps)-1 && fromDir[n] == steps[n] {
		n++
	}
	var out []string
	for range fromDir[n:] {
		out = append(out, "..")
	}
	for _, s := range steps[n:] {
		out = append(out, url.PathEscape(s))
	}
	return strings.Join(out, "/") + ".xhtml"
}

// PageLinks is the Options.ArticleURL of the standalone page of article
// from (readsim render): PageLink to every article has reports, plain
// text ("") for the others, whose pages are not beside it.
func PageLinks(from string, has func(id string) bool) func(to string) string {
	return func(to string) string {
		if !has(to) {
			return ""
		}
		return PageLink(from, to)
	}
}
