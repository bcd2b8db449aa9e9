package render

import (
	"fmt"
	"sort"

	"github.com/readsim/readsim/effort"
)

// ParsePassages reads passages as a person gives them (readsim render's
// --passage), OFFSET:LENGTH in characters each; its error names the bad
// one.
func ParsePassages(specs []string) ([]effort.Span, error) {
	var ps []effort.Span
	for _, s := range specs {
		p, err := effort.ParseSpan(s, 1<<40)
		if err != nil {
			return nil, fmt.Errorf("bad --passage %q: %v (want OFFSET:LENGTH, e.g. 120:45)", s, err)
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// CheckPassages checks the passages asked for on article id of n characters
// before its page is made (readsim render): a passage that starts at or
// past the end is an error; one that runs past the end is clipped, and
// overlapping ones are merged (ShownPassages), each with a warning.
func CheckPassages(ps []effort.Span, id string, n int) (warnings []string, err error) {
	for _, p := range ps {
		switch {
		case p.Start >= n:
			return nil, fmt.Errorf("passage %d:%d starts past the end of article %s (%d characters)", p.Start, p.End-p.Start, id, n)
		case p.End > n:
			warnings = append(warnings, fmt.Sprintf("passage %d:%d runs past the end of article %s (%d characters): clipped", p.Start, p.End-p.Start, id, n))
		}
	}
	if m := ShownPassages(ps, n); len(m) < len(ps) {
		warnings = append(warnings, fmt.Sprintf("overlapping passages merged: %d passages shown", len(m)))
	}
	return warnings, nil
}

// ShownPassages returns the passages Page shows for an article of n
// characters: clipped to [0, n], empty ones dropped, sorted by start, and
// overlapping ones merged into their union. Passages that only touch (one
// ends where the next starts) stay separate, since each is a result with
// its own anchor. The input is not modified.
//
// It is not effort.Normalize, which makes a set of characters: that one
// merges touching spans too, clips nothing and works in place.
func ShownPassages(ps []effort.Span, n int) []effort.Span {
	out := make([]effort.Span, 0, len(ps))
	for _, p := range ps {
		p.Start = max(p.Start, 0)
		p.End = min(p.End, n)
		if p.End > p.Start {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Start != out[j].Start {
			return out[i].Start < out[j].Start
		}
		return out[i].End < out[j].End
	})
	k := 0
	for _, p := range out {
		if k > 0 && p.Start < out[k-1].End {
			out[k-1].End = max(out[k-1].End, p.End)
			continue
		}
		out[k] = p
		k++
	}
	return out[:k]
}
