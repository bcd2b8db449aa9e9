package main

import (
	"bufio"
	"errors"
	"fmt"

	"github.com/readsim/readsim/index/article"
)

func init() {
	register(&command{
		name:    "inspect",
		args:    "ARTICLE.xml",
		summary: "the article's text length, then one line per element: xpath<TAB>start<TAB>end",
		run:     runInspect,
	})
}

func runInspect(e *env, args []string) error {
	fs := newFlags(e, commands["inspect"])
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"want exactly one article file"}
	}
	a, err := article.ParseFile(pos[0])
	if err != nil {
		var ae *article.Error
		if errors.As(err, &ae) {
			return inputError{err}
		}
		return err
	}
	w := bufio.NewWriterSize(e.stdout, 64<<10)
	fmt.Fprintln(w, a.Len)
	for i := range a.Elements {
		el := &a.Elements[i]
		fmt.Fprintf(w, "%s\t%d\t%d\n", el.XPath, el.Start, el.End)
	}
	return w.Flush()
}
