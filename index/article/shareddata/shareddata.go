// Package shareddata finds, for tests, the reference data kept beside the
// repository (../shared/data from the module root: INEX judgments and runs,
// real Wikipedia articles, TREC Genomics 2007 judgments). The data is never
// copied into the repository; a test that needs it skips, saying what is
// absent, when it is not there — except under CI (the environment variable
// CI set), which always has the data beside the clone and where a skip would
// hide a failure: there the test fails.
package shareddata

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/readsim/readsim/internal/ground/testfs"
)

// Dir returns ../shared/data/set (from the directory of go.mod above the
// test's working directory) when the file probe is in it; otherwise it skips
// the test with a message naming the folder and why (fails under CI).
func Dir(tb testing.TB, set, probe string) string {
	tb.Helper()
	dir, err := testfs.ModuleRoot()
	if err != nil {
		tb.Skipf("%v: no reference data to test on", err)
	}
	d := filepath.Join(dir, "..", "shared", "data", set)
	if _, err := os.Stat(filepath.Join(d, probe)); err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("reference data absent under CI (%s has no %s): CI must have ../shared/data beside the clone", d, probe)
		}
		tb.Skipf("reference data absent (%s has no %s): skipping the tests on it", d, probe)
	}
	return d
}

// INEX returns ../shared/data/inex (the INEX 2009–2010 judgments, topics,
// runs and official outputs), or skips.
func INEX(tb testing.TB) string {
	tb.Helper()
	return Dir(tb, "inex", "inex2009-2010.qrels")
}

// Wikipedia returns ../shared/data/wikipedia (real INEX Wikipedia articles
// with the collection's DTD), or skips.
func Wikipedia(tb testing.TB) string {
	tb.Helper()
	return Dir(tb, "wikipedia", "article.dtd")
}

// Genomics returns ../shared/data/genomics07 (TREC Genomics 2007 passage
// judgments), or skips.
func Genomics(tb testing.TB) string {
	tb.Helper()
	return Dir(tb, "genomics07", "gold-standard-07.txt")
}

// TrecEval returns ../shared/data/trec_eval (trec_eval 10's source tree
// with its Makefile and test folder), or skips. It is read-only: copy it
// before building in it.
func TrecEval(tb testing.TB) string {
	tb.Helper()
	return Dir(tb, "trec_eval", "Makefile")
}
