package article

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits on DTDs and entities. They keep a hostile DTD or article from
// hanging readsim or exhausting memory; every real INEX DTD and article is far
// below them.
const (
	// MaxDTDBytes is the largest DTD file read (the INEX collection's is 30 KB).
	MaxDTDBytes = 4 << 20
	// MaxEntityChars is the longest replacement text of one entity, in
	// characters, after every reference in it is expanded.
	MaxEntityChars = 1 << 20
	// MaxExpandedChars is the most text, in characters, that references to
	// multi-character entities may add to one article (each reference adds
	// its whole replacement text): beyond it the article is refused as a
	// "billion laughs".
	MaxExpandedChars = 16 << 20
	// maxEntityNesting bounds entities referring to entities.
	maxEntityNesting = 64
	// maxPEExpansion bounds the text that parameter-entity references may add
	// to one DTD.
	maxPEExpansion = 16 << 20
	// maxPESplices bounds the parameter-entity references between
	// declarations in one DTD (each is read in place).
	maxPESplices = 1024
)

// DTD is what readsim takes from a document type definition: its general
// entities. Element and attribute declarations are read and ignored (readsim
// never validates), and so are external parameter entities (nothing is
// fetched: no file but the DTD itself and no network).
type DTD struct {
	// Path is the file the DTD was read from ("" for an internal subset or
	// the built-in entities).
	Path string
	// Entities maps each general entity's name to its replacement text as
	// declared: character references resolved, references to other general
	// entities kept (they are expanded where the entity is used).
	Entities map[string]string
	// External lists the general entities declared external (SYSTEM or
	// PUBLIC): readsim does not read them, and a reference to one is an error.
	External map[string]bool
}

// dtdParser reads the markup declarations of a DTD (an external subset or a
// DOCTYPE's internal subset).
type dtdParser struct {
	file    string // file name for errors
	src     string
	pos     int
	line    int
	pe      map[string]string // internal parameter entities
	added   int               // characters added by parameter-entity references
	splices int               // parameter-entity references between declarations
	d       *DTD
}

// DTDError is a problem in a DTD: the package's one file error, Error (the
// file, the line and what; a DTD's errors have no column). The name is
// kept for the callers that ask errors.As for a DTD's error.
type DTDError = Error

// ReadDTD reads a DTD file (an external subset).
func ReadDTD(path string) (*DTD, error) {
	f, err := openRegular(path, MaxDTDBytes, "a DTD")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxDTDBytes+1))
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	if len(b) > MaxDTDBytes {
		return nil, &Error{File: path, Msg: fmt.Sprintf("larger than %d MiB: not a DTD readsim reads", MaxDTDBytes>>20)}
	}
	if len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b {
		return nil, &Error{File: path, Msg: "gzip data: a DTD is read as text, not compressed (decompress it with gunzip)"}
	}
	return ParseDTD(b, path)
}

// ParseDTD reads the markup declarations of a DTD held in b; name names it in
// errors. A text declaration (<?xml encoding=…?>) and a UTF-8 byte-order mark
// are skipped; the DTD must be UTF-8 (or ASCII).
func ParseDTD(b []byte, name string) (*DTD, error) {
	s := strings.TrimPrefix(string(b), "\uFEFF")
	if !utf8.ValidString(s) {
		return nil, &Error{File: name, Msg: "not UTF-8 text"}
	}
	d := &DTD{Path: name, Entities: map[string]string{}, External: map[string]bool{}}
	p := &dtdParser{file: name, src: normalizeNewlines(s), line: 1, pe: map[string]string{}, d: d}
	if err := p.decls(false); err != nil {
		return nil, err
	}
	return d, nil
}

// normalizeNewlines applies XML's end-of-line rule: CRLF and lone CR are LF.
func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

func (p *dtdParser) errf(format string, args ...any) error {
	return &Error{File: p.file, Line: p.line, Msg: fmt.Sprintf(format, args...)}
}

// advance moves n bytes on, counting lines.
func (p *dtdParser) advance(n int) {
	p.line += strings.Count(p.src[p.pos:p.pos+n], "\n")
	p.pos += n
}

func (p *dtdParser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n':
			if p.src[p.pos] == '\n' {
				p.line++
			}
			p.pos++
		default:
			return
		}
	}
}

