package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/internal/app"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/internal/cli/flaggroup"
	"github.com/readsim/readsim/internal/ground/durable"
	"github.com/readsim/readsim/render"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

// maxWorkers bounds --workers: more goroutines than this parse no faster
// on any machine readsim runs on.
const maxWorkers = 1024

func runIndex(e *cli.Env, fs *flag.FlagSet, args []string) error {
	articles := fs.String("articles", "", "the folder of articles (`DIR`, searched recursively)")
	idx := fs.String("index", "", "the index folder to build or update (`IDX`), or an index on an OpenSearch cluster, http(s)://HOST:PORT[,HOST:PORT…]/NAME")
	elements := fs.String("elements", strings.Join(index.DefaultElements, ","), "candidate element names for browse, comma-separated")
	rebuild := fs.Bool("rebuild", false, "build from scratch even if IDX is an up-to-date index")
	workers := fs.Int("workers", 0, "parsing goroutines (0: one per CPU)")
	shards := fs.Int("shards", 0, fmt.Sprintf("number of shards, built concurrently and searched in parallel (1–%d; 0: the index's own, or for a new index one per CPU but at most one per 8 MB of XML); a change rebuilds the index", index.MaxShards))
	af := flaggroup.AddArticles(fs)
	if err := cli.ParseFlagsOnly(fs, args); err != nil {
		return err
	}
	if *articles == "" || *idx == "" {
		return cli.Usagef("--articles and --index are required")
	}
	if *workers < 0 || *workers > maxWorkers {
		return cli.Usagef("--workers must be from 1 to %d (0: one per CPU)", maxWorkers)
	}
	if *shards < 0 || *shards > index.MaxShards {
		return cli.Usagef("--shards must be between 1 and %d (0: the default)", index.MaxShards)
	}
	// one reader for the whole collection: each DTD read once, a missing
	// one reported once
	rd, err := af.Reader(e, "index", *articles)
	if err != nil {
		return err
	}
	opt := index.BuildOptions{Articles: *articles, Index: *idx, Rebuild: *rebuild, Workers: *workers, Shards: *shards, Reader: rd, Elements: index.ElementNames(*elements)}
	if len(opt.Elements) == 0 {
		return cli.Usagef("--elements names no element")
	}
	progress, finish := cli.BytesBar(e)
	if progress != nil {
		opt.Progress = func(p index.Progress) { progress(p.Bytes, p.TotalBytes, p.String()) }
	}
	res, err := index.Build(opt)
	finish()
	if err != nil {
		return err
	}
	for _, l := range res.Summary(*idx) {
		fmt.Fprintf(e.Stderr, "readsim index: %s\n", l)
	}
	if res.Elements == 0 && res.Articles > 0 {
		fmt.Fprintf(e.Stderr, "readsim index: warning: no article has a candidate element (--elements %s): browse finds no element, only whole articles\n", strings.Join(opt.Elements, ","))
	}
	return nil
}

func runSearch(e *cli.Env, fs *flag.FlagSet, args []string) error {
	rf := flaggroup.AddRetrieval(fs, 10)
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	opt, err := rf.Options()
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return cli.Usagef("no query")
	}
	text := strings.Join(pos, " ")
	x, err := index.OpenAt(rf.Index)
	if err != nil {
		return err
	}
	defer x.Close()
	q, err := x.Prepare(text)
	if errors.Is(err, index.ErrNoTerms) {
		return cli.Usagef("query %q: %v", text, err)
	}
	if err != nil {
		return err
	}
	// a signal ends the process (cli.ExitOnSignal): no context to cancel
	res, err := x.Search(context.Background(), q, rf.K, opt)
	if err != nil {
		return err
	}
	if len(res) == 0 {
		fmt.Fprintf(e.Stderr, "readsim search: no article matches %q\n", text)
	}
	w := bufio.NewWriter(e.Stdout)
	if err := index.WriteResults(w, res, q); err != nil {
		return err
	}
	return w.Flush()
}

