package article

import "unicode"

// langSample is how many characters of an article DetectLang looks at.
const langSample = 1 << 16

// DetectLang names the language of a text by the scripts of its letters
// (script statistics over its first 65,536 characters): "ko" when Hangul
// makes up at least 30% of its CJK letters, "ja" when hiragana make up at
// least 12% of them or kana (hiragana and katakana) 30% (Japanese prose
// writes its particles in hiragana; a Chinese article on a Japanese subject
// quotes Japanese titles: zh/191497 of the shared data has 6% hiragana and
// 18% kana), "zh" for the other texts whose CJK letters are at least a
// third of all letters (a CJK character stands for a word or a syllable, a
// Latin letter for a fraction of one), "ru", "el", "ar", "he", "th", "hi"
// for texts mostly in Cyrillic, Greek, Arabic, Hebrew, Thai or Devanagari
// letters, and "en" otherwise (the INEX collections are English Wikipedia;
// readsim does not tell English from other Latin-script languages). --lang
// overrides it.
func DetectLang(text string) string {
	var hangul, hira, kana, han, latin, letters int
	other := map[string]int{}
	n := 0
	for _, r := range text {
		if n++; n > langSample {
			break
		}
		if r < 0x80 {
			if r|0x20 >= 'a' && r|0x20 <= 'z' {
				latin++
				letters++
			}
			continue
		}
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		switch {
		case unicode.Is(unicode.Hangul, r):
			hangul++
		case unicode.Is(unicode.Hiragana, r):
			hira++
			kana++
		case unicode.Is(unicode.Katakana, r):
			kana++
		case unicode.Is(unicode.Han, r):
			han++
		case unicode.Is(unicode.Latin, r):
			latin++
		case unicode.Is(unicode.Cyrillic, r):
			other["ru"]++
		case unicode.Is(unicode.Greek, r):
			other["el"]++
		case unicode.Is(unicode.Arabic, r):
			other["ar"]++
		case unicode.Is(unicode.Hebrew, r):
			other["he"]++
		case unicode.Is(unicode.Thai, r):
			other["th"]++
		case unicode.Is(unicode.Devanagari, r):
			other["hi"]++
		}
	}
	cjk := hangul + kana + han
	if cjk > 0 && 3*cjk >= letters {
		switch {
		case 10*hangul >= 3*cjk:
			return "ko"
		case 100*hira >= 12*cjk || 10*kana >= 3*cjk:
			return "ja"
		default:
			return "zh"
		}
	}
	best, bestN := "en", 0
	for lang, k := range other {
		if k > bestN || k == bestN && lang < best {
			best, bestN = lang, k
		}
	}
	if 2*bestN > letters {
		return best
	}
	return "en"
}

// IsCJK reports whether lang is Chinese, Japanese or Korean (a primary
// language subtag zh, ja or ko): the languages analysed with CJK bigrams.
func IsCJK(lang string) bool {
	if len(lang) > 2 && (lang[2] == '-' || lang[2] == '_') {
		lang = lang[:2]
	}
	return lang == "zh" || lang == "ja" || lang == "ko"
}
