package main

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/render"
)

func init() {
	register(&command{
		name:    "render",
		args:    "--articles DIR ARTICLE_ID [--passage OFFSET:LENGTH]...",
		summary: "the anchored single-column XHTML page of an article",
		run:     runRender,
	})
}

// runRender prints the page of one article. The article file is the first
// ID.xml found under DIR, folders visited in lexical order (collections
// hold each id once). Passages partly past the article's end are clipped
// with a warning, passages wholly past it are an input error, and
// overlapping passages are merged with a warning.
func runRender(e *env, args []string) error {
	fs := newFlags(e, commands["render"])
	dir := fs.String("articles", "", "the folder of the articles (searched recursively)")
	var passages multiFlag
	fs.Var(&passages, "passage", "a passage to anchor and highlight, `OFFSET:LENGTH` in characters (repeatable)")
	noHighlight := fs.Bool("no-highlight", false, "start with the passage highlight switched off")
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
	var ps []render.Passage
	for _, s := range passages {
		p, err := parsePassage(s)
		if err != nil {
			return usageError{err.Error()}
		}
		ps = append(ps, p)
	}
	path, err := findArticle(*dir, id)
	if err != nil {
		return inputError{err}
	}
	a, err := article.ParseFile(path)
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
	if err := render.Page(w, a, ps, render.Options{NoHighlight: *noHighlight}); err != nil {
		return err
	}
	return w.Flush()
}

// parsePassage parses OFFSET:LENGTH, two decimal integers, the offset at
// least 0 and the length at least 1.
func parsePassage(s string) (render.Passage, error) {
	bad := func(why string) (render.Passage, error) {
		return render.Passage{}, fmt.Errorf("bad --passage %q: %s (want OFFSET:LENGTH, e.g. 120:45)", s, why)
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
	return render.Passage{Start: off, End: off + n}, nil
}

var errFound = errors.New("found")

// findArticle returns the path of the first file named id+".xml" under dir.
func findArticle(dir, id string) (string, error) {
	if st, err := os.Stat(dir); err != nil {
		return "", fmt.Errorf("--articles %s: %v", dir, errors.Unwrap(err))
	} else if !st.IsDir() {
		return "", fmt.Errorf("--articles %s: not a folder", dir)
	}
	want := id + ".xml"
	var found string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder: look elsewhere
		}
		if !d.IsDir() && d.Name() == want {
			found = path
			return errFound
		}
		return nil
	})
	if err != nil && err != errFound {
		return "", err
	}
	if found == "" {
		return "", fmt.Errorf("no article %s under %s (no file %s)", id, dir, want)
	}
	return found, nil
}
