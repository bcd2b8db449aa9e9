package web

import (
	"bytes"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
)

// TestHitsLanguages: a result list whose hits are in several languages
// says each hit's language by its name; one in a single language says
// none; a hit without passages says nothing of passages.
func TestHitsLanguages(t *testing.T) {
	pt, err := parseTemplates()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name          string
		hits          []Hit
		want, notWant []string
	}{
		{"two languages", []Hit{
			{Rank: 1, ID: "zh/1", Title: "油条", Lang: "zh", Passages: []effort.Span{{Start: 0, End: 1200}, {Start: 1500, End: 1534}}},
			{Rank: 2, ID: "ja/1", Title: "油条", Lang: "ja"},
		}, []string{`<span class="lang" lang="zh">中文</span>`, `<span class="lang" lang="ja">日本語</span>`, "2 matching passages, 1,234 characters to read"},
			[]string{"0 matching", "日本語</span><span>"}},
		{"one language", []Hit{{Rank: 1, ID: "1", Title: "Kimchi", Lang: "en", Passages: []effort.Span{{Start: 3, End: 4}}}, {Rank: 2, ID: "2", Title: "Tea", Lang: "en"}},
			[]string{"1 matching passage, 1 characters to read"}, []string{`class="lang"`, "0 matching"}},
		// a hit found by its title alone: its one passage is the opening,
		// which holds no query word, so it is not called matching
		{"title only", []Hit{{Rank: 1, ID: "1", Title: "Kimchi", Lang: "en", Lead: true, Passages: []effort.Span{{Start: 0, End: 1240}}}},
			[]string{"no passage holds the words: the opening, 1,240 characters to read"}, []string{"matching passage"}},
	} {
		var b bytes.Buffer
		data := map[string]any{"Title": "x", "Q": "x", "Hits": tc.hits, "K": 20, "Langs": severalLangs(tc.hits)}
		if err := pt.results.ExecuteTemplate(&b, "base", data); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: the list lacks %q:\n%s", tc.name, w, b.String())
			}
		}
		for _, w := range tc.notWant {
			if strings.Contains(b.String(), w) {
				t.Errorf("%s: the list holds %q", tc.name, w)
			}
		}
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
	if langName("ko-KR") != "한국어" || langName("fi") != "fi" {
		t.Errorf("langName: %q %q", langName("ko-KR"), langName("fi"))
	}
}