// skipPast moves past the next occurrence of end, or fails.
func (p *dtdParser) skipPast(end, what string) error {
	i := strings.Index(p.src[p.pos:], end)
	if i < 0 {
		return p.errf("unterminated %s", what)
	}
	p.advance(i + len(end))
	return nil
}

// decls reads declarations up to the end of the text, or, inside an INCLUDE
// section, up to its "]]>".
func (p *dtdParser) decls(inInclude bool) error {
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			if inInclude {
				return p.errf("unterminated <![INCLUDE[ section")
			}
			return nil
		}
		rest := p.src[p.pos:]
		switch {
		case strings.HasPrefix(rest, "<!--"):
			if err := p.skipPast("-->", "comment"); err != nil {
				return err
			}
		case strings.HasPrefix(rest, "<?"):
			if err := p.skipPast("?>", "processing instruction"); err != nil {
				return err
			}
		case strings.HasPrefix(rest, "<!["):
			if err := p.conditional(); err != nil {
				return err
			}
		case strings.HasPrefix(rest, "]]>") && inInclude:
			p.advance(3)
			return nil
		case strings.HasPrefix(rest, "<!ENTITY"):
			if err := p.entity(); err != nil {
				return err
			}
		case strings.HasPrefix(rest, "<!"):
			if err := p.skipDecl(); err != nil {
				return err
			}
		case rest[0] == '%':
			if err := p.peReference(); err != nil {
				return err
			}
		default:
			r, _ := utf8.DecodeRuneInString(rest)
			return p.errf("unexpected %q in the DTD: not a markup declaration", r)
		}
	}
}

// skipDecl skips an <!ELEMENT, <!ATTLIST or <!NOTATION declaration, quoted
// strings included.
func (p *dtdParser) skipDecl() error {
	p.advance(2)
	return p.skipDeclRest()
}

// skipDeclRest skips to the '>' that ends the current declaration, quoted
// strings included.
func (p *dtdParser) skipDeclRest() error {
	for i := p.pos; i < len(p.src); i++ {
		switch c := p.src[i]; c {
		case '"', '\'':
			j := strings.IndexByte(p.src[i+1:], c)
			if j < 0 {
				return p.errf("unterminated quoted string")
			}
			i += j + 1
		case '>':
			p.advance(i + 1 - p.pos)
			return nil
		}
	}
	return p.errf("unterminated markup declaration")
}

// name reads an XML name at the current position.
func (p *dtdParser) name() string {
	i := p.pos
	for i < len(p.src) {
		r, size := utf8.DecodeRuneInString(p.src[i:])
		if !isNameRune(r, i == p.pos) {
			break
		}
		i += size
	}
	n := p.src[p.pos:i]
	p.pos = i
	return n
}

func isNameRune(r rune, first bool) bool {
	switch {
	case r == ':' || r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z':
		return true
	case r == '-' || r == '.' || r >= '0' && r <= '9' || r == 0xB7:
		return !first
	case r >= 0xC0 && r != 0xD7 && r != 0xF7 && r != utf8.RuneError && r < 0xFFFE:
		return true
	}
	return false
}

// peReference expands a parameter-entity reference between declarations: an
// internal one's text is read in its place; an external one is not fetched.
func (p *dtdParser) peReference() error {
	p.pos++
	n := p.name()
	if n == "" || p.pos >= len(p.src) || p.src[p.pos] != ';' {
		return p.errf("malformed parameter-entity reference")
	}
	p.pos++
	v, ok := p.pe[n]
	if !ok {
		return nil // external (or undeclared): readsim fetches nothing
	}
	p.added += len(v)
	p.splices++
	if p.added > maxPEExpansion || p.splices > maxPESplices {
		return p.errf("parameter entities expand too much (more than %d references or %d MiB)", maxPESplices, maxPEExpansion>>20)
	}
	// the replacement text is read as if it stood here (with a space around
	// it, as XML 1.0 §4.4.8 says); its lines are not counted
	p.src = p.src[:p.pos] + " " + v + " " + p.src[p.pos:]
	p.line -= strings.Count(v, "\n")
	return nil
}

