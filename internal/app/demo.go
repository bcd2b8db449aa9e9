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
// it does: "readsim demo: indexing the sample (N articles)" (on a
// terminal, the count of articles indexed so far redrawn on that line
// meanwhile, then the line drawn over it, so that the screen shows what
// any other output does), then the build's summary
// (index.BuildResult.Summary) or that the index of an unchanged sample is
// reused. It returns the sample with its Index set to idx. An error that
// is not the sample's (a folder that cannot be made) says which index.
func IndexDemo(sample ServeConfig, idx string, w io.Writer, terminal bool) (ServeConfig, error) {
	var p demoProgress
	res, err := IndexSample(sample, idx, func(pr index.Progress) { p.draw(w, terminal, pr) })
	var ie *index.InputError
	var ae *article.Error
	if err != nil && !errors.As(err, &ie) && !errors.As(err, &ae) {
		err = fmt.Errorf("indexing the sample into %s: %w", idx, err)
	}
	if err != nil {
		return sample, err
	}
	p.finish(w, terminal)
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

// demoProgress is IndexDemo's line about the indexing: the total of
// articles and the width of the counter last drawn on a terminal.
type demoProgress struct {
	started bool
	total   int
	drawn   int
}

// line is what the indexing says once it is done, or off a terminal.
func (p *demoProgress) line() string {
	return fmt.Sprintf("readsim demo: indexing the sample (%d articles)", p.total)
}

// draw says how far the build is: on a terminal the counter, drawn over
// itself; otherwise the line, once.
func (p *demoProgress) draw(w io.Writer, terminal bool, pr index.Progress) {
	p.total = pr.Total
	switch {
	case terminal:
		s := fmt.Sprintf("readsim demo: indexing the sample: %d/%d articles", pr.Done, pr.Total)
		p.drawn = max(p.drawn, len(s))
		fmt.Fprint(w, "\r"+s)
	case !p.started:
		fmt.Fprint(w, p.line())
	}
	p.started = true
}

// finish ends the line, when one was started: on a terminal the counter
// is replaced by the line, padded with spaces over what it was longer.
func (p *demoProgress) finish(w io.Writer, terminal bool) {
	if !p.started {
		return
	}
	if terminal {
		fmt.Fprintf(w, "\r%-*s", p.drawn, p.line())
	}
	fmt.Fprintln(w)
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
