package article

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

type span struct {
	xpath      string
	start, end int
}

// The expected numbers below were counted by hand from formats.md: characters
// of text nodes and CDATA from the root start tag on, references as the one
// character they stand for, markup zero, line ends as XML normalises them.
var spanCases = []struct {
	name string
	xml  string
	len  int
	text string
	want []span
}{
	{
		name: "entities",
		// "a&b<c": 5 characters
		xml: `<article><p>a&amp;b&lt;c</p></article>`,
		len: 5, text: "a&b<c",
		want: []span{{"/article[1]", 0, 5}, {"/article[1]/p[1]", 0, 5}},
	},
	{
		name: "character references",
		// "café 😀!" = c,a,f,é,space,😀,! = 7; then "&" = 1
		xml: `<article><p>caf&#233; &#x1F600;!</p><q>&#38;</q></article>`,
		len: 8, text: "café 😀!&",
		want: []span{{"/article[1]", 0, 8}, {"/article[1]/p[1]", 0, 7}, {"/article[1]/q[1]", 7, 8}},
	},
	{
		name: "CDATA",
		// x + "<b>&amp;</b>" (12 characters, nothing resolved) + y = 14
		xml: `<article><p>x<![CDATA[<b>&amp;</b>]]>y</p></article>`,
		len: 14, text: "x<b>&amp;</b>y",
		want: []span{{"/article[1]", 0, 14}, {"/article[1]/p[1]", 0, 14}},
	},
	{
		name: "comments and processing instructions",
		// "one" + "three" = 8, then "four" = 4
		xml: `<?xml version="1.0"?><!-- c --><article><?pi data?><a>one<!-- two -->three</a><?x?><b>four</b></article>`,
		len: 12, text: "onethreefour",
		want: []span{{"/article[1]", 0, 12}, {"/article[1]/a[1]", 0, 8}, {"/article[1]/b[1]", 8, 12}},
	},
	{
		name: "DOCTYPE with an internal entity",
		// &co; is "Company" (7) + ", Inc." (6) = 13
		xml: `<!DOCTYPE article [<!ENTITY co "Company">]><article><p>&co;, Inc.</p></article>`,
		len: 13, text: "Company, Inc.",
		want: []span{{"/article[1]", 0, 13}, {"/article[1]/p[1]", 0, 13}},
	},
	{
		name: "CRLF line ends",
		// "\r\n" → "\n" (1); p: "a\r\nb" → "a\nb" (3) at 1; "\r\n" (1)
		xml: "<article>\r\n<p>a\r\nb</p>\r\n</article>",
		len: 5, text: "\na\nb\n",
		want: []span{{"/article[1]", 0, 5}, {"/article[1]/p[1]", 1, 4}},
	},
	{
		name: "characters outside the BMP",
		// 𝄞 x 😀 = 3 characters (4+1+4 bytes); é = 1
		xml: `<article><p>𝄞x😀</p><p>é</p></article>`,
		len: 4, text: "𝄞x😀é",
		want: []span{{"/article[1]", 0, 4}, {"/article[1]/p[1]", 0, 3}, {"/article[1]/p[2]", 3, 4}},
	},
	{
		name: "deep nesting, positions per name",
		// "xy" inside four levels, then "z"
		xml: `<article><a><a><a><b>xy</b></a></a><a>z</a></a></article>`,
		len: 3, text: "xyz",
		want: []span{
			{"/article[1]", 0, 3},
			{"/article[1]/a[1]", 0, 3},
			{"/article[1]/a[1]/a[1]", 0, 2},
			{"/article[1]/a[1]/a[1]/a[1]", 0, 2},
			{"/article[1]/a[1]/a[1]/a[1]/b[1]", 0, 2},
			{"/article[1]/a[1]/a[2]", 2, 3},
		},
	},
	{
		name: "mixed content",
		// "one " 0-4, b "two" 4-7, " three " 7-14, i 14-23 ("four " 14-19, b "five" 19-23), " six" 23-27
		xml: `<article><p>one <b>two</b> three <i>four <b>five</b></i> six</p><p>x</p><p>y</p></article>`,
		len: 29, text: "one two three four five sixxy",
		want: []span{
			{"/article[1]", 0, 29},
			{"/article[1]/p[1]", 0, 27},
			{"/article[1]/p[1]/b[1]", 4, 7},
			{"/article[1]/p[1]/i[1]", 14, 23},
			{"/article[1]/p[1]/i[1]/b[1]", 19, 23},
			{"/article[1]/p[2]", 27, 28},
			{"/article[1]/p[3]", 28, 29},
		},
	},
	{
		name: "whitespace-only text",
		// "\n  " (3), sec: "\n\t" (2), p " " 5-6, "\n  " (3) → sec 3-9, "\n" → 10; the newline after the root is outside
		xml: "<article>\n  <sec>\n\t<p> </p>\n  </sec>\n</article>\n",
		len: 10, text: "\n  \n\t \n  \n",
		want: []span{{"/article[1]", 0, 10}, {"/article[1]/sec[1]", 3, 9}, {"/article[1]/sec[1]/p[1]", 5, 6}},
	},
	{
		name: "empty elements and prefixed names",
		xml:  `<article xmlns:x="urn:x"><x:a/><br></br><p>ab</p><x:a>c</x:a></article>`,
		len:  3, text: "abc",
		want: []span{
			{"/article[1]", 0, 3},
			{"/article[1]/x:a[1]", 0, 0},
			{"/article[1]/br[1]", 0, 0},
			{"/article[1]/p[1]", 0, 2},
			{"/article[1]/x:a[2]", 2, 3},
		},
	},
}

