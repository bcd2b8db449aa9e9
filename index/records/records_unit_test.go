package records

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/analysis"
	"github.com/readsim/readsim/index/chars"
)

// recordCase is an article's record as a build writes it.
type recordCase struct {
	title, lang, path string
	text              string
	elems             []Elem
	lens              []int
	quiet, breaks     []int
}

// recordPieces are what random texts are made of: ASCII words, letters
// of two, three and four bytes, white space of one to three bytes (NBSP,
// the ideographic space) and in long runs, and entities as leftover wiki
// markup leaves them (wikimarkup.Entity: "&amp;" shows as "&", "&nbsp;"
// as white space).
var recordPieces = []string{
	"word", "a", "Fresnel", " ", "  ", "\n", "\t", strings.Repeat(" ", 300), "é", "ß", "中", "國", "한국", "😀", "𝔸",
	"\u00a0", "\u3000", "&amp;", "&gt;", "&nbsp;", "&#32;", "&bogus", ".", "…",
}

// randomRecord makes a record of a random text of about size bytes
// (pieces of recordPieces) with random elements, quiet spans and breaks.
func randomRecord(rng *rand.Rand, size int) recordCase {
	return randomParts(rng, randomRecordText(rng, size))
}

// randomRecordText is a text of about size bytes, pieces of recordPieces.
func randomRecordText(rng *rand.Rand, size int) string {
	var b strings.Builder
	for b.Len() < size {
		b.WriteString(recordPieces[rng.IntN(len(recordPieces))])
	}
	return b.String()
}

// recordXPath is an element's XPath and its kind.
type recordXPath struct {
	xpath           string
	caption, isBody bool
}

// recordLangs are the languages of random records: those readsim knows
// (langName) and one it does not.
var recordLangs = []string{"en", "zh", "ja", "ko", "fr", ""}

// recordXPaths are the XPaths of random elements, each with its kind by
// browse's rules (IsCaption: the last step is a caption; IsBodyText: a
// paragraph or the text of the body itself), told by hand.
var recordXPaths = []recordXPath{
	{"/article[1]/bdy[1]/p[3]", false, true},
	{"/article[1]/body[1]/p[12]", false, true},
	{"/article[1]/bdy[1]/text()", false, true},
	{"/article[1]/bdy[1]/sec[2]/p[1]", false, false},
	{"/article[1]/bdy[1]/sec[2]", false, false},
	{"/article[1]/bdy[1]/figure[1]/caption[1]", true, false},
	{"/article[1]/body[1]/caption[2]", true, false},
	{"/article[1]/bdy[1]/sec[1]/text()", false, false},
	{"", false, false},
}

// randomParts gives text random elements (nested or not, some empty, some
// ending at the text's end), lengths, sorted disjoint quiet spans and
// sorted breaks.
func randomParts(rng *rand.Rand, text string) recordCase {
	n := utf8.RuneCountInString(text)
	c := recordCase{text: text, lang: recordLangs[rng.IntN(len(recordLangs))]}
	c.title = randomRecordText(rng, rng.IntN(40))
	c.path = fmt.Sprintf("%03d/%d.xml", rng.IntN(1000), rng.IntN(1e7))
	for range rng.IntN(12) {
		s := rng.IntN(n + 1)
		e := s + rng.IntN(n-s+1)
		c.elems = append(c.elems, Elem{Span: effort.Span{Start: s, End: e}, XPath: recordXPaths[rng.IntN(len(recordXPaths))].xpath})
		c.lens = append(c.lens, rng.IntN(1000))
	}
	for at := 0; at < n && rng.IntN(4) > 0; {
		s := at + rng.IntN(n-at)
		e := s + 1 + rng.IntN(min(n-s, 40))
		c.quiet = append(c.quiet, s, e)
		at = e
	}
	for at := 0; at < n && rng.IntN(8) > 0; {
		at += 1 + rng.IntN(n-at)
		c.breaks = append(c.breaks, at)
	}
	return c
}

// spacesAfter counts the white space characters after character c of
// runes, by hand.
func spacesAfter(runes []rune, c int) int {
	n := 0
	for c+n < len(runes) && unicode.IsSpace(runes[c+n]) {
		n++
	}
	return n
}

