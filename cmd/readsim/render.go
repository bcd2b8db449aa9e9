package main

import (
	"bufio"
	"flag"
	"fmt"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/render"
)

// runRender prints the page of one article, found by id anywhere under DIR
// (article.Dir: a file name several files have is no id, and the plain id
// is an input error naming the articles' paths, with a warning saying the
// clash), with the passages checked by render.CheckPassages. The page is
// standalone, to be saved as ID.xhtml in one folder: links to other
// articles of DIR point to their page (render.PageLink), links to articles
// not in DIR are plain text. The page's lang is the article's.
func runRender(e *cli.Env, fs *flag.FlagSet, args []string) error {
	dir := fs.String("articles", "", "the folder of the articles (searched recursively)")
	var passages cli.Strings
	fs.Var(&passages, "passage", "a passage to anchor and highlight, `OFFSET:LENGTH` in characters (repeatable)")
	noHighlight := fs.Bool("no-highlight", false, "start with the passage highlight switched off")
	af := addArticleFlags(fs)
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if *dir == "" {
		return cli.Usagef("--articles is required")
	}
	if len(pos) != 1 {
		return cli.Usagef("want exactly one ARTICLE_ID")
	}
	id := pos[0]
	if !article.WellFormedID(id) {
		return cli.Usagef("bad article id %q: an id is a file name without .xml, or a path below --articles without .xml (en/3951)", id)
	}
	var ps []effort.Span
	for _, s := range passages {
		p, err := effort.ParseSpan(s, 1<<40)
		if err != nil {
			return cli.Usagef("bad --passage %q: %v (want OFFSET:LENGTH, e.g. 120:45)", s, err)
		}
		ps = append(ps, p)
	}
	rd, err := af.reader(e, "render", *dir)
	if err != nil {
		return err
	}
	d, err := article.OpenDir(*dir)
	if err != nil {
		return err
	}
	d.Reader = rd
	warn := func(s string) { fmt.Fprintf(e.Stderr, "readsim render: warning: %s\n", s) }
	if w := article.ClashWarning(d.Clashes()); w != "" {
		warn(w)
	}
	a, err := d.Parse(id)
	if err != nil {
		return err
	}
	id = a.ID
	warnings, err := render.CheckPassages(ps, id, a.Len)
	if err != nil {
		return inputError{err}
	}
	for _, w := range warnings {
		warn(w)
	}
	w := bufio.NewWriterSize(e.Stdout, 64<<10)
	has := func(to string) bool { _, ok := d.Path(to); return ok }
	opt := render.Options{NoHighlight: *noHighlight, ArticleURL: render.PageLinks(id, has)}
	if err := render.Page(w, a, ps, opt); err != nil {
		return err
	}
	return w.Flush()
}
