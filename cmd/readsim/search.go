package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/index/article"
)

func init() {
	register(&command{
		name:    "search",
		args:    "--index IDX [--k N] QUERY...",
		summary: "fetch and browse: ranked articles, each with its best passages",
		run:     runSearch,
	})
}

// retrievalFlags are the flags search and run share.
type retrievalFlags struct {
	idx        *string
	k          *int
	titleBoost *float64
	textBoost  *float64
	threshold  *float64
}

func addRetrievalFlags(fs *flag.FlagSet, k int) retrievalFlags {
	return retrievalFlags{
		idx:        fs.String("index", "", "the index folder (`IDX`) built by readsim index"),
		k:          fs.Int("k", k, "number of articles to fetch per query"),
		titleBoost: fs.Float64("title-boost", 2, "weight of the title field in fetch"),
		textBoost:  fs.Float64("text-boost", 1, "weight of the text field in fetch"),
		threshold:  fs.Float64("threshold", index.DefaultThreshold, "browse keeps the elements scoring at least this fraction of the best one (0 < t ≤ 1)"),
	}
}

func (r retrievalFlags) check() error {
	if *r.idx == "" {
		return usageError{"--index is required"}
	}
	if *r.k <= 0 {
		return usageError{"--k must be positive"}
	}
	if *r.threshold <= 0 || *r.threshold > 1 {
		return usageError{"--threshold must be in (0, 1]"}
	}
	if *r.titleBoost < 0 || *r.textBoost < 0 || *r.titleBoost+*r.textBoost == 0 {
		return usageError{"--title-boost and --text-boost must be non-negative, not both zero"}
	}
	return nil
}

func (r retrievalFlags) options() index.Options {
	o := index.Options{TitleBoost: *r.titleBoost, TextBoost: *r.textBoost, Threshold: *r.threshold}
	// a zero boost switches the field off; Options treats 0 as the default
	if o.TitleBoost == 0 {
		o.TitleBoost = 1e-9
	}
	if o.TextBoost == 0 {
		o.TextBoost = 1e-9
	}
	return o
}

// openIndex opens an index, mapping bad input to exit status 2.
func openIndex(dir string) (*index.Index, error) {
	x, err := index.Open(dir)
	var ie *index.InputError
	if errors.As(err, &ie) {
		return nil, inputError{err}
	}
	return x, err
}

func runSearch(e *env, args []string) error {
	fs := newFlags(e, commands["search"])
	rf := addRetrievalFlags(fs, 10)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := rf.check(); err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError{"no query"}
	}
	text := strings.Join(pos, " ")
	x, err := openIndex(*rf.idx)
	if err != nil {
		return err
	}
	defer x.Close()
	q, err := x.Prepare(text)
	if errors.Is(err, index.ErrNoTerms) {
		return usageError{fmt.Sprintf("query %q: %v", text, err)}
	}
	if err != nil {
		return err
	}
	opt := rf.options()
	res, err := x.Search(context.Background(), q, *rf.k, opt)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(e.stdout)
	if len(res) == 0 {
		fmt.Fprintf(e.stderr, "readsim search: no article matches %q\n", text)
	}
	// One line per article (rank, id, score, language, title), then one
	// indented line per passage (offset:length, XPaths, snippet),
	// tab-separated.
	for i, r := range res {
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\n", i+1, r.ID, strconv.FormatFloat(r.Score, 'f', 4, 64), r.Lang, terminalText(r.Title))
		for _, p := range r.Passages {
			fmt.Fprintf(w, "\t%d:%d\t%s\t%s\n", p.Start, p.Len(), strings.Join(p.XPaths, ","), terminalText(index.Snippet(r.Doc, p, q, snippetWidth(r.Lang))))
		}
	}
	return w.Flush()
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
	s = strings.Join(strings.Fields(s), " ")
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return unicode.ReplacementChar
		}
		return r
	}, s)
}
