package records

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/analysis"
	"github.com/readsim/readsim/index/article/wikimarkup"
	"github.com/readsim/readsim/index/chars"
)

// Shows reports whether the characters [from, to) of ci's text show
// anything but white space (ShownText), reading them a piece at a time
// from the start: a hit read by blocks (ReadHit) decompresses the blocks
// up to the first character shown, not those of a whole section. A piece
// never ends inside a quiet span, which ShownText shows whole or not at
// all.
func Shows(ci TextSlicer, quiet []int, from, to int) bool {
	const piece = 256
	for at := from; at < to; {
		end := min(at+piece, to)
		k := sort.Search(len(quiet)/2, func(k int) bool { return quiet[2*k+1] > end })
		if k < len(quiet)/2 && quiet[2*k] < end {
			end = min(quiet[2*k+1], to) // the quiet span holding end, whole
		}
		if strings.TrimSpace(ShownText(ci, quiet, at, end)) != "" {
			return true
		}
		at = end
	}
	return false
}

// ShownText returns the characters [from, to) of ci's text as a page
// shows them: the quiet spans left out, but for a doubly escaped entity
// ("&gt;"), which is its character (wikimarkup.Entity).
func ShownText(ci TextSlicer, quiet []int, from, to int) string {
	k := sort.Search(len(quiet)/2, func(k int) bool { return quiet[2*k+1] > from })
	if k == len(quiet)/2 || quiet[2*k] >= to {
		return ci.Slice(from, to)
	}
	var b strings.Builder
	for at := from; at < to; {
		if k < len(quiet)/2 && quiet[2*k] <= at {
			qe := min(quiet[2*k+1], to)
			if ch, ok := wikimarkup.Entity(ci.Slice(quiet[2*k], quiet[2*k+1])); ok && at == quiet[2*k] && qe == quiet[2*k+1] {
				b.WriteString(ch)
			}
			at = qe
			k++
			continue
		}
		next := to
		if k < len(quiet)/2 {
			next = min(next, quiet[2*k])
		}
		b.WriteString(ci.Slice(at, next))
		at = next
	}
	return b.String()
}

// Marker returns the characters of an article's token that match one of
// terms: the whole token when it equals a term, the character of a
// character term it holds (the first, when it holds two), or ok false.
func Marker(terms []analysis.Term) func(t analysis.Token) (start, end int, ok bool) {
	want := map[string]bool{}
	var chars []string
	for _, t := range terms {
		want[t.Text] = true
		if t.Char {
			chars = append(chars, t.Text)
		}
	}
	return func(t analysis.Token) (int, int, bool) {
		if want[t.Term] {
			return t.Start, t.End, true
		}
		for _, c := range chars {
			if i := strings.Index(t.Term, c); i >= 0 {
				at := t.Start + utf8.RuneCountInString(t.Term[:i])
				return at, at + 1, true
			}
		}
		return 0, 0, false
	}
}

