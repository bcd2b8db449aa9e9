package scenario

import (
	"fmt"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// MaxPermutations bounds CompareOptions.Permutations: 10⁷ random sign
// assignments of 120 topics take seconds per measure; more would look
// like a hang (docs/limits.md).
const MaxPermutations = 10_000_000

// CheckParams checks the parameters of the paired tests that a person
// gives (`readsim compare`'s --permutations, --test and --alpha): the
// permutations from 1 to MaxPermutations, a known test, a level strictly
// between 0 and 1. Its errors name the flags.
func (o CompareOptions) CheckParams() error {
	switch {
	case o.Permutations < 1 || o.Permutations > MaxPermutations:
		return fmt.Errorf("--permutations must be from 1 to %d", MaxPermutations)
	case o.Test != TestRand && o.Test != TestT:
		return fmt.Errorf("--test %q: rand or t", o.Test)
	case !(o.Alpha > 0 && o.Alpha < 1):
		return fmt.Errorf("--alpha must be between 0 and 1")
	}
	return nil
}

// CheckParams checks the reader's parameters as a person gives them
// (`readsim replay`'s --t2i, --screen, --nr and --depth): the bounds of
// measure parameters (effort.MaxParam) and of ranks (inex.MaxRank). Its
// errors name the flags.
func (r SimulatedReader) CheckParams() error {
	if r.T2I < 0 || r.Screen < 1 || r.NR < 1 || r.Depth < 0 ||
		r.T2I > effort.MaxParam || r.Screen > effort.MaxParam || r.NR > effort.MaxParam || r.Depth > inex.MaxRank {
		return fmt.Errorf("--t2i must be from 0 to %d, --screen and --nr from 1 to %d (the bound of measure parameters), --depth from 0 to %d", effort.MaxParam, effort.MaxParam, inex.MaxRank)
	}
	return nil
}

// BaselineError says that the baseline a person named is none of the
// runs or readings compared.
type BaselineError struct {
	Name     string
	Readings bool
}

func (e *BaselineError) Error() string {
	if e.Readings {
		return fmt.Sprintf("--baseline %q is none of the readings", e.Name)
	}
	return fmt.Sprintf("--baseline %q is none of the runs (give a run id, a file or a position)", e.Name)
}

// CompareRunFiles opens the runs of files (each checked topic by topic as
// it is read: GroupCheck) and compares them with the baseline named by
// baseline (FindRun; "" for the last run or the document baseline):
// against the judgments q (Compare) or, when st is not nil, against st's
// read a topic at a time (CompareStream; q holds those read so far). It
// returns the runs too, for charts. An unknown baseline is a
// *BaselineError.
func CompareRunFiles(q *inex.Qrels, st *inex.QrelsStream, files []string, baseline string, opt CompareOptions) (*Comparison, []*inex.Run, error) {
	runs := make([]*inex.Run, len(files))
	ev := opt.Eval
	for i, p := range files {
		var err error
		ro := inex.RunOptions{Warn: ev.Warn, TopicRead: GroupCheck(q, p, ev.Measures, ev.Group, ev.MergeOverlaps)}
		if runs[i], err = inex.OpenRun(p, ro); err != nil {
			return nil, nil, err
		}
	}
	opt.Baseline = -1
	if baseline != "" {
		if opt.Baseline = FindRun(baseline, files, runs); opt.Baseline < 0 {
			return nil, nil, &BaselineError{Name: baseline}
		}
	}
	var cmp *Comparison
	var err error
	if st != nil {
		cmp, err = CompareStream(st, runs, opt)
	} else {
		cmp, err = Compare(q, runs, opt)
	}
	return cmp, runs, err
}

// CompareReadingFiles opens the recorded readings of files and compares
// them as runs (CompareReadings) with the baseline named by baseline
// (FindReading; "" for the last). An unknown baseline is a
// *BaselineError.
func CompareReadingFiles(q *inex.Qrels, files []string, baseline string, opt CompareOptions) (*Comparison, error) {
	rds, err := OpenReadings(files)
	if err != nil {
		return nil, err
	}
	opt.Baseline = -1
	if baseline != "" {
		if opt.Baseline = FindReading(baseline, files, rds); opt.Baseline < 0 {
			return nil, &BaselineError{Name: baseline, Readings: true}
		}
	}
	return CompareReadings(q, rds, opt)
}
