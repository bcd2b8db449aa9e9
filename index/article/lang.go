package article

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
)

// Languages. An article's language (Article.Lang) is, in order:
//
//  1. the Reader's Lang (--lang), when set;
//  2. the language its folder names: the deepest folder between the
//     collection root and the file whose name is a language code of
//     Wikipedia's layout (en/, zh/, ja/, ko/, de/, fr/…: LangFolder), so
//     that every article of wikipedia/ja/ is Japanese whatever its script
//     statistics (a file read on its own: its own folder's name);
//  3. detected from the scripts of its prose (DetectArticleLang).

// langSample is how many characters of a text language detection looks at.
const langSample = 1 << 16

// langFolders are the folder names taken for a language: the codes of the
// largest Wikipedias (ISO 639-1), minus the codes that are English words a
// folder might be named by (as, be, is, my, no, to…).
var langFolders = map[string]bool{}

func init() {
	for _, c := range strings.Fields(`ar az bg bn ca cs cy da de el en eo es et eu fa fi fr ga gl he hi hr
		hu hy id it ja ka kk ko la lt lv mk ms nl nn pl pt ro ru sh sk sl sq sr sv ta te th tl tr uk ur uz vi zh`) {
		langFolders[c] = true
	}
}

// LangFolder returns the language a folder name stands for ("ja" for ja,
// JA or ja_jp… "ja-jp"), or "".
func LangFolder(name string) string {
	name = strings.ToLower(strings.ReplaceAll(name, "_", "-"))
	code, region, hyphen := strings.Cut(name, "-")
	if !langFolders[code] {
		return ""
	}
	if !hyphen {
		return code
	}
	if len(region) < 2 || len(region) > 8 || strings.Trim(region, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
		return ""
	}
	return name
}

// pathLang returns the language the folders of an article file name (see
// above): its folders below root, the deepest first, or without a root its
// own folder only; "" when none does.
func pathLang(root, file string) string {
	dir := filepath.Dir(file)
	if root != "" {
		if rel, err := filepath.Rel(root, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			parts := strings.Split(filepath.ToSlash(rel), "/")
			for i := len(parts) - 1; i >= 0; i-- {
				if l := LangFolder(parts[i]); l != "" {
					return l
				}
			}
			return ""
		}
	}
	return LangFolder(filepath.Base(dir))
}

// scripts counts the letters of a text by script.
type scripts struct {
	n                                 int // characters looked at
	hangul, kana, han, latin, letters int
	other                             map[string]int
}

// add counts the letters of s, up to langSample characters in all.
func (c *scripts) add(s string) {
	for _, r := range s {
		if c.n++; c.n > langSample {
			return
		}
		if r < 0x80 {
			if r|0x20 >= 'a' && r|0x20 <= 'z' {
				c.latin++
				c.letters++
			}
			continue
		}
		if !unicode.IsLetter(r) {
			continue
		}
		c.letters++
		switch {
		case unicode.Is(unicode.Hangul, r):
			c.hangul++
		case unicode.Is(unicode.Hiragana, r), unicode.Is(unicode.Katakana, r):
			c.kana++
		case unicode.Is(unicode.Han, r):
			c.han++
		case unicode.Is(unicode.Latin, r):
			c.latin++
		default:
			for _, s := range otherScripts {
				if unicode.Is(s.table, r) {
					if c.other == nil {
						c.other = map[string]int{}
					}
					c.other[s.lang]++
					break
				}
			}
		}
	}
}

// otherScripts are the other scripts DetectLang tells, with their language.
var otherScripts = []struct {
	table *unicode.RangeTable
	lang  string
}{
	{unicode.Cyrillic, "ru"}, {unicode.Greek, "el"}, {unicode.Arabic, "ar"},
	{unicode.Hebrew, "he"}, {unicode.Thai, "th"}, {unicode.Devanagari, "hi"},
}

// Thresholds of the script statistics (see lang).
const (
	// minKana and minKanaPercent: a text with CJK letters is Japanese when
	// at least this many of them, and this share, are kana.
	minKana        = 3
	minKanaPercent = 2
	// Japanese prose that quotes many titles in Latin script is still
	// Japanese when its CJK letters are an eighth of its letters and its
	// kana at least minKanaRich and a tenth of them.
	minKanaRich = 20
)

