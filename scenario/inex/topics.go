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

func readTopicsXML(b []byte, name string) ([]Topic, error) {
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	d.CharsetReader = article.CharsetReader
	// Entities declared in an internal DTD are honoured, except that the five
	// predefined ones keep their XML meaning: encoding/xml resolves those
	// before consulting Entity, so the real 2009 file's redefinition of lt,
	// gt and amp (as words) does not change "&amp;" into "ampersand".
	d.Entity = map[string]string{}
	var ts []Topic
	var cur *Topic
	var field string
	var text strings.Builder
	errAt := func(msg string) error {
		line, _ := d.InputPos()
		return &Error{File: name, Line: line, Err: errors.New(msg)}
	}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return nil, &Error{File: name, Line: se.Line, Err: errors.New(strings.TrimPrefix(se.Msg, "xml: "))}
			}
			return nil, errAt(err.Error())
		}
		switch t := tok.(type) {
		case xml.Directive:
			declareTopicEntities(d.Entity, string(t))
		case xml.StartElement:
			switch {
			case t.Name.Local == "topic" || t.Name.Local == "inex_topic":
				if cur != nil {
					return nil, errAt("a topic inside a topic")
				}
				var msg string
				if cur, msg = openTopic(t); msg != "" {
					return nil, errAt(msg)
				}
			case cur != nil && field == "":
				switch t.Name.Local {
				case "title", "castitle", "phrasetitle", "description", "narrative":
					field = t.Name.Local
					text.Reset()
				}
			}
		case xml.CharData:
			if field != "" {
				text.Write(t)
			}
		case xml.EndElement:
			switch {
			case field != "" && t.Name.Local == field:
				cur.set(field, strings.Join(strings.Fields(text.String()), " "))
				field = ""
			case cur != nil && (t.Name.Local == "topic" || t.Name.Local == "inex_topic"):
				ts = append(ts, *cur)
				cur = nil
			}
		}
	}
	return ts, nil
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

var topicEntityDecl = regexp.MustCompile(`<!ENTITY\s+([^\s%]+)\s+(?:"([^"]*)"|'([^']*)')`)

func declareTopicEntities(m map[string]string, dtd string) {
	for _, s := range topicEntityDecl.FindAllStringSubmatch(dtd, -1) {
		if _, dup := m[s[1]]; !dup {
			m[s[1]] = s[2] + s[3]
		}
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
