package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// SampleConfig is what the demo serves of the sample in dir (the layout of
// corpus-sample/): the articles (an absolute path), judgments.qrels,
// topics.xml and the runs of runs/ — every regular file but *.md, passage
// runs before document runs (.trec), so that the simulation view opens on a
// reader who follows passages, and by name otherwise. The index is the
// caller's to build. dir "" is the sample FindSample finds.
func SampleConfig(dir string) (ServeConfig, error) {
	if dir == "" {
		var err error
		if dir, err = FindSample(); err != nil {
			return ServeConfig{}, err
		}
	}
	articles := filepath.Join(dir, "articles")
	if st, err := os.Stat(articles); err != nil || !st.IsDir() {
		return ServeConfig{}, &InputError{fmt.Errorf("%s: not the sample (no articles folder)", dir)}
	}
	abs, err := filepath.Abs(articles)
	if err != nil {
		return ServeConfig{}, err
	}
	cfg := ServeConfig{Articles: abs}
	if q := filepath.Join(dir, "judgments.qrels"); isFile(q) {
		cfg.Qrels = q
	}
	if t := filepath.Join(dir, "topics.xml"); isFile(t) {
		cfg.Topics = t
	}
	runs, _ := filepath.Glob(filepath.Join(dir, "runs", "*"))
	isDoc := func(p string) bool { return strings.HasSuffix(p, ".trec") }
	sort.Slice(runs, func(i, j int) bool {
		if isDoc(runs[i]) != isDoc(runs[j]) {
			return !isDoc(runs[i])
		}
		return runs[i] < runs[j]
	})
	for _, r := range runs {
		if isFile(r) && !strings.HasSuffix(r, ".md") {
			cfg.Sample = append(cfg.Sample, r)
		}
	}
	return cfg, nil
}

// FindSample looks for corpus-sample/ (a folder with articles/) in the
// working folder and its parents, then beside the executable, so that `go
// run ./cmd/readsim demo` works from anywhere in the repository.
func FindSample() (string, error) {
	var places []string
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			places = append(places, d)
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		places = append(places, filepath.Dir(exe))
	}
	for _, d := range places {
		if c := filepath.Join(d, "corpus-sample"); isDir(filepath.Join(c, "articles")) {
			return c, nil
		}
	}
	return "", &InputError{errors.New("corpus-sample/ not found in the working folder or its parents: run readsim demo from the repository, or give --sample DIR")}
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
