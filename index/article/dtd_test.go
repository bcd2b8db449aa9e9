package article

import (
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/readsim/readsim/internal/ground/testfs"
)

// The DTD of an article is looked for beside it (its system identifier
// relative to its folder), then at the collection root, then in the --dtd
// file, then the XHTML entities are built in. Each DTD below declares &who;
// differently, so the text tells which one was read.
func TestDTDResolution(t *testing.T) {
	const doc = `<?xml version="1.0"?>
<!DOCTYPE article SYSTEM "../article.dtd">
<article><p>&who;&nbsp;&mdash;</p></article>`
	tests := []struct {
		name    string
		files   map[string]string
		article string // the article read, relative to the root
		flag    string // Reader.DTD, relative to the root
		text    string // "" when an error is expected
		warn    bool
	}{
		{
			name: "beside the article's folder",
			files: map[string]string{
				"article.dtd": `<!ENTITY who "beside"><!ENTITY nbsp "&#160;"><!ENTITY mdash "&#8212;">`,
				"en/1.xml":    doc,
			},
			article: "en/1.xml", text: "beside\u00a0\u2014",
		},
		{
			name: "at the collection root",
			files: map[string]string{
				"article.dtd":   `<!ENTITY who "root"><!ENTITY nbsp "&#160;"><!ENTITY mdash "&#8212;">`,
				"en/deep/2.xml": doc, // ../article.dtd is en/article.dtd: absent
			},
			article: "en/deep/2.xml", text: "root\u00a0\u2014",
		},
		{
			name: "the --dtd file",
			files: map[string]string{
				"other/my.dtd": `<!ENTITY who "flag"><!ENTITY nbsp "&#160;"><!ENTITY mdash "&#8212;">`,
				"en/3.xml":     doc,
			},
			article: "en/3.xml", flag: "other/my.dtd", text: "flag\u00a0\u2014",
		},
		{
			name: "beside wins over the root and the flag",
			files: map[string]string{
				"en/article.dtd": `<!ENTITY who "en"><!ENTITY nbsp "&#160;"><!ENTITY mdash "&#8212;">`,
				"article.dtd":    `<!ENTITY who "root"><!ENTITY nbsp "&#160;"><!ENTITY mdash "&#8212;">`,
				"en/x/4.xml":     doc,
			},
			article: "en/x/4.xml", flag: "article.dtd", text: "en\u00a0\u2014",
		},
		{
			name:    "built in: the XHTML entities, &who; undefined",
			files:   map[string]string{"en/5.xml": doc},
			article: "en/5.xml", warn: true,
		},
		{
			name: "built in: an article using only XHTML entities reads",
			files: map[string]string{"en/6.xml": `<!DOCTYPE article SYSTEM "../article.dtd">
<article><p>caf&eacute;&nbsp;&hellip;&euro;&lang;</p></article>`},
			// lang is U+2329 in XHTML 1.0 (HTML5 changed it to U+27E8)
			article: "en/6.xml", text: "caf\u00e9\u00a0\u2026\u20ac\u2329", warn: true,
		},
		{
			name: "a URL is never fetched: the root's file of that name is read",
			files: map[string]string{
				"article.dtd": `<!ENTITY who "local"><!ENTITY nbsp "&#160;"><!ENTITY mdash "&#8212;">`,
				"en/7.xml": `<!DOCTYPE article PUBLIC "-//X//DTD A//EN" "http://127.0.0.1:9/article.dtd">
<article><p>&who;&nbsp;&mdash;</p></article>`,
			},
			article: "en/7.xml", text: "local\u00a0\u2014",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			testfs.Write(t, root, tc.files)
			var warnings []string
			rd := &Reader{Root: root, Warn: func(m string) { warnings = append(warnings, m) }}
			if tc.flag != "" {
				rd.DTD = filepath.Join(root, tc.flag)
			}
			a, err := rd.ParseFile(filepath.Join(root, tc.article))
			switch {
			case tc.text == "":
				if err == nil || !strings.Contains(err.Error(), "undefined entity &who;") {
					t.Errorf("err = %v, want undefined entity &who;", err)
				}
			case err != nil:
				t.Fatal(err)
			case a.Text != tc.text || a.Len != len([]rune(tc.text)):
				t.Errorf("Text, Len = %q, %d; want %q, %d", a.Text, a.Len, tc.text, len([]rune(tc.text)))
			}
			if got := len(warnings) > 0; got != tc.warn {
				t.Errorf("warnings %q, want a warning: %v", warnings, tc.warn)
			}
		})
	}
}

