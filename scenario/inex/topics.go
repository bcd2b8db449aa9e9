package inex

// Topic files: the INEX 2009–2010 <inex-topic-file> (whose real copy
// redefines lt, gt and amp in an internal DTD), INEX 2006–2008 <inex_topic>
// files (one topic, or several under any root), and plain text with one
// "id title words…" topic per line.

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode"

	"github.com/readsim/readsim/index/article"
)

// Topic is one topic's fields, white space collapsed.
type Topic struct {
	ID          string
	Title       string
	CASTitle    string
	PhraseTitle string
	Description string
	Narrative   string
}

// Field returns the named field: title, castitle, phrasetitle, description or
// narrative. The castitle is reduced to its keywords (Keywords). A topic
// without a title falls back to its reduced castitle.
func (t *Topic) Field(name string) (string, error) {
	switch name {
	case "title":
		if t.Title == "" {
			return Keywords(t.CASTitle), nil
		}
		return t.Title, nil
	case "castitle":
		return Keywords(t.CASTitle), nil
	case "phrasetitle":
		return t.PhraseTitle, nil
	case "description":
		return t.Description, nil
	case "narrative":
		return t.Narrative, nil
	}
	return "", fmt.Errorf("unknown topic field %q (title, castitle, phrasetitle, description, narrative)", name)
}

// MaxTopicsBytes is the largest topic file read (the real INEX 2009 file is
// 92 KB).
const MaxTopicsBytes = 64 << 20

// OpenTopics reads a topic file of any of the three formats ("-" is
// standard input).
func OpenTopics(path string) ([]Topic, error) {
	f, err := Open(path, MaxTopicsBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := Decode(displayName(path), f, MaxTopicsBytes)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(r, MaxTopicsBytes+1))
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	if len(b) > MaxTopicsBytes {
		return nil, &Error{File: path, Err: fmt.Errorf("larger than %d MiB: not a topic file readsim reads", MaxTopicsBytes>>20)}
	}
	return ReadTopics(b, path)
}

// ReadTopics parses topics from b; name is used in error messages.
func ReadTopics(b []byte, name string) ([]Topic, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) // a UTF-8 byte-order mark, as Decode drops it
	trim := bytes.TrimLeft(b, " \t\r\n")
	var ts []Topic
	var err error
	if bytes.HasPrefix(trim, []byte("<")) {
		ts, err = readTopicsXML(b, name)
	} else {
		ts, err = readTopicsPlain(b, name)
	}
	if err != nil {
		return nil, err
	}
	if len(ts) == 0 {
		return nil, &Error{File: name, Err: errors.New("no topic in the file")}
	}
	seen := map[string]bool{}
	for _, t := range ts {
		if seen[t.ID] {
			return nil, &Error{File: name, Err: fmt.Errorf("topic %s appears twice", t.ID)}
		}
		seen[t.ID] = true
	}
	return ts, nil
}

func readTopicsPlain(b []byte, name string) ([]Topic, error) {
	var ts []Topic
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		f := strings.Fields(s)
		if len(f) < 2 {
			return nil, &Error{File: name, Line: line, Err: fmt.Errorf("want \"id title words…\", got %q", s)}
		}
		if err := idField(name, line, "topic id", []byte(f[0])); err != nil {
			return nil, err
		}
		ts = append(ts, Topic{ID: f[0], Title: strings.Join(f[1:], " ")})
	}
	return ts, sc.Err()
}

// topicXML reads the topics of an XML topic file (readTopicsXML).
type topicXML struct {
	name  string
	d     *xml.Decoder
	bad   map[string]string // entities that cannot be used, and why
	root  string            // the root element's name ("" before it)
	ts    []Topic
	cur   *Topic
	field string
	text  strings.Builder
}

// The roots of topic files (formats.md, "Topics"): an INEX 2009+
// <inex-topic-file> of <topic>, one INEX 2006–2008 <inex_topic>, or a list
// of <inex_topic> under any root.
const (
	rootTopicFile = "inex-topic-file"
	inexTopic     = "inex_topic"
)

// readTopicsXML reads an XML topic file. Entities declared in its internal
// DTD are honoured, bounded (article.DoctypeEntities), except that the
// five predefined ones keep their XML meaning: encoding/xml resolves those
// before consulting Entity, so the real 2009 file's redefinition of lt, gt
// and amp (as words) does not change "&amp;" into "ampersand". A root
// element of no topic file, and an entity that cannot be expanded, are
// errors naming the line.
func readTopicsXML(b []byte, name string) ([]Topic, error) {
	r := &topicXML{name: name, d: xml.NewDecoder(bytes.NewReader(b))}
	r.d.Strict = true
	r.d.CharsetReader = article.CharsetReader
	r.d.Entity = map[string]string{}
	for {
		tok, err := r.d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, r.syntax(err)
		}
		if err := r.token(tok, b); err != nil {
			return nil, err
		}
	}
	if len(r.ts) == 0 && r.root != "" && r.root != rootTopicFile && r.root != inexTopic {
		return nil, &Error{File: name, Err: fmt.Errorf("the root element is <%s>: a topic file is an <%s> (INEX 2009+), an <%s> or a list of them (INEX 2006–2008)", r.root, rootTopicFile, inexTopic)}
	}
	return r.ts, nil
}

func (r *topicXML) errAt(format string, args ...any) error {
	line, _ := r.d.InputPos()
	return &Error{File: r.name, Line: line, Err: fmt.Errorf(format, args...)}
}

