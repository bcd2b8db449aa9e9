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
// inside their own box. Its lang and xml:lang are Options.Lang, by default
// the article's detected language (article.Article.Lang), so that a phone
// picks the Chinese, Japanese or Korean forms of Han characters the article
// needs; the page's own words (the arrows' labels, "About this article",
// "Categories", the field labels) are English and say so with lang="en" on
// pages in other languages.
//
// Every character of the article's text is on the page, in order, exactly
// once, and the page's document order is the article's. What the elements
// become:
//
//   - The title (2009 header/title, 2006 name) is the <h1>, first on the page.
//   - The rest of the 2009 header (id, revision with its id, timestamp and
//     contributor) is not running text: it is folded in a <details> block,
//     "About this article", as labelled fields (Article id, Revision, Last
//     edited, Contributor with its user name and user id). The 2006 header's
//     conversion warnings are likewise a labelled field ("Conversion
//     warnings") in such a block. The block is unfolded (open) when a
//     passage has a character in it, so that its anchor can be seen
//     (browsers do not unfold a <details> for a fragment's target).
//   - The 2009 categories are a labelled list ("Categories") shown at the
//     end of the page. They stay in the header in document order (offsets
//     and data-o never go back); CSS moves them to the end: the article
//     element gets the class rs-flex (a flex column) and the header
//     display:contents, so that the categories can take order:1. This is
//     done only when the article's root holds nothing but blocks and white
//     space (through wrappers), so that no text changes its flow; otherwise
//     the list stays under the title. A category's leading ':' (the 2009
//     collection writes ":Edible molluscs") stays on the page, in its own
//     <span class="rs-colon"> with its data-o, hidden by CSS.
//   - Sections become <section>s and their titles headings: a section's
//     level is the number of sections around it (itself included), at least
//     2 for ss1 and 3 for ss2 (sec → h2, ss1 → h3, ss2 → h4, deeper levels
//     up to h6).
//   - Paragraphs, lists, emphasis become their XHTML kin; a paragraph or a
//     title that holds blocks becomes a <div> (role heading for a title).
//   - Tables are tables in a box that scrolls sideways (div.rs-table); their
//     header cells (<header> inside a table) are <th>; cells standing
//     directly in a table, not in a row, are grouped into a <tr> of their
//     own (a synthetic element with no data-o); a table's caption is its
//     <caption>.
//   - An image is shown as its caption: a <figure class="rs-img"> labelled
//     "Image" holding the caption (<figcaption>). Articles name images by
//     files that are not in the collection, so no <img> is made and nothing
//     is fetched.
//   - math is its TeX source as text, in <code class="rs-math">: monospace,
//     wrapping anywhere; indent is an indented block.
//   - A footnote mark (ref) is a small raised [n]: when the note exists
//     (an entry of the reference list with the same number holding some
//     text; the reflist becomes an <ol> whose entries have the ids rs-fn-N,
//     N the entry's number, digits only; the first such entry of a number
//     takes it) and the mark is not in a link, a <button class="rs-ref"
//     popovertarget="rs-fn-N"> holding a <sup class="rs-mark">; the note's
//     <li> is a popover (popover="auto", with a close button of class rs-ui),
//     shown by CSS as a drawer along the bottom of the screen while open
//     (above var(--rs-drawer-bottom), which the study's bar sets), in the
//     reference list otherwise. No script; the page does not move. Else the
//     mark is raised text.
//   - A table cell keeps its rowspan and colspan when they are 2 to 1000;
//     a table of class navbox, vertical-navbox or nomobile (or a template
//     named Navbox…) gets the class rs-navbox, hidden, unless a passage
//     touches it.
//   - A list entry's level attribute (2 to 6, deeper as 6) gives it the
//     class rs-l2…rs-l6, indented; type="number" the class rs-num.
//   - A template (<template><name>Infobox Country</name><parameters>
//     <capital>…) is a folded <details class="rs-tpl">: its name the
//     <summary>, its parameters a <table class="rs-ib"> (a CSS grid) of rows
//     with readable labels (a <th> of class rs-ui: page text, not article
//     text), each row of class rs-oN, N its group in the order of
//     Wikipedia's infobox templates, technical parameters rs-ibh (hidden),
//     a pair's label and value rs-ibl and rs-ibv (infobox.go,
//     docs/articles.md); unfolded when a passage has a character in it.
//   - Wiki markup the collection's converter left as text is shown as the
//     rules of package wikimarkup say (docs/articles.md): hidden text in a
//     <span class="rs-x"> (CSS hides it), emphasis in <i class="rs-em"> or
//     <b class="rs-em">, an image link's caption in <span class="rs-wcap">
//     on a line of its own (with <br class="rs-ui"/>), labelled "Image", a doubly escaped
//     entity as its character (<span class="rs-ui rs-rep">) before the
//     hidden reference. Every character stays on the page.
//   - Empty shells get the class rs-empty, which CSS hides: a section with
//     nothing but white space and hidden markup beside its heading and its
//     empty sub-sections, an image with no caption, an empty list, list
//     item, paragraph, reference list or entry, a template parameter with
//     no value; unless a passage lies wholly in it (or, for a section,
//     touches its heading).
//   - A table cell with more than 24 characters has the class rs-long (at
//     least 10em wide).
//   - Links to other articles of the collection become links into the
//     prototype (Options.ArticleURL; an empty URL leaves the link as plain
//     text, which is how a server says "not indexed"); links to absolute
//     http and https URLs (weblink) stay links, marked as external; every
//     other link is plain text.
//   - Semantic wrappers (article.Element.IsWrapper: the YAGO/WordNet
//     elements of the 2009 collection, <person wordnetid=…>, <sport …>…)
//     are transparent: no element of their own on the page, not even a
//     span; their content is placed as if they were not there, and elements
//     inside them are classified by their nearest ancestor that is not a
//     wrapper (so a header inside a wrapper is still the header).
//   - Any other element is a <span>, or a <div> when it holds blocks.
//
// # Anchors
//
// At the top, in a bar with the id "top": ← (Options.ResultsURL, back to the
// result list), ↓ (to the first passage, absent when there are no passages)
// and the highlight switch. effort.Span k (1-based, in document order after
// ShownPassages) starts with an empty element whose id is AnchorID(k) and
// ends with the arrows again: ← and ↓ to passage k+1, or, after the last
// passage, ← and ↑ (back to "top"). Every arrow is a tap target of at least
// 48×48 CSS px.
//
// Placement, where the specification is silent:
//   - A passage's anchor always lands inside the passage: its data-o is in
//     [Start, End). It is placed just before its first character, inside the
//     innermost element holding that character; its end arrows just after
//     its last non-whitespace character (after its last character when it
//     is all whitespace), so that a passage made of whole paragraphs ends
//     with arrows at the end of its last line rather than on a line of
//     their own.
//   - White space that stands directly inside a list, a table or a table row
//     (between items, rows, cells) gets no anchor, arrows or highlight, which
//     would add boxes to the list or table; nor does white space between the
//     blocks of a section, the body or the header, where a highlight would not
//     show and an anchor would scroll to the gap above the next block. Such an
//     anchor moves to the passage's next text; arrows move after the white
//     space. A passage with no text after that white space (a passage of
//     white space only, or one that ends there) keeps its anchor in the
//     white space, at its start.
//   - Arrows never nest inside a link or a footnote mark: when a passage
//     ends inside one, they follow its end. When the next passage starts inside that same
//     link, the link is split: the elements open down to the outermost link
//     are closed, the arrows written, and those elements opened again (each
//     again with data-o, at the offset where it reopens), so the anchor of
//     the next passage still lands inside its passage and anchors and
//     arrows keep their order.
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
// Every element that stands for an article element (a wrapper stands for
// none on the page), every <mark>, every passage anchor and the span of a
// category's colon carries data-o, the character offset (INEX offsets, as in
// package article) of the first character that follows its start tag. The
// synthetic elements (the "About this article" <details>, a <tr> around
// cells standing in a table) carry none. The root of the article is
// <article class="rs-doc" data-o="0">. Elements of the page's own user
// interface (arrows, labels, the summary, the "Categories" heading) have the
// class "rs-ui" and contain no article text. So:
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
// No element name (but a template parameter's, as escaped text: its
// label), attribute or attribute value of the article is copied to the
// page: elements are mapped to a fixed set of XHTML elements with fixed
// classes, and the only values taken from an article are a link's target,
// which becomes either Options.ArticleURL(id) or an http(s) URL, escaped, a
// footnote's number, which must be 1 to 9 ASCII digits (the id rs-fn-N, the
// value of its list item, the popovertarget rs-fn-N), and a cell's rowspan
// and colspan, written as numbers from 2 to 1000. All text
// is escaped; CR is written as &#13; so that it survives XML line-end
// normalisation. So no script, style, event handler or javascript: URL of an
// article reaches the page, and the page is well-formed for every article.
//
// The page's CSS is the constant CSS: embedded in a <style> element when
// Options.StylesheetURL is empty (standalone pages), else referenced by a
// <link>, which suits a Content-Security-Policy without 'unsafe-inline'
// (CSSHash gives the hash to allow the embedded form instead).
//
// It imports effort (the character span), index/article (the article
// model) and index/article/wikimarkup (the leftover-markup rules) of
// readsim; internal/app and cmd/readsim import it.
package render
