package article

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// Error is a problem with an article file: the file, where in it, and what.
type Error struct {
	File   string // the file name as given
	Line   int    // 1-based line, 0 when unknown
	Column int    // 1-based column, 0 when unknown
	Msg    string
}

// BadInput reports that the error is bad input: readsim exits with
// status 2 (docs/cli.md, "Exit status").
func (e *Error) BadInput() bool { return true }

// Error returns "file:line: message" (without the line when it is unknown).
func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	default:
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
}

// MaxDepth is the deepest nesting of elements an article may have: a deeper
// one is refused with an error naming the file and line. Real articles nest
// a few dozen deep; the bound keeps a hostile file from taking memory and
// time out of proportion to its size.
const MaxDepth = 10000

// MaxArticleBytes is the largest article file readsim reads, the text its
// entities add counted in: 32 MiB, 16 times the largest Wikipedia article
// of the INEX collection (under 2 MB). Indexing an article takes up to
// about 151 bytes of memory per byte of it (a text of one-letter words;
// Chinese 75, Korean 50, English 30: docs/limits.md), so the largest one
// indexes in about 5 GiB, within a quarter of the 24 GiB machine readsim
// is measured on; 64 MiB took 10 GB.
const MaxArticleBytes = 32 << 20

// ParseFile reads and parses the article file at path with the default
// Reader (no collection root, no --dtd file, warnings discarded). Its id is
// the file name without ".xml".
func ParseFile(path string) (*Article, error) {
	return defaultReader.ParseFile(path)
}

// Parse reads an article from r with the default Reader (see ParseFile).
// name is the file name: it gives the article id (IDFromPath), the folder a
// DTD is looked for relative to, and the name in error messages.
func Parse(r io.Reader, name string) (*Article, error) {
	return defaultReader.Parse(r, name)
}

var defaultReader = &Reader{}

// ParseFile reads and parses the article file at path. What is not a
// regular file, or is larger than MaxArticleBytes, is refused by its kind
// and size before it is read (a sparse file of gigabytes never reaches the
// XML decoder).
func (rd *Reader) ParseFile(path string) (*Article, error) {
	f, err := openRegular(path, MaxArticleBytes, "an article")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var size int64
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	return rd.parse(f, path, size)
}

// openRegular opens path, a regular file of at most max bytes (what, "an
// article", names what it must be). It stats before opening: opening a
// FIFO would wait for a writer.
func openRegular(path string, max int64, what string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, &Error{File: path, Msg: errors.Unwrap(err).Error()}
	}
	switch {
	case st.IsDir():
		return nil, &Error{File: path, Msg: "a folder, not " + what + " file"}
	case !st.Mode().IsRegular():
		return nil, &Error{File: path, Msg: "not a regular file (a pipe, a socket or a device?)"}
	case st.Size() > max:
		return nil, &Error{File: path, Msg: fmt.Sprintf("%d bytes, larger than %d MiB: not %s readsim reads", st.Size(), max>>20, what)}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{File: path, Msg: errors.Unwrap(err).Error()}
	}
	return f, nil
}

// Parse reads an article from r, streaming. name is the file name: it gives
// the article id (IDFromPath), the folder the DTD is looked for relative to,
// and the name in error messages.
func (rd *Reader) Parse(r io.Reader, name string) (*Article, error) {
	return rd.parse(r, name, 0)
}

// parse reads an article from r, whose size is size bytes (0: unknown).
// The text is made room for at once, the file's size (its text is no
// longer unless entities add to it): grown by doubling, a large text
// would take up to three times its size while it is copied.
func (rd *Reader) parse(r io.Reader, name string, size int64) (*Article, error) {
	p := parser{name: name, rd: rd, a: &Article{ID: IDFromPath(name)}}
	if size > 0 {
		p.text.Grow(int(min(size, MaxArticleBytes)))
	}
	if err := p.run(r); err != nil {
		return nil, err
	}
	p.a.Text = p.text.String()
	if p.text.Cap()-p.text.Len() > p.text.Len()/8 {
		// Drop the builder's doubling slack: the article keeps only its text.
		p.a.Text = strings.Clone(p.a.Text)
	}
	p.a.Len = p.chars
	p.a.index()
	p.a.Lang = rd.Lang
	if p.a.Lang == "" {
		p.a.Lang = pathLang(rd.Root, name)
	}
	if p.a.Lang == "" {
		p.a.Lang = DetectArticleLang(p.a)
	}
	return p.a, nil
}

