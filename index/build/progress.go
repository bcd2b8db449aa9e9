package build

import "fmt"

// String describes the build's progress for a progress bar: the articles
// read of this run's, their rate, and with several shards the least and
// most advanced shard's share of its articles ("indexing 12/52 articles
// (6 articles/s), 2 shards 25–75%").
func (p Progress) String() string {
	rate := float64(p.Done) / max(p.Elapsed.Seconds(), 1e-9)
	s := fmt.Sprintf("indexing %d/%d articles (%.0f articles/s)", p.Done, p.Total, rate)
	if len(p.Shards) < 2 {
		return s
	}
	lo, hi := 1.0, 0.0
	for _, sh := range p.Shards {
		f := 1.0
		if sh.Total > 0 {
			f = float64(sh.Done) / float64(sh.Total)
		}
		lo, hi = min(lo, f), max(hi, f)
	}
	return s + fmt.Sprintf(", %d shards %.0f–%.0f%%", len(p.Shards), 100*lo, 100*hi)
}