func TestSpans(t *testing.T) {
	for _, tc := range spanCases {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Parse(strings.NewReader(tc.xml), "dir/123.xml")
			if err != nil {
				t.Fatal(err)
			}
			if a.Len != tc.len || a.Text != tc.text {
				t.Errorf("Len, Text = %d, %q; want %d, %q", a.Len, a.Text, tc.len, tc.text)
			}
			var got []span
			for i, e := range a.Elements {
				got = append(got, span{a.XPath(i), e.Start, e.End})
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("spans\n got %v\nwant %v", got, tc.want)
			}
			if a.ID != "123" {
				t.Errorf("ID = %q, want 123", a.ID)
			}
		})
	}
}

func TestTitleAndLinks(t *testing.T) {
	tests := []struct {
		name, xml, title string
		links            []Link
	}{
		{
			name: "2009",
			// title "Héllo" 0-5, id "7" 5-6; p: "See " 6-10, link "x" 10-11
			xml:   `<article xmlns:xlink="http://www.w3.org/1999/xlink"><header><title>Héllo</title><id>7</id></header><bdy><p>See <link xlink:type="simple" xlink:href="../../12.xml">x</link></p></bdy></article>`,
			title: "Héllo",
			links: []Link{{Target: "12", Elem: 6, Start: 10, End: 11}}, // article header title id bdy p link
		},
		{
			name: "2006",
			// name "Bridge" 0-6; p: "See " 6-10, collectionlink 10-11, " and " 11-16, outsidelink 16-17
			xml:   `<article xmlns:xlink="http://www.w3.org/1999/xlink"><name id="5">Bridge</name><body><p>See <collectionlink xlink:href="12.xml">x</collectionlink> and <outsidelink xlink:href="http://e.org/a.xml">y</outsidelink></p></body></article>`,
			title: "Bridge",
			links: []Link{{Target: "12", Elem: 4, Start: 10, End: 11}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Parse(strings.NewReader(tc.xml), "a.xml")
			if err != nil {
				t.Fatal(err)
			}
			if a.Title != tc.title {
				t.Errorf("Title = %q, want %q", a.Title, tc.title)
			}
			if !reflect.DeepEqual(a.Links, tc.links) {
				t.Errorf("Links = %+v, want %+v", a.Links, tc.links)
			}
		})
	}
}

