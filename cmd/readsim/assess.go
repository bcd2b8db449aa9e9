package main

import (
	"errors"
	"os"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/assess"
)

func init() {
	register(&command{
		name:    "assess",
		args:    "--articles DIR [--out QRELS] HIGHLIGHTS",
		summary: "turn a highlights file (quotes of relevant text) into INEX FOL judgments",
		run:     runAssess,
	})
}

func runAssess(e *env, args []string) error {
	fs := newFlags(e, commands["assess"])
	dir := fs.String("articles", "", "folder of the articles the quotes are from (required)")
	out := fs.String("out", "", "write the judgments to this file (atomically) instead of standard output")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *dir == "" {
		return usageError{"want --articles DIR and one highlights file"}
	}
	d, err := article.OpenDir(*dir)
	if err != nil {
		return inputError{err}
	}
	f, err := os.Open(pos[0])
	if err != nil {
		return inputError{err}
	}
	defer f.Close()
	js, err := assess.Judge(f, pos[0], d.Parse)
	if err != nil {
		var ae *assess.Error
		if errors.As(err, &ae) {
			return inputError{err}
		}
		return err
	}
	if *out == "" {
		return assess.WriteFOL(e.stdout, js)
	}
	return writeFileAtomic(*out, func(w *os.File) error { return assess.WriteFOL(w, js) })
}
