package chars

import (
	"strings"
	"testing"
)

// TestCharIndex checks character counts and slices of ASCII, accented,
// CJK and invalid UTF-8 texts, written out by hand, on both sides of the
// eight-byte steps of isASCII and the 64-character steps of the table.
func TestCharIndex(t *testing.T) {
	long := strings.Repeat("a", 70) + "é" + strings.Repeat("b", 70) // é is character 70
	tests := []struct {
		name  string
		text  string
		ascii bool
		n     int
		s, e  int
		want  string
	}{
		{"empty", "", true, 0, 0, 0, ""},
		{"ascii short", "abc", true, 3, 1, 3, "bc"},
		{"ascii 8", "abcdefgh", true, 8, 7, 8, "h"},
		{"ascii 9", "abcdefghi", true, 9, 7, 9, "hi"},
		{"accent in tail", "abcdefghé", false, 9, 8, 9, "é"},
		{"accent in first word", "héllo wörld", false, 11, 6, 11, "wörld"},
		{"cjk", "意大利的塔", false, 5, 1, 3, "大利"},
		{"past 64 characters", long, false, 141, 69, 72, "aéb"},
		{"invalid byte", "ab\xffcd", false, 5, 3, 5, "cd"},
		{"end past text", "abc", true, 3, 2, 10, "c"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := isASCII(tc.text); got != tc.ascii {
				t.Errorf("isASCII = %v, want %v", got, tc.ascii)
			}
			ci := New(tc.text)
			if ci.N != tc.n {
				t.Errorf("n = %d, want %d", ci.N, tc.n)
			}
			if got := ci.Slice(tc.s, tc.e); got != tc.want {
				t.Errorf("slice(%d, %d) = %q, want %q", tc.s, tc.e, got, tc.want)
			}
		})
	}
}