// runeSlice is the text of characters [s, e) of runes, s and e clamped to
// the text.
func runeSlice(runes []rune, s, e int) string {
	s, e = max(s, 0), min(e, len(runes))
	if e <= s {
		return ""
	}
	return string(runes[s:e])
}

// checkRoundTrip encodes c's record, decodes it and checks everything it
// gives against c, counted by hand on the text's runes: slices and shows
// of random ranges of characters (ranges of them) and across each
// block's start.
func checkRoundTrip(t *testing.T, name string, c recordCase, rng *rand.Rand, ranges int) {
	t.Helper()
	runes := []rune(c.text)
	n := len(runes)
	enc := Encode(nil, c.title, c.lang, c.path, c.text, n, c.elems, c.lens, Spans{Quiet: c.quiet, Breaks: c.breaks})
	h, err := Decode(enc, true, nil)
	if err != nil || h.title != c.title || h.lang != c.lang || h.path != c.path {
		t.Fatalf("%s: head %+v (%v), want %q %q %q", name, h, err, c.title, c.lang, c.path)
	}
	// a search's hit takes its lists from the search's arena: one whose
	// buffers an earlier hit half used, or none
	var arena *Arena
	if rng.IntN(2) == 0 {
		arena = &Arena{}
		arena.takeInts(rng.IntN(5000))
		arena.takeElems(rng.IntN(1200))
	}
	d, err := Decode(enc, false, arena)
	if err != nil {
		t.Fatalf("%s: decoding %d bytes: %v", name, len(enc), err)
	}
	if d.chars != n || d.bytes != len(c.text) {
		t.Errorf("%s: %d characters %d bytes, want %d and %d", name, d.chars, d.bytes, n, len(c.text))
	}
	var spans, gotSpans []effort.Span
	var gaps []int
	for _, el := range c.elems {
		spans = append(spans, el.Span)
		gaps = append(gaps, spacesAfter(runes, el.End))
	}
	for k, el := range d.Elems {
		gotSpans = append(gotSpans, el.Span)
		// browse's rules from the kind alone (the XPath is not read)
		i := slices.IndexFunc(recordXPaths, func(x recordXPath) bool { return x.xpath == c.elems[k].XPath })
		if want := recordXPaths[i]; el.XPath != "" || el.Caption() != want.caption || el.BodyText() != want.isBody {
			t.Errorf("%s: element %d of %q: XPath %q caption %v body text %v, want none, %v, %v", name, k, want.xpath, el.XPath, el.Caption(), el.BodyText(), want.caption, want.isBody)
		}
	}
	if !slices.Equal(gotSpans, spans) || !slices.Equal(d.lens, c.lens) || !slices.Equal(d.gaps, gaps) {
		t.Errorf("%s: elements %v lens %v gaps %v, want %v %v %v", name, gotSpans, d.lens, d.gaps, spans, c.lens, gaps)
	}
	if !slices.Equal(d.quiet, c.quiet) || !slices.Equal(d.brk, c.breaks) {
		t.Errorf("%s: quiet %v breaks %v, want %v %v", name, d.quiet, d.brk, c.quiet, c.breaks)
	}
	if got, err := d.text(); err != nil || got != c.text {
		t.Errorf("%s: text %q (%v), want %q", name, got, err, c.text)
	}
	var xp []string
	for _, el := range c.elems {
		xp = append(xp, el.XPath)
	}
	if got, err := d.xpaths(); err != nil || !slices.Equal(got, xp) {
		t.Errorf("%s: XPaths %q (%v), want %q", name, got, err, xp)
	}
	for _, bl := range d.Blocks {
		if bl.raw > recordBlock+utf8.UTFMax || bl.raw == 0 {
			t.Errorf("%s: a block of %d bytes", name, bl.raw)
		}
	}
	// slices, from the blocks and the character index, against the runes
	bt := newBlockText(d, &Arena{})
	ci := chars.New(c.text)
	var pairs [][2]int
	for range ranges {
		s := rng.IntN(n+20) - 10
		pairs = append(pairs, [2]int{s, s + rng.IntN(n+20) - 5})
	}
	for _, bl := range d.Blocks { // across each block's start
		for _, o := range [][2]int{{-1, 1}, {-1, 0}, {0, 1}, {-300, 2}, {-3000, 3000}} {
			pairs = append(pairs, [2]int{bl.Char + o[0], bl.Char + o[1]})
		}
	}
	pairs = append(pairs, [2]int{0, n}, [2]int{-5, n + 5}, [2]int{n, n + 1}, [2]int{n - 1, n})
	for _, p := range pairs {
		want := runeSlice(runes, p[0], p[1])
		if got := bt.Slice(p[0], p[1]); got != want {
			t.Errorf("%s: blocks' slice(%d, %d) = %q, want %q", name, p[0], p[1], got, want)
		}
		if p[0] >= 0 && p[1] <= n && p[0] <= p[1] { // charIndex's domain
			if got := ci.Slice(p[0], p[1]); got != want {
				t.Errorf("%s: charIndex's slice(%d, %d) = %q, want %q", name, p[0], p[1], got, want)
			}
		}
	}
	// shows against ShownText, on both
	for _, p := range pairs {
		from, to := max(p[0], 0), min(p[1], n)
		want := strings.TrimSpace(ShownText(ci, c.quiet, from, to)) != ""
		if got := Shows(ci, c.quiet, from, to); got != want {
			t.Errorf("%s: shows(charIndex, %d, %d) = %v, shownText %q", name, from, to, got, ShownText(ci, c.quiet, from, to))
		}
		if got := Shows(bt, c.quiet, from, to); got != want {
			t.Errorf("%s: shows(blocks, %d, %d) = %v, shownText %q", name, from, to, got, ShownText(ci, c.quiet, from, to))
		}
		if a, b := ShownText(bt, c.quiet, from, to), ShownText(ci, c.quiet, from, to); a != b {
			t.Errorf("%s: shownText(%d, %d) from blocks %q, from the text %q", name, from, to, a, b)
		}
	}
	if bt.err != nil {
		t.Errorf("%s: blocks: %v", name, bt.err)
	}
}

