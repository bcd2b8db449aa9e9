package scenario

import (
	"bytes"
	"fmt"
	"github.com/readsim/readsim/scenario/inex"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/article"
)

// The article's text, counted by hand:
//
//	"Ünïcode title" 0-13, "\n" 13, p1 "Lighthouses guide ships." 14-38, "\n" 38,
//	p2 "A lens focuses light. A lens turns." 39-74, "\n" 74
const assessDoc = "<article><name>Ünïcode title</name>\n<p>Lighthouses <b>guide</b> ships.</p>\n<p>A lens focuses light. A lens turns.</p>\n</article>"

func assessArticles(id string) (*article.Article, error) {
	if id != "7" && id != "8" {
		return nil, fmt.Errorf("no such article")
	}
	return article.Parse(strings.NewReader(assessDoc), id+".xml")
}

func TestAssess(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{
			name: "quotes across inline markup, several passages, non-relevant article",
			in:   "# c\ntopic 1\narticle 7\n> A lens focuses light.\n> Lighthouses guide ships.\narticle 8\n",
			// "Lighthouses guide ships." 14:24; "A lens focuses light." 39:21; rsize 45; bep 14
			want: "1 Q0 7 45 75 14 14:24 39:21\n1 Q0 8 0 75 0\n",
		},
		{
			name: "a range A ... B",
			in:   "topic 2\narticle 7\n> ships. ... A lens turns.\n",
			// from "ships." at 32 to the end of "A lens turns." at 74: 32:42
			want: "2 Q0 7 42 75 32 32:42\n",
		},
		{
			name: "non-ASCII before the quote shifts bytes, not characters",
			in:   "topic 3\narticle 7\n> title\n",
			// "title" at characters 8-13 (bytes 10-15)
			want: "3 Q0 7 5 75 8 8:5\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			js, err := Assess(strings.NewReader(tc.in), "h.txt", assessArticles)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := inex.WriteJudgments(&b, js); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
}

func TestAssessErrors(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"not found", "topic 1\narticle 7\n> no such words\n", 3, "not found"},
		{"ambiguous", "topic 1\narticle 7\n\n> A lens\n", 4, "found 2 times"},
		{"range end missing", "topic 1\narticle 7\n> A lens turns. ... Lighthouses\n", 3, "not found after"},
		{"overlap", "topic 1\narticle 7\n> guide ships\n> ships.\n", 2, "overlap"},
		{"quote before article", "topic 1\n> x\n", 2, "before any 'article'"},
		{"article before topic", "article 7\n", 1, "before any 'topic'"},
		{"unknown article", "topic 1\narticle 9\n", 2, "article 9"},
		{"duplicate article", "topic 1\narticle 7\narticle 7\n", 3, "listed again"},
		{"duplicate topic", "topic 1\ntopic 1\n", 2, "listed again"},
		{"garbage", "topic 1\nhello world foo\n", 2, "want 'topic ID'"},
		{"empty", "# nothing\n", 1, "no judgments"},
		{"invalid UTF-8 in a quote", "topic 1\narticle 7\n> lens \xff\xfe\n", 3, "not UTF-8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Assess(strings.NewReader(tc.in), "h.txt", assessArticles)
			e, ok := err.(*inex.Error)
			if !ok {
				t.Fatalf("err = %v, want *inex.Error", err)
			}
			if e.Line != tc.line || !strings.Contains(e.Err.Error(), tc.msg) || !strings.HasPrefix(err.Error(), fmt.Sprintf("h.txt:%d:", tc.line)) {
				t.Errorf("err = %q, want line %d with %q", err, tc.line, tc.msg)
			}
		})
	}
}