// Snippet returns about width characters of the span p around its first
// query term (of terms), with the words matching a query term written as
// [word]: matched tokens that overlap or touch are marked as one, so the
// bigrams 意大 and 大利 of 意大利 mark [意大利]; a character term marks its
// character alone (塔 in 电视塔 is 电视[塔]). An ellipsis marks a cut. The
// cuts fall between characters, never inside one; runs of white space
// become one space. Footnote marks are left out (they are quiet), and
// two blocks that no punctuation separates (a heading and its first
// sentence, a caption and its paragraph, two list items or cells) are
// written with a Separator between them (docs/search.md, "Snippets").
func (d *StoredArticle) Snippet(p effort.Span, terms []analysis.Term, width int) string {
	toks := d.QueryTokens(terms)
	mark := Marker(terms)
	lo := sort.Search(len(toks), func(i int) bool { return toks[i].Start >= p.Start })
	first := -1
	for i := lo; i < len(toks) && toks[i].Start < p.End; i++ {
		if at, _, ok := mark(toks[i]); ok {
			first = at
			break
		}
	}
	s := p.Start
	if first >= 0 && first-width/4 > s {
		s = first - width/4
	}
	e := min(s+width, p.End)
	if e-s < width {
		s = max(p.Start, e-width)
	}
	// what a page does not show (metadata, leftover wiki markup,
	// infoboxes: quiet) is left out; a window that starts in it starts
	// after it
	ci := d.Chars()
	for {
		k := sort.Search(len(d.Quiet)/2, func(k int) bool { return d.Quiet[2*k+1] > s })
		if k == len(d.Quiet)/2 || d.Quiet[2*k] > s || d.Quiet[2*k+1] >= p.End {
			break
		}
		e = min(e+d.Quiet[2*k+1]-s, p.End)
		s = d.Quiet[2*k+1]
		for s < e && strings.TrimSpace(ci.Slice(s, s+1)) == "" {
			s++
		}
	}
	cut := s > p.Start && Shows(ci, d.Quiet, p.Start, s)
	// the marked ranges, merged
	var marks [][2]int
	for i := sort.Search(len(toks), func(i int) bool { return toks[i].Start >= s }); i < len(toks) && toks[i].Start < e; i++ {
		ms, me, ok := mark(toks[i])
		if !ok || me > e {
			continue
		}
		if n := len(marks); n > 0 && ms <= marks[n-1][1] && !d.sepIn(marks[n-1][0], ms) {
			marks[n-1][1] = max(marks[n-1][1], me)
			continue
		}
		marks = append(marks, [2]int{ms, me})
	}
	return d.writeSnippet(s, e, marks, cut, e < p.End && Shows(ci, d.Quiet, e, p.End))
}

// sepIn reports whether a snippet separator lies in (s, e]: two marked
// words on either side of it are marked apart (two cells of a row).
func (d *StoredArticle) sepIn(s, e int) bool {
	i := sort.SearchInts(d.seps, s+1)
	return i < len(d.seps) && d.seps[i] <= e
}

// Separator is what a snippet writes between two blocks that no sentence
// punctuation separates (Spans.Seps): a heading and the sentence after
// it, a caption and the paragraph it stands in, two list items.
const Separator = " · "

// writeSnippet writes the snippet of the characters [s, e) with the
// marked ranges marks, an ellipsis before when cut and after when more,
// a Separator at each of the article's separators inside the window
// that shown text follows. Runs of white space become one space as the
// snippet is written (chars.SpaceWriter: chars.OneSpace of the whole).
func (d *StoredArticle) writeSnippet(s, e int, marks [][2]int, cut, more bool) string {
	w := snippetWriter{b: chars.NewSpaceWriter(3*max(e-s, 0)/2 + 16)} // e < s: an inverted passage
	if cut {
		w.b.WriteString("…")
	}
	seps := d.seps[sort.SearchInts(d.seps, s+1):]
	ci := d.Chars()
	// shown writes [from, to), a separator pending at each of seps in
	// it, and at one at to when at is true (text, not a mark, ends
	// there: the separator goes before the mark's bracket)
	shown := func(from, to int, at bool) {
		for len(seps) > 0 && seps[0] < e && (seps[0] < to || at && seps[0] == to) {
			if seps[0] > from {
				w.write(ShownText(ci, d.Quiet, from, seps[0]))
				from = seps[0]
			}
			w.sep = w.wrote
			seps = seps[1:]
		}
		w.write(ShownText(ci, d.Quiet, from, to))
	}
	at := s
	for _, m := range marks {
		shown(at, m[0], true)
		w.write("[")
		shown(m[0], m[1], false)
		w.write("]")
		at = m[1]
	}
	shown(at, e, false)
	w.sep = false
	if more {
		w.b.WriteString("…")
	}
	return w.b.String()
}

// snippetWriter writes a snippet, a pending separator before the next
// shown text.
type snippetWriter struct {
	b     *chars.SpaceWriter
	sep   bool // a separator is pending
	wrote bool // shown text is written
}

// write writes s, after the pending separator when s shows anything.
func (w *snippetWriter) write(s string) {
	if !chars.Blank(s) {
		if w.sep {
			w.b.WriteString(Separator)
			w.sep = false
		}
		w.wrote = true
	}
	w.b.WriteString(s)
}