// TestRecordRoundTrip encodes records of random texts and of texts at
// the edges of a block and decodes them: every part comes back, the
// white space after each element is the hand count of it, and slices
// and shows read from the blocks agree with the text's runes.
func TestRecordRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 1))
	fixed := []struct {
		name string
		text string
	}{
		{"empty", ""},
		{"one space", " "},
		{"2048 ASCII bytes", strings.Repeat("abcdefgh", 256)},
		{"2049 ASCII bytes", strings.Repeat("abcdefgh", 256) + "x"},
		{"2048 bytes ending in é", strings.Repeat("a", 2046) + "é"},
		{"é across byte 2048", strings.Repeat("a", 2047) + "é" + "b"},
		{"4-byte rune across byte 2048", strings.Repeat("a", 2046) + "😀" + strings.Repeat("b", 3000)},
		{"2049 bytes of 3-byte runes and one", strings.Repeat("中", 683)},
		{"spaces only", strings.Repeat(" ", 5000)},
		{"4-byte runes only", strings.Repeat("😀", 1500)},
		{"white space of three bytes", strings.Repeat("\u3000x", 1000)},
	}
	for _, tc := range fixed {
		for i := range 5 {
			checkRoundTrip(t, fmt.Sprintf("%s #%d", tc.name, i), randomParts(rng, tc.text), rng, 200)
		}
	}
	for i := range 300 {
		size := []int{0, 10, 300, 2048, 2049, 5000, 20000}[i%7]
		checkRoundTrip(t, fmt.Sprintf("random %d", i), randomRecord(rng, size), rng, 200)
	}
}