func mixed(t *testing.T) *Article {
	t.Helper()
	for _, tc := range spanCases {
		if tc.name == "mixed content" {
			a, err := Parse(strings.NewReader(tc.xml), "m.xml")
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
	}
	t.Fatal("no mixed content case")
	return nil
}

func xpaths(a *Article, idx []int) []string {
	out := []string{}
	for _, i := range idx {
		if i < 0 {
			out = append(out, "-")
			continue
		}
		out = append(out, a.XPath(i))
	}
	return out
}

func TestLookups(t *testing.T) {
	a := mixed(t)
	// Spans of the mixed content case: p1 0-27, p1/b 4-7, p1/i 14-23, p1/i/b 19-23, p2 27-28, p3 28-29.
	const (
		art = "/article[1]"
		p1  = "/article[1]/p[1]"
		b   = "/article[1]/p[1]/b[1]"
		i   = "/article[1]/p[1]/i[1]"
		ib  = "/article[1]/p[1]/i[1]/b[1]"
		p2  = "/article[1]/p[2]"
		p3  = "/article[1]/p[3]"
	)
	tests := []struct {
		name string
		got  []int
		want []string
	}{
		{"Containing(20)", a.Containing(20), []string{art, p1, i, ib}},
		{"Containing(0)", a.Containing(0), []string{art, p1}},
		{"Containing(7)", a.Containing(7), []string{art, p1}},
		{"Containing(27)", a.Containing(27), []string{art, p2}},
		{"Containing(29)", a.Containing(29), []string{}},
		{"Smallest(15,22)", []int{a.Smallest(15, 22)}, []string{i}},
		{"Smallest(19,23)", []int{a.Smallest(19, 23)}, []string{ib}},
		{"Smallest(0,27)", []int{a.Smallest(0, 27)}, []string{p1}},
		{"Smallest(4,28)", []int{a.Smallest(4, 28)}, []string{art}},
		{"Smallest(5,5)", []int{a.Smallest(5, 5)}, []string{"-"}},
		{"Smallest(28,30)", []int{a.Smallest(28, 30)}, []string{"-"}},
		{"Largest(4,23)", a.Largest(4, 23), []string{b, i}},
		{"Largest(3,28)", a.Largest(3, 28), []string{b, i, p2}},
		{"Largest(0,29)", a.Largest(0, 29), []string{art}},
		{"Largest(5,19)", a.Largest(5, 19), []string{}},
		{"Leaves(0,29)", a.Leaves(0, 29), []string{b, ib, p2, p3}},
		{"Leaves(14,23)", a.Leaves(14, 23), []string{ib}},
	}
	for _, tc := range tests {
		if got := xpaths(a, tc.got); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.name, got, tc.want)
		}
	}
	for _, x := range []struct {
		xpath      string
		start, end int
		ok         bool
	}{
		{"/article[1]/p[1]/i[1]", 14, 23, true},
		{"/article/p/i", 14, 23, true},
		{"/article[1]/p[3]/", 28, 29, true},
		{"/article[1]/p[4]", 0, 0, false},
	} {
		s, e, err := a.Span(x.xpath)
		if (err == nil) != x.ok || s != x.start || e != x.end {
			t.Errorf("Span(%q) = %d, %d, %v; want %d, %d, ok=%v", x.xpath, s, e, err, x.start, x.end, x.ok)
		}
	}
}

func TestOffsets(t *testing.T) {
	// "𝄞x😀é": bytes 0-4 𝄞, 4 x, 5-9 😀, 9-11 é
	a, err := Parse(strings.NewReader(`<article>𝄞x😀é</article>`), "o.xml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ char, byte int }{{0, 0}, {1, 4}, {2, 5}, {3, 9}, {4, 11}} {
		if got := a.ByteOffset(c.char); got != c.byte {
			t.Errorf("ByteOffset(%d) = %d, want %d", c.char, got, c.byte)
		}
		if got := a.CharOffset(c.byte); got != c.char {
			t.Errorf("CharOffset(%d) = %d, want %d", c.byte, got, c.char)
		}
	}
	if got := a.CharOffset(2); got != 0 { // inside 𝄞
		t.Errorf("CharOffset(2) = %d, want 0", got)
	}
	if got := a.Slice(1, 3); got != "x😀" {
		t.Errorf("Slice(1,3) = %q", got)
	}
	// A long text crosses many checkpoints: every offset must round-trip.
	long := strings.Repeat("aé😀", 100)
	b, err := Parse(strings.NewReader("<article>"+long+"</article>"), "l.xml")
	if err != nil {
		t.Fatal(err)
	}
	if b.Len != 300 {
		t.Fatalf("Len = %d, want 300", b.Len)
	}
	for c := 0; c <= 300; c++ {
		want := len(string([]rune(long)[:c]))
		if got := b.ByteOffset(c); got != want {
			t.Fatalf("ByteOffset(%d) = %d, want %d", c, got, want)
		}
		if got := b.CharOffset(want); got != c {
			t.Fatalf("CharOffset(%d) = %d, want %d", want, got, c)
		}
	}
}

