package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLanguageLengthNorm checks that fetch normalises an article's length
// by its own language's average. The collection: five English articles of
// about 100 words, a sixth naming 利蒼 once in as many, and one Japanese
// article of about 1,700 bigrams naming 利蒼 fourteen times. With one
// average for all (about 330 tokens) the English article's short text
// wins: BM25's text part is 1/(1+1.2·(0.25+0.75·100/330)) ≈ 0.64 of its
// idf against √14/(√14+1.2·(0.25+0.75·1700/330)) ≈ 0.45 for the Japanese
// one. With each language's own average (100 and 1,700) it is 1/2.2 ≈ 0.45
// against √14/(√14+1.2) ≈ 0.76: the Japanese article first.
func TestLanguageLengthNorm(t *testing.T) {
	dir := t.TempDir()
	arts := filepath.Join(dir, "articles")
	write := func(rel, title, text string) {
		p := filepath.Join(arts, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		id := strings.TrimSuffix(filepath.Base(rel), ".xml")
		x := fmt.Sprintf("<article><name id=%q>%s</name><body><p>%s</p></body></article>", id, title, text)
		if err := os.WriteFile(p, []byte(x), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	words := strings.Fields("river valley harbour engine market garden castle bridge tower island forest meadow")
	english := func(seed int) string {
		var b strings.Builder
		for i := range 100 {
			b.WriteString(words[(seed+i*7)%len(words)] + " ")
		}
		return b.String()
	}
	for i := range 5 {
		write(fmt.Sprintf("en/%d.xml", 100+i), fmt.Sprintf("Place %d", i), english(i))
	}
	write("en/200.xml", "Tomb", english(9)+" 利蒼 ")
	var ja strings.Builder
	for i := range 100 {
		if i%7 == 0 && i/7 < 14 {
			ja.WriteString("利蒼は長沙国の丞相であった。")
		} else {
			ja.WriteString("馬王堆漢墓は湖南省長沙市にある。")
		}
	}
	if n := strings.Count(ja.String(), "利蒼"); n != 14 {
		t.Fatalf("the Japanese text names 利蒼 %d times", n)
	}
	write("ja/300.xml", "馬王堆", ja.String())
	idx := filepath.Join(dir, "idx")
	if _, err := Build(BuildOptions{Articles: arts, Index: idx}); err != nil {
		t.Fatal(err)
	}
	x := openTest(t, idx)
	pq, err := x.Prepare("利蒼")
	if err != nil {
		t.Fatal(err)
	}
	hits, err := x.Fetch(context.Background(), pq, 10, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	if strings.Join(ids, " ") != "300 200" {
		t.Errorf("hits %v, want the Japanese article 300 before the English 200", ids)
	}
}