// TestShowsPieces checks shows where its pieces of 256 characters meet
// quiet spans: a text of white space but for quiet spans, each holding
// what it says, against what ShownText shows by its rule, by hand (a
// quiet span shows only when it is whole in the range and an entity,
// as its character; "&nbsp;" is white space).
func TestShowsPieces(t *testing.T) {
	// text puts each string at its character offset in 1000 spaces
	text := func(at map[int]string) string {
		r := []rune(strings.Repeat(" ", 1000))
		for o, s := range at {
			copy(r[o:], []rune(s))
		}
		return string(r)
	}
	tests := []struct {
		name     string
		at       map[int]string
		quiet    []int
		from, to int
		want     bool
	}{
		{"white space only", nil, nil, 0, 1000, false},
		{"a word after two pieces", map[int]string{600: "x"}, nil, 0, 1000, true},
		{"a word just past the range", map[int]string{600: "x"}, nil, 0, 600, false},
		{"&amp; across the first piece's end", map[int]string{253: "&amp;"}, []int{253, 258}, 0, 1000, true},
		{"&amp; across the second piece's end", map[int]string{509: "&amp;"}, []int{509, 514}, 0, 1000, true},
		{"&amp; across a piece's end from 10", map[int]string{263: "&amp;"}, []int{263, 268}, 10, 1000, true},
		{"&nbsp; across a piece's end", map[int]string{253: "&nbsp;"}, []int{253, 259}, 0, 1000, false},
		{"&#32; across a piece's end", map[int]string{253: "&#32;"}, []int{253, 258}, 0, 1000, false},
		{"&amp; cut by the range's end", map[int]string{253: "&amp;"}, []int{253, 258}, 0, 256, false},
		{"&amp; cut by the range's start", map[int]string{253: "&amp;"}, []int{253, 258}, 255, 1000, false},
		{"&amp; ending the range", map[int]string{253: "&amp;"}, []int{253, 258}, 0, 258, true},
		{"a word quiet across a piece's end", map[int]string{250: "template"}, []int{250, 258}, 0, 1000, false},
		{"a long quiet span over three pieces", map[int]string{100: strings.Repeat("x", 600)}, []int{100, 700}, 0, 1000, false},
		{"&amp; after a long quiet span", map[int]string{100: strings.Repeat("x", 600), 700: "&amp;"}, []int{100, 700, 700, 705}, 0, 1000, true},
		{"&gt; in the fourth piece", map[int]string{770: "&gt;"}, []int{770, 774}, 0, 1000, true},
		{"2 quiet spans across an end", map[int]string{250: "&x;", 255: "&amp;"}, []int{250, 253, 255, 260}, 0, 1000, true},
	}
	for _, tc := range tests {
		s := text(tc.at)
		runes := []rune(s)
		d, err := Decode(Encode(nil, "", "en", "", s, len(runes), nil, nil, Spans{Quiet: tc.quiet}), false, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for name, ts := range map[string]TextSlicer{"charIndex": chars.New(s), "blocks": newBlockText(d, &Arena{})} {
			if got := Shows(ts, tc.quiet, tc.from, tc.to); got != tc.want {
				t.Errorf("%s, %s: shows %v, want %v", tc.name, name, got, tc.want)
			}
		}
		if got := strings.TrimSpace(ShownText(chars.New(s), tc.quiet, tc.from, tc.to)) != ""; got != tc.want {
			t.Errorf("%s: shownText shows %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestSnippetKeepsNoArena checks that a snippet made from blocks stays
// when their arena is written over: blockText.slice gives the arena's
// bytes, and once the arena goes back, the next search writes over it;
// the snippets are still those of the text.
func TestSnippetKeepsNoArena(t *testing.T) {
	text := strings.Repeat("Fresnel lens 中文 ", 400)
	n := utf8.RuneCountInString(text)
	d, err := Decode(Encode(nil, "", "en", "", text, n, nil, nil, Spans{}), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	lens := analysis.QueryTerms("lens", "en")
	none := analysis.QueryTerms("coffee", "en") // marks nothing: a snippet of one piece
	a := &Arena{}
	blocks := &StoredArticle{Lang: "en", Len: n, blocks: newBlockText(d, a)}
	whole := &StoredArticle{Lang: "en", Len: n, Text: text}
	blocks.toks = whole.Tokens() // the words to mark, from the text
	var snips, want []string
	for _, tc := range []struct {
		p     effort.Span
		terms []analysis.Term
	}{
		{effort.Span{Start: 10, End: 300}, lens},    // one block
		{effort.Span{Start: 1500, End: 3000}, lens}, // two
		{effort.Span{Start: 0, End: 100}, none},     // one slice of a block, whole
	} {
		snips = append(snips, blocks.Snippet(tc.p, tc.terms, 160))
		want = append(want, whole.Snippet(tc.p, tc.terms, 160))
	}
	a.reset()
	copy(a.take(cap(a.buf)), bytes.Repeat([]byte{'x'}, cap(a.buf)))
	if !slices.Equal(snips, want) {
		t.Errorf("snippets from blocks once the arena is written over: %q, from the text %q", snips, want)
	}
}
