package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/readsim/readsim/scenario/inex"
	"github.com/readsim/readsim/web"
)

// BenchmarkSummaryINEX: the summary of one topic of the INEX passage run
// (100 articles: 100 evaluations of the run cut after each rank), not cached.
func BenchmarkSummaryINEX(b *testing.B) {
	dir := filepath.Join("..", "..", "..", "shared", "data", "inex")
	q, err := inex.OpenQrels(filepath.Join(dir, "inex2009-2010.qrels"), nil)
	if err != nil {
		if os.Getenv("CI") != "" {
			b.Fatal(err)
		}
		b.Skipf("no INEX data: %v", err)
	}
	run, err := inex.OpenRun(filepath.Join(dir, "passage-run.ric.fol"), inex.RunOptions{})
	if err != nil {
		b.Fatal(err)
	}
	rp := NewReplays(q, nil, []Run{{Run: run, Source: "flag"}})
	k, err := rp.key(web.ReplayRequest{Topic: "2009001", Run: run.ID, Order: "natural", T2I: 300, Screen: 300})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		sum, err := rp.summary(context.Background(), k, "2009001")
		if err != nil || len(sum.Running) != 100 {
			b.Fatalf("%v: %d rows", err, len(sum.Running))
		}
	}
}
