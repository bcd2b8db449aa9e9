package app

import (
	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
	"github.com/readsim/readsim/web"
)

// NoArticles is web.Pages for a server without articles (`readsim serve`
// with runs and judgments but no index): it has no article, so the race and
// the simulation view draw every article as a schematic.
type NoArticles struct{}

// Has reports false: there is no article.
func (NoArticles) Has(string) bool { return false }

// Info answers web.ErrNoArticle.
func (NoArticles) Info(string) (web.ArticleInfo, error) { return web.ArticleInfo{}, web.ErrNoArticle }

// Render answers web.ErrNoArticle.
func (NoArticles) Render(string, []effort.Span, web.PageOptions) ([]byte, error) {
	return nil, web.ErrNoArticle
}

// TextCount is how many distinct articles a run retrieves and how many of
// them have no text on the server.
type TextCount struct {
	Run            string
	Articles, None int
}

// MissingText counts, for each run, the distinct articles it retrieves for
// the judged topics of q and those for which has reports no text. The
// server says so at start-up (the pages draw those articles as schematics).
func MissingText(q *inex.Qrels, runs []Run, has func(id string) bool) []TextCount {
	var out []TextCount
	for _, r := range runs {
		c := TextCount{Run: r.Run.ID}
		seen := map[string]bool{}
		for _, t := range r.Run.Topics {
			if _, ok := q.Topics[t.ID]; !ok {
				continue
			}
			for _, res := range t.Results {
				if seen[res.Article] {
					continue
				}
				seen[res.Article] = true
				c.Articles++
				if !has(res.Article) {
					c.None++
				}
			}
		}
		out = append(out, c)
	}
	return out
}