type childCount struct {
	name string
	n    int
}

type open struct {
	elem     int
	children []childCount
}

type parser struct {
	name  string
	rd    *Reader
	a     *Article
	text  strings.Builder
	chars int
	stack []open
	done  bool // the root element has ended

	titleElem int // element whose text is the title, while it is open
	idElem    int // /article/header/id, while it is open

	ents          *entitySet        // the entities of the article's DTD (nil: none declared)
	expanded      int               // characters added by multi-character entities
	expandedBytes int64             // bytes they added
	lr            *io.LimitedReader // the file, to count its bytes read
	filter        *refFilter        // between the file and the decoder

	names map[string]string // interned element and attribute names
}

// intern returns one shared copy of an element or attribute name, so that a
// large article keeps each distinct name once.
func (p *parser) intern(n xml.Name) string {
	s := qname(n)
	if v, ok := p.names[s]; ok {
		return v
	}
	if p.names == nil {
		p.names = map[string]string{}
	}
	p.names[s] = s
	return s
}

func (p *parser) errAt(d *xml.Decoder, format string, args ...any) error {
	line, col := d.InputPos()
	return &Error{File: p.name, Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// bomReader drops a UTF-8 byte-order mark at the start of the input and
// refuses UTF-16 and UTF-32, which readsim does not read.
func (p *parser) bomReader(br *bufio.Reader) error {
	head, _ := br.Peek(4)
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		br.Discard(3)
	case bytes.HasPrefix(head, []byte{0, 0, 0xFE, 0xFF}), bytes.HasPrefix(head, []byte{0xFF, 0xFE, 0, 0}):
		return &Error{File: p.name, Msg: "a UTF-32 file: readsim reads UTF-8, US-ASCII and ISO-8859-1"}
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}), bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		return &Error{File: p.name, Msg: "a UTF-16 file: readsim reads UTF-8, US-ASCII and ISO-8859-1 (convert it with iconv -f UTF-16 -t UTF-8)"}
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return &Error{File: p.name, Msg: "gzip data: articles are read as XML files, not compressed (decompress it with gunzip)"}
	}
	return nil
}

func (p *parser) run(r io.Reader) error {
	lr := &io.LimitedReader{R: r, N: MaxArticleBytes + 1}
	p.lr = lr
	br := bufio.NewReaderSize(lr, 64<<10)
	if err := p.bomReader(br); err != nil {
		return err
	}
	p.filter = &refFilter{r: br, name: p.name, line: 1, every: splitEvery}
	if p.rd.splitEvery > 0 {
		p.filter.every = p.rd.splitEvery
	}
	d := xml.NewDecoder(p.filter)
	d.Strict = true
	d.Entity = map[string]string{}
	d.CharsetReader = CharsetReader
	empty := true
	for {
		tok, err := d.RawToken()
		if lr.N <= 0 {
			return &Error{File: p.name, Msg: fmt.Sprintf("larger than %d MiB: not an article readsim reads", MaxArticleBytes>>20)}
		}
		if p.expandedBytes > 0 && p.tooLarge() {
			return p.errAt(d, "larger than %d MiB with its entities expanded: not an article readsim reads", MaxArticleBytes>>20)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return p.convert(d, err, empty)
		}
		empty = false
		switch t := tok.(type) {
		case xml.StartElement:
			if err := p.start(d, t); err != nil {
				return err
			}
		case xml.EndElement:
			if err := p.end(d, t); err != nil {
				return err
			}
		case xml.CharData:
			if err := p.charData(d, t); err != nil {
				return err
			}
		case xml.Directive:
			if len(p.a.Elements) > 0 {
				return p.errAt(d, "a <!%s> directive inside the article", firstWord(t))
			}
			if err := p.directive(d, t); err != nil {
				return err
			}
		}
	}
	switch {
	case empty:
		return &Error{File: p.name, Msg: "empty file: no XML in it"}
	case len(p.a.Elements) == 0:
		return &Error{File: p.name, Msg: "not an article: no root element"}
	case !p.done:
		line, _ := d.InputPos()
		top := p.stack[len(p.stack)-1].elem
		return &Error{File: p.name, Line: line, Msg: fmt.Sprintf("truncated file: unexpected end inside <%s> (%s)", p.a.Elements[top].Name, p.a.XPath(top))}
	}
	return nil
}