func TestLatin1(t *testing.T) {
	a, err := Parse(strings.NewReader("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><article>caf\xe9</article>"), "l.xml")
	if err != nil {
		t.Fatal(err)
	}
	if a.Text != "café" || a.Len != 4 {
		t.Errorf("Text, Len = %q, %d; want café, 4", a.Text, a.Len)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, xml string
		line      int
		msg       string
	}{
		{"mismatched tags", "<article>\n<p>x</q></article>", 2, "does not match"},
		{"truncated", "<article>\n<p>x", 2, "truncated"},
		{"truncated in a tag", "<article>\n<p", 2, "truncated"},
		{"unknown encoding", `<?xml version="1.0" encoding="EBCDIC-US"?><article/>`, 1, "unknown encoding"},
		{"empty", "", 0, "empty file"},
		{"only a comment", "<!-- nothing -->", 0, "no root element"},
		{"not an article", "<topic/>", 1, "not an article"},
		{"undefined entity", "<article>\n&foo;</article>", 2, "entity"},
		{"second root", "<article/>\n<article/>", 2, "after the root"},
		{"text before root", "hello <article/>", 1, "before the root"},
		{"invalid UTF-8", "<article>\xff</article>", 1, "UTF-8"},
		{"not XML", "\x00\x01binary", 1, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tc.xml), "bad name (1).xml")
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v (%T), want *Error", err, err)
			}
			if e.File != "bad name (1).xml" || e.Line != tc.line || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("err = %q (line %d), want line %d containing %q", err, e.Line, tc.line, tc.msg)
			}
			if !strings.HasPrefix(err.Error(), "bad name (1).xml") {
				t.Errorf("error %q does not start with the file name", err)
			}
		})
	}
}

func TestParseFileMissing(t *testing.T) {
	_, err := ParseFile("no/such/file.xml")
	if err == nil || !strings.Contains(err.Error(), "no/such/file.xml") {
		t.Errorf("err = %v, want one naming the file", err)
	}
}

// checkInvariants checks what must hold for any parsed article: spans nest,
// pre-order starts never decrease, Next delimits subtrees, Len counts Text.
func checkInvariants(a *Article) error {
	if a.Len != utf8.RuneCountInString(a.Text) {
		return fmt.Errorf("Len %d != %d characters", a.Len, utf8.RuneCountInString(a.Text))
	}
	for i := range a.Elements {
		e := &a.Elements[i]
		if e.Start > e.End || e.End > a.Len {
			return fmt.Errorf("%s: bad span %d-%d", a.XPath(i), e.Start, e.End)
		}
		if i > 0 && e.Start < a.Elements[i-1].Start {
			return fmt.Errorf("%s: starts before its predecessor", a.XPath(i))
		}
		if e.Parent >= 0 {
			p := &a.Elements[e.Parent]
			if e.Start < p.Start || e.End > p.End || i >= p.Next {
				return fmt.Errorf("%s: outside its parent", a.XPath(i))
			}
		}
		if e.Next <= i || e.Next > len(a.Elements) {
			return fmt.Errorf("%s: bad Next %d", a.XPath(i), e.Next)
		}
	}
	return nil
}

func FuzzParse(f *testing.F) {
	for _, tc := range spanCases {
		f.Add([]byte(tc.xml))
	}
	f.Add([]byte(`<!DOCTYPE article [<!ENTITY a "x&#233;y"><!ENTITY % p "q"><!ENTITY e SYSTEM "e.txt">]><article>&a;</article>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := Parse(strings.NewReader(string(data)), "fuzz.xml")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if err := checkInvariants(a); err != nil {
			t.Fatal(err)
		}
		// cutting long runs of text changes nothing (refFilter)
		cut, err := (&Reader{splitEvery: 3}).Parse(iotest.OneByteReader(bytes.NewReader(data)), "fuzz.xml")
		if err != nil {
			t.Fatalf("read cut every 3 bytes: %v", err)
		}
		if d := sameArticle(a, cut); d != "" {
			t.Fatalf("read cut every 3 bytes: %s", d)
		}
		// a reference to a surrogate is refused, never U+FFFD (refFilter)
		if strings.ContainsRune(a.Text, '\uFFFD') && !bytes.Contains(data, []byte("\uFFFD")) &&
			!bytes.Contains(bytes.ToLower(data), []byte("fffd")) && !bytes.Contains(data, []byte("65533")) {
			t.Fatalf("U+FFFD in the text of %q", data)
		}
		for c := 0; c <= a.Len; c += 1 + a.Len/50 {
			if got := a.CharOffset(a.ByteOffset(c)); got != c {
				t.Fatalf("CharOffset(ByteOffset(%d)) = %d", c, got)
			}
		}
	})
}
