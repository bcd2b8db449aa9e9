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
	idx                              string
	k                                int
	titleBoost, textBoost, threshold float64
}

func addRetrievalFlags(fs *flag.FlagSet, k int) *retrievalFlags {
	r := &retrievalFlags{}
	fs.StringVar(&r.idx, "index", "", "the index folder (`IDX`) built by readsim index")
	fs.IntVar(&r.k, "k", k, "number of articles to fetch per query")
	fs.Float64Var(&r.titleBoost, "title-boost", 2, "weight of the title field in fetch")
	fs.Float64Var(&r.textBoost, "text-boost", 1, "weight of the text field in fetch")
	fs.Float64Var(&r.threshold, "threshold", index.DefaultThreshold, "browse keeps the elements scoring at least this fraction of the best one (0 < t ≤ 1)")
	return r
}

// options checks the flags and returns the search options they give.
func (r *retrievalFlags) options() (index.Options, error) {
	switch {
	case r.idx == "":
		return index.Options{}, cli.Usagef("--index is required")
	case r.k <= 0:
		return index.Options{}, cli.Usagef("--k must be positive")
	}
	o, err := index.NewOptions(r.titleBoost, r.textBoost, r.threshold)
	if err != nil {
		return o, cli.Usage(err)
	}
	return o, nil
}

func runSearch(e *cli.Env, fs *flag.FlagSet, args []string) error {
	rf := addRetrievalFlags(fs, 10)
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	opt, err := rf.options()
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return cli.Usagef("no query")
	}
	text := strings.Join(pos, " ")
	x, err := index.Open(rf.idx)
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
	ctx, stop := cli.Context()
	defer stop()
	res, err := x.Search(ctx, q, rf.k, opt)
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
