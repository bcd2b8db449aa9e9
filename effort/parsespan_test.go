package effort

import "testing"

func TestParseSpan(t *testing.T) {
	for _, tc := range []struct {
		s     string
		limit int
		want  Span
		err   string
	}{
		{"120:45", 1 << 30, Span{120, 165}, ""},
		{"0:1", 10, Span{0, 1}, ""},
		{"007:3", 10, Span{7, 10}, ""},
		{"10:10", 10, Span{10, 20}, ""}, // each at most limit, not their sum
		{"5", 10, Span{}, "no colon"},
		{"a:3", 10, Span{}, "the offset is not a number"},
		{"3:", 10, Span{}, "the length is not a number"},
		{":3", 10, Span{}, "the offset is not a number"},
		{"+3:2", 10, Span{}, "the offset is not a number"},
		{" 3:2", 10, Span{}, "the offset is not a number"},
		{"-1:3", 10, Span{}, "negative offset"},
		{"-0:3", 10, Span{}, "negative offset"},
		{"3:-2", 10, Span{}, "negative length"},
		{"3:0", 10, Span{}, "the length must be at least 1"},
		{"11:1", 10, Span{}, "the offset is too large"},
		{"1:11", 10, Span{}, "the length is too large"},
		{"99999999999999999999:1", 1 << 40, Span{}, "the offset is too large"},
		{"1:2:3", 10, Span{}, "the length is not a number"},
	} {
		got, err := ParseSpan(tc.s, tc.limit)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("ParseSpan(%q, %d): error %v, want %q", tc.s, tc.limit, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("ParseSpan(%q, %d) = %v, %v; want %v", tc.s, tc.limit, got, err, tc.want)
		}
	}
}
