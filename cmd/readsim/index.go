package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/internal/cli"
)

func runIndex(e *cli.Env, fs *flag.FlagSet, args []string) error {
	articles := fs.String("articles", "", "the folder of articles (`DIR`, searched recursively)")
	idx := fs.String("index", "", "the index folder to build or update (`IDX`)")
	elements := fs.String("elements", strings.Join(index.DefaultElements, ","), "candidate element names for browse, comma-separated")
	rebuild := fs.Bool("rebuild", false, "build from scratch even if IDX is an up-to-date index")
	workers := fs.Int("workers", 0, "parsing goroutines (0: one per CPU)")
	shards := fs.Int("shards", 0, fmt.Sprintf("number of shards, built concurrently and searched in parallel (1–%d; 0: the index's own, or for a new index one per CPU but at most one per 8 MB of XML); a change rebuilds the index", index.MaxShards))
	af := addArticleFlags(fs)
	if err := cli.ParseFlagsOnly(fs, args); err != nil {
		return err
	}
	if *articles == "" || *idx == "" {
		return cli.Usagef("--articles and --index are required")
	}
	if *shards < 0 || *shards > index.MaxShards {
		return cli.Usagef("--shards must be between 1 and %d (0: the default)", index.MaxShards)
	}
	// one reader for the whole collection: each DTD read once, a missing
	// one reported once
	rd, err := af.reader(e, "index", *articles)
	if err != nil {
		return err
	}
	opt := index.BuildOptions{Articles: *articles, Index: *idx, Rebuild: *rebuild, Workers: *workers, Shards: *shards, Reader: rd, Elements: cli.CommaList(*elements)}
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
	printBuildSummary(e.Stderr, *idx, res)
	return nil
}

// printBuildSummary writes index.BuildResult.Summary, a line each.
func printBuildSummary(w io.Writer, idx string, r *index.BuildResult) {
	for _, l := range r.Summary(idx) {
		fmt.Fprintf(w, "readsim index: %s\n", l)
	}
}
