package scenario

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
)

// The reading order of random reads, kept by binary search: what is read
// is the union of the reads (effort.Normalize, computed apart), each read
// adds exactly its characters not read before, and the order's spans
// cover what is read once each.
func TestReadArticleAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 2))
	for round := range 200 {
		a := &ReadArticle{}
		var all effort.Spans
		n := 1 + rng.IntN(40)
		for k := range n {
			from := rng.IntN(200)
			s := effort.Span{Start: from, End: from + rng.IntN(30)}
			before := a.Read().Len()
			a.add(s, int64(k), 0, k+1)
			all = append(all, s)
			want := effort.Normalize(append(effort.Spans(nil), all...))
			if got := a.Read(); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("round %d, read %d %v: read %v, want %v", round, k, s, got, want)
			}
			v := a.Views[len(a.Views)-1]
			added := 0
			for _, f := range a.Order[v.First : v.First+v.Added] {
				added += f.End - f.Start
				if f.Start < s.Start || f.End > s.End || f.End <= f.Start {
					t.Fatalf("round %d: fresh span %v of read %v", round, f, s)
				}
			}
			if added != want.Len()-before {
				t.Fatalf("round %d, read %v: %d characters added, want %d", round, s, added, want.Len()-before)
			}
		}
		if effort.Normalize(append(effort.Spans(nil), a.Order...)).Len() != a.Read().Len() {
			t.Fatalf("round %d: the order covers %v, read %v", round, a.Order, a.Read())
		}
	}
}

// A reading of many articles in one topic, or of many reads of one
// article, is read in n log n; one of more than MaxReadSpans separate
// spans read in an article is refused at the read that passes it.
func TestReadingScale(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"ev":"topic","topic":"1","seq":1}` + "\n")
	for i := range 50_000 {
		fmt.Fprintf(&b, `{"ev":"open","topic":"1","doc":"d%d","seq":%d}`+"\n", i, i+2)
	}
	rd, err := ReadReading("r", strings.NewReader(b.String()))
	if err != nil || len(rd.Topics[0].Articles) != 50_000 {
		t.Fatalf("50,000 opens: %v", err)
	}
	b.Reset()
	b.WriteString(`{"ev":"topic","topic":"1","seq":1}` + "\n" + `{"ev":"open","topic":"1","doc":"a","seq":2}` + "\n")
	for i := range MaxReadSpans + 1 {
		from := 2 * (MaxReadSpans - i) // backwards: each read a span of its own
		fmt.Fprintf(&b, `{"ev":"read","topic":"1","doc":"a","seq":%d,"from":%d,"to":%d}`+"\n", i+3, from, from+1)
	}
	want := fmt.Sprintf("r:%d: more than 16384 separate spans read in article a", MaxReadSpans+3)
	if _, err := ReadReading("r", strings.NewReader(b.String())); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err %v, want %q", err, want)
	}
}
