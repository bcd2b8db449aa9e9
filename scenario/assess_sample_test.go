package scenario

import (
	"bytes"
	"github.com/readsim/readsim/scenario/inex"
	"os"
	"testing"

	"github.com/readsim/readsim/index/article"
)

// TestSampleJudgments regenerates corpus-sample/judgments.qrels from
// highlights.txt: the committed file must be what the highlights say, and
// the sample must keep what issue 2 asks of it.
func TestSampleJudgments(t *testing.T) {
	d, err := article.OpenDir("../corpus-sample/articles")
	if err != nil {
		t.Skip("no corpus-sample:", err)
	}
	f, err := os.Open("../corpus-sample/highlights.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	js, err := Assess(f, "highlights.txt", d.Parse)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := inex.WriteJudgments(&b, js); err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("../corpus-sample/judgments.qrels")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), committed) {
		t.Errorf("corpus-sample/judgments.qrels is out of date: regenerate it with readsim assess (see corpus-sample/README.md)")
	}
	type stat struct{ relevant, multi, nonrel int }
	topics := map[string]*stat{}
	for _, j := range js {
		s := topics[j.Topic]
		if s == nil {
			s = &stat{}
			topics[j.Topic] = s
		}
		switch {
		case len(j.Rel) == 0:
			s.nonrel++
		case len(j.Rel) >= 2:
			s.multi++
			s.relevant++
		default:
			s.relevant++
		}
	}
	if len(topics) < 10 {
		t.Errorf("%d topics judged, want at least 10", len(topics))
	}
	for id, s := range topics {
		if s.relevant < 3 || s.multi < 1 || s.nonrel < 2 {
			t.Errorf("topic %s: %d relevant (%d with several passages), %d near misses; want ≥3, ≥1, ≥2", id, s.relevant, s.multi, s.nonrel)
		}
	}
}
