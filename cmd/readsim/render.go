package main

import (
	"bufio"
	"fmt"
	"github.com/readsim/readsim/effort"
	"net/url"
	"strconv"
	"strings"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/render"
)

func init() {
	register(&command{
		name:    "render",
		args:    "--articles DIR ARTICLE_ID [--passage OFFSET:LENGTH]... [--dtd FILE] [--lang LANG]",
		summary: "the anchored single-column XHTML page of an article",
		run:     runRender,
	})
}

// runRender prints the page of one article, found by id anywhere under DIR
// (two files with the same id are an input error). Passages partly past the
// article's end are clipped with a warning, passages wholly past it are an
// input error, and overlapping passages are merged with a warning. The page
// is standalone: links to other articles of DIR point to ID.xhtml beside it,
// links to articles not in DIR are plain text. --dtd and --lang are the
// shared article flags (articleflags.go); the page's lang is the article's.
func runRender(e *env, args []string) error {
	fs := newFlags(e, commands["render"])
	dir := fs.String("articles", "", "the folder of the articles (searched recursively)")
	var passages multiFlag
	fs.Var(&passages, "passage", "a passage to anchor and highlight, `OFFSET:LENGTH` in characters (repeatable)")
	noHighlight := fs.Bool("no-highlight", false, "start with the passage highlight switched off")
	af := addArticleFlags(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *dir == "" {
		return usageError{"--articles is required"}
	}
	if len(pos) != 1 {
		return usageError{"want exactly one ARTICLE_ID"}
	}
	id := pos[0]
	if id == "" || strings.ContainsAny(id, `/\`) || id == "." || id == ".." {
		return usageError{fmt.Sprintf("bad article id %q: an id is a file name without .xml", id)}
	}
	var ps []effort.Span
	for _, s := range passages {
		p, err := parsePassage(s)
		if err != nil {
			return usageError{err.Error()}
		}
		ps = append(ps, p)
	}
	rd, err := af.reader(e, "render", *dir)
	if err != nil {
		return err
	}
	d, err := article.OpenDir(*dir)
	if err != nil {
		return inputError{err}
	}
	d.Reader = rd
	a, err := d.Parse(id)
	if err != nil {
		return inputError{err}
	}
	for _, p := range ps {
		switch {
		case p.Start >= a.Len:
			return inputError{fmt.Errorf("passage %d:%d starts past the end of article %s (%d characters)", p.Start, p.End-p.Start, id, a.Len)}
		case p.End > a.Len:
			fmt.Fprintf(e.stderr, "readsim render: warning: passage %d:%d runs past the end of article %s (%d characters): clipped\n", p.Start, p.End-p.Start, id, a.Len)
		}
	}
	if n := render.NormalizePassages(ps, a.Len); len(n) < len(ps) {
		fmt.Fprintf(e.stderr, "readsim render: warning: overlapping passages merged: %d passages shown\n", len(n))
	}
	w := bufio.NewWriterSize(e.stdout, 64<<10)
	opt := render.Options{
		NoHighlight: *noHighlight,
		ArticleURL: func(id string) string {
			if _, ok := d.Path(id); !ok {
				return ""
			}
			return url.PathEscape(id) + ".xhtml"
		},
	}
	if err := render.Page(w, a, ps, opt); err != nil {
		return err
	}
	return w.Flush()
}

// parsePassage parses OFFSET:LENGTH, two decimal integers, the offset at
// least 0 and the length at least 1.
func parsePassage(s string) (effort.Span, error) {
	bad := func(why string) (effort.Span, error) {
		return effort.Span{}, fmt.Errorf("bad --passage %q: %s (want OFFSET:LENGTH, e.g. 120:45)", s, why)
	}
	o, l, ok := strings.Cut(s, ":")
	if !ok {
		return bad("no colon")
	}
	num := func(x, what string) (int, error) {
		if strings.HasPrefix(x, "-") {
			return 0, fmt.Errorf("negative %s", what)
		}
		if x == "" || strings.Trim(x, "0123456789") != "" {
			return 0, fmt.Errorf("the %s is not a number", what)
		}
		v, err := strconv.Atoi(x)
		if err != nil || v > 1<<40 {
			return 0, fmt.Errorf("the %s is too large", what)
		}
		return v, nil
	}
	off, err := num(o, "offset")
	if err != nil {
		return bad(err.Error())
	}
	n, err := num(l, "length")
	if err != nil {
		return bad(err.Error())
	}
	if n == 0 {
		return bad("the length must be at least 1")
	}
	return effort.Span{Start: off, End: off + n}, nil
}
