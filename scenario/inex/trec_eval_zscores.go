package inex

import (
	"errors"
	"strconv"
)

// TrecZscore is one line of a trec_eval -Z file: the mean and standard
// deviation of a measure on a topic over a reference set of runs.
type TrecZscore struct {
	Mean, StdDev float64
}

// TrecZscores is a trec_eval -Z file (docs/trec_eval.md): topic → measure
// name (as trec_eval prints it: P_5, map) → mean and standard deviation.
type TrecZscores map[string]map[string]TrecZscore

// OpenTrecZscores reads the -Z file at path ("-": standard input) as
// trec_eval 10.0 does: each line "topic measure mean stddev", fields
// separated by white space. Like trec_eval it refuses an empty file and
// a line of other than four fields (a blank line too); where trec_eval
// reads a number with C's atof ("x" is 0) or keeps one of two lines for
// the same topic and measure, readsim refuses the line and names it.
func OpenTrecZscores(path string) (TrecZscores, error) {
	r, closeFn, name, err := openNamed(path)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	z := TrecZscores{}
	where := map[[2]string]int{}
	var fields [][]byte
	lines := 0
	err = trecLines(name, r, func(n int, b []byte) error {
		lines = n
		fields = cFields(fields, b)
		if len(fields) != 4 {
			return errorf(name, n, "%d fields where a z-score line has 4: topic measure mean stddev", len(fields))
		}
		topic, meas := string(fields[0]), string(fields[1])
		var v [2]float64
		for k, f := range fields[2:] {
			x, perr := strconv.ParseFloat(string(f), 64)
			if perr != nil && !errors.Is(perr, strconv.ErrRange) {
				return errorf(name, n, "%s %q is not a number", [2]string{"mean", "stddev"}[k], f)
			}
			v[k] = x
		}
		key := [2]string{topic, meas}
		if first, dup := where[key]; dup {
			return errorf(name, n, "topic %s measure %s again (first on line %d)", topic, meas, first)
		}
		where[key] = n
		if z[topic] == nil {
			z[topic] = map[string]TrecZscore{}
		}
		z[topic][meas] = TrecZscore{Mean: v[0], StdDev: v[1]}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if lines == 0 {
		return nil, errorf(name, 0, "empty z-score file (trec_eval: Cannot read zscores file)")
	}
	return z, nil
}
