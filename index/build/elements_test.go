package build

import (
	"strings"
	"testing"
)

// Candidate element names no element can have are refused by name before
// anything is built (they built an index of 0 elements without a word).
func TestCheckElementNames(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string // "" when accepted
	}{
		{[]string{"p", "sec", "ss1", "entry", "caption"}, ""},
		{[]string{"_x", "h-1", "a.b", "été"}, ""},
		{nil, "names no element"},
		{[]string{"p", "", "sec"}, "name 2 of 3 is empty"},
		{[]string{"<p>"}, `"<p>" is not an element name`},
		{[]string{"sec p"}, `"sec p" is not an element name`},
		{[]string{"1p"}, `"1p" is not an element name`},
		{[]string{"-p"}, `"-p" is not an element name`},
		{[]string{"x:p"}, `"x:p" is not an element name`},
	} {
		err := checkElementNames(tc.names)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.names, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: error %v, want %q", tc.names, err, tc.want)
		}
	}
}
