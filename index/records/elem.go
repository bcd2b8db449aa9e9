package records

import (
	"sort"
	"strings"

	"github.com/readsim/readsim/effort"
)

// Elem is a candidate element of an article: a unit that browse may return,
// its text's span and its XPath.
type Elem struct {
	effort.Span
	XPath string
	// kind is what browse needs of the XPath (captions, the body's text),
	// as the article's record gives it: a hit read without its XPaths
	// (ReadHit) has it; 0 means to look at the XPath
	kind elemKind
}

// elemKind says what an element is, for browse's rules.
type elemKind uint8

const (
	kindKnown    elemKind = 1 << iota // the other bits are set
	kindCaption                       // IsCaption
	kindBodyText                      // IsBodyText
	kindAux                           // in auxiliary text (Spans.Aux)
)

// kindOf is an element's kind from its XPath. A build stores it in each
// article's record and browse prefers it to the XPath: a change to
// IsCaption or IsBodyText must change Version, so that indexes
// built with the old rules are built again.
func kindOf(xpath string) elemKind {
	k := kindKnown
	if IsCaption(xpath) {
		k |= kindCaption
	}
	if IsBodyText(xpath) {
		k |= kindBodyText
	}
	return k
}

// Caption reports whether the element is a caption (IsCaption).
func (e *Elem) Caption() bool {
	if e.kind&kindKnown != 0 {
		return e.kind&kindCaption != 0
	}
	return IsCaption(e.XPath)
}

// BodyText reports whether the element is the body's own text or a
// paragraph of the body (IsBodyText).
func (e *Elem) BodyText() bool {
	if e.kind&kindKnown != 0 {
		return e.kind&kindBodyText != 0
	}
	return IsBodyText(e.XPath)
}

// AuxWeight is the weight of auxiliary text (Spans.Aux) against body
// text: fetch boosts the auxiliary text's field by the text's boost times
// AuxWeight, and browse multiplies an auxiliary element's score by it
// (docs/search.md, "Auxiliary text").
const AuxWeight = 0.5

// Aux reports whether the element is auxiliary text: it starts in a
// reference list, a bibliography or a list of links elsewhere
// (Spans.Aux). Only an element read from a record knows it.
func (e *Elem) Aux() bool { return e.kind&kindAux != 0 }

// inSpans reports whether the offset c lies in one of the spans (start,
// end pairs, in order).
func inSpans(spans []int, c int) bool {
	k := sort.Search(len(spans)/2, func(k int) bool { return spans[2*k+1] > c })
	return k < len(spans)/2 && spans[2*k] <= c
}

// IsCaption reports whether a candidate's XPath names a caption.
func IsCaption(xpath string) bool {
	last := xpath[strings.LastIndexByte(xpath, '/')+1:]
	return strings.HasPrefix(last, "caption[")
}

// IsBodyText reports whether an XPath names the body's own text or a
// paragraph of the body (…/bdy[1]/text(), …/body[1]/p[2]).
func IsBodyText(x string) bool {
	i := strings.LastIndexByte(x, '/')
	if i < 0 {
		return false
	}
	parent, last := x[:i], x[i+1:]
	if last != "text()" && !strings.HasPrefix(last, "p[") {
		return false
	}
	p := parent[strings.LastIndexByte(parent, '/')+1:]
	return strings.HasPrefix(p, "bdy[") || strings.HasPrefix(p, "body[")
}
