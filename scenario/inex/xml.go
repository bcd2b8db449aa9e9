package inex

import (
	"encoding/xml"
	"errors"
	"github.com/readsim/readsim/effort"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/readsim/readsim/index/article"
)

// readXML reads an INEX XML submission:
//
//	<inex-submission participant-id run-id task query result-type>
//	  <topic topic-id="…">
//	    <result><file>…</file><rank>…</rank><rsv>…</rsv>
//	      <fol offset="…" length="…"/>… | <path>XPath</path>… | <bep offset="…"/>
//	    </result>…
//
// A result with several <fol> or <path> elements gives one passage each; a
// result with none of them and no <bep> is the whole article. Element paths
// are resolved through opt.Resolver.
func readXML(name string, r io.Reader, opt RunOptions) (*Run, error) {
	dec := xml.NewDecoder(r)
	dec.Strict = true // malformed XML is an error with its line
	dec.CharsetReader = article.CharsetReader
	x := &xmlReader{name: name, dec: dec, opt: opt, run: &Run{File: name, Format: XML}, byID: map[string]*RunTopic{}}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return nil, errorf(name, se.Line, "XML: %s", se.Msg)
			}
			return nil, errorf(name, x.line(), "XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			x.text.Reset()
			err = x.start(t)
		case xml.CharData:
			x.text.Write(t)
		case xml.EndElement:
			err = x.end(t)
		}
		if err != nil {
			return nil, err
		}
	}
	if !x.sawRoot {
		return nil, &Error{File: name, Err: errors.New("not an INEX submission: no <inex-submission> element")}
	}
	if x.run.Lines == 0 {
		return nil, &Error{File: name, Err: errors.New("empty submission: no <result>")}
	}
	return x.run, nil
}

// xmlReader is the state of readXML between tokens.
type xmlReader struct {
	name    string
	dec     *xml.Decoder
	opt     RunOptions
	run     *Run
	byID    map[string]*RunTopic
	cur     *RunTopic       // the open <topic>
	res     *result         // the open <result>
	text    strings.Builder // the text since the last start tag
	sawRoot bool
}

// line is the decoder's line.
func (x *xmlReader) line() int { l, _ := x.dec.InputPos(); return l }

// start reads a start tag.
func (x *xmlReader) start(t xml.StartElement) error {
	name := x.name
	switch t.Name.Local {
	case "inex-submission":
		x.sawRoot = true
		x.run.ID, _ = xmlAttr(t, "run-id")
	case "topic":
		id, ok := xmlAttr(t, "topic-id")
		if !ok {
			return errorf(name, x.line(), "<topic> without topic-id")
		}
		if id == "" || strings.ContainsFunc(id, unicode.IsSpace) {
			return errorf(name, x.line(), "topic-id %q is empty or holds white space: a topic id is one word", id)
		}
		x.cur = x.byID[id]
		if x.cur == nil {
			x.cur = &RunTopic{ID: id}
			x.byID[id] = x.cur
			x.run.Topics = append(x.run.Topics, x.cur)
		}
	case "result":
		if x.cur == nil {
			return errorf(name, x.line(), "<result> outside a <topic>")
		}
		x.res = &result{line: x.line(), entry: -1}
	case "fol", "bep":
		if x.res == nil {
			return errorf(name, x.line(), "<%s> outside a <result>", t.Name.Local)
		}
		off, err := xmlInt(name, x.line(), t.Name.Local+" offset", t, "offset")
		if err != nil {
			return err
		}
		if t.Name.Local == "bep" {
			x.res.entry = off
			return nil
		}
		n, err := xmlInt(name, x.line(), "fol length", t, "length")
		if err != nil {
			return err
		}
		x.res.spans = append(x.res.spans, [2]int{off, off + n})
	}
	return nil
}

// end reads an end tag: the text of a result's fields, the end of a result
// or of a topic.
func (x *xmlReader) end(t xml.EndElement) error {
	name := x.name
	if t.Name.Local == "topic" {
		// Strict nesting: no <result> is open here.
		x.cur = nil // a <result> after it is outside any topic
		return nil
	}
	res := x.res
	if res == nil {
		return nil
	}
	v := strings.TrimSpace(x.text.String())
	switch t.Name.Local {
	case "file":
		res.file = strings.TrimSuffix(v, ".xml")
	case "rank":
		if _, err := strconv.Atoi(v); err != nil {
			return errorf(name, x.line(), "rank %q is not an integer", v)
		}
	case "rsv":
		f, ok := parseFloat([]byte(v))
		if !ok {
			return scoreError(name, x.line(), "rsv", []byte(v))
		}
		res.score = f
	case "path":
		res.paths = append(res.paths, v)
	case "result":
		if err := res.passages(name, x.cur, x.opt.Resolver); err != nil {
			return err
		}
		x.run.Lines++
		x.res = nil
	}
	return nil
}

type result struct {
	line  int
	score float64
	file  string
	spans [][2]int
	paths []string
	entry int
}

func (r *result) passages(name string, t *RunTopic, res PathResolver) error {
	if r.file == "" {
		return errorf(name, r.line, "<result> without <file>")
	}
	for _, p := range r.paths {
		if res == nil {
			return errorf(name, r.line, "element path %q needs the articles (--articles DIR) to be resolved", p)
		}
		s, e, err := res.Span(r.file, p)
		if err != nil {
			return errorf(name, r.line, "article %s, path %s: %v", r.file, p, err)
		}
		r.spans = append(r.spans, [2]int{s, e})
	}
	if len(r.spans) == 0 {
		p := Result{Article: r.file, Line: r.line, Entry: r.entry, Full: r.entry < 0, Score: r.score}
		t.Results = append(t.Results, p)
		return nil
	}
	for _, s := range r.spans {
		t.Results = append(t.Results, Result{Article: r.file, Span: effort.Span{Start: s[0], End: s[1]}, Entry: r.entry, Line: r.line, Score: r.score})
	}
	return nil
}

// xmlAttr returns the value of t's attribute k.
func xmlAttr(t xml.StartElement, k string) (string, bool) {
	for _, a := range t.Attr {
		if a.Name.Local == k {
			return a.Value, true
		}
	}
	return "", false
}

// xmlInt parses t's attribute key, a non-negative integer, what naming it
// in errors.
func xmlInt(name string, line int, what string, t xml.StartElement, key string) (int, error) {
	v, ok := xmlAttr(t, key)
	if !ok {
		return 0, errorf(name, line, "%s missing", what)
	}
	return intField(name, line, what, []byte(strings.TrimSpace(v)))
}