// directive reads a <!DOCTYPE …>: its DTD (external and internal subsets)
// gives the article's entities.
func (p *parser) directive(d *xml.Decoder, t xml.Directive) error {
	if firstWord(t) != "DOCTYPE" {
		return nil
	}
	line, _ := d.InputPos()
	dt, err := parseDoctype(string(t))
	if err != nil {
		return &Error{File: p.name, Line: line, Msg: err.Error()}
	}
	var internal *DTD
	if strings.TrimSpace(dt.internal) != "" {
		internal, err = ParseDTD([]byte(dt.internal), p.name)
		if err != nil {
			var de *Error
			if errors.As(err, &de) {
				// the DOCTYPE ends on line; its internal subset starts
				// internalAt bytes into it
				first := line - strings.Count(string(t), "\n")
				at := first + strings.Count(string(t)[:dt.internalAt], "\n")
				return &Error{File: p.name, Line: at + max(de.Line, 1) - 1, Msg: "in the DOCTYPE's internal subset: " + de.Msg}
			}
			return &Error{File: p.name, Line: line, Msg: err.Error()}
		}
	}
	var external *resolvedDTD
	if dt.systemID != "" {
		external, err = p.rd.dtdFor(p.name, dt.systemID)
		if err != nil {
			return &Error{File: p.name, Line: line, Msg: err.Error()}
		}
	}
	switch {
	case internal == nil && external != nil:
		p.ents = external.ents
	case internal != nil:
		var raw *DTD
		if external != nil {
			raw = external.raw
		}
		if p.ents, err = newEntitySet(p.name+"'s DOCTYPE or its DTD", external != nil, internal, raw); err != nil {
			return &Error{File: p.name, Line: line, Msg: err.Error()}
		}
	}
	if p.ents != nil {
		d.Entity = p.ents.decoder
	}
	return nil
}

// convert turns a decoder error into an *Error naming the file and line.
func (p *parser) convert(d *xml.Decoder, err error, empty bool) error {
	var own *Error
	if errors.As(err, &own) {
		return own // the reference filter's: file and line given
	}
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		msg := strings.TrimPrefix(se.Msg, "xml: ")
		if se.Msg == "unexpected EOF" {
			msg = "truncated file: unexpected end of file"
			if len(p.stack) > 0 {
				top := p.stack[len(p.stack)-1].elem
				msg += fmt.Sprintf(" inside <%s> (%s)", p.a.Elements[top].Name, p.a.XPath(top))
			}
		}
		if name, ok := strings.CutPrefix(msg, "invalid character entity &"); ok && !strings.HasPrefix(name, "#") {
			msg = p.ents.undefined(strings.TrimSuffix(name, ";"))
		}
		return &Error{File: p.name, Line: se.Line, Msg: msg}
	}
	line, _ := d.InputPos()
	msg := strings.TrimPrefix(err.Error(), "xml: ")
	return &Error{File: p.name, Line: line, Msg: msg}
}

func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

func (p *parser) start(d *xml.Decoder, t xml.StartElement) error {
	name := p.intern(t.Name)
	if p.done {
		return p.errAt(d, "content after the root element: <%s>", name)
	}
	if len(p.stack) >= MaxDepth {
		return p.errAt(d, "elements nested deeper than %d: not an article readsim reads", MaxDepth)
	}
	parent, depth, pos := -1, 0, 1
	if len(p.stack) == 0 {
		if name != "article" {
			return p.errAt(d, "not an article: the root element is <%s>, not <article>", name)
		}
		p.filter.content = true // long runs of text may be cut from here on
	} else {
		top := &p.stack[len(p.stack)-1]
		parent = top.elem
		depth = len(p.stack)
		found := false
		for k := range top.children {
			if top.children[k].name == name {
				top.children[k].n++
				pos = top.children[k].n
				found = true
				break
			}
		}
		if !found {
			top.children = append(top.children, childCount{name, 1})
		}
	}
	if i, j := repeatedAttr(t.Attr); i >= 0 {
		return p.errAt(d, "attribute %s given twice in <%s> (XML 1.0 §3.1: an attribute appears once)", qname(t.Attr[j].Name), name)
	}
	var attrs []Attr
	if len(t.Attr) > 0 {
		attrs = make([]Attr, len(t.Attr))
		for i, at := range t.Attr {
			v := at.Value
			if p.ents != nil && p.ents.hasPlaceholders && strings.Contains(v, placeholderMark) {
				var err error
				if v, err = p.expand(d, v); err != nil {
					return err
				}
			}
			attrs[i] = Attr{Name: p.intern(at.Name), Value: v}
		}
	}
	idx := len(p.a.Elements)
	p.a.Elements = append(p.a.Elements, Element{
		Name: name, Pos: pos, Start: p.chars, Parent: parent, Depth: depth, Attrs: attrs,
	})
	p.stack = append(p.stack, open{elem: idx})
	if p.a.Title == "" && p.titleElem == 0 && isTitle(p.a, idx) {
		p.titleElem = idx
	}
	if p.a.HeaderID == "" && p.idElem == 0 && isHeaderID(p.a, idx) {
		p.idElem = idx
	}
	return nil
}

