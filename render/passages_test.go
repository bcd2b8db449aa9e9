package render

import (
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
)

// Passages of an article of 15 characters.
func TestCheckPassages(t *testing.T) {
	for _, tc := range []struct {
		name string
		ps   []effort.Span
		want []string
		err  string
	}{
		{"inside", []effort.Span{{Start: 0, End: 2}, {Start: 8, End: 11}}, nil, ""},
		{"none", nil, nil, ""},
		// ends at 15 exactly: inside; touching passages stay apart
		{"to the end", []effort.Span{{Start: 10, End: 15}, {Start: 0, End: 10}}, nil, ""},
		{"clipped", []effort.Span{{Start: 12, End: 22}}, []string{"passage 12:10 runs past the end of article 42 (15 characters): clipped"}, ""},
		// [0,3) and [1,3) merge: 2 of 3 shown
		{"clipped and merged", []effort.Span{{Start: 12, End: 22}, {Start: 0, End: 3}, {Start: 1, End: 3}}, []string{
			"passage 12:10 runs past the end of article 42 (15 characters): clipped",
			"overlapping passages merged: 2 passages shown"}, ""},
		{"past the end", []effort.Span{{Start: 0, End: 2}, {Start: 15, End: 16}}, nil, "passage 15:1 starts past the end of article 42 (15 characters)"},
	} {
		got, err := CheckPassages(tc.ps, "42", 15)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

// TestPageLink checks the links between standalone pages saved as
// ID.xhtml under one folder.
func TestPageLink(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{"1", "2", "2.xhtml"},
		{"ja/3951", "ja/7001", "7001.xhtml"},
		{"ja/3951", "2121", "../2121.xhtml"},
		{"2121", "ja/3951", "ja/3951.xhtml"},
		{"en/x/1", "en/y/2", "../y/2.xhtml"},
		{"a", "b c#d", "b%20c%23d.xhtml"},
	} {
		if got := PageLink(tc.from, tc.to); got != tc.want {
			t.Errorf("PageLink(%s, %s) = %s, want %s", tc.from, tc.to, got, tc.want)
		}
	}
	// PageLinks: a link to an article of the folder, plain text otherwise
	links := PageLinks("ja/3951", func(id string) bool { return id != "404" })
	if got := links("2121"); got != "../2121.xhtml" {
		t.Errorf("PageLinks to 2121: %q, want ../2121.xhtml", got)
	}
	if got := links("404"); got != "" {
		t.Errorf("PageLinks to an article not in the folder: %q, want none", got)
	}
}