// One warning per Reader (a collection), however many articles lack their
// DTD, and from however many goroutines.
func TestMissingDTDWarnsOnce(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for _, id := range []string{"1", "2", "3", "4", "5", "6", "7", "8"} {
		files["a/"+id+".xml"] = `<!DOCTYPE article SYSTEM "../article.dtd"><article>&nbsp;</article>`
		files["b/"+id+"0.xml"] = `<!DOCTYPE article SYSTEM "../article.dtd"><article>&nbsp;</article>`
	}
	testfs.Write(t, root, files)
	var n atomic.Int32
	rd := &Reader{Root: root, Warn: func(string) { n.Add(1) }}
	done := make(chan error)
	for name := range files {
		go func() {
			a, err := rd.ParseFile(filepath.Join(root, name))
			if err == nil && a.Text != "\u00a0" {
				err = errors.New(name + ": text " + a.Text)
			}
			done <- err
		}()
	}
	for range files {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
	if n.Load() != 1 {
		t.Errorf("%d warnings, want 1", n.Load())
	}
}

// Entities expand to their replacement texts, nested references included;
// offsets count each expanded character once (formats.md). The numbers are
// counted by hand.
func TestEntities(t *testing.T) {
	tests := []struct {
		name, dtd, xml string
		text           string
		link           string // the target of the article's link, if any
	}{
		{
			name: "multi-character entity",
			dtd:  `<!ENTITY co "Company">`,
			xml:  `<article><p>&co;!</p></article>`,
			text: "Company!", // 7 + 1
		},
		{
			name: "nested references",
			dtd:  `<!ENTITY b "xy"><!ENTITY a "&b;-&b;">`,
			xml:  `<article>&a;</article>`,
			text: "xy-xy",
		},
		{
			name: "double-escaped character reference (the XHTML lt)",
			dtd:  `<!ENTITY lt2 "&#38;#60;"><!ENTITY amp2 "&#38;#38;">`,
			xml:  `<article>&lt2;&amp2;</article>`,
			text: "<&",
		},
		{
			name: "an empty entity counts nothing",
			dtd:  `<!ENTITY nothing "">`,
			xml:  `<article>a&nothing;b</article>`,
			text: "ab",
		},
		{
			name: "in an attribute",
			dtd:  `<!ENTITY dir "../12"><!ENTITY one "3">`,
			xml:  `<article><link href="&dir;&one;.xml">x</link></article>`,
			text: "x", link: "123",
		},
		{
			name: "parameter entities in the DTD",
			dtd:  `<!ENTITY % v "val"><!ENTITY w "%v;!"><!ENTITY % decl "<!ENTITY z 'zed'>"> %decl;`,
			xml:  `<article>&w;&z;</article>`,
			text: "val!zed",
		},
		{
			name: "conditional sections",
			dtd:  `<![IGNORE[ <!ENTITY x "ignored"> <![INCLUDE[ ]]> ]]><!ENTITY % on "INCLUDE"><![%on;[ <!ENTITY x "included"> ]]>`,
			xml:  `<article>&x;</article>`,
			text: "included",
		},
		{
			name: "the first declaration binds",
			dtd:  `<!ENTITY x "first"><!ENTITY x "second">`,
			xml:  `<article>&x;</article>`,
			text: "first",
		},
		{
			name: "element, attribute and notation declarations are skipped",
			dtd: `<!ELEMENT article (#PCDATA|p)*> <!ATTLIST link href CDATA #IMPLIED type (a|b) "a>b">
<!NOTATION gif SYSTEM "image/gif"> <?pi x?> <!-- <!ENTITY x "commented"> --> <!ENTITY x "real">`,
			xml:  `<article>&x;</article>`,
			text: "real",
		},
		{
			name: "markup in a replacement text stays text",
			dtd:  `<!ENTITY m "<b>bold</b>">`,
			xml:  `<article>&m;</article>`,
			text: "<b>bold</b>",
		},
		{
			name: "a lone U+FDD0 of the text is kept beside placeholders",
			dtd:  `<!ENTITY co "Co">`,
			xml:  "<article>\uFDD0&co;\uFDD0 7\uFDD0</article>",
			text: "\uFDD0Co\uFDD0 7\uFDD0",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			testfs.Write(t, root, map[string]string{"a.dtd": tc.dtd, "x/1.xml": `<!DOCTYPE article SYSTEM "../a.dtd">` + tc.xml})
			a, err := (&Reader{Root: root}).ParseFile(filepath.Join(root, "x", "1.xml"))
			if err != nil {
				t.Fatal(err)
			}
			if a.Text != tc.text || a.Len != len([]rune(tc.text)) {
				t.Errorf("Text, Len = %q, %d; want %q, %d", a.Text, a.Len, tc.text, len([]rune(tc.text)))
			}
			if tc.link != "" && (len(a.Links) != 1 || a.Links[0].Target != tc.link) {
				t.Errorf("links %+v, want one to %s", a.Links, tc.link)
			}
			if err := checkInvariants(a); err != nil {
				t.Error(err)
			}
		})
	}
}

