package main

import (
	"bufio"
	"fmt"
	"github.com/readsim/readsim/effort"
	"net/url"
	"path"
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
// (article.Dir: a file name several files have is no id; the articles are
// known by their paths without .xml, en/3951 and ja/3951, and the plain id
// is an input error naming them, with a warning saying the clash). Passages
// partly past the article's end are clipped with a warning, passages wholly
// past it are an input error, and overlapping passages are merged with a
// warning. The page is standalone, to be saved as ID.xhtml in one folder (a
// qualified id's page in its sub-folder: ja/3951.xhtml): links to other
// articles of DIR point to their ID.xhtml relative to it (pageLink), links
// to articles not in DIR are plain text. --dtd and --lang are the shared
// article flags (articleflags.go); the page's lang is the article's.
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
	if !wellFormedID(id) {
		return usageError{fmt.Sprintf("bad article id %q: an id is a file name without .xml, or a path below --articles without .xml (en/3951)", id)}
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
	if w := article.ClashWarning(d.Clashes()); w != "" {
		fmt.Fprintf(e.stderr, "readsim render: warning: %s\n", w)
	}
	a, err := d.Parse(id)
	if err != nil {
		return inputError{err}
	}
	id = a.ID
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
		ArticleURL: func(to string) string {
			if _, ok := d.Path(to); !ok {
				return ""
			}
			return pageLink(id, to)
		},
	}
	if err := render.Page(w, a, ps, opt); err != nil {
		return err
	}
	return w.Flush()
}

// wellFormedID reports whether an article id given on the command line
// can be one: not empty, no back-slash, no empty, "." or ".." step, not
// absolute. (Ids are looked up in the folder's table, never joined into a
// path: this only turns away what cannot be an id.)
func wellFormedID(id string) bool {
	if id == "" || strings.ContainsRune(id, '\\') {
		return false
	}
	for _, step := range strings.Split(id, "/") {
		if step == "" || step == "." || step == ".." {
			return false
		}
	}
	return true
}

// pageLink is the link from the page of article from to the page of
// article to, each saved as its id + ".xhtml" under one folder (ja/3951's
// page is ja/3951.xhtml): "7001.xhtml" from ja/3951 to ja/7001,
// "../555.xhtml" from ja/3951 to 555. Each step is escaped.
func pageLink(from, to string) string {
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