// repeatedAttr returns the indexes of the first attribute given twice in
// attrs (its first and its second place), or -1, -1.
func repeatedAttr(attrs []xml.Attr) (int, int) {
	if len(attrs) <= 16 {
		for j := 1; j < len(attrs); j++ {
			for i := range j {
				if attrs[i].Name == attrs[j].Name {
					return i, j
				}
			}
		}
		return -1, -1
	}
	seen := make(map[xml.Name]int, len(attrs))
	for j, a := range attrs {
		if i, dup := seen[a.Name]; dup {
			return i, j
		}
		seen[a.Name] = j
	}
	return -1, -1
}

// isTitle reports whether element i holds the article title:
// /article/header/title (2009) or /article/name (2006), semantic wrappers
// around them aside (an article of 2009 may sit whole inside a <sport …>).
func isTitle(a *Article, i int) bool {
	e := &a.Elements[i]
	switch e.Name {
	case "title":
		h := a.LayoutParent(i)
		return h > 0 && a.Elements[h].Name == "header" && a.LayoutParent(h) == 0
	case "name":
		return !e.IsWrapper() && a.LayoutParent(i) == 0
	}
	return false
}

// isHeaderID reports whether element i is /article/header/id (2009),
// semantic wrappers aside.
func isHeaderID(a *Article, i int) bool {
	if a.Elements[i].Name != "id" {
		return false
	}
	h := a.LayoutParent(i)
	return h > 0 && a.Elements[h].Name == "header" && a.LayoutParent(h) == 0
}

func (p *parser) end(d *xml.Decoder, t xml.EndElement) error {
	name := qname(t.Name)
	if len(p.stack) == 0 {
		return p.errAt(d, "unexpected end tag </%s>", name)
	}
	top := p.stack[len(p.stack)-1]
	e := &p.a.Elements[top.elem]
	if e.Name != name {
		return p.errAt(d, "end tag </%s> does not match start tag <%s> (%s)", name, e.Name, p.a.XPath(top.elem))
	}
	e.End = p.chars
	e.Next = len(p.a.Elements)
	p.stack = p.stack[:len(p.stack)-1]
	if top.elem == p.titleElem && top.elem != 0 {
		p.a.Title = strings.TrimSpace(p.text.String()[p.byteOf(e.Start):])
		p.titleElem = -1
	}
	if top.elem == p.idElem && top.elem != 0 {
		p.a.HeaderID = strings.TrimSpace(p.text.String()[p.byteOf(e.Start):])
		p.idElem = -1
	}
	if href, ok := e.Attr("href"); ok {
		if id := linkTarget(href); id != "" {
			p.a.Links = append(p.a.Links, Link{Target: id, Elem: top.elem, Start: e.Start, End: e.End})
		}
	}
	if len(p.stack) == 0 {
		p.done = true
	}
	return nil
}

// byteOf returns the byte offset in the text so far of character c. It is
// used only for the title and the header id, which come early in an article.
func (p *parser) byteOf(c int) int {
	s := p.text.String()
	b := 0
	for ; c > 0 && b < len(s); c-- {
		_, size := utf8.DecodeRuneInString(s[b:])
		b += size
	}
	return b
}