// The internal subset is read before the external DTD: its declarations bind.
func TestInternalSubsetFirst(t *testing.T) {
	root := t.TempDir()
	testfs.Write(t, root, map[string]string{
		"a.dtd":   `<!ENTITY x "external"><!ENTITY y "from the DTD">`,
		"x/1.xml": `<!DOCTYPE article SYSTEM "../a.dtd" [ <!ENTITY x "internal"> <!ENTITY z "&y;!"> ]><article>&x;|&y;|&z;</article>`,
	})
	a, err := (&Reader{}).ParseFile(filepath.Join(root, "x", "1.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "internal|from the DTD|from the DTD!"; a.Text != want {
		t.Errorf("Text = %q, want %q", a.Text, want)
	}
}

// Hostile and broken entities are refused with an error naming the file, the
// line and the problem, quickly and without taking memory.
func TestEntityErrors(t *testing.T) {
	laughs := `<!ENTITY l0 "ha">`
	for i := 1; i <= 9; i++ {
		laughs += "<!ENTITY l" + string(rune('0'+i)) + ` "` + strings.Repeat("&l"+string(rune('0'+i-1))+";", 10) + `">`
	}
	thousand := strings.Repeat("x", 1000)
	tests := []struct {
		name, dtd, xml string
		line           int
		msg            string
	}{
		{"billion laughs", laughs, "<article>\n&l9;</article>", 2, "billion laughs"},
		{"many references to a long entity", `<!ENTITY k "` + thousand + `">`,
			"<article>\n<p>" + strings.Repeat("&k;", MaxExpandedChars/1000+1) + "</p></article>", 2, "billion laughs"},
		{"a cycle", `<!ENTITY a "&b;"><!ENTITY b "&a;">`, "<article>&a;</article>", 1, "refers to itself"},
		{"an external entity", `<!ENTITY e SYSTEM "secret.txt">`, "<article>\n\n&e;</article>", 3, "external entity"},
		{"an undefined entity", `<!ENTITY a "x">`, "<article>&b;</article>", 1, "undefined entity &b; (not declared in"},
		{"a reference to an undefined entity inside an entity", `<!ENTITY a "&nope;">`, "<article>&a;</article>", 1, "undefined entity &nope;"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			testfs.Write(t, root, map[string]string{"a.dtd": tc.dtd, "x/1.xml": `<!DOCTYPE article SYSTEM "../a.dtd">` + tc.xml})
			_, err := (&Reader{}).ParseFile(filepath.Join(root, "x", "1.xml"))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want an *Error", err)
			}
			if e.Line != tc.line || !strings.Contains(e.Msg, tc.msg) || !strings.HasSuffix(e.File, "1.xml") {
				t.Errorf("err = %v (line %d), want line %d with %q", err, e.Line, tc.line, tc.msg)
			}
		})
	}
}

