package main

import (
	"flag"
	"slices"
	"strings"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
)

// compatUsage is the usage of --compat of compare, fidelity and replay (eval
// words it its own way).
const compatUsage = "inex: gP[k] for k > n repeats gP[n], as the official INEX tool"

// measureFlags are the flags that say what is measured against which
// judgments, shared by eval, compare, fidelity and replay: --qrels, -m,
// --order and --compat, (addOverlapFlags) --group and --merge-overlaps,
// and (addSpanFlags) --lengths and --offsets. One definition keeps their
// names and defaults from drifting apart.
type measureFlags struct {
	qrels, order, compat string
	ms                   cli.Strings
	compats              []string // the values --compat takes
	group, merge         bool     // false without addOverlapFlags
	lengths, offsets     string   // "" without addSpanFlags
}

// addMeasureFlags defines --qrels, -m (with the command's usage msUsage),
// --order and --compat (usage compatUsage) on fs.
func addMeasureFlags(fs *flag.FlagSet, msUsage, compatUsage string) *measureFlags {
	f := &measureFlags{compats: []string{"inex"}}
	fs.StringVar(&f.qrels, "qrels", "", "judgments: INEX FOL, TREC qrels, span judgments or the TREC Genomics gold standard (gzip or not)")
	fs.Var(&f.ms, "m", msUsage)
	fs.StringVar(&f.order, "order", "natural", "reading order after the retrieved passages: natural, best or worst")
	fs.StringVar(&f.compat, "compat", "", compatUsage)
	return f
}

// addSpanFlags defines --lengths and --offsets on fs, for span judgments
// (TREC Genomics and any collection judged by passages).
func (f *measureFlags) addSpanFlags(fs *flag.FlagSet) *measureFlags {
	fs.StringVar(&f.lengths, "lengths", "", "`FILE` of document lengths for span judgments, a \"doc length\" line per document in the offsets' unit: the measures that simulate reading need them")
	fs.StringVar(&f.offsets, "offsets", "", "what span judgments' offsets and lengths count: chars or bytes (default: bytes for TREC Genomics judgments, chars otherwise)")
	return f
}

// addOverlapFlags defines --group and --merge-overlaps on fs.
func (f *measureFlags) addOverlapFlags(fs *flag.FlagSet) *measureFlags {
	fs.BoolVar(&f.group, "group", false, "group an article's interleaved results at its first appearance instead of failing")
	fs.BoolVar(&f.merge, "merge-overlaps", false, "merge overlapping passages of an article instead of failing")
	return f
}

// check validates the flags in the order requireQrels, readingOrder,
// checkCompat, measures and returns the order and the measures (nil when -m
// was not given and defaults is nil).
func (f *measureFlags) check(defaults []string) (effort.Order, []effort.Measure, error) {
	if err := f.requireQrels(); err != nil {
		return 0, nil, err
	}
	o, err := f.readingOrder()
	if err != nil {
		return 0, nil, err
	}
	if err := f.checkCompat(); err != nil {
		return 0, nil, err
	}
	ms, err := f.measures(defaults)
	return o, ms, err
}

func (f *measureFlags) requireQrels() error {
	if f.qrels == "" {
		return cli.Usagef("--qrels is required")
	}
	return nil
}

func (f *measureFlags) readingOrder() (effort.Order, error) {
	o, err := effort.ParseOrder(f.order)
	if err != nil {
		return 0, cli.Usage(err)
	}
	return o, nil
}

func (f *measureFlags) checkCompat() error {
	switch {
	case f.compat == "" || slices.Contains(f.compats, f.compat):
		return nil
	case len(f.compats) == 1:
		return cli.Usagef("unknown --compat %q (only %s)", f.compat, f.compats[0])
	}
	return cli.Usagef("unknown --compat %q (%s)", f.compat, strings.Join(f.compats, " or "))
}

// measures parses the -m names (defaults without -m; nil when defaults is
// nil too): comma lists, "all", aliases (effort.ParseMeasures); an unknown
// name or a list that names no measure is a usage error.
func (f *measureFlags) measures(defaults []string) ([]effort.Measure, error) {
	names := []string(f.ms)
	if len(names) == 0 {
		if defaults == nil {
			return nil, nil
		}
		names = defaults
	}
	ms, err := effort.ParseMeasures(names)
	if err != nil {
		return nil, cli.Usage(err)
	}
	return ms, nil
}

// config is the measures' configuration of the reading order o and
// --compat inex.
func (f *measureFlags) config(o effort.Order) effort.Config {
	return effort.Config{Order: o, CompatINEX: f.compat == "inex"}
}

// openQrels reads --qrels, giving them --offsets and --lengths.
func (f *measureFlags) openQrels(warn func(string)) (*inex.Qrels, error) {
	var unit *inex.Unit
	if f.offsets != "" {
		u, err := inex.ParseUnit(f.offsets)
		if err != nil {
			return nil, cli.Usagef("--offsets: %v", err)
		}
		unit = &u
	}
	return inex.OpenQrelsWith(f.qrels, unit, f.lengths, warn)
}

// selectOn returns the -m measures for use against q
// (scenario.SelectMeasures: without -m the defaults of q and use).
func (f *measureFlags) selectOn(q *inex.Qrels, use scenario.Use) ([]effort.Measure, error) {
	ms, err := scenario.SelectMeasures(f.ms, use, q)
	if err != nil {
		return nil, cli.Usage(err)
	}
	return ms, nil
}

// unitNote warns on warn when ms count bytes read (scenario.UnitNote).
func unitNote(q *inex.Qrels, ms []effort.Measure, warn func(string)) {
	if note := scenario.UnitNote(q, ms); note != "" {
		warn(note)
	}
}