// conditional reads an <![INCLUDE[ … ]]> or <![IGNORE[ … ]]> section.
func (p *dtdParser) conditional() error {
	p.advance(3)
	p.skipSpace()
	kw := ""
	if p.pos < len(p.src) && p.src[p.pos] == '%' {
		p.pos++
		n := p.name()
		if p.pos >= len(p.src) || p.src[p.pos] != ';' {
			return p.errf("malformed parameter-entity reference")
		}
		p.pos++
		kw = strings.TrimSpace(p.pe[n])
	} else {
		kw = p.name()
	}
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] != '[' {
		return p.errf("malformed conditional section")
	}
	p.pos++
	switch kw {
	case "INCLUDE":
		return p.decls(true)
	case "IGNORE":
		depth := 1
		for depth > 0 {
			i := strings.IndexAny(p.src[p.pos:], "<]")
			if i < 0 {
				return p.errf("unterminated <![IGNORE[ section")
			}
			p.advance(i)
			switch rest := p.src[p.pos:]; {
			case strings.HasPrefix(rest, "<!["):
				depth++
				p.advance(3)
			case strings.HasPrefix(rest, "]]>"):
				depth--
				p.advance(3)
			default:
				p.advance(1)
			}
		}
		return nil
	}
	return p.errf("conditional section %q is neither INCLUDE nor IGNORE", kw)
}

// entity reads an <!ENTITY declaration.
func (p *dtdParser) entity() error {
	p.advance(len("<!ENTITY"))
	p.skipSpace()
	param := false
	if p.pos < len(p.src) && p.src[p.pos] == '%' {
		param = true
		p.pos++
		p.skipSpace()
	}
	n := p.name()
	if n == "" {
		return p.errf("<!ENTITY without a name")
	}
	p.skipSpace()
	if p.pos >= len(p.src) {
		return p.errf("unterminated <!ENTITY %s", n)
	}
	switch c := p.src[p.pos]; {
	case c == '"' || c == '\'':
		lit, err := p.literal()
		if err != nil {
			return err
		}
		v, err := p.entityValue(lit)
		if err != nil {
			return err
		}
		if param {
			if _, dup := p.pe[n]; !dup {
				p.pe[n] = v
			}
		} else if _, dup := p.d.Entities[n]; !dup && !p.d.External[n] { // the first declaration binds (XML 1.0 §4.2)
			p.d.Entities[n] = v
		}
	default:
		kw := p.name()
		if kw != "SYSTEM" && kw != "PUBLIC" {
			return p.errf("<!ENTITY %s: expected a quoted value, SYSTEM or PUBLIC", n)
		}
		if !param {
			if _, dup := p.d.Entities[n]; !dup {
				p.d.External[n] = true
			}
		}
	}
	// the rest (external ids, NDATA) up to '>'
	return p.skipDeclRest()
}

// literal reads a quoted string.
func (p *dtdParser) literal() (string, error) {
	q := p.src[p.pos]
	j := strings.IndexByte(p.src[p.pos+1:], q)
	if j < 0 {
		return "", p.errf("unterminated quoted value")
	}
	v := p.src[p.pos+1 : p.pos+1+j]
	p.advance(j + 2)
	return v, nil
}