// 16,000 references to a 1,000-character entity (16 M characters, just
// under MaxExpandedChars) are read whole.
func TestLongExpansionUnderTheBound(t *testing.T) {
	refs := MaxExpandedChars / 1000
	xml := `<!DOCTYPE article [<!ENTITY k "` + strings.Repeat("x", 1000) + `">]><article>` + strings.Repeat("&k;", refs) + `</article>`
	a, err := Parse(strings.NewReader(xml), "k.xml")
	if err != nil {
		t.Fatal(err)
	}
	if a.Len != refs*1000 {
		t.Errorf("Len = %d, want %d", a.Len, refs*1000)
	}
}

// A broken DTD is an error naming the DTD file and its line; a broken
// internal subset names the article's line.
func TestDTDErrors(t *testing.T) {
	tests := []struct {
		name, dtd, xml string
		msg            string
	}{
		{"a stray word", "<!ENTITY a \"x\">\n\nnonsense", `<!DOCTYPE article SYSTEM "../a.dtd"><article/>`, "a.dtd:3: unexpected 'n'"},
		{"unterminated comment", "<!ENTITY a \"x\">\n<!-- never closed", `<!DOCTYPE article SYSTEM "../a.dtd"><article/>`, "a.dtd:2: unterminated comment"},
		{"unterminated value", "\n<!ENTITY a \"x>", `<!DOCTYPE article SYSTEM "../a.dtd"><article/>`, "a.dtd:2: unterminated quoted value"},
		{"internal subset, line of the article", "", "<?xml version=\"1.0\"?>\n<!DOCTYPE article [\n<!ENTITY a \"x\">\n<!ENTITY b>\n]>\n<article/>", "1.xml:4: in the DOCTYPE's internal subset: <!ENTITY b: expected"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			testfs.Write(t, root, map[string]string{"a.dtd": tc.dtd, "x/1.xml": tc.xml})
			_, err := (&Reader{}).ParseFile(filepath.Join(root, "x", "1.xml"))
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("err = %v, want one containing %q", err, tc.msg)
			}
		})
	}
}

// MaxDepth elements nest; one more is refused, naming the line. Memory stays
// linear in the file: no XPath string is kept per element (with one, a
// 10,000-deep article took 10,000²/2 path steps, hundreds of MB).
func TestDepth(t *testing.T) {
	deep := func(n int) string {
		return "<article>\n" + strings.Repeat("<a>", n-1) + "x" + strings.Repeat("</a>", n-1) + "</article>"
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	a, err := Parse(strings.NewReader(deep(MaxDepth)), "deep.xml")
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Elements) != MaxDepth || a.Elements[MaxDepth-1].Depth != MaxDepth-1 {
		t.Errorf("%d elements, the last at depth %d; want %d, %d", len(a.Elements), a.Elements[len(a.Elements)-1].Depth, MaxDepth, MaxDepth-1)
	}
	// 10,000 elements of ~100 bytes, the stack and the decoder's: a few MB
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
		t.Errorf("parsing a %d-deep article allocated %d MB, want < 32", MaxDepth, alloc>>20)
	}
	if got, want := a.XPath(2), "/article[1]/a[1]/a[1]"; got != want {
		t.Errorf("XPath(2) = %q, want %q", got, want)
	}
	if i, ok := a.Lookup("/article/a/a"); !ok || i != 2 {
		t.Errorf("Lookup(/article/a/a) = %d, %v; want 2, true", i, ok)
	}
	_, err = Parse(strings.NewReader(deep(MaxDepth+1)), "deeper.xml")
	var e *Error
	if !errors.As(err, &e) || e.Line != 2 || !strings.Contains(e.Msg, "nested deeper than 10000") {
		t.Errorf("err = %v, want line 2: nested deeper than 10000", err)
	}
	// the file: 40,000 deep, refused at once
	_, err = Parse(strings.NewReader(deep(40000)), "40k.xml")
	if err == nil {
		t.Error("a 40,000-deep article was read")
	}
}

