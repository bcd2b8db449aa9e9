package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/scenario/inex"
)

// Each article is parsed once however many topics list it, the judgments
// stay in the file's order, and of several problems the first in the file
// is reported, whatever the order the articles are looked at.
func TestAssessParsesOnce(t *testing.T) {
	parsed := map[string]int{}
	counting := func(id string) (*article.Article, error) {
		parsed[id]++
		return assessArticles(id)
	}
	var in strings.Builder
	for topic := range 50 {
		fmt.Fprintf(&in, "topic %d\narticle 8\narticle 7\n> A lens focuses light.\n", topic+1)
	}
	js, err := Assess(strings.NewReader(in.String()), "h.txt", counting)
	if err != nil {
		t.Fatal(err)
	}
	if parsed["7"] != 1 || parsed["8"] != 1 || len(js) != 100 {
		t.Fatalf("parsed %v, %d judgments; want each article once, 100 judgments", parsed, len(js))
	}
	for i, j := range js {
		// 8 then 7 in each topic; "A lens focuses light." is 39:21 in 7
		want := map[bool]string{true: "8 0", false: "7 21"}[i%2 == 0]
		if got := fmt.Sprintf("%s %d", j.Article, j.NRC); j.Topic != fmt.Sprint(i/2+1) || got != want {
			t.Errorf("judgment %d: topic %s, %s; want topic %d, %s", i, j.Topic, got, i/2+1, want)
		}
	}
	for _, tc := range []struct{ name, in, want string }{
		{"a missing article before a missing quote", "topic 1\narticle 9\ntopic 2\narticle 7\n> nowhere\n", "h.txt:2: article 9: no such article"},
		{"a missing quote before a missing article", "topic 1\narticle 7\n> nowhere\ntopic 2\narticle 9\n", `h.txt:3: article 7: quote "nowhere" not found`},
		{"two missing quotes of one article", "topic 1\narticle 8\n> first\ntopic 2\narticle 8\n> second\n", `h.txt:3: article 8: quote "first" not found`},
	} {
		if _, err := Assess(strings.NewReader(tc.in), "h.txt", assessArticles); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// FuzzAssess: any highlights file gives judgments or an *inex.Error, never
// a panic, and the same as judging its entries one by one in file order
// (each article parsed for each entry, the first problem reported).
func FuzzAssess(f *testing.F) {
	for _, s := range []string{
		"# c\ntopic 1\narticle 7\n> A lens focuses light.\n> Lighthouses guide ships.\narticle 8\n",
		"topic 2\narticle 7\n> ships. ... A lens turns.\ntopic 3\narticle 9\n",
		"topic 1\narticle 8\n> first\ntopic 2\narticle 7\n> nowhere\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		js, err := Assess(bytes.NewReader(b), "h", assessArticles)
		var want []*inex.Judgment
		wantErr := func() error {
			entries, err := parse(bytes.NewReader(b), "h")
			if err != nil {
				return err
			}
			for _, e := range entries {
				a, err := assessArticles(e.article)
				if err != nil {
					return inexErrorf("h", e.line, "article %s: %v", e.article, err)
				}
				j, err := judge("h", e, a)
				if err != nil {
					return err
				}
				want = append(want, j)
			}
			return nil
		}()
		if err != nil {
			var ie *inex.Error
			if !errors.As(err, &ie) {
				t.Fatalf("error %v is not an *inex.Error", err)
			}
		}
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("error %v, one by one %v", err, wantErr)
		}
		if err != nil {
			return
		}
		var got, exp bytes.Buffer
		inex.WriteJudgments(&got, js)
		inex.WriteJudgments(&exp, want)
		if got.String() != exp.String() {
			t.Fatalf("judgments\n%s\none by one\n%s", got.String(), exp.String())
		}
	})
}
