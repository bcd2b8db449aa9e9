package records

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// recordSeeds are records of texts at the edges a decoder meets: empty,
// one block, a rune across a block's end, several blocks, elements,
// quiet spans and breaks.
func recordSeeds() [][]byte {
	rng := rand.New(rand.NewPCG(27, 2))
	var out [][]byte
	for _, text := range []string{"", "a", "Fresnel lens &amp; light", strings.Repeat("a", 2047) + "é", strings.Repeat("中 ", 1500), strings.Repeat("😀", 700)} {
		c := randomParts(rng, text)
		out = append(out, Encode(nil, c.title, c.lang, c.path, c.text, utf8.RuneCountInString(c.text), c.elems, c.lens, Spans{Quiet: c.quiet, Breaks: c.breaks}))
	}
	return out
}

// FuzzDecodeRecord decodes arbitrary bytes as a record and reads all it
// gives: never a panic, and every error is errRecord (a damaged record,
// which the records file names).
func FuzzDecodeRecord(f *testing.F) {
	for _, b := range recordSeeds() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := Decode(b, true, nil); err != nil && !errors.Is(err, errRecord) {
			t.Fatalf("decodeRecord's head: %v, want errRecord", err)
		}
		var arena *Arena // a hit's lists are a search's, other records' their own
		if len(b)%2 == 0 {
			arena = &Arena{}
		}
		d, err := Decode(b, false, arena)
		if err != nil {
			if !errors.Is(err, errRecord) {
				t.Fatalf("decodeRecord: %v, want errRecord", err)
			}
			return
		}
		if text, err := d.text(); err != nil && !errors.Is(err, errRecord) {
			t.Fatalf("text: %v, want errRecord", err)
		} else if err == nil && len(text) != d.bytes {
			t.Fatalf("text of %d bytes, the record says %d", len(text), d.bytes)
		}
		if xp, err := d.xpaths(); err != nil && !errors.Is(err, errRecord) {
			t.Fatalf("xpaths: %v, want errRecord", err)
		} else if err == nil && len(xp) != len(d.Elems) {
			t.Fatalf("%d XPaths for %d elements", len(xp), len(d.Elems))
		}
		bt := newBlockText(d, &Arena{})
		for _, p := range [][2]int{{0, d.chars}, {-1, 1}, {d.chars / 2, d.chars}, {d.chars - 1, d.chars + 1}, {1, 0}} {
			bt.Slice(p[0], p[1])
		}
		for _, bl := range d.Blocks {
			bt.Slice(bl.Char-1, bl.Char+1)
			bt.Slice(bl.Char, bl.Char+bl.Chars)
		}
		for _, el := range d.Elems {
			Shows(bt, d.quiet, el.Start, el.End)
		}
		if bt.err != nil && !errors.Is(bt.err, errRecord) {
			t.Fatalf("blocks: %v, want errRecord", bt.err)
		}
	})
}

// FuzzRecordRoundTrip encodes the record of an arbitrary text with
// elements, quiet spans and breaks drawn from seed, decodes it and checks
// it all against the text's runes (checkRoundTrip, on 10 random ranges:
// fuzzing needs speed more than ranges). Article texts are
// UTF-8 (the XML reader refuses others): other texts are skipped.
func FuzzRecordRoundTrip(f *testing.F) {
	for i, s := range []string{"", " ", "Fresnel lens &amp; light", strings.Repeat("a", 2047) + "é", strings.Repeat(" ", 3000) + "&amp;", strings.Repeat("😀", 700)} {
		f.Add(s, uint64(i))
	}
	f.Fuzz(func(t *testing.T, text string, seed uint64) {
		if !utf8.ValidString(text) {
			t.Skip("not UTF-8")
		}
		rng := rand.New(rand.NewPCG(seed, 27))
		checkRoundTrip(t, "fuzzed", randomParts(rng, text), rng, 10)
	})
}
