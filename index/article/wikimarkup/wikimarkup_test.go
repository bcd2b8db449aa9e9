package wikimarkup

import (
	"encoding/xml"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/article/shareddata"
)

// parse reads an article from its XML.
func parse(t *testing.T, xml string) *article.Article {
	t.Helper()
	a, err := article.Parse(strings.NewReader(xml), "t")
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// show writes the text as a reader sees it: hidden ranges left out,
// emphasis as _x_ (italic) and *x* (bold), captions as {x}, entities
// replaced.
func show(text string, all []Range) string {
	rs, caps := Uncaptioned(all), Captions(all)
	var b strings.Builder
	c := 0
	k, ck := 0, 0
	for _, r := range text {
		for k < len(rs) && rs[k].End <= c {
			k++
		}
		if ck < len(caps) && caps[ck].Start == c {
			b.WriteString("{")
		}
		in := k < len(rs) && rs[k].Start <= c
		if in && c == rs[k].Start {
			switch rs[k].Kind {
			case Italic:
				b.WriteString("_")
			case Bold:
				b.WriteString("*")
			case Replace:
				b.WriteString(rs[k].Text)
			}
		}
		if !in || rs[k].Kind != Hide && rs[k].Kind != Replace {
			b.WriteRune(r)
		}
		if in && c == rs[k].End-1 {
			switch rs[k].Kind {
			case Italic:
				b.WriteString("_")
			case Bold:
				b.WriteString("*")
			}
		}
		if ck < len(caps) && caps[ck].End == c+1 {
			b.WriteString("}")
			ck++
		}
		c++
	}
	return b.String()
}

// The rules of docs/articles.md, each on the text it is for; the wanted
// output was written by hand from the rule.
func TestRules(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"param lines", "\n|death_date = \n|birth_place = Daegu|religion = none\n}}}}<p>Kim was born.</p>",
			"\n\n\n<p>Kim was born.</p>"},
		{"lone bar and a parameter ended by a bar", "\n |\nICD9        =  |\n}}\n<p>Abdominal pain</p>", "\n \n\n\n<p>Abdominal pain</p>"},
		{"prose with a bar and an equal sign", "<p>x = 1 | y</p>", "<p>x = 1 | y</p>"},
		{"chinese param lines", "\n|逝世地點 =\n|諡號 =思悼\n}}<p>朝鮮</p>", "\n\n\n<p>朝鮮</p>"},
		{"template open line", "\n{{Infobox Person\n| name = Kim\n}}\n<p>x</p>", "\n\n\n\n<p>x</p>"},
		{"glued close", "<p>{{flagicon|IND}} New Delhi; PHI|1919}} Manila</p>", "<p> New Delhi;  Manila</p>"},
		{"prose glued to braces", "<p>宋慧喬（韓：}}}}，）韓國女演員; 것이다.}}</p>", "<p>宋慧喬（韓：）韓國女演員; 것이다.</p>"}, // the separator left before the bracket closes: empty-brackets
		{"image with caption", "<p>Image:Kimchi jar.JPG|thumb|Traditional jars]]\nKimchi is</p>", "<p>{Traditional jars}\nKimchi is</p>"},
		{"image options and px", "<p>File:Ivory cover.jpg|thumb|right|180px|Ivory cover, c. 810]]</p>", "<p>{Ivory cover, c. 810}</p>"},
		{"korean image", "<p>파일:Jeongjo.jpg|thumb|left|120px|차남 정조]]</p>", "<p>{차남 정조}</p>"},
		{"image caption with emphasis element", "<p>Image:B-02.jpg|thumb|left|<it>Dongchimi</it> and banchan]]</p>", "<p>{Dongchimi and banchan}</p>"},
		{"image without caption", "<p>File:Izu_city.jpg|thumb|\nIzu is</p>", "<p>\nIzu is</p>"},
		{"emphasis in a caption", "<p>Image:A.png|thumb|The ''coat of arms'' of it]]</p>", "<p>{The _coat of arms_ of it}</p>"},
		{"image in brackets", "<p>see [[Image:A.png|thumb|A map]] here</p>", "<p>see {A map} here</p>"},
		{"quotes pair", "<p>the ''Oxford'' and '''Bold''' ones</p>", "<p>the _Oxford_ and *Bold* ones</p>"},
		{"unpaired quotes", "<p><it>Prince of Wales''</it>, Sa'dabad</p>", "<p>Prince of Wales, Sa'dabad</p>"},
		{"double escape", "<p>Kimchi &amp;gt; History &amp;amp; more</p>", "<p>Kimchi &gt; History &amp; more</p>"},
		{"not an entity", "<p>AT&amp;T &amp; co</p>", "<p>AT&amp;T &amp; co</p>"},
		{"link brackets", "<p>netsuke]]s and [[x, not ]]&gt; or [[ </p>", "<p>netsukes and x, not ]]&gt; or [[ </p>"},
		{"math left alone", "<p><math>\\frac{a}{b}}</math> f''(x)</p>", "<p>\\frac{a}{b}} f(x)</p>"},
		{"pipe in prose", "<p>a | b = c</p>", "<p>a | b = c</p>"},
		{"alternative text line", "<p><image><caption>\n\nalt=Photo of cuttlefish\n</caption></image>\nCuttlefish are</p>", "<p><image><caption>\n\n\n</caption></image>\nCuttlefish are</p>"},
		{"alt in prose", "<p>the alt= attribute</p>", "<p>the alt= attribute</p>"},
		{"empty brackets", "<p><b>Kimchi</b> (김치; , ), also spelled; Shi Jing () is; 웨스트우드()는</p>", "<p><b>Kimchi</b> (김치), also spelled; Shi Jing is; 웨스트우드는</p>"},
		{"full-width brackets", "<p>（まおうたいかんぼ、）と 山葵（），學名 冬蔭（  ）</p>", "<p>（まおうたいかんぼ）と 山葵，學名 冬蔭</p>"},
		{"separators left empty", "<p>A <b>croissant</b> (, anglicised variously as , , <it>etc.</it>) and 툴루이(, , 1192년 ~ 1232년)는 (輪廻, , ) (a, , b)</p>",
			"<p>A <b>croissant</b> (anglicised variously as <it>etc.</it>) and 툴루이(1192년 ~ 1232년)는 (輪廻) (a, b)</p>"},
		{"brackets with markup only", "<p>Kimchi ({{IPA|kimtɕʰi}}) is (''x'')</p>", "<p>Kimchi is (_x_)</p>"},
		{"brackets kept", "<p>call main() or f(x, y); a (b) c (d ,e) (see [1]; 2) ( ) at start</p>\n(, )", "<p>call main() or f(x, y); a (b) c (d ,e) (see [1]; 2) at start</p>\n"},
		{"bracket with math", "<p>f (<math>, </math>)</p>", "<p>f (, )</p>"},
		{"parameter value on the lines after", "\n| 소속사 = Effigies| 웹사이트 = \n<weblink xlink:href=\"http://a\">\n공식 홈페이지</weblink>\n\n<weblink xlink:href=\"http://b\">\n프랑스 에이전시</weblink>\n}}\n<b>송혜교</b>",
			"\n\n\n\n\n\n\n\n<b>송혜교</b>"},
		{"a parameter's value not ended", "\n|웹사이트 =\nSome prose that goes on.\n\nMore prose.", "\n\nSome prose that goes on.\n\nMore prose."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := parse(t, "<article><bdy>"+tc.body+"</bdy></article>")
			rs := Find(a)
			want := parse(t, "<article><bdy>"+tc.want+"</bdy></article>").Text
			if got := show(a.Text, rs); got != want {
				t.Errorf("shown %q, want %q (ranges %+v)", got, want, rs)
			}
			for _, rs := range [][]Range{Uncaptioned(rs), Captions(rs)} {
				for i, r := range rs {
					if r.Start >= r.End || r.End > a.Len || i > 0 && rs[i-1].End > r.Start {
						t.Errorf("range %d %+v: empty, outside the text or overlapping the one before", i, r)
					}
				}
			}
		})
	}
}