// syntax names the file and line of a decoder's error, and says why an
// entity the DTD declares cannot be used.
func (r *topicXML) syntax(err error) error {
	var se *xml.SyntaxError
	if !errors.As(err, &se) {
		return r.errAt("%s", err.Error())
	}
	msg := strings.TrimPrefix(se.Msg, "xml: ")
	if n, ok := strings.CutPrefix(msg, "invalid character entity &"); ok {
		n = strings.TrimSuffix(n, ";")
		if why, ok := r.bad[n]; ok {
			msg = fmt.Sprintf("entity &%s; cannot be used: %s", n, why)
		} else if !strings.HasPrefix(n, "#") {
			msg = fmt.Sprintf("undefined entity &%s; (the file's DTD does not declare it)", n)
		}
	}
	return &Error{File: r.name, Line: se.Line, Err: errors.New(msg)}
}

// token takes one token of the file b.
func (r *topicXML) token(tok xml.Token, b []byte) error {
	switch t := tok.(type) {
	case xml.Directive:
		return r.doctype(string(t), b)
	case xml.StartElement:
		return r.start(t)
	case xml.CharData:
		if r.field != "" {
			r.text.Write(t)
		}
	case xml.EndElement:
		switch {
		case r.field != "" && t.Name.Local == r.field:
			r.cur.set(r.field, strings.Join(strings.Fields(r.text.String()), " "))
			r.field = ""
		case r.cur != nil && (t.Name.Local == "topic" || t.Name.Local == inexTopic):
			r.ts = append(r.ts, *r.cur)
			r.cur = nil
		}
	}
	return nil
}

// doctype takes the entities of a DOCTYPE's internal subset. Their texts
// are bounded together: every '&' of the file b expanding to the longest
// of them must stay within MaxTopicsBytes, so that the text the decoder
// builds stays bounded by the file.
func (r *topicXML) doctype(dir string, b []byte) error {
	if f := strings.Fields(dir); len(f) == 0 || f[0] != "DOCTYPE" {
		return nil
	}
	texts, bad, err := article.DoctypeEntities(dir, r.name)
	if err != nil {
		return r.errAt("in the DOCTYPE: %v", strings.TrimPrefix(err.Error(), r.name+": "))
	}
	longest := 0
	for n, v := range texts {
		if _, dup := r.d.Entity[n]; !dup {
			r.d.Entity[n] = v
			longest = max(longest, len(v))
		}
	}
	r.bad = bad
	if refs := bytes.Count(b, []byte{'&'}); int64(refs)*int64(longest) > MaxTopicsBytes {
		return r.errAt("its entities could expand to more than %d MiB (%d references, an entity of %d bytes): not a topic file readsim reads", MaxTopicsBytes>>20, refs, longest)
	}
	return nil
}

// start takes a start tag: the root's name, a topic, or a field of one.
func (r *topicXML) start(t xml.StartElement) error {
	n := t.Name.Local
	if r.root == "" {
		r.root = n
	}
	switch {
	case n == "topic" && r.root != rootTopicFile:
		return r.errAt("a <topic> in a file whose root element is <%s>: INEX 2009+ topics are the <topic>s of an <%s>", r.root, rootTopicFile)
	case n == "topic" || n == inexTopic:
		if r.cur != nil {
			return r.errAt("a topic inside a topic")
		}
		var msg string
		if r.cur, msg = openTopic(t); msg != "" {
			return r.errAt("%s", msg)
		}
	case r.cur != nil && r.field == "":
		switch n {
		case "title", "castitle", "phrasetitle", "description", "narrative":
			r.field = n
			r.text.Reset()
		}
	}
	return nil
}

// openTopic returns the topic a <topic> or <inex_topic> start tag opens,
// with its id; or the problem with its id.
func openTopic(t xml.StartElement) (*Topic, string) {
	cur := &Topic{}
	for _, a := range t.Attr {
		if a.Name.Local == "id" || a.Name.Local == "topic_id" {
			cur.ID = strings.TrimSpace(a.Value)
		}
	}
	if cur.ID == "" {
		return nil, fmt.Sprintf("<%s> without an id attribute", t.Name.Local)
	}
	if strings.ContainsFunc(cur.ID, unicode.IsSpace) {
		return nil, fmt.Sprintf("topic id %q holds white space: a topic id is one word", cur.ID)
	}
	return cur, ""
}

// set sets the named field (title, castitle, phrasetitle, description or
// narrative) to v.
func (t *Topic) set(field, v string) {
	switch field {
	case "title":
		t.Title = v
	case "castitle":
		t.CASTitle = v
	case "phrasetitle":
		t.PhraseTitle = v
	case "description":
		t.Description = v
	case "narrative":
		t.Narrative = v
	}
}

var (
	aboutRe = regexp.MustCompile(`about\s*\(\s*[^,()]*,([^()]*)\)`)
	pathRe  = regexp.MustCompile(`//?[A-Za-z_*][\w.*|-]*`)
)

// Keywords reduces a content-and-structure title to its keywords: the text
// arguments of its about() clauses, joined by spaces
// ("//article[about(., Nobel prize)]//sec[about(., winners)]" → "Nobel prize
// winners"). A title without about() has its path steps and brackets removed.
// Signs and quotes stay: the analyzer drops them.
func Keywords(cas string) string {
	var kws []string
	for _, m := range aboutRe.FindAllStringSubmatch(cas, -1) {
		if k := strings.TrimSpace(m[1]); k != "" {
			kws = append(kws, k)
		}
	}
	if len(kws) == 0 {
		s := pathRe.ReplaceAllString(cas, " ")
		s = strings.NewReplacer("[", " ", "]", " ", "(", " ", ")", " ").Replace(s)
		return strings.Join(strings.Fields(s), " ")
	}
	return strings.Join(strings.Fields(strings.Join(kws, " ")), " ")
}
