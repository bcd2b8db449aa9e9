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
	run := &Run{File: name, Format: XML}
	byID := map[string]*RunTopic{}
	var cur *RunTopic
	var res *result
	var text strings.Builder
	var w warnings
	sawRoot := false
	line := func() int { l, _ := dec.InputPos(); return l }
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
			return nil, errorf(name, line(), "XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			text.Reset()
			attr := func(k string) (string, bool) {
				for _, a := range t.Attr {
					if a.Name.Local == k {
						return a.Value, true
					}
				}
				return "", false
			}
			switch t.Name.Local {
			case "inex-submission":
				sawRoot = true
				run.ID, _ = attr("run-id")
			case "topic":
				id, ok := attr("topic-id")
				if !ok {
					return nil, errorf(name, line(), "<topic> without topic-id")
				}
				if id == "" || strings.ContainsFunc(id, unicode.IsSpace) {
					return nil, errorf(name, line(), "topic-id %q is empty or holds white space: a topic id is one word", id)
				}
				cur = byID[id]
				if cur == nil {
					cur = &RunTopic{ID: id}
					byID[id] = cur
					run.Topics = append(run.Topics, cur)
				}
			case "result":
				if cur == nil {
					return nil, errorf(name, line(), "<result> outside a <topic>")
				}
				res = &result{line: line(), entry: -1}
			case "fol", "bep":
				if res == nil {
					return nil, errorf(name, line(), "<%s> outside a <result>", t.Name.Local)
				}
				off, err := xmlInt(name, line(), t.Name.Local+" offset", attr, "offset")
				if err != nil {
					return nil, err
				}
				if t.Name.Local == "bep" {
					res.entry = off
					continue
				}
				n, err := xmlInt(name, line(), "fol length", attr, "length")
				if err != nil {
					return nil, err
				}
				res.spans = append(res.spans, [2]int{off, off + n})
			}
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			if t.Name.Local == "topic" {
				// Strict nesting: no <result> is open here.
				cur = nil // a <result> after it is outside any topic
				continue
			}
			if res == nil {
				continue
			}
			v := strings.TrimSpace(text.String())
			switch t.Name.Local {
			case "file":
				res.file = strings.TrimSuffix(v, ".xml")
			case "rank":
				if _, err := strconv.Atoi(v); err != nil {
					return nil, errorf(name, line(), "rank %q is not an integer", v)
				}
			case "rsv":
				f, ok := parseFloat([]byte(v))
				if !ok {
					return nil, errorf(name, line(), "rsv %q is not a finite number", v)
				}
				res.score = f
			case "path":
				res.paths = append(res.paths, v)
			case "result":
				if err := res.passages(name, cur, opt.Resolver); err != nil {
					return nil, err
				}
				run.Lines++
				res = nil
			}
		}
	}
	if !sawRoot {
		return nil, &Error{File: name, Err: errors.New("not an INEX submission: no <inex-submission> element")}
	}
	if run.Lines == 0 {
		return nil, &Error{File: name, Err: errors.New("empty submission: no <result>")}
	}
	w.emit(name, opt.Warn)
	return run, nil
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

func xmlInt(name string, line int, what string, attr func(string) (string, bool), key string) (int, error) {
	v, ok := attr(key)
	if !ok {
		return 0, errorf(name, line, "%s missing", what)
	}
	return intField(name, line, what, []byte(strings.TrimSpace(v)))
}