// lang names the language of the counted letters:
//   - the CJK languages when CJK letters (Han, kana, Hangul) are at least a
//     third of all letters (a CJK character stands for a word or a
//     syllable, a Latin letter for a fraction of one), or when they are an
//     eighth of the letters and kana at least 20 characters and a tenth of
//     them (Japanese prose quoting English song or book titles): then "ko"
//     when Hangul makes up at least 30% of the CJK letters, "ja" when kana
//     (hiragana and katakana) make up at least 2% of them and number at
//     least 3 (Japanese writes its particles and endings in kana: the one
//     sentence of a stub, "北浜灯台は、北海道網走市にある灯台。", holds 4, a
//     paragraph dozens; Chinese prose uses none but in a quoted Japanese
//     name: the 25 Chinese articles of the shared data have at most 7 kana
//     in their prose, 0.6% of its CJK letters), "zh" otherwise;
//   - "ru", "el", "ar", "he", "th", "hi" for texts mostly in Cyrillic,
//     Greek, Arabic, Hebrew, Thai or Devanagari letters;
//   - "en" otherwise (the INEX collections are English Wikipedia; readsim
//     does not tell English from other Latin-script languages).
func (c *scripts) lang() string {
	cjk := c.hangul + c.kana + c.han
	kanaRich := c.kana >= minKanaRich && 10*c.kana >= cjk && 8*cjk >= c.letters
	if cjk > 0 && (3*cjk >= c.letters || kanaRich) {
		switch {
		case 10*c.hangul >= 3*cjk:
			return "ko"
		case c.kana >= minKana && 100*c.kana >= minKanaPercent*cjk:
			return "ja"
		default:
			return "zh"
		}
	}
	best, bestN := "en", 0
	for lang, k := range c.other {
		if k > bestN || k == bestN && lang < best {
			best, bestN = lang, k
		}
	}
	if 2*bestN > c.letters {
		return best
	}
	return "en"
}

// DetectLang names the language of a text by the scripts of its letters
// (script statistics over its first 65,536 characters; see scripts.lang for
// the rule). DetectArticleLang applies it to an article's prose.
func DetectLang(text string) string {
	var c scripts
	c.add(text)
	return c.lang()
}

// notProse are the elements whose text language detection leaves out of an
// article: the header (title, ids, contributor, categories), lists, tables,
// references, formulas, image captions and links to other Wikipedias — the
// places where titles of works, names and numbers in other scripts gather
// (a Japanese article on a band lists its English song titles; a Chinese
// article on a Japanese film quotes its Japanese titles in a table).
var notProse = map[string]bool{
	"header": true, "table": true, "list": true, "reflist": true, "ref": true, "math": true,
	"image": true, "caption": true, "languagelink": true, "template": true,
	"normallist": true, "numberlist": true, "definitionlist": true,
}

// minProse is the fewest letters a sample must have to decide on: with
// fewer, detection looks at more of the article.
const minProse = 20

// DetectArticleLang names the language of an article by the scripts of its
// prose: its text outside the elements of notProse (semantic wrappers are
// never left out, whatever their name). When the prose has fewer than 20
// letters, it looks at the whole text but the header, then at the whole
// text.
func DetectArticleLang(a *Article) string {
	for _, skip := range []map[string]bool{notProse, {"header": true}, nil} {
		var c scripts
		at := 0
		els := a.Elements
		for i := 0; i < len(els) && c.n <= langSample; {
			e := &els[i]
			if !skip[e.Name] || e.IsWrapper() || e.End <= e.Start {
				i++
				continue
			}
			if e.Start > at {
				c.add(a.Slice(at, e.Start))
			}
			at = max(at, e.End)
			i = e.Next
		}
		if at < a.Len && c.n <= langSample {
			c.add(a.Slice(at, min(a.Len, at+langSample)))
		}
		if c.letters >= minProse || skip == nil {
			return c.lang()
		}
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

// ValidLang reports whether s can be a language tag as --lang takes one:
// 2 to 35 ASCII letters, digits and hyphens, starting with two letters
// (en, zh-hant, ja-JP).
func ValidLang(s string) bool {
	if len(s) < 2 || len(s) > 35 {
		return false
	}
	for i, r := range s {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if i < 2 && !letter || !letter && !(r >= '0' && r <= '9') && r != '-' {
			return false
		}
	}
	return true
}

// CheckLang checks a language given by a person (readsim's --lang): a
// tag ValidLang takes whose first subtag is a language of Wikipedia's
// largest editions (LangFolder) or one of the codes that are English
// words (as, be, is, my, no, to), which folder names do not take. Its
// error names the flag.
func CheckLang(lang string) error {
	code, _, _ := strings.Cut(strings.ToLower(lang), "-")
	known := LangFolder(code) != ""
	switch code {
	case "as", "be", "is", "my", "no", "to":
		known = true
	}
	if !ValidLang(lang) || !known {
		return fmt.Errorf("--lang %q: want the code of a language (ISO 639-1, with a region or not) such as en, zh, ja, ko or pt-BR", lang)
	}
	return nil
}
