package render

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// eventKind is what a passage puts on the page besides its marks.
type eventKind uint8

const (
	evAnchor eventKind = iota // before the passage's first character
	evNav                     // after its last non-whitespace character
)

// event is an anchor or the arrows of a passage, at a character offset.
type event struct {
	kind eventKind
	k    int // 1-based passage number
	at   int // character offset
}

// events lists the anchors and arrows of the passages in document order.
func (r *renderer) events() {
	r.ev = make([]event, 0, 2*len(r.ps))
	for i, p := range r.ps {
		nav := p.End
		text := r.a.Slice(p.Start, p.End)
		if t := strings.TrimRightFunc(text, unicode.IsSpace); t != "" {
			nav -= utf8.RuneCountInString(text[len(t):])
		}
		r.ev = append(r.ev, event{evAnchor, i + 1, p.Start}, event{evNav, i + 1, nav})
	}
}

// spaceAnchors places, in the white space from the cursor to character end
// (between blocks, items, rows or cells, where anchors otherwise wait for
// the next text), the anchors of the passages that end within it: their
// next text would be past their end. Each goes at its passage's start, or at
// the cursor when the passage started earlier, so that it lands inside its
// passage; the arrows of the passage before go first, as always.
func (r *renderer) spaceAnchors(end int) {
	for r.evi < len(r.ev) {
		j := r.evi
		if r.ev[j].kind == evNav {
			j++
		}
		if j >= len(r.ev) {
			return
		}
		ev := r.ev[j]
		if ev.at >= end || r.ps[ev.k-1].End > end {
			return
		}
		if ev.at > r.c {
			nb := r.advance(ev.at)
			r.out = appendText(r.out, r.a.Text[r.b:nb])
			r.c, r.b = ev.at, nb
		}
		r.fire(true, false)
		if r.evi <= j {
			return // cannot happen: the anchor is due and may go here
		}
	}
}

// fire writes the events due at the cursor, in order, as far as the context
// allows: anchors only when a character follows in this context (or at the
// very end, force); arrows only outside links, except when the next
// passage's anchor is due inside the link the arrows wait for: then the link
// is split around the arrows (splitLinks).
func (r *renderer) fire(anchors, force bool) {
	for r.evi < len(r.ev) {
		ev := r.ev[r.evi]
		if ev.at > r.c && !force {
			return
		}
		switch ev.kind {
		case evAnchor:
			if !anchors {
				return
			}
			r.out = append(r.out, `<span class="rs-ui rs-pass" id="`...)
			r.out = append(r.out, AnchorID(ev.k)...)
			r.out = append(r.out, `" data-o="`...)
			r.out = strconv.AppendInt(r.out, int64(r.c), 10)
			r.out = append(r.out, `"></span>`...)
		case evNav:
			if r.linkDepth > 0 && !force {
				if !anchors || r.evi+1 >= len(r.ev) || r.ev[r.evi+1].at > r.c {
					return
				}
				r.splitLinks(ev.k)
				break
			}
			r.nav(ev.k)
		}
		r.evi++
	}
}

// nav writes the arrows after passage k.
func (r *renderer) nav(k int) {
	r.out = append(r.out, `<span class="rs-ui rs-nav">`...)
	r.arrow("←", r.opt.ResultsURL, r.opt.ResultsLabel)
	if k < len(r.ps) {
		r.arrow("↓", "#"+AnchorID(k+1), "Next passage")
	} else {
		r.arrow("↑", "#"+TopID, "Back to the top of the article")
	}
	r.out = append(r.out, "</span>"...)
}

// splitLinks writes the arrows after passage k at the cursor, inside one or
// more links: it closes the open elements down to the outermost link,
// writes the arrows, and opens those elements again (with data-o at the
// cursor), so that no link holds the arrows' links.
func (r *renderer) splitLinks(k int) {
	j := 0
	for j < len(r.stack) && !r.stack[j].link {
		j++
	}
	for t := len(r.stack) - 1; t >= j; t-- {
		f := r.stack[t]
		r.closeGroup(&f)
		r.out = append(r.out, f.close...)
	}
	r.nav(k)
	for t := j; t < len(r.stack); t++ {
		f := &r.stack[t]
		if r.info[f.el].kind == kWrapper {
			continue
		}
		g := f.group
		r.writeOpen(f, r.c, false)
		if g != groupNone {
			r.openGroup(f, g)
		}
	}
}
