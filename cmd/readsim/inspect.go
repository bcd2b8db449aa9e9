package main

import "flag"

// runInspect prints an article's length and elements (Article.WriteElements).
func runInspect(e *env, fs *flag.FlagSet, args []string) error {
	af := addArticleFlags(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"want exactly one article file"}
	}
	rd, err := af.reader(e, "inspect", "")
	if err != nil {
		return err
	}
	a, err := rd.ParseFile(pos[0])
	if err != nil {
		return err
	}
	return a.WriteElements(e.stdout)
}
