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

// ParseFile reads and parses the article file at path. Its id is the file
// name without ".xml".
func ParseFile(path string) (*Article, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{File: path, Msg: errors.Unwrap(err).Error()}
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads an article from r, streaming. name is the file name: it gives
// the article id (IDFromPath) and is used in error messages.
func Parse(r io.Reader, name string) (*Article, error) {
	p := parser{name: name, a: &Article{ID: IDFromPath(name)}}
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
	a     *Article
	text  strings.Builder
	chars int
	stack []open
	done  bool // the root element has ended

	titleElem int // element whose text is the title, while it is open

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

func (p *parser) run(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	d := xml.NewDecoder(br)
	d.Strict = true
	d.Entity = map[string]string{}
	d.CharsetReader = CharsetReader
	empty := true
	for {
		tok, err := d.RawToken()
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
			declareEntities(d.Entity, t)
		}
	}
	switch {
	case empty:
		return &Error{File: p.name, Msg: "empty file: no XML in it"}
	case len(p.a.Elements) == 0:
		return &Error{File: p.name, Msg: "not an article: no root element"}
	case !p.done:
		line, _ := d.InputPos()
		top := p.a.Elements[p.stack[len(p.stack)-1].elem]
		return &Error{File: p.name, Line: line, Msg: fmt.Sprintf("truncated file: unexpected end inside <%s> (%s)", top.Name, top.XPath)}
	}
	return nil
}

// convert turns a decoder error into an *Error naming the file and line.
func (p *parser) convert(d *xml.Decoder, err error, empty bool) error {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		msg := strings.TrimPrefix(se.Msg, "xml: ")
		if se.Msg == "unexpected EOF" {
			msg = "truncated file: unexpected end of file"
			if len(p.stack) > 0 {
				top := p.a.Elements[p.stack[len(p.stack)-1].elem]
				msg += fmt.Sprintf(" inside <%s> (%s)", top.Name, top.XPath)
			}
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
	parent, depth, xpath := -1, 0, ""
	if len(p.stack) == 0 {
		if name != "article" {
			return p.errAt(d, "not an article: the root element is <%s>, not <article>", name)
		}
		xpath = "/article[1]"
	} else {
		top := &p.stack[len(p.stack)-1]
		parent = top.elem
		depth = len(p.stack)
		n := 1
		found := false
		for k := range top.children {
			if top.children[k].name == name {
				top.children[k].n++
				n = top.children[k].n
				found = true
				break
			}
		}
		if !found {
			top.children = append(top.children, childCount{name, 1})
		}
		xpath = p.a.Elements[parent].XPath + "/" + name + "[" + itoa(n) + "]"
	}
	var attrs []Attr
	if len(t.Attr) > 0 {
		attrs = make([]Attr, len(t.Attr))
		for i, at := range t.Attr {
			attrs[i] = Attr{Name: p.intern(at.Name), Value: at.Value}
		}
	}
	idx := len(p.a.Elements)
	p.a.Elements = append(p.a.Elements, Element{
		Name: name, XPath: xpath, Start: p.chars, Parent: parent, Depth: depth, Attrs: attrs,
	})
	p.stack = append(p.stack, open{elem: idx})
	if p.a.Title == "" && p.titleElem == 0 && isTitle(p.a.Elements, idx) {
		p.titleElem = idx
	}
	return nil
}

// isTitle reports whether element i holds the article title:
// /article/header/title (2009) or /article/name (2006).
func isTitle(els []Element, i int) bool {
	e := &els[i]
	switch {
	case e.Depth == 2 && e.Name == "title":
		return els[e.Parent].Name == "header"
	case e.Depth == 1 && e.Name == "name":
		return true
	}
	return false
}

func (p *parser) end(d *xml.Decoder, t xml.EndElement) error {
	name := qname(t.Name)
	if len(p.stack) == 0 {
		return p.errAt(d, "unexpected end tag </%s>", name)
	}
	top := p.stack[len(p.stack)-1]
	e := &p.a.Elements[top.elem]
	if e.Name != name {
		return p.errAt(d, "end tag </%s> does not match start tag <%s> (%s)", name, e.Name, e.XPath)
	}
	e.End = p.chars
	e.Next = len(p.a.Elements)
	p.stack = p.stack[:len(p.stack)-1]
	if top.elem == p.titleElem && top.elem != 0 {
		p.a.Title = strings.TrimSpace(p.text.String()[p.byteOf(e.Start):])
		p.titleElem = -1
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
// used only for the title, which comes early in an article.
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
	p.text.Write(t)
	n := len(t)
	for _, c := range t {
		if c >= utf8.RuneSelf {
			n = utf8.RuneCount(t)
			break
		}
	}
	p.chars += n
	return nil
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

// declareEntities adds the general entities declared in a DOCTYPE's internal
// subset (<!ENTITY name "value">) to m. Parameter entities and external
// entities are not expanded; a reference to one is an undefined-entity error.
// Character references in a replacement text are resolved.
func declareEntities(m map[string]string, dir []byte) {
	s := string(dir)
	for {
		i := strings.Index(s, "<!ENTITY")
		if i < 0 {
			return
		}
		s = s[i+len("<!ENTITY"):]
		rest := strings.TrimLeft(s, " \t\r\n")
		if strings.HasPrefix(rest, "%") {
			continue
		}
		end := strings.IndexAny(rest, " \t\r\n")
		if end <= 0 {
			return
		}
		name := rest[:end]
		rest = strings.TrimLeft(rest[end:], " \t\r\n")
		if rest == "" || (rest[0] != '"' && rest[0] != '\'') {
			continue // SYSTEM or PUBLIC: external
		}
		q := rest[0]
		close := strings.IndexByte(rest[1:], q)
		if close < 0 {
			return
		}
		if _, dup := m[name]; !dup { // the first declaration binds (XML 1.0 §4.2)
			m[name] = resolveCharRefs(rest[1 : 1+close])
		}
		s = rest[1+close:]
	}
}

// resolveCharRefs replaces &#N; and &#xN; in s by their characters.
func resolveCharRefs(s string) string {
	if !strings.Contains(s, "&#") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "&#")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], ';')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		ref := s[i+2 : i+j]
		var r rune = -1
		var v uint64
		var err error
		if strings.HasPrefix(ref, "x") {
			_, err = fmt.Sscanf(ref[1:], "%x", &v)
		} else {
			_, err = fmt.Sscanf(ref, "%d", &v)
		}
		if err == nil && v <= utf8.MaxRune {
			r = rune(v)
		}
		if r < 0 {
			b.WriteString(s[i : i+j+1])
		} else {
			b.WriteRune(r)
		}
		s = s[i+j+1:]
	}
}
