package index

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/chars"
)

// WriteResults writes search results for a terminal: a line per article
// (rank, id, score to 4 decimals, language, title), then an indented line
// per passage (offset:length, XPaths, a snippet of about snippetWidth
// characters), tab-separated; titles and snippets on one line each, without
// control characters (terminalText).
func WriteResults(w io.Writer, res []SearchResult, q *Query) error {
	for i, r := range res {
		if _, err := fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\n", i+1, r.ID, strconv.FormatFloat(r.Score, 'f', 4, 64), r.Lang, terminalText(r.Title)); err != nil {
			return err
		}
		for _, p := range r.Passages {
			if _, err := fmt.Fprintf(w, "\t%d:%d\t%s\t%s\n", p.Start, p.Len(), strings.Join(p.XPaths, ","), terminalText(Snippet(r.Doc, p, q, snippetWidth(r.Lang)))); err != nil {
				return err
			}
		}
	}
	return nil
}

// snippetWidth is the width of search's snippets in characters: about 160
// terminal columns. Chinese, Japanese and Korean characters take two
// columns each in a terminal, so their snippets have 80 characters.
func snippetWidth(lang string) int {
	if article.IsCJK(lang) {
		return 80
	}
	return 160
}

// terminalText makes text safe for one tab-separated terminal line: runs
// of white space (tabs and line ends included) become one space, and other
// control characters (C0, DEL, C1: an article may hold U+009B, which some
// terminals take for an escape sequence) become U+FFFD.
func terminalText(s string) string {
	s = chars.OneSpace(s)
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return unicode.ReplacementChar
		}
		return r
	}, s)
}