func (p *parser) charData(d *xml.Decoder, t xml.CharData) error {
	if len(p.stack) == 0 {
		if len(bytes.TrimSpace(t)) > 0 {
			where := "before"
			if p.done {
				where = "after"
			}
			return p.errAt(d, "text %s the root element", where)
		}
		return nil
	}
	if p.ents != nil && p.ents.hasPlaceholders && bytes.Contains(t, []byte(placeholderMark)) {
		return p.expandText(d, t)
	}
	p.write(t)
	return nil
}

// write adds t to the text.
func (p *parser) write(t []byte) {
	p.text.Write(t)
	n := len(t)
	for _, c := range t {
		if c >= utf8.RuneSelf {
			n = utf8.RuneCount(t)
			break
		}
	}
	p.chars += n
}

// expandText adds t to the text with the placeholders of multi-character
// entities replaced by their texts, straight into the text: it first adds
// up what they add, against MaxExpandedChars and the article's bound, then
// writes, so that no copy of the expanded text is ever made.
func (p *parser) expandText(d *xml.Decoder, t []byte) error {
	s := p.ents
	added, net, fallback := 0, 0, ""
	s.parts(t, func(lit []byte, k int) {
		if k >= 0 {
			added += utf8.RuneCountInString(s.texts[k])
			net += len(s.texts[k]) - len(lit)
			if fallback == "" {
				fallback = s.fallbackOf(k)
			}
		}
	})
	if err := p.count(d, added, net, fallback); err != nil {
		return err
	}
	p.text.Grow(len(t) + net)
	s.parts(t, func(lit []byte, k int) {
		if k < 0 {
			p.write(lit)
			return
		}
		p.text.WriteString(s.texts[k])
		p.chars += utf8.RuneCountInString(s.texts[k])
	})
	return nil
}

// expand replaces the placeholders of multi-character entities in s by their
// replacement texts, counting what they add against MaxExpandedChars.
func (p *parser) expand(d *xml.Decoder, s string) (string, error) {
	out, added, fallback := p.ents.expand(s)
	if err := p.count(d, added, len(out)-len(s), fallback); err != nil {
		return "", err
	}
	return out, nil
}

// count counts the characters (added) and bytes (net) that entities add
// against MaxExpandedChars and the article's bound, and warns of a
// built-in entity standing in for an undeclared one (fallback).
func (p *parser) count(d *xml.Decoder, added, net int, fallback string) error {
	if fallback != "" {
		p.rd.warnFallback(p.name, fallback, p.ents.source)
	}
	p.expanded += added
	if p.expanded > MaxExpandedChars {
		return p.errAt(d, "entity references expand to more than %d MiB of text (nested entities: a \"billion laughs\"?)", MaxExpandedChars>>20)
	}
	p.expandedBytes += int64(net)
	if p.tooLarge() {
		return p.errAt(d, "larger than %d MiB with its entities expanded: not an article readsim reads", MaxArticleBytes>>20)
	}
	return nil
}

// tooLarge reports whether the bytes read so far and those entities added
// pass MaxArticleBytes: the text entities add counts against the bound as
// if it stood in the file (docs/limits.md).
func (p *parser) tooLarge() bool {
	return MaxArticleBytes+1-p.lr.N+p.expandedBytes > MaxArticleBytes
}

func firstWord(b []byte) string {
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// CharsetReader, an xml.Decoder's CharsetReader, accepts the encodings an
// INEX file may declare besides UTF-8: US-ASCII (a subset of UTF-8) and
// ISO-8859-1 (each byte is the code point of that value). Any other is an
// error naming the label.
func CharsetReader(label string, input io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "us-ascii", "ascii", "utf8":
		return input, nil
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1":
		return &latin1Reader{r: bufio.NewReader(input)}, nil
	}
	return nil, fmt.Errorf("unknown encoding %q (readsim reads UTF-8, US-ASCII and ISO-8859-1)", label)
}

// latin1Reader converts ISO-8859-1 bytes to UTF-8.
type latin1Reader struct {
	r   *bufio.Reader
	buf []byte
}

func (l *latin1Reader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(l.buf) > 0 {
			c := copy(p[n:], l.buf)
			l.buf = l.buf[c:]
			n += c
			continue
		}
		b, err := l.r.ReadByte()
		if err != nil {
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		if b < utf8.RuneSelf {
			p[n] = b
			n++
			continue
		}
		l.buf = utf8.AppendRune(l.buf[:0], rune(b))
	}
	return n, nil
}
