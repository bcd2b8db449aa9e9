package index

import "testing"

// TestTerminalText: white space runs become one space, control characters
// U+FFFD.
func TestTerminalText(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                "plain",
		" a\tb\n\nc ":          "a b c",
		"esc\x1b[31m":          "esc\ufffd[31m",
		"csi\u009b31m del\x7f": "csi\ufffd31m del\ufffd",
		"意大利":                  "意大利",
	} {
		if got := terminalText(in); got != want {
			t.Errorf("terminalText(%q) = %q, want %q", in, got, want)
		}
	}
}