// TestSpans: the template spans of an article, the union of span lists,
// the entity rule's character.
func TestSpans(t *testing.T) {
	// text: "x" 0, "Infobox Country" 1-16, "Canberra" 16-24, "y" 24, template 25-26
	a := parse(t, "<article><bdy><p>x</p><template><name>Infobox Country</name><parameters><capital>Canberra</capital></parameters></template><p>y</p><template><name>z</name></template></bdy></article>")
	if got, want := fmt.Sprint(Templates(a)), "[1 24 25 26]"; got != want {
		t.Errorf("Templates %s, want %s", got, want)
	}
	for _, tc := range []struct {
		lists [][]int
		want  string
	}{
		{[][]int{{0, 2, 5, 7}, {2, 3, 6, 9}, {20, 21}}, "[0 3 5 9 20 21]"},
		{[][]int{nil, {4, 4, 1, 2}}, "[1 2]"},
	} {
		if got := fmt.Sprint(Union(tc.lists...)); got != tc.want {
			t.Errorf("Union%v = %s, want %s", tc.lists, got, tc.want)
		}
	}
	for s, want := range map[string]string{"&gt;": ">", "&amp;": "&", "&#233;": "é", "&nosuch;": "", "&gt;x": "", "&#0;": ""} {
		if got, _ := Entity(s); got != want {
			t.Errorf("Entity(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestQuietDisplay: Quiet joins touching spans and keeps emphasis and
// captions out; Display drops hidden text and replaces entities, from any
// base offset.
func TestQuietDisplay(t *testing.T) {
	rs := []Range{{0, 2, Hide, "", ""}, {2, 5, Italic, "", ""}, {5, 7, Hide, "", ""}, {7, 11, Replace, ">", ""}, {11, 13, Hide, "", ""}, {20, 22, Caption, "", ""}}
	if got, want := fmt.Sprint(Quiet(rs)), "[0 2 5 13]"; got != want {
		t.Errorf("Quiet %s, want %s", got, want)
	}
	text := "''abc''&gt;}} rest of it"
	for _, tc := range []struct {
		base, from, to int
		want           string
	}{
		{0, 0, 24, "abc> rest of it"},
		{0, 3, 9, "bc>"},
		{0, 8, 13, ">"},
		{0, 13, 17, " res"},
	} {
		s := string([]rune(text)[tc.from:tc.to])
		if got := Display(s, tc.from, rs); got != tc.want {
			t.Errorf("Display(%q, %d) = %q, want %q", s, tc.from, got, tc.want)
		}
	}
}

// leftovers are the markup patterns that must not be in what a reader
// sees of a real article.
var leftovers = regexp.MustCompile(`\|\s*thumb|thumb\s*\||\}\}|\{\{|''|&[a-z]+;|\]\]|(?m)^\s*\|[^|\n]*=|(?m)^\s*\|\s*$|(?m)=\s*\|\s*$|` + emptyBracket)

// emptyBracket is a bracket left empty, or opened or closed by a separator,
// by a template the converter dropped (the rule empty-brackets).
const emptyBracket = `[(（]\s*[)）]|[(（]\s*[,;、，；]|[,;、，；]\s*[)）]`

// TestRealArticles: on every real article, what is shown holds none of the
// leftover patterns, and every rule that has a case in the collection
// fires.
func TestRealArticles(t *testing.T) {
	d, err := article.OpenDir(shareddata.Wikipedia(t))
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]int{}
	hidden := 0
	for _, id := range d.IDs() {
		a, err := d.Parse(id)
		if err != nil {
			t.Fatal(err)
		}
		rs := Find(a)
		for _, r := range rs {
			rules[r.Rule]++
			if r.Kind == Hide {
				hidden += r.End - r.Start
			}
		}
		// the math elements' TeX is left as it stands
		shown := show(a.Text, rs)
		for i := range a.Elements {
			if e := &a.Elements[i]; e.Name == "math" {
				shown = strings.Replace(shown, a.Slice(e.Start, e.End), "", 1)
			}
		}
		for _, m := range leftovers.FindAllStringIndex(shown, -1) {
			lo, hi := max(0, m[0]-40), min(len(shown), m[1]+40)
			for lo > 0 && !utf8.RuneStart(shown[lo]) {
				lo--
			}
			for hi < len(shown) && !utf8.RuneStart(shown[hi]) {
				hi++
			}
			t.Errorf("%s: %q left in %q", id, shown[m[0]:m[1]], shown[lo:hi])
		}
	}
	for _, r := range []string{"param-line", "template-close", "image-link", "quotes", "entity", "empty-brackets"} {
		if rules[r] == 0 {
			t.Errorf("rule %s found nothing in the real articles", r)
		}
	}
	t.Logf("ranges by rule %v; %d characters hidden", rules, hidden)
}

// BenchmarkFindWikipedia finds the leftover markup of every real article
// (compare with index/article's BenchmarkParseWikipedia, their parse).
func BenchmarkFindWikipedia(b *testing.B) {
	d, err := article.OpenDir(shareddata.Wikipedia(b))
	if err != nil {
		b.Fatal(err)
	}
	var as []*article.Article
	size := 0
	for _, id := range d.IDs() {
		a, err := d.Parse(id)
		if err != nil {
			b.Fatal(err)
		}
		as = append(as, a)
		size += len(a.Text)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, a := range as {
			Find(a)
		}
	}
}

// FuzzFind: on any article text, the ranges lie in the text, the ranges
// other than captions are sorted and disjoint, captions hold no other
// caption, Replace ranges carry one character, and Quiet and Display keep
// to the text.
func FuzzFind(f *testing.F) {
	for _, s := range []string{"|a = b\n}}x", "Image:a.png|thumb|The ''c'' d]]\ne", "&amp;gt; ''x'' '''y''' [[z]]", "파일:a.jpg|thumb|", "{{a|b}} IND}} 것이다.}}", "Kimchi (김치; , ) Shi ()（、）(a, , b)", "| a =\nlink\n}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var b strings.Builder
		if err := xml.EscapeText(&b, []byte(text)); err != nil {
			return
		}
		a, err := article.Parse(strings.NewReader("<article><p>"+b.String()+"</p></article>"), "f")
		if err != nil {
			return
		}
		rs := Find(a)
		for _, l := range [][]Range{Uncaptioned(rs), Captions(rs)} {
			for i, r := range l {
				if r.Start < 0 || r.Start >= r.End || r.End > a.Len || i > 0 && l[i-1].End > r.Start {
					t.Fatalf("range %d %+v of %q: outside the text or overlapping", i, r, a.Text)
				}
				if r.Kind == Replace && utf8.RuneCountInString(r.Text) != 1 {
					t.Fatalf("replace %+v", r)
				}
			}
		}
		q := Quiet(rs)
		for i := 1; i < len(q); i++ {
			if q[i-1] >= q[i] && i%2 == 1 || q[i-1] > q[i] {
				t.Fatalf("Quiet %v not increasing", q)
			}
		}
		if d := Display(a.Text, 0, rs); utf8.RuneCountInString(d) > a.Len {
			t.Fatalf("Display longer than the text: %q of %q", d, a.Text)
		}
	})
}
