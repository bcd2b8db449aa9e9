package scenario

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/readsim/readsim/index/article/shareddata"
)

// BenchmarkGenomics scores a TREC 2007 Genomics run (york07-ga-02, 36
// topics × 1,000 passages) side by side:
//
//   - "readsim": eval's path, reading the gold standard and the run and
//     computing DOCUMENT, PASSAGE, ASPECT and PASSAGE2 on intervals;
//   - "charwalk": the Go transcription of NIST's trecgen2007_score.py
//     (genomics_ref_test.go), reading the same files and walking PASSAGE2
//     one character at a time with a set per document, as the script does;
//   - "PASSAGE2/…": PASSAGE2 alone on files already read, both ways.
//
// The target is readsim ≤ 0.05 × NIST's scorer on a run. The script itself
// (Python 2.7, not on CI machines) takes about 2 s a run; "readsim" reports
// its time as a fraction of the Go character walk's ("ratio-vs-walk"),
// measured in the same process; the notes give the script's own timing.
func BenchmarkGenomics(b *testing.B) {
	dir := shareddata.Genomics(b)
	goldPath, runPath := filepath.Join(dir, "gold-standard-07.txt"), filepath.Join(dir, "york07-ga-02.txt")
	ms := genomicsMeasures(b)
	walk := func() {
		gold, err := os.ReadFile(goldPath)
		if err != nil {
			b.Fatal(err)
		}
		run, err := os.ReadFile(runPath)
		if err != nil {
			b.Fatal(err)
		}
		newNISTScorer(gold).score(run)
	}
	read := func() {
		q := openQrels(b, goldPath)
		if _, err := EvaluateFiles(q, []string{runPath}, EvalOptions{Measures: ms, Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
	var walkNs float64 // the character walk's time per run
	b.Run("charwalk", func(b *testing.B) {
		start, n := time.Now(), 0
		for b.Loop() {
			walk()
			n++
		}
		walkNs = float64(time.Since(start)) / float64(n)
	})
	runtime.GC() // the walk's garbage is not readsim's
	b.Run("readsim", func(b *testing.B) {
		start, n := time.Now(), 0
		for b.Loop() {
			read()
			n++
		}
		if walkNs > 0 {
			b.ReportMetric(float64(time.Since(start))/float64(n)/walkNs, "ratio-vs-walk")
		}
	})
	gold, _ := os.ReadFile(goldPath)
	runText, _ := os.ReadFile(runPath)
	b.Run("PASSAGE2/charwalk", func(b *testing.B) {
		s := newNISTScorer(gold)
		sub := nistSubmissions(runText)
		for b.Loop() {
			for _, topic := range s.topics {
				s.passage2(topic, sub[topic])
			}
		}
	})
	b.Run("PASSAGE2/readsim", func(b *testing.B) {
		q := openQrels(b, goldPath)
		run := openRun(b, runPath)
		opt := EvalOptions{Measures: mustMeasures(b, "PASSAGE2")}
		for b.Loop() {
			if _, err := Evaluate(q, run, opt, 1); err != nil {
				b.Fatal(err)
			}
		}
	})
}
