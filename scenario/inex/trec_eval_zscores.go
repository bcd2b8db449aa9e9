package inex

import (
	"errors"
	"math"
	"strconv"
	"unicode/utf8"
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
// reads a number with C's atof ("x" is 0, "nan" is NaN) or keeps one of
// two lines for the same topic and measure, readsim refuses the line and
// names it, as it does a mean or deviation that is not finite (NaN, inf,
// 1e999) and a line that is not UTF-8: each when its line is read.
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
		if !utf8.Valid(b) {
			return errorf(name, n, "not UTF-8 text (byte %d)", invalidUTF8At(b)+1)
		}
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
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return errorf(name, n, "%s %q is not a finite number", [2]string{"mean", "stddev"}[k], f)
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

// invalidUTF8At is the offset of the first byte of b that is not UTF-8.
func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(b)
}
