package render

import (
	"fmt"

	"github.com/readsim/readsim/effort"
)

// CheckPassages checks the passages asked for on article id of n characters
// before its page is made (readsim render): a passage that starts at or
// past the end is an error; one that runs past the end is clipped, and
// overlapping ones are merged (NormalizePassages), each with a warning.
func CheckPassages(ps []effort.Span, id string, n int) (warnings []string, err error) {
	for _, p := range ps {
		switch {
		case p.Start >= n:
			return nil, fmt.Errorf("passage %d:%d starts past the end of article %s (%d characters)", p.Start, p.End-p.Start, id, n)
		case p.End > n:
			warnings = append(warnings, fmt.Sprintf("passage %d:%d runs past the end of article %s (%d characters): clipped", p.Start, p.End-p.Start, id, n))
		}
	}
	if m := NormalizePassages(ps, n); len(m) < len(ps) {
		warnings = append(warnings, fmt.Sprintf("overlapping passages merged: %d passages shown", len(m)))
	}
	return warnings, nil
}
