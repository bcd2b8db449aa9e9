package app

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/readsim/readsim/index"
)

func TestDemoPaths(t *testing.T) {
	t.Setenv("READSIM_DEMO_INDEX", "/tmp/x/idx")
	if got, want := DemoIndexPath(), "/tmp/x/idx"; got != want {
		t.Errorf("DemoIndexPath() = %q, want %q", got, want)
	}
	if got, want := DemoStudyPath(), "/tmp/x/demo-study"; got != want {
		t.Errorf("DemoStudyPath() = %q, want %q", got, want)
	}
	if runtime.GOOS != "linux" {
		return // os.UserCacheDir reads XDG_CACHE_HOME on Linux only
	}
	t.Setenv("READSIM_DEMO_INDEX", "")
	t.Setenv("XDG_CACHE_HOME", "/cache")
	if got, want := DemoIndexPath(), "/cache/readsim/demo-index"; got != want {
		t.Errorf("without READSIM_DEMO_INDEX: %q, want %q", got, want)
	}
}

// The sample is indexed into a folder that does not exist yet, then
// found unchanged.
func TestIndexSample(t *testing.T) {
	dir, err := FindSample()
	if err != nil {
		t.Fatal(err)
	}
	sample, err := SampleConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	idx := filepath.Join(t.TempDir(), "new", "idx")
	calls := 0
	res, err := IndexSample(sample, idx, func(index.Progress) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if res.Articles != 52 || res.Indexed != 52 || calls == 0 {
		t.Errorf("first build: %d articles, %d indexed, %d progress calls; want the sample's 52", res.Articles, res.Indexed, calls)
	}
	if res, err = IndexSample(sample, idx, nil); err != nil || res.Indexed != 0 || res.Unchanged != 52 {
		t.Errorf("second build: %+v, %v; want the 52 articles unchanged", res, err)
	}
	// no folder: the one FindSample finds
	if found, err := SampleConfig(""); err != nil || found.Articles != sample.Articles || found.Qrels != sample.Qrels {
		t.Errorf(`SampleConfig(""): %+v, %v; want %+v`, found, err, sample)
	}
}

// IndexDemo says what it does: on a terminal the count of articles
// indexed, redrawn on one line and then replaced by the line any other
// output shows, then the build's summary; the next time that the
// unchanged index is reused.
func TestIndexDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes the sample")
	}
	sample, err := SampleConfig("")
	if err != nil {
		t.Fatal(err)
	}
	idx := filepath.Join(t.TempDir(), "idx")
	var first, second strings.Builder
	cfg, err := IndexDemo(sample, idx, &first, true)
	if err != nil || cfg.Index != idx {
		t.Fatalf("first: index %q, %v", cfg.Index, err)
	}
	out := first.String()
	if !strings.HasPrefix(out, "\rreadsim demo: indexing the sample: 1/52 articles\r") || !strings.Contains(out, "\rreadsim demo: indexing the sample: 52/52 articles\r") {
		t.Errorf("first run said %q, want the counter from 1/52 to 52/52", out)
	}
	// the sample has 52 articles (corpus-sample/README.md); the screen
	// shows the line a log shows, the counter's last two characters
	// covered by spaces (": 52/52 articles" is two longer than
	// " (52 articles)")
	screen := onScreen(out)
	if want := "readsim demo: indexing the sample (52 articles)  \nreadsim index: built " + idx + ": 52 articles"; !strings.HasPrefix(screen, want) {
		t.Errorf("the terminal shows %q, want it to start %q", screen, want)
	}
	if _, err := IndexDemo(sample, idx, &second, false); err != nil {
		t.Fatal(err)
	}
	if got, want := second.String(), "readsim demo: reusing the index of the sample in "+idx+" (52 articles, unchanged)\n"; got != want {
		t.Errorf("second run said %q, want %q", got, want)
	}
}

// onScreen is what a terminal shows of out: each line as carriage returns
// leave it, later text written over earlier from the line's start.
func onScreen(out string) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		var shown []rune
		for _, part := range strings.Split(l, "\r") {
			r := []rune(part)
			if len(r) >= len(shown) {
				shown = r
			} else {
				copy(shown, r)
			}
		}
		lines[i] = string(shown)
	}
	return strings.Join(lines, "\n")
}
