// Package article is readsim's model of an INEX article: the text content with
// INEX character offsets, every element with its positional XPath and its
// [start,end) character span, the title, the id and the links to other
// articles, plus the lookups the rest of readsim needs (XPath → span, offset →
// containing elements, the smallest element around a span, the largest and the
// leaf elements inside one, byte ↔ character offsets).
//
// Articles are read with encoding/xml, streaming: memory grows with the text
// and the number of elements, never with the raw XML.
//
// # Offsets
//
// As formats.md says, offsets count Unicode characters (code points) of the
// text content from the root element's start tag on, in document order:
// markup (tags, attributes, comments, processing instructions, the XML
// declaration, the DOCTYPE) counts zero, a character or entity reference counts
// as the character it stands for, CDATA counts as its characters, whitespace
// counts as it stands, and a character outside the BMP counts one. Offsets are
// 0-based.
//
// Decisions where formats.md is silent:
//   - An internal DTD entity whose replacement text has several characters
//     (<!ENTITY x "abc">) counts as that many characters: the text content is
//     what a DOM would give. Markup inside a replacement text is kept as text.
//   - Line ends follow the XML rule (XML 1.0 §2.11): a CRLF pair or a lone CR in
//     the file is the one character LF of the text content, as every
//     conforming parser reports it; a CR written as &#13; stays a CR.
//   - The root element must be named "article" (both INEX collections); any
//     other root is "not an article". Elements inside the root may have any
//     name and are kept as generic containers.
//   - A leaf element is an element with no child elements.
//   - The article's DTD is found and read as Reader says, and only when it
//     is a regular *.dtd file in the collection or beside it (allowedDTD,
//     docs/safety.md); its general entities (and those of the DOCTYPE's
//     internal subset) expand to their replacement texts, bounded
//     (MaxEntityChars, MaxExpandedChars, counted against MaxArticleBytes). A
//     character entity counts one character, as formats.md says.
//   - A UTF-8 byte-order mark is skipped; UTF-16 and UTF-32 files are refused
//     with an error that says so.
//   - A DTD that is found but does not declare some of the XHTML entity
//     names (it takes them from files through external parameter entities,
//     never read) gets the built-in entities for the names it leaves out,
//     with one warning per Reader at the first use (newEntitySet).
//   - An article's id is its file name without ".xml"; in a collection
//     where several files have that name (en/3951.xml, ja/3951.xml: page
//     ids are numbered per language), each of them is known by its path
//     without ".xml" (CollectionIDs), and its links to such names are
//     resolved within its own folders (Dir.Parse).
//   - An article's language is the Reader's Lang, else the language code a
//     folder of its path names (LangFolder), else detected from its prose
//     (DetectArticleLang).
//   - Elements may nest MaxDepth deep. No XPath string is kept per element:
//     Article.XPath builds one on demand, so memory stays linear in the file
//     however deep it nests.
//
// This package is readsim's shared leaf: the index, the renderer, the
// scenario and the web server all read articles through it, and it imports
// nothing of readsim's.
package article