func runRun(e *cli.Env, fs *flag.FlagSet, args []string) error {
	rf := flaggroup.AddRetrieval(fs, 100)
	topicsFile := fs.String("topics", "", "the topic `FILE` (INEX 2009 or 2006 XML, or plain text \"id title…\" lines; gzip or not)")
	task := fs.String("task", "ric", "ric, focused, bic (FOL text) or doc (TREC document run)")
	runID := fs.String("run-id", "", "the run id column (default readsim-TASK)")
	fields := fs.String("fields", "title", "topic fields that make the query, comma-separated: title, castitle, phrasetitle, description, narrative")
	out := fs.String("out", "", "write the run to `FILE` (written beside, then renamed) instead of standard output")
	if err := cli.ParseFlagsOnly(fs, args); err != nil {
		return err
	}
	search, err := rf.Options()
	if err != nil {
		return err
	}
	if *topicsFile == "" {
		return cli.Usagef("--topics is required")
	}
	if err := scenario.CheckOutput(*out, *topicsFile); err != nil {
		return cli.Usage(err)
	}
	if err := scenario.CheckOutsideFolders(*out, scenario.InputFolder{What: "the index folder", Dir: rf.Index}); err != nil {
		return cli.Usage(err)
	}
	opt := app.MakeRunOptions{Task: *task, K: rf.K, RunID: *runID, Search: search,
		Warn: func(s string) { fmt.Fprintf(e.Stderr, "readsim run: %s\n", s) }}
	if err := opt.Check(); err != nil {
		return err
	}
	fieldNames, err := scenario.TopicFields(*fields)
	if err != nil {
		return err
	}
	ts, err := inex.OpenTopics(*topicsFile)
	if err != nil {
		return cli.InputError{Err: err}
	}
	x, err := index.OpenAt(rf.Index)
	if err != nil {
		return err
	}
	defer x.Close()
	run, err := app.MakeRun(context.Background(), x, scenario.TopicQueries(ts, fieldNames), opt)
	if err != nil {
		return err
	}
	return durable.WriteOutput(e.Stdout, *out, func(w io.Writer) error { return inex.WriteRun(w, run) })
}

// runInspect prints an article's length and elements (Article.WriteElements).
func runInspect(e *cli.Env, fs *flag.FlagSet, args []string) error {
	af := flaggroup.AddArticles(fs)
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return cli.Usagef("want exactly one article file")
	}
	rd, err := af.Reader(e, "inspect", "")
	if err != nil {
		return err
	}
	a, err := rd.ParseFile(pos[0])
	if err != nil {
		return err
	}
	return a.WriteElements(e.Stdout)
}

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
	af := flaggroup.AddArticles(fs)
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
	ps, err := render.ParsePassages(passages)
	if err != nil {
		return cli.Usage(err)
	}
	rd, err := af.Reader(e, "render", *dir)
	if err != nil {
		return err
	}
	d, err := flaggroup.OpenCollection(e, "render", *dir, rd)
	if err != nil {
		return err
	}
	warn := func(s string) { fmt.Fprintf(e.Stderr, "readsim render: warning: %s\n", s) }
	a, err := d.Parse(id)
	if err != nil {
		return err
	}
	id = a.ID
	warnings, err := render.CheckPassages(ps, id, a.Len)
	if err != nil {
		return cli.InputError{Err: err}
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

func runAssess(e *cli.Env, fs *flag.FlagSet, args []string) error {
	dir := fs.String("articles", "", "folder of the articles the quotes are from (required)")
	out := fs.String("out", "", "write the judgments to this file (atomically) instead of standard output")
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *dir == "" {
		return cli.Usagef("want --articles DIR and one highlights file")
	}
	if err := scenario.CheckOutput(*out, pos[0]); err != nil {
		return cli.Usage(err)
	}
	if err := scenario.CheckOutsideFolders(*out, scenario.InputFolder{What: "the articles folder", Dir: *dir}); err != nil {
		return cli.Usage(err)
	}
	d, err := flaggroup.OpenCollection(e, "assess", *dir, nil)
	if err != nil {
		return err
	}
	f, err := inex.Open(pos[0], 0)
	if err != nil {
		return err
	}
	defer f.Close()
	js, err := scenario.Assess(f, pos[0], d.Parse)
	if err != nil {
		return err
	}
	return durable.WriteOutput(e.Stdout, *out, func(w io.Writer) error { return inex.WriteJudgments(w, js) })
}
