package analysis

import (
	"sync"
	"unicode"
	"unicode/utf8"

	banalysis "github.com/blevesearch/bleve/v2/analysis"
	"github.com/longbridgeapp/opencc"
)

// Two changes to Bleve's CJK analysis (docs/search.md, "Analysis").
//
// Iteration and closing marks, ヶ and the katakana middle dot. Bleve's
// Unicode tokenizer types 々 as a letter (so 松嶋菜々子 became the bigrams
// 松嶋 嶋菜 and the words 々 and 子) and drops 〆 and ・ (so イ・ヨンエ left a
// lone イ). Lucene's tokenizer keeps them in their CJK run, and its
// CJKBigramFilter bigrams across them (松嶋 嶋菜 菜々 々子; イ・ ・ヨ ヨン ンエ):
// cjkMarks does the same before the bigrams are made.
//
// Chinese scripts. Han characters are folded from traditional to
// simplified (OpenCC's t2s character table, github.com/longbridgeapp/opencc)
// after the bigrams are made, in every language and in queries alike: 烏龍茶
// and 乌龙茶 are both the terms 乌龙 龙茶. A query has no language, and the
// index's CJK kinds analyse it the same way; Japanese kanji that OpenCC
// maps (東 → 东) map in the query too, so nothing that matched stops
// matching.

// isMark reports whether r is one of the characters cjkMarks keeps in a
// CJK run: 々 (iteration mark), 〆 (closing mark), ヶ (small ke).
func isMark(r rune) bool { return r == '々' || r == '〆' || r == 'ヶ' }

// middleDot is the katakana middle dot, kept inside a CJK run.
const middleDot = '・'

// hasMarks reports whether b may hold 々 〆 ヶ or ・ (all are encoded
// E3 80 85/86 and E3 83 B6/BB).
func hasMarks(b []byte) bool {
	for i := 0; i+2 < len(b); i++ {
		if b[i] == 0xE3 {
			switch {
			case b[i+1] == 0x80 && (b[i+2] == 0x85 || b[i+2] == 0x86):
				return true
			case b[i+1] == 0x83 && (b[i+2] == 0xB6 || b[i+2] == 0xBB):
				return true
			}
		}
	}
	return false
}

// cjkMarks returns the tokens ts of input (Bleve's Unicode tokenizer's)
// with a token made only of 々 〆 ヶ typed ideographic, an ideographic token
// added for each 〆 the tokenizer dropped, and one for each ・ between two
// ideographic tokens that touch it, so that the bigram filter sees one run.
// Positions are renumbered.
func cjkMarks(input []byte, ts banalysis.TokenStream) banalysis.TokenStream {
	if !hasMarks(input) {
		return ts
	}
	marksOnly := func(b []byte) bool {
		for _, r := range string(b) {
			if !isMark(r) {
				return false
			}
		}
		return len(b) > 0
	}
	for _, t := range ts {
		if t.Type != banalysis.Ideographic && marksOnly(t.Term) {
			t.Type = banalysis.Ideographic
		}
	}
	out := make(banalysis.TokenStream, 0, len(ts)+4)
	// the characters the tokenizer dropped between from and to
	gap := func(from, to int, prev, next *banalysis.Token) {
		for b := from; b < to; {
			r, size := utf8.DecodeRune(input[b:to])
			keep := r == '〆' ||
				r == middleDot && prev != nil && next != nil && prev.Type == banalysis.Ideographic && next.Type == banalysis.Ideographic &&
					prev.End == b && next.Start == b+size
			if keep {
				out = append(out, &banalysis.Token{Term: input[b : b+size : b+size], Start: b, End: b + size, Type: banalysis.Ideographic})
			}
			b += size
		}
	}
	at := 0
	var prev *banalysis.Token
	for _, t := range ts {
		if t.Start > at {
			gap(at, t.Start, prev, t)
		}
		out = append(out, t)
		at, prev = max(at, t.End), t
	}
	gap(at, len(input), prev, nil)
	for i, t := range out {
		t.Position = i + 1
	}
	return out
}

// t2s folds a Han character from traditional to simplified Chinese
// (itself when OpenCC has no one-character simplified form for it),
// memoized.
var t2s = struct {
	once sync.Once
	cc   *opencc.OpenCC
	mu   sync.RWMutex
	fold map[rune]rune
}{fold: map[rune]rune{}}

func foldHan(r rune) rune {
	t2s.once.Do(func() {
		cc, err := opencc.New("t2s")
		if err != nil {
			panic("index: OpenCC's t2s conversion does not load: " + err.Error())
		}
		t2s.cc = cc
	})
	t2s.mu.RLock()
	f, ok := t2s.fold[r]
	t2s.mu.RUnlock()
	if ok {
		return f
	}
	// a miss converts under the lock: OpenCC's converter is not documented
	// as safe for concurrent use, and each character misses once
	t2s.mu.Lock()
	defer t2s.mu.Unlock()
	if f, ok := t2s.fold[r]; ok {
		return f
	}
	f = r
	if s, err := t2s.cc.Convert(string(r)); err == nil && utf8.RuneCountInString(s) == 1 {
		f, _ = utf8.DecodeRuneInString(s)
	}
	t2s.fold[r] = f
	return f
}

// foldChinese folds the Han characters of the terms of ts to simplified
// Chinese (foldHan). The terms are replaced, not modified.
func foldChinese(ts banalysis.TokenStream) {
	for _, t := range ts {
		if t.Type == banalysis.AlphaNumeric || t.Type == banalysis.Numeric {
			continue
		}
		var out []byte
		for i, r := range string(t.Term) {
			if r < 0x2E80 || !unicode.Is(unicode.Han, r) {
				if out != nil {
					out = utf8.AppendRune(out, r)
				}
				continue
			}
			f := foldHan(r)
			if f != r && out == nil {
				out = append(make([]byte, 0, len(t.Term)+4), t.Term[:i]...)
			}
			if out != nil {
				out = utf8.AppendRune(out, f)
			}
		}
		if out != nil {
			t.Term = out
		}
	}
}
