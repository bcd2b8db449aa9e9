package backend

import (
	"os"
	"path/filepath"

	"github.com/readsim/readsim/index"
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