// entityValue resolves an entity value literal: parameter-entity references
// are replaced by their text, character references by their characters;
// general-entity references are kept.
func (p *dtdParser) entityValue(lit string) (string, error) {
	if !strings.ContainsAny(lit, "%&") {
		return lit, nil
	}
	var b strings.Builder
	for i := 0; i < len(lit); {
		switch c := lit[i]; c {
		case '%':
			j := strings.IndexByte(lit[i:], ';')
			if j < 0 {
				return "", p.errf("malformed parameter-entity reference in an entity value")
			}
			v, ok := p.pe[lit[i+1:i+j]]
			if !ok {
				return "", p.errf("undefined parameter entity %%%s;", lit[i+1:i+j])
			}
			p.added += len(v)
			if p.added > maxPEExpansion {
				return "", p.errf("parameter entities expand to more than %d MiB", maxPEExpansion>>20)
			}
			b.WriteString(v)
			i += j + 1
		case '&':
			if strings.HasPrefix(lit[i:], "&#") {
				r, n, ok := charRef(lit[i:])
				if !ok {
					return "", p.errf("malformed character reference %.12q", lit[i:])
				}
				b.WriteRune(r)
				i += n
				continue
			}
			b.WriteByte(c)
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}

// charRef reads a character reference (&#N; or &#xN;) at the start of s: the
// character, the reference's length in bytes, and whether it is one.
func charRef(s string) (rune, int, bool) {
	j := strings.IndexByte(s, ';')
	if j < 3 || !strings.HasPrefix(s, "&#") {
		return 0, 0, false
	}
	ref := s[2:j]
	var v uint64
	var err error
	if ref[0] == 'x' {
		v, err = strconv.ParseUint(ref[1:], 16, 32)
	} else {
		v, err = strconv.ParseUint(ref, 10, 32)
	}
	if err != nil || !isXMLChar(rune(v)) {
		return 0, 0, false
	}
	return rune(v), j + 1, true
}

// isXMLChar reports whether r may appear in an XML document (XML 1.0 §2.2).
func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}

// doctype is what a <!DOCTYPE …> declaration says.
type doctype struct {
	root       string
	systemID   string // "" when there is no external subset
	internal   string // the internal subset, without its brackets
	internalAt int    // the byte offset of the internal subset in the directive
}

// parseDoctype reads a DOCTYPE directive's text (after "<!").
func parseDoctype(s string) (doctype, error) {
	var dt doctype
	rest := strings.TrimLeft(strings.TrimPrefix(s, "DOCTYPE"), " \t\r\n")
	i := strings.IndexAny(rest, " \t\r\n[")
	if i < 0 {
		dt.root = rest
		return dt, nil
	}
	dt.root, rest = rest[:i], strings.TrimLeft(rest[i:], " \t\r\n")
	quoted := func() (string, bool) {
		if rest == "" || (rest[0] != '"' && rest[0] != '\'') {
			return "", false
		}
		j := strings.IndexByte(rest[1:], rest[0])
		if j < 0 {
			return "", false
		}
		v := rest[1 : 1+j]
		rest = strings.TrimLeft(rest[2+j:], " \t\r\n")
		return v, true
	}
	switch {
	case strings.HasPrefix(rest, "SYSTEM"):
		rest = strings.TrimLeft(rest[len("SYSTEM"):], " \t\r\n")
		v, ok := quoted()
		if !ok {
			return dt, errors.New("malformed DOCTYPE: SYSTEM without a quoted identifier")
		}
		dt.systemID = v
	case strings.HasPrefix(rest, "PUBLIC"):
		rest = strings.TrimLeft(rest[len("PUBLIC"):], " \t\r\n")
		if _, ok := quoted(); !ok {
			return dt, errors.New("malformed DOCTYPE: PUBLIC without a quoted identifier")
		}
		v, ok := quoted()
		if !ok {
			return dt, errors.New("malformed DOCTYPE: PUBLIC without a system identifier")
		}
		dt.systemID = v
	}
	if strings.HasPrefix(rest, "[") {
		j := strings.LastIndexByte(rest, ']')
		if j < 0 {
			return dt, errors.New("malformed DOCTYPE: internal subset without its ']'")
		}
		dt.internal = rest[1:j]
		dt.internalAt = len(s) - len(rest) + 1
	}
	return dt, nil
}

// DoctypeEntities reads the general entities that a DOCTYPE directive
// (its text after "<!") declares in its internal subset, for an XML file
// that is not an article (a topic file): their replacement texts with every
// reference in them expanded, bounded as an article's (MaxEntityChars, 64
// deep), and, in bad, why each entity that cannot be expanded cannot (an
// external one, one referring to itself or to an entity not declared). An
// external subset is never read. name names the file in errors.
func DoctypeEntities(directive, name string) (texts, bad map[string]string, err error) {
	dt, err := parseDoctype(directive)
	if err != nil {
		return nil, nil, &Error{File: name, Msg: err.Error()}
	}
	texts, bad = map[string]string{}, map[string]string{}
	if strings.TrimSpace(dt.internal) == "" {
		return texts, bad, nil
	}
	d, err := ParseDTD([]byte(dt.internal), name)
	if err != nil {
		return nil, nil, err
	}
	x := expander{raw: d.Entities, memo: map[string]expanded{}, busy: map[string]bool{}}
	for n := range d.Entities {
		v, _, err := x.expand(n, 0)
		if err != nil {
			bad[n] = err.Error()
			continue
		}
		texts[n] = v
	}
	for n := range d.External {
		bad[n] = "an external entity (readsim reads no file it is not given)"
	}
	return texts, bad, nil
}
