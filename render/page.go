package render

import (
	"fmt"
	"strings"
)

// title is the page's <title>: the article's title, else the text of its
// title element (a 2009 article whose header stands inside a wrapper), else
// its id.
func (r *renderer) title() string {
	if r.a.Title != "" {
		return r.a.Title
	}
	for i, in := range r.info {
		if in.kind == kTitle {
			e := &r.a.Elements[i]
			if t := strings.Join(strings.Fields(r.a.Slice(e.Start, e.End)), " "); t != "" {
				return t
			}
			break
		}
	}
	return r.a.ID
}

// page writes the whole document: the head, the top bar and the body.
func (r *renderer) page() error {
	r.out = append(r.out, `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="`...)
	r.out = appendAttr(r.out, r.opt.Lang)
	r.out = append(r.out, `" xml:lang="`...)
	r.out = appendAttr(r.out, r.opt.Lang)
	r.out = append(r.out, `">
<head>
<meta charset="UTF-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<title>`...)
	r.out = appendText(r.out, r.title())
	r.out = append(r.out, "</title>\n"...)
	if r.opt.IconURL != "" {
		r.out = append(r.out, `<link rel="icon" href="`...)
		r.out = appendAttr(r.out, r.opt.IconURL)
		r.out = append(r.out, "\"/>\n"...)
	}
	if r.opt.StylesheetURL != "" {
		r.out = append(r.out, `<link rel="stylesheet" href="`...)
		r.out = appendAttr(r.out, r.opt.StylesheetURL)
		r.out = append(r.out, "\"/>\n"...)
	} else {
		r.out = append(r.out, "<style>"...)
		r.out = append(r.out, CSS...)
		r.out = append(r.out, "</style>\n"...)
	}
	if r.opt.ScriptURL != "" {
		r.out = append(r.out, `<script src="`...)
		r.out = appendAttr(r.out, r.opt.ScriptURL)
		r.out = append(r.out, "\" defer=\"defer\"></script>\n"...)
	}
	r.out = append(r.out, "</head>\n<body>\n<input type=\"checkbox\" id=\"rs-hl\" class=\"rs-ui\""...)
	if !r.opt.NoHighlight {
		r.out = append(r.out, ` checked="checked"`...)
	}
	r.out = append(r.out, `/>
<nav id="top" class="rs-ui rs-top" aria-label="Passages"`...)
	r.out = append(r.out, r.uiLang...)
	r.out = append(r.out, '>')
	r.arrow("←", r.opt.ResultsURL, r.opt.ResultsLabel)
	if len(r.ps) > 0 {
		r.arrow("↓", "#"+AnchorID(1), "First passage")
	}
	r.out = append(r.out, `<label for="rs-hl" class="rs-switch">Highlight</label></nav>
`...)
	if err := r.body(); err != nil {
		return err
	}
	r.out = append(r.out, "\n</body>\n</html>\n"...)
	return nil
}

// arrow writes an arrow link: glyph to href, labelled for screen readers.
func (r *renderer) arrow(glyph, href, label string) {
	r.out = append(r.out, `<a class="rs-arrow" href="`...)
	r.out = appendAttr(r.out, href)
	r.out = append(r.out, `" aria-label="`...)
	r.out = appendAttr(r.out, label)
	r.out = append(r.out, `">`...)
	r.out = append(r.out, glyph...)
	r.out = append(r.out, "</a>"...)
}

// body walks the elements in document order, writing text and tags.
func (r *renderer) body() error {
	els := r.a.Elements
	if els[0].Start != 0 || els[0].End != r.a.Len {
		return r.corrupt(0, "the root does not span the text")
	}
	r.stack = r.stack[:0]
	for i := range els {
		e := &els[i]
		for len(r.stack) > 0 && els[r.stack[len(r.stack)-1].el].Next <= i {
			r.closeTop()
		}
		parent := -1
		if len(r.stack) > 0 {
			parent = r.stack[len(r.stack)-1].el
		} else if i > 0 {
			return r.corrupt(i, "outside the root")
		}
		if e.Parent != parent || e.Start < r.c || e.End < e.Start || e.Next <= i || e.Next > len(els) ||
			parent >= 0 && (e.End > els[parent].End || e.Next > els[parent].Next) {
			return r.corrupt(i, "spans or indexes do not nest")
		}
		r.text(e.Start)
		r.open(i)
	}
	for len(r.stack) > 0 {
		r.closeTop()
	}
	return nil
}

// corrupt is the error for element i of an inconsistent article.
func (r *renderer) corrupt(i int, what string) error {
	return fmt.Errorf("render: article %s: element %d (%s): %s", r.a.ID, i, r.a.XPath(i), what)
}

// closeTop writes the text up to the end of the innermost open element
// and closes it.
func (r *renderer) closeTop() {
	f := r.stack[len(r.stack)-1]
	r.text(r.a.Elements[f.el].End)
	r.stack = r.stack[:len(r.stack)-1]
	if f.el == 0 {
		// anchors and arrows still waiting for text (passages of white
		// space at the very end) go at the end of the article
		r.fire(true, true)
	}
	r.closeGroup(&f)
	r.out = append(r.out, f.close...)
	if f.link {
		r.linkDepth--
		r.fire(false, false)
	}
}
