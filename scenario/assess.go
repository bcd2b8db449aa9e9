// Highlights: a readable highlights file — quotes of the relevant
// text per topic and article — into INEX FOL judgments, the way an INEX
// assessor's highlighting became offsets. It fails loudly: a quote that is not
// in the article, or that is in it more than once, is an error naming the
// highlights file and line.
//
// The highlights format and the judgments written are described in
// HighlightsFormat (readsim assess -h shows it).

package scenario

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/scenario/inex"
)

// HighlightsFormat describes the highlights file for `readsim assess -h`.
const HighlightsFormat = `The highlights file (UTF-8 text, gzip or not, one item per line):

  # a comment
  topic 2026001
  article 1001
  > an exact quote of relevant text
  > the opening words of a long stretch ... its closing words
  article 1004

A quote is matched against the article's text (tags removed, references
resolved), so it may cross inline markup; it must occur in the article
exactly once. "A ... B" (space, three dots, space) highlights from the start
of A to the end of the first B after A. An article listed with no quote is
judged non-relevant. Each topic, and each article within a topic, is listed
once; the highlighted passages of an article must not overlap.

The judgments are INEX FOL lines, one per listed article in the file's order:
"topic Q0 article rsize length bep offset:length…", the best entry point
(bep) being the start of the first passage (0 for a non-relevant article).`

// ArticleFunc gives the parsed article for an id.
type ArticleFunc func(id string) (*article.Article, error)

type quote struct {
	line int
	text string
}

type entry struct {
	topic, article string
	line           int
	quotes         []quote
}

// Assess reads the highlights from r (named name in errors), finds every
// quote in its article and returns the judgments in the order of the file
// (inex.WriteJudgments writes them as FOL lines). A problem is an
// *inex.Error naming the highlights file and line: the first in the file.
// Each article is parsed once, however many topics list it.
func Assess(r io.Reader, name string, articles ArticleFunc) ([]*inex.Judgment, error) {
	entries, err := parse(r, name)
	if err != nil {
		return nil, err
	}
	// the entries by article, in file order within one
	byArticle := make([]int, len(entries))
	for i := range byArticle {
		byArticle[i] = i
	}
	sort.SliceStable(byArticle, func(x, y int) bool { return entries[byArticle[x]].article < entries[byArticle[y]].article })
	out := make([]*inex.Judgment, len(entries))
	first, firstErr := len(entries), error(nil) // the failing entry first in the file
	for k := 0; k < len(byArticle); {
		id := entries[byArticle[k]].article
		a, aerr := articles(id)
		for ; k < len(byArticle) && entries[byArticle[k]].article == id; k++ {
			i := byArticle[k]
			if i > first {
				continue
			}
			e := entries[i]
			if aerr != nil {
				first, firstErr = i, inexErrorf(name, e.line, "article %s: %v", e.article, aerr)
				continue
			}
			if out[i], err = judge(name, e, a); err != nil {
				first, firstErr = i, err
			}
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}

// judge finds the quotes of entry e in its article a and returns its
// judgment.
func judge(name string, e entry, a *article.Article) (*inex.Judgment, error) {
	j := &inex.Judgment{Topic: e.topic, Article: e.article, Length: a.Len, Line: e.line}
	for _, q := range e.quotes {
		p, err := find(a, q.text)
		if err != nil {
			return nil, inexErrorf(name, q.line, "article %s: %v", e.article, err)
		}
		j.Rel = append(j.Rel, p)
	}
	sort.Slice(j.Rel, func(x, y int) bool { return j.Rel[x].Start < j.Rel[y].Start })
	for k := 1; k < len(j.Rel); k++ {
		if j.Rel[k].Start < j.Rel[k-1].End {
			return nil, inexErrorf(name, e.line, "article %s: highlighted passages %d:%d and %d:%d overlap",
				e.article, j.Rel[k-1].Start, j.Rel[k-1].End-j.Rel[k-1].Start,
				j.Rel[k].Start, j.Rel[k].End-j.Rel[k].Start)
		}
	}
	j.NRC = j.Rel.Len()
	j.Rsize = j.NRC
	if j.NRC > 0 {
		// the highlights give no best entry point: the first passage's start
		j.BEP, j.Grade = j.Rel[0].Start, 1
	}
	return j, nil
}

func parse(r io.Reader, name string) ([]entry, error) {
	var entries []entry
	topic := ""
	seenTopic := map[string]int{}
	seenArticle := map[string]int{}
	line := 0
	err := inex.TextLines(name, r, func(ln int, b []byte) error {
		line = ln
		if !utf8.Valid(b) {
			return inexErrorf(name, line, "not UTF-8 text (the highlights file must be UTF-8)")
		}
		s := strings.TrimRight(string(b), " \t\r")
		trimmed := strings.TrimSpace(s)
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		case strings.HasPrefix(s, ">"):
			if len(entries) == 0 || entries[len(entries)-1].topic != topic {
				return inexErrorf(name, line, "a quote before any 'article' line")
			}
			q := strings.TrimSpace(s[1:])
			if q == "" {
				return inexErrorf(name, line, "an empty quote")
			}
			e := &entries[len(entries)-1]
			e.quotes = append(e.quotes, quote{line, q})
		default:
			f := strings.Fields(trimmed)
			if len(f) != 2 || (f[0] != "topic" && f[0] != "article") {
				return inexErrorf(name, line, "want 'topic ID', 'article ID', '> quote' or '# comment', got %q", trimmed)
			}
			if f[0] == "topic" {
				if prev, dup := seenTopic[f[1]]; dup {
					return inexErrorf(name, line, "topic %s listed again (first on line %d)", f[1], prev)
				}
				seenTopic[f[1]] = line
				topic = f[1]
				return nil
			}
			if topic == "" {
				return inexErrorf(name, line, "an 'article' line before any 'topic' line")
			}
			key := topic + " " + f[1]
			if prev, dup := seenArticle[key]; dup {
				return inexErrorf(name, line, "article %s listed again for topic %s (first on line %d)", f[1], topic, prev)
			}
			seenArticle[key] = line
			entries = append(entries, entry{topic: topic, article: f[1], line: line})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, inexErrorf(name, line, "no judgments in the file")
	}
	return entries, nil
}

// find locates a quote ("A" or "A ... B") in the article's text.
func find(a *article.Article, q string) (effort.Span, error) {
	head, tail, ranged := strings.Cut(q, " ... ")
	start, err := unique(a.Text, head)
	if err != nil {
		return effort.Span{}, err
	}
	end := start + len(head)
	if ranged {
		k := strings.Index(a.Text[end:], tail)
		if k < 0 {
			return effort.Span{}, fmt.Errorf("quote end %q not found after %q", clip(tail), clip(head))
		}
		end += k + len(tail)
	}
	return effort.Span{Start: a.CharOffset(start), End: a.CharOffset(end)}, nil
}

// unique returns the byte offset of the only occurrence of s in text.
func unique(text, s string) (int, error) {
	i := strings.Index(text, s)
	if i < 0 {
		return 0, fmt.Errorf("quote %q not found in the text", clip(s))
	}
	if j := strings.Index(text[i+1:], s); j >= 0 {
		n := strings.Count(text, s)
		return 0, fmt.Errorf("quote %q is ambiguous: found %d times", clip(s), n)
	}
	return i, nil
}

func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}

// inexErrorf is an *inex.Error at a line of the highlights file.
func inexErrorf(file string, line int, format string, args ...any) error {
	return &inex.Error{File: file, Line: line, Err: fmt.Errorf(format, args...)}
}
