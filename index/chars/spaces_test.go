package chars

import (
	"strings"
	"testing"
)

// OneSpace must give what strings.Fields and strings.Join give, the
// reference it replaces.
func TestOneSpace(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"   ", ""},
		{"a", "a"},
		{" a  b ", "a b"},
		{"…the\t\nrings\u00a0of…", "…the rings of…"},
		{"x\u3000y\u2028z\u0085w", "x y z w"},
		{"\xffa \xfe", "\xffa \xfe"},
		{"意大利 \r\n 塔", "意大利 塔"},
	} {
		if got := OneSpace(tc.in); got != tc.want {
			t.Errorf("OneSpace(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzOneSpace(f *testing.F) {
	for _, s := range []string{"", " a  b ", "…x\u00a0y", "\xff \x85", "a\u200bb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := OneSpace(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("OneSpace(%q) = %q, want %q", s, got, want)
		}
	})
}
