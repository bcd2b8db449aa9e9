package article

import "testing"

func TestValidLang(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"en", true}, {"ko", true}, {"zh-hant", true}, {"ja-JP", true}, {"EN", true}, {"en-2x", true}, {"eng", true},
		{"e", false}, {"", false}, {"k o", false}, {"1en", false}, {"e1", false}, {"en_US", false}, {"ja–jp", false},
		{"日本", false}, {"en@", false}, {"a-b", false},
		{"ab-abcdefghijklmnopqrstuvwxyzabcdef", true},   // 35 characters
		{"ab-abcdefghijklmnopqrstuvwxyzabcdefg", false}, // 36
	} {
		if got := ValidLang(tc.s); got != tc.want {
			t.Errorf("ValidLang(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}