// EachXPath gives every element's path, as XPath does.
func TestEachXPath(t *testing.T) {
	a, err := Parse(strings.NewReader(`<article><a><b/><b><c/></b></a><a/><d><b/></d></article>`), "e.xml")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/article[1]", "/article[1]/a[1]", "/article[1]/a[1]/b[1]", "/article[1]/a[1]/b[2]",
		"/article[1]/a[1]/b[2]/c[1]", "/article[1]/a[2]", "/article[1]/d[1]", "/article[1]/d[1]/b[1]"}
	var got []string
	a.EachXPath(func(i int, x []byte) {
		got = append(got, string(x))
		if a.XPath(i) != string(x) {
			t.Errorf("element %d: EachXPath %s, XPath %s", i, x, a.XPath(i))
		}
	})
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("paths\n got %v\nwant %v", got, want)
	}
}

// A UTF-8 byte-order mark is skipped; UTF-16 and UTF-32 are refused by name.
func TestByteOrderMarks(t *testing.T) {
	a, err := Parse(strings.NewReader("\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?><article>é</article>"), "bom.xml")
	if err != nil {
		t.Fatal(err)
	}
	if a.Text != "é" || a.Len != 1 {
		t.Errorf("Text, Len = %q, %d; want é, 1", a.Text, a.Len)
	}
	for name, head := range map[string]string{"UTF-16": "\xFF\xFE<\x00a\x00", "UTF-16 big-endian": "\xFE\xFF\x00<\x00a", "UTF-32": "\xFF\xFE\x00\x00<\x00\x00\x00"} {
		_, err := Parse(strings.NewReader(head), "w.xml")
		want := "UTF-16"
		if name == "UTF-32" {
			want = "UTF-32"
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want one naming %s", name, err, want)
		}
	}
}

// Files that are not regular files are refused without opening them (a FIFO
// would block).
func TestNotRegular(t *testing.T) {
	dir := t.TempDir()
	if _, err := ParseFile(dir); err == nil || !strings.Contains(err.Error(), "folder") {
		t.Errorf("a folder: err = %v", err)
	}
}

func TestDetectLang(t *testing.T) {
	tests := []struct{ text, want string }{
		{"", "en"},
		{"Cuttlefish are marine animals of the order Sepiida.", "en"},
		{"Ravioli (意大利餃) is pasta.", "en"},                  // 14 Latin letters, 4 Han: 3×4 < 18 letters
		{"意大利餃（意大利语:ravioli或 tortellini）一種傳統的意大利麵食", "zh"},  // 19 Han, 17 Latin: 3×19 ≥ 36, no kana
		{"ラビオリ（イタリア語: ravioli）は、イタリアのパスタの一種である。", "ja"},     // 15 katakana, 6 hiragana, 3 Han
		{"라비올리(이탈리아어: ravioli)는 이탈리아의 파스타 요리이다. 意大利", "ko"}, // Hangul ≥ 30% of CJK
		{"Пельмени — блюдо русской кухни из теста с начинкой.", "ru"},
		{"Mostly English words with a few Кириллица letters in it here.", "en"},
	}
	for _, tc := range tests {
		if got := DetectLang(tc.text); got != tc.want {
			t.Errorf("DetectLang(%q) = %s, want %s", tc.text, got, tc.want)
		}
	}
	if !IsCJK("zh-Hant") || !IsCJK("ko") || IsCJK("en") || IsCJK("zhx") {
		t.Error("IsCJK")
	}
}

func FuzzDTD(f *testing.F) {
	for _, s := range []string{
		`<!ENTITY a "x"><!ENTITY % p "<!ENTITY b 'y'>">%p;`,
		`<![INCLUDE[<!ENTITY a "&#38;#60;">]]><![IGNORE[<![IGNORE[ ]]> ]]>`,
		`<!ELEMENT a (b|c)*><!ATTLIST a x CDATA "q>">`,
		`<!-- c --><?pi?><!ENTITY e SYSTEM "x"><!ENTITY % q "%q;">%q;`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := ParseDTD(b, "fuzz.dtd")
		if err != nil {
			var de *DTDError
			if !errors.As(err, &de) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if _, err := newEntitySet("fuzz", true, d); err != nil {
			t.Fatal(err)
		}
	})
}
