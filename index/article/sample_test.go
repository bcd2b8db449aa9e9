package article

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// node is a DOM node built by domSpans, independently of the streaming parser.
type node struct {
	name     string
	children []*node
	text     int // characters of direct text, for leaves of the walk
	isText   bool
}

// domSpans builds a tree with encoding/xml's Token (namespace-resolving, a
// different code path from the parser's RawToken and stack), then computes
// every element's span recursively from the lengths of its subtrees.
func domSpans(data []byte) (int, []span, error) {
	d := xml.NewDecoder(strings.NewReader(string(data)))
	var stack []*node
	var root *node
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &node{name: t.Name.Local}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.children = append(p.children, n)
			} else {
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.children = append(p.children, &node{isText: true, text: utf8.RuneCount(t)})
			}
		}
	}
	if root == nil {
		return 0, nil, fmt.Errorf("no root")
	}
	var out []span
	var walk func(n *node, path string, start int) int
	walk = func(n *node, path string, start int) int {
		i := len(out)
		out = append(out, span{path, start, 0})
		pos := start
		count := map[string]int{}
		for _, c := range n.children {
			if c.isText {
				pos += c.text
				continue
			}
			count[c.name]++
			pos = walk(c, fmt.Sprintf("%s/%s[%d]", path, c.name, count[c.name]), pos)
		}
		out[i].end = pos
		return pos
	}
	n := walk(root, "/"+root.name+"[1]", 0)
	return n, out, nil
}

// TestSampleAgainstDOM checks every corpus-sample article: the streaming
// parser and the DOM walk must agree on the length and every span. (The
// sample uses no prefixed element names, so local names equal qualified ones.)
func TestSampleAgainstDOM(t *testing.T) {
	files, err := filepath.Glob("../../corpus-sample/articles/*/*.xml")
	if err != nil || len(files) == 0 {
		t.Skip("no corpus-sample articles")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Parse(strings.NewReader(string(data)), f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		n, want, err := domSpans(data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if a.Len != n || len(a.Elements) != len(want) {
			t.Errorf("%s: Len %d, %d elements; DOM: %d, %d", f, a.Len, len(a.Elements), n, len(want))
			continue
		}
		for i, w := range want {
			e := a.Elements[i]
			if a.XPath(i) != w.xpath || e.Start != w.start || e.End != w.end {
				t.Errorf("%s: element %d is %s %d-%d; DOM: %s %d-%d", f, i, a.XPath(i), e.Start, e.End, w.xpath, w.start, w.end)
				break
			}
		}
		if err := checkInvariants(a); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
