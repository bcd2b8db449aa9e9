package build

import (
	"fmt"
	"sort"
	"strings"

	"github.com/readsim/readsim/index/article"
)

// maxListed is how many files of one kind the summary names before it
// only counts the others (broken articles and duplicates are all named).
const maxListed = 10

// Summary says, a line each, what a build of the index in folder idx
// indexed and skipped, naming every skipped article; the collection's DTDs,
// the files that are not articles, the articles whose header id is not
// their file name, and the articles' languages.
func (r *Result) Summary(idx string) []string {
	var out []string
	say := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	for _, s := range r.Broken {
		say("skipped broken article %s: %s", s.Path, s.Reason)
	}
	for _, s := range r.Dups {
		say("skipped duplicate %s: %s", s.Path, s.Reason)
	}
	for i, p := range r.NotXML {
		if i == maxListed {
			say("ignored %d more files that are not articles", len(r.NotXML)-maxListed)
			break
		}
		say("ignored %s: not an article (no .xml extension)", p)
	}
	for _, p := range r.DTDs {
		say("the collection's DTD: %s", p)
	}
	if w := article.ClashWarning(r.IDClashes); w != "" {
		say("warning: %s", w)
	}
	if n := len(r.IDMismatches); n > 0 {
		var ex []string
		for _, m := range r.IDMismatches[:min(n, 3)] {
			ex = append(ex, fmt.Sprintf("%s has id %s", m.Path, m.HeaderID))
		}
		more := ""
		if n > 3 {
			more = fmt.Sprintf(", and %d more", n-3)
		}
		say("warning: %d articles whose <header><id> is not their file name are indexed under their file name: %s%s", n, strings.Join(ex, "; "), more)
	}
	if r.Rebuilt != "" {
		say("built the index in %s again from scratch: %s", idx, r.Rebuilt)
	}
	secs := r.Elapsed.Seconds()
	mode := "built"
	if !r.Full {
		mode = "updated"
	}
	shards := ""
	if r.Shards > 1 {
		shards = fmt.Sprintf(" in %d shards", r.Shards)
	}
	say("%s %s: %d articles, %d elements%s; this run indexed %d (%.1f MB in %.1fs, %.1f MB/s), kept %d unchanged, removed %d",
		mode, idx, r.Articles, r.Elements, shards, r.Indexed, float64(r.Bytes)/1e6, secs, float64(r.Bytes)/1e6/max(secs, 1e-9), r.Unchanged, r.Removed)
	if len(r.Langs) > 0 {
		langs := make([]string, 0, len(r.Langs))
		for l := range r.Langs {
			langs = append(langs, l)
		}
		sort.Strings(langs)
		for i, l := range langs {
			langs[i] = fmt.Sprintf("%s %d", l, r.Langs[l])
		}
		say("languages: %s", strings.Join(langs, ", "))
	}
	if n := len(r.Broken) + len(r.Dups); n > 0 {
		say("skipped %d files: %d broken, %d duplicate ids", n, len(r.Broken), len(r.Dups))
	}
	return out
}
