package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/index/article"
)

// DemoIndexPath is where `readsim demo` keeps the sample's index:
// readsim/demo-index in the user cache folder ($XDG_CACHE_HOME,
// os.UserCacheDir), or in the temporary folder when there is no cache
// folder; $READSIM_DEMO_INDEX, when set, names it instead (tests).
func DemoIndexPath() string {
	if p := os.Getenv("READSIM_DEMO_INDEX"); p != "" {
		return p
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	return filepath.Join(cache, "readsim", "demo-index")
}

// DemoStudyPath is where `readsim demo` keeps its reading study's
// recordings: demo-study beside DemoIndexPath.
func DemoStudyPath() string { return filepath.Join(filepath.Dir(DemoIndexPath()), "demo-study") }

// IndexDemo indexes the sample into idx (IndexSample), saying on w what
// it does: the articles indexed so far (redrawn on one line when w is a
// terminal, said once otherwise), then the build's summary
// (index.BuildResult.Summary) or that the index of an unchanged sample is
// reused. It returns the sample with its Index set to idx. An error that
// is not the sample's (a folder that cannot be made) says which index.
func IndexDemo(sample ServeConfig, idx string, w io.Writer, terminal bool) (ServeConfig, error) {
	started := false
	res, err := IndexSample(sample, idx, func(p index.Progress) {
		switch {
		case terminal:
			fmt.Fprintf(w, "\rreadsim demo: indexing the sample: %d/%d articles", p.Done, p.Total)
		case !started:
			fmt.Fprintf(w, "readsim demo: indexing the sample (%d articles)", p.Total)
		}
		started = true
	})
	var ie *index.InputError
	var ae *article.Error
	if err != nil && !errors.As(err, &ie) && !errors.As(err, &ae) {
		err = fmt.Errorf("indexing the sample into %s: %w", idx, err)
	}
	if err != nil {
		return sample, err
	}
	if started {
		fmt.Fprintln(w)
	}
	if res.Indexed > 0 || res.Removed > 0 {
		for _, l := range res.Summary(idx) {
			fmt.Fprintf(w, "readsim index: %s\n", l)
		}
	} else {
		fmt.Fprintf(w, "readsim demo: reusing the index of the sample in %s (%d articles, unchanged)\n", idx, res.Articles)
	}
	sample.Index = idx
	return sample, nil
}

// IndexSample builds the index of the sample's articles (SampleConfig) at
// idx, creating the folder it is in, or updates it when it exists: an
// unchanged sample is not read again. progress, when not nil, follows the
// build.
func IndexSample(sample ServeConfig, idx string, progress func(index.Progress)) (*index.BuildResult, error) {
	if err := os.MkdirAll(filepath.Dir(idx), 0o755); err != nil {
		return nil, err
	}
	return index.Build(index.BuildOptions{Articles: sample.Articles, Index: idx, Progress: progress})
}
