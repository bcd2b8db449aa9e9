package web

import (
	"strconv"
	"strings"
)

// langNames are the names of the collection's languages in themselves,
// for a result list that holds several (a hit's Lang, BCP 47).
var langNames = map[string]string{
	"en": "English", "zh": "中文", "ja": "日本語", "ko": "한국어", "de": "Deutsch", "fr": "Français",
}

// langName returns the name of language tag l in itself, or the tag when
// readsim knows no name for it.
func langName(l string) string {
	base, _, _ := strings.Cut(strings.ToLower(l), "-")
	if n, ok := langNames[base]; ok {
		return n
	}
	return l
}

// severalLangs reports whether the hits are in more than one language:
// then each says its own (two articles titled 油条, one Chinese and one
// Japanese, are told apart).
func severalLangs(hits []Hit) bool {
	for _, h := range hits {
		if h.Lang != "" && h.Lang != hits[0].Lang {
			return true
		}
	}
	return false
}

// passageChars is the number of characters of a hit's matching passages:
// what the reader reads when following the arrows through them.
func passageChars(h Hit) int {
	n := 0
	for _, p := range h.Passages {
		n += p.End - p.Start
	}
	return n
}

// thousands writes n with a comma between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
