package synth

import (
	"sort"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/article"
)

func TestArticlesParseWithWikipediaLikeLengths(t *testing.T) {
	g := New(Options{Seed: 1})
	var lens []int
	for i := 0; i < 300; i++ {
		a, err := article.Parse(strings.NewReader(g.Article(i)), "x.xml")
		if err != nil {
			t.Fatal(err)
		}
		lens = append(lens, a.Len)
	}
	sort.Ints(lens)
	// median about 2,500 characters; a tail several times longer
	if med := lens[len(lens)/2]; med < 1800 || med > 3500 {
		t.Errorf("median length %d, want about 2,500", med)
	}
	if lens[len(lens)-1] < 4*lens[len(lens)/2] {
		t.Errorf("longest %d: no long tail over median %d", lens[len(lens)-1], lens[len(lens)/2])
	}
	// Zipf: the most frequent word is far more frequent than the 100th
	counts := map[string]int{}
	for i := 0; i < 20000; i++ {
		counts[g.Word()]++
	}
	if c0, c100 := counts[g.WordOfRank(0)], counts[g.WordOfRank(100)]; c0 < 20*max(c100, 1) {
		t.Errorf("rank 0: %d, rank 100: %d — not Zipfian", c0, c100)
	}
}
