package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/internal/cli"
)

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
		return cli.Usagef("--index is required")
	}
	if *r.k <= 0 {
		return cli.Usagef("--k must be positive")
	}
	if *r.threshold <= 0 || *r.threshold > 1 {
		return cli.Usagef("--threshold must be in (0, 1]")
	}
	if *r.titleBoost < 0 || *r.textBoost < 0 || *r.titleBoost+*r.textBoost == 0 {
		return cli.Usagef("--title-boost and --text-boost must be non-negative, not both zero")
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

func runSearch(e *cli.Env, fs *flag.FlagSet, args []string) error {
	rf := addRetrievalFlags(fs, 10)
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := rf.check(); err != nil {
		return err
	}
	if len(pos) == 0 {
		return cli.Usagef("no query")
	}
	text := strings.Join(pos, " ")
	x, err := index.Open(*rf.idx)
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
	opt := rf.options()
	ctx, stop := cli.Context()
	defer stop()
	res, err := x.Search(ctx, q, *rf.k, opt)
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
