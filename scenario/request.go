package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// The --compat modes: CompatINEX reproduces the official INEX tool (gP[k]
// for k > n repeats gP[n]); CompatTrecGen writes NIST's TREC Genomics
// output (eval only); CompatTrec9 computes the trec_eval measures with
// trec_eval 9's rules (effort.TrecCompat9Measures; eval only).
const (
	CompatINEX    = "inex"
	CompatTrecGen = "trecgen"
	CompatTrec9   = "9"
)

// MeasureRequest is what a command is asked to measure against which
// judgments: the --qrels, -m, --order and --compat of eval, compare,
// fidelity and replay, and the --offsets and --lengths of eval and compare.
// Its methods (Check, then Judgments, then Select) hold the checks of the
// measures that every such command makes, and return a RequestError for a
// request readsim cannot take (a MeasureError for a measure that cannot
// serve the use). The command's own checks (its arguments, --format) come
// before or after them.
type MeasureRequest struct {
	Qrels   string   // the judgments file (required)
	Names   []string // the measures asked (-m); none: the defaults
	Order   string   // the reading order after the retrieved passages: natural, best or worst
	Compat  string   // "" or one of Compats
	Compats []string // the --compat modes the command takes (nil: CompatINEX only)
	Offsets string   // what span judgments' offsets count: chars or bytes ("": the format's)
	Lengths string   // the file of span judgments' document lengths ("": none)
	Use     Use      // what the measures are for
}

// RequestError is a request readsim cannot take: a flag value out of
// range, an unknown measure or mode, a missing file name (bad usage, exit
// status 2).
type RequestError struct{ Err error }

// Error returns the problem.
func (e *RequestError) Error() string { return e.Err.Error() }

// Unwrap returns the problem.
func (e *RequestError) Unwrap() error { return e.Err }

// requestErrorf is a RequestError formatted as fmt.Errorf does.
func requestErrorf(format string, a ...any) error {
	return &RequestError{fmt.Errorf(format, a...)}
}

// Check checks the request before the judgments are read, in this order:
// judgments named, the reading order, --compat, the measures named (their
// names, "all" standing for every measure the use can give, and
// CheckMeasures without judgments except for eval and recorded readings,
// whose measures are checked against the judgments; with --compat
// trecgen, TrecGenMeasures). It returns the measures' configuration and the
// measures named (defaults when none are; nil when defaults is nil too:
// the judgments' defaults are Select's).
func (r *MeasureRequest) Check(defaults []string) (effort.Config, []effort.Measure, error) {
	var cfg effort.Config
	if r.Qrels == "" {
		return cfg, nil, requestErrorf("--qrels is required")
	}
	o, err := effort.ParseOrder(r.Order)
	if err != nil {
		return cfg, nil, &RequestError{err}
	}
	cfg = effort.Config{Order: o, CompatINEX: r.Compat == CompatINEX}
	if r.Compat == CompatTrec9 {
		cfg.TrecCompat = 9
	}
	compats := r.Compats
	if compats == nil {
		compats = []string{CompatINEX}
	}
	switch {
	case r.Compat == "" || slices.Contains(compats, r.Compat):
	case len(compats) == 1:
		return cfg, nil, requestErrorf("unknown --compat %q (only %s)", r.Compat, compats[0])
	default:
		last := len(compats) - 1
		return cfg, nil, requestErrorf("unknown --compat %q (%s or %s)", r.Compat, strings.Join(compats[:last], ", "), compats[last])
	}
	names := r.Names
	if len(names) == 0 {
		names = defaults
	}
	var ms []effort.Measure
	if len(names) > 0 {
		// "all": every measure the use can give, before the judgments
		// tell which of them they can (Select)
		if ms, err = effort.ParseMeasureList(names, usable(effort.AllNames, r.Use, nil)); err != nil {
			return cfg, nil, &RequestError{err}
		}
	}
	switch {
	case r.Compat == CompatTrecGen:
		ms, err = TrecGenMeasures(ms)
	case ms != nil && r.Use != UseAll && r.Use != UseRecorded:
		err = CheckMeasures(ms, r.Use, nil)
	}
	return cfg, ms, err
}

// Judgments reads the judgments, their offsets counting --offsets and
// their documents' lengths read from --lengths (inex.OpenQrelsWith).
func (r *MeasureRequest) Judgments(warn func(string)) (*inex.Qrels, error) {
	var unit *inex.Unit
	if r.Offsets != "" {
		u, err := inex.ParseUnit(r.Offsets)
		if err != nil {
			return nil, requestErrorf("--offsets: %v", err)
		}
		unit = &u
	}
	return inex.OpenQrelsWith(r.Qrels, unit, r.Lengths, warn)
}

// Select returns the measures to compute against q: those named (-m, "all"
// standing for what q can give the use) or the defaults of the use and q
// (SelectMeasures), or with --compat trecgen NIST's measures
// (TrecGenMeasures). Compare's measures are checked against q here
// (CheckMeasures); the others' where they are computed. A note goes to
// warn when the measures count bytes (UnitNote).
func (r *MeasureRequest) Select(q *inex.Qrels, warn func(string)) ([]effort.Measure, error) {
	var ms []effort.Measure
	var err error
	if r.Compat == CompatTrecGen {
		_, ms, err = r.Check(nil) // NIST's measures do not depend on q
	} else if ms, err = SelectMeasures(r.Names, r.Use, q); err != nil {
		err = &RequestError{err}
	} else if r.Use == UsePerTopic || r.Use == UseRecordedPerTopic {
		err = CheckMeasures(ms, r.Use, q)
	}
	if err != nil {
		return nil, err
	}
	if note := UnitNote(q, ms); note != "" && warn != nil {
		warn(note)
	}
	return ms, nil
}
