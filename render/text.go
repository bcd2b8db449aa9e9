package render

import (
	"strconv"
	"unicode/utf8"

	"github.com/readsim/readsim/index/article/wikimarkup"
)

// advance moves the cursor to character c and returns the byte offset.
func (r *renderer) advance(c int) int {
	if r.ascii {
		return c
	}
	t := r.a.Text
	b, n := r.b, r.c
	for n < c && b < len(t) {
		if t[b] < utf8.RuneSelf {
			b++
		} else {
			_, size := utf8.DecodeRuneInString(t[b:])
			b += size
		}
		n++
	}
	return b
}

// text writes the article text from the cursor up to character end: marks
// around passage text, anchors and arrows where they fall.
func (r *renderer) text(end int) {
	if end <= r.c {
		return
	}
	var top frame
	if len(r.stack) > 0 {
		top = r.stack[len(r.stack)-1]
	}
	eb := r.advance(end)
	if (top.structural || top.flow) && isSpace(r.a.Text[r.b:eb]) {
		// white space between blocks, list items, rows or cells: no mark,
		// no anchor (it moves to the next text) unless its passage ends
		// here; arrows only in a flow.
		if top.flow {
			r.fire(false, false)
		}
		r.spaceAnchors(end)
		r.out = appendText(r.out, r.a.Text[r.b:eb])
		r.c, r.b = end, eb
		if top.flow {
			r.fire(false, false)
		}
		return
	}
	for r.c < end {
		r.fire(true, false)
		for r.pi < len(r.ps) && r.ps[r.pi].End <= r.c {
			r.pi++
		}
		next, in := end, false
		if r.pi < len(r.ps) {
			if p := r.ps[r.pi]; p.Start <= r.c {
				next, in = min(next, p.End), true
			} else {
				next = min(next, p.Start)
			}
		}
		if r.evi < len(r.ev) && r.ev[r.evi].at > r.c {
			next = min(next, r.ev[r.evi].at)
		}
		m := rangeAt(r.mk, &r.mi, r.c, &next)
		cp := rangeAt(r.caps, &r.ci, r.c, &next)
		nb := eb
		if next < end {
			nb = r.advance(next)
		}
		closeCaption := r.openCaption(cp)
		closeMarkup := r.openMarkup(m)
		if in {
			r.out = append(r.out, `<mark data-o="`...)
			r.out = strconv.AppendInt(r.out, int64(r.c), 10)
			r.out = append(r.out, `">`...)
			r.out = appendText(r.out, r.a.Text[r.b:nb])
			r.out = append(r.out, "</mark>"...)
		} else {
			r.out = appendText(r.out, r.a.Text[r.b:nb])
		}
		r.out = append(r.out, closeMarkup...)
		r.out = append(r.out, closeCaption...)
		if cp != nil && next == cp.End {
			r.out = append(r.out, `<br class="rs-ui"/>`...)
		}
		r.c, r.b = next, nb
	}
	r.fire(false, false)
}

// rangeAt returns the range of rs (sorted, disjoint) that holds character
// c, or nil; *i is the first range that does not end at or before c, moved
// on; *next is lowered to the end of that range, or to the start of the
// next one, so that a chunk of text from c to *next is wholly in or out of
// a range.
func rangeAt(rs []wikimarkup.Range, i *int, c int, next *int) *wikimarkup.Range {
	for *i < len(rs) && rs[*i].End <= c {
		*i++
	}
	if *i == len(rs) {
		return nil
	}
	if m := &rs[*i]; m.Start <= c {
		*next = min(*next, m.End)
		return m
	}
	*next = min(*next, rs[*i].Start)
	return nil
}

// openMarkup writes the start of the text from the cursor on that falls in
// the leftover-markup range m (nil for none) and returns its end tag: hidden
// text in a span.rs-x (CSS hides it), a doubly escaped entity as its
// character (page text, class rs-ui) followed by the hidden reference,
// emphasis as i or b, a note's label as a raised mark (sup.rs-note).
func (r *renderer) openMarkup(m *wikimarkup.Range) string {
	if m == nil {
		return ""
	}
	tag, class, close := "span", "rs-x", "</span>"
	switch m.Kind {
	case wikimarkup.Replace:
		if r.c == m.Start {
			r.out = append(r.out, `<span class="rs-ui rs-rep">`...)
			r.out = appendText(r.out, m.Text)
			r.out = append(r.out, `</span>`...)
		}
	case wikimarkup.Italic:
		tag, class, close = "i", "rs-em", "</i>"
	case wikimarkup.Bold:
		tag, class, close = "b", "rs-em", "</b>"
	case wikimarkup.Note:
		tag, class, close = "sup", "rs-note", "</sup>"
	}
	r.startTag(tag, class, r.c)
	r.out = append(r.out, '>')
	return close
}

// openCaption writes the start of the text from the cursor on that falls
// in the caption of an image link left as text, c (nil for none), and
// returns its end tag: a span.rs-wcap, on a line of its own (a br before
// it when text of its element precedes it on its line; the caller writes
// one after it), labelled "Image" as an image element is.
func (r *renderer) openCaption(c *wikimarkup.Range) string {
	if c == nil {
		return ""
	}
	if r.c == c.Start {
		if r.textBefore(c.Start) {
			r.out = append(r.out, `<br class="rs-ui"/>`...)
		}
		r.out = append(r.out, `<span class="rs-ui rs-wlabel"`...)
		r.out = append(r.out, r.uiLang...)
		r.out = append(r.out, `>Image</span>`...)
	}
	r.startTag("span", "rs-wcap", r.c)
	r.out = append(r.out, '>')
	return "</span>"
}

// textBefore reports whether text other than white space and hidden
// markup stands before character c on its line within the innermost open
// element.
func (r *renderer) textBefore(c int) bool {
	start := 0
	if n := len(r.stack); n > 0 {
		start = r.a.Elements[r.stack[n-1].el].Start
	}
	k := r.mi
	for i := c - 1; i >= start; i-- {
		for k > 0 && r.mk[k-1].End > i {
			k--
		}
		if k < len(r.mk) && r.mk[k].Start <= i && i < r.mk[k].End && r.mk[k].Kind == wikimarkup.Hide {
			i = r.mk[k].Start
			continue
		}
		ch := r.a.Slice(i, i+1)
		if ch == "\n" {
			return false
		}
		if !isSpace(ch) {
			return true
		}
	}
	return false
}

// isSpace reports whether s is empty or all white space.
func isSpace(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}
