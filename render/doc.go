// Package render turns an article and its best-matching passages into the
// page the modelled reader sees on a phone (scenario.md, "The user interface
// being modelled"): one XHTML page, the whole article in its own order and
// structure, in one column, with arrow links that carry the reader from one
// passage to the next.
//
// # The page
//
// Page writes a well-formed XML document in the XHTML namespace, meant to be
// served as application/xhtml+xml (an .xhtml file when standalone). It has
// the viewport meta "width=device-width, initial-scale=1", one column at most
// 38em wide with 17px type (about 40 characters a line on a 360-px screen) and
// nothing wider than the screen: long words and URLs break, tables scroll
// inside their own box, images scale down. (Articles name images by files
// that are not in the collection, so no <img> is made: an image element is
// shown as its text, like any element the renderer does not know.)
//
// Every character of the article's text is on the page, in order, exactly
// once: section titles become headings, paragraphs paragraphs, lists lists,
// tables tables, emphasis emphasis, and the 2009 header (title, id, revision,
// categories) a muted block under the title. Links to other articles of the
// collection become links into the prototype (Options.ArticleURL); links to
// absolute http and https URLs stay links; every other link is plain text.
//
// # Anchors
//
// At the top, in a bar with the id "top": ← (Options.ResultsURL, back to the
// result list), ↓ (to the first passage, absent when there are no passages)
// and the highlight switch. Passage k (1-based, in document order after
// NormalizePassages) starts with an empty element whose id is AnchorID(k) and
// ends with the arrows again: ← and ↓ to passage k+1, or, after the last
// passage, ← and ↑ (back to "top"). Every arrow is a tap target of at least
// 48×48 CSS px.
//
// Placement, where the specification is silent:
//   - A passage's anchor is placed just before its first character, inside the
//     innermost element holding that character; its end arrows just after its
//     last non-whitespace character (after its last character when it is all
//     whitespace), so that a passage made of whole paragraphs ends with arrows
//     at the end of its last line rather than on a line of their own.
//   - Arrows never nest inside a link: when a passage ends inside one, they
//     follow the link's end, and so does the anchor of a next passage that
//     starts inside the same link (anchors and arrows keep their order).
//   - White space that stands directly inside a list, a table or a table row
//     (between items, rows, cells) gets no anchor, arrows or highlight, which
//     would add boxes to the list or table; nor does white space between the
//     blocks of a section, the body or the header, where a highlight would not
//     show and an anchor would scroll to the gap above the next block. Such an
//     anchor moves to the next text; arrows move after the white space.
//
// # Highlight
//
// The text of the passages is wrapped in <mark> elements, which only ever
// contain text, so they stay well-formed whatever the passages cut through. A
// checkbox (styled as a switch in the top bar; no script) turns the highlight
// on and off; Options.NoHighlight starts it off.
//
// # Locating a character offset
//
// Every element that stands for an article element, every <mark> and every
// passage anchor carries data-o, the character offset (INEX offsets, as in
// package article) of the first character that follows its start tag. The
// root of the article is <article class="rs-doc" data-o="0">. Elements of the
// page's own user interface have the class "rs-ui" and contain no article
// text. So:
//
//   - The text nodes inside .rs-doc that are not inside an .rs-ui element,
//     concatenated in document order, are exactly the article's text (a
//     character XML cannot carry, possible only in an Article built by hand,
//     is replaced by U+FFFD, one for one, so the count still holds).
//   - data-o never decreases in document order.
//
// To find character X: take the last element (in document order) whose data-o
// is at most X, then walk the text nodes from its start tag on, in document
// order, skipping .rs-ui subtrees and counting code points (not UTF-16 units),
// until X - data-o characters have been passed; the next character is X.
// Script is an implementation of this rule (readsimLocate, readsimScrollTo)
// for a client to load as an external script.
//
// # Safety
//
// No element name, attribute or attribute value of the article is copied to
// the page: elements are mapped to a fixed set of XHTML elements with fixed
// classes, and the only value taken from an article is a link's target, which
// becomes either Options.ArticleURL(id) or an http(s) URL, escaped. All text
// is escaped; CR is written as &#13; so that it survives XML line-end
// normalisation. So no script, style, event handler or javascript: URL of an
// article reaches the page, and the page is well-formed for every article.
//
// The page's CSS is the constant CSS: embedded in a <style> element when
// Options.StylesheetURL is empty (standalone pages), else referenced by a
// <link>, which suits a Content-Security-Policy without 'unsafe-inline'
// (CSSHash gives the hash to allow the embedded form instead).
package render
