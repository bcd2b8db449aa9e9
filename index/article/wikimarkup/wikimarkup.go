// Package wikimarkup finds the wiki markup that the collection's converter
// (CLiX/Wiki2XML) left in an article's text untranslated, and says how each
// piece is shown: hidden, shown as emphasis, as an image's caption, or as
// the one character a doubly escaped entity stands for. It changes no text:
// it returns ranges of character offsets over Article.Text, so every
// character still counts for offsets. The renderer shows the ranges as they
// say, the index does not analyse them (Quiet), and snippets leave them out
// (Display). The rules, with examples, are in docs/articles.md:
//
//   - a template parameter line ("| birth_place = Daegu", "|諡號 =", a
//     parameter ended by the next one's bar: "ICD9 = |", a lone "|") and a
//     line opening a template ("{{Infobox …") are hidden whole;
//   - a template's remnants are hidden: "}}" and a whole "{{…}}" on one
//     line, and the word glued to "}}" when it is the template's
//     arguments ("IND}}", "PHI|1919}}"), not prose ("것이다.}}" keeps
//     "것이다.");
//   - an image link ("Image:Kimchi jar.JPG|thumb|Traditional jars]]", also
//     File:, 파일:, 文件: …) shows its caption only: the file name, its
//     options (thumb, left, 200px …) and the closing "]]" are hidden; a link
//     with no caption is hidden whole;
//   - an image's alternative text left as a line ("alt=Photo of …", also
//     inside an image's caption element) is hidden whole;
//   - the brackets of a link left as text ("[[", "]]") glued to its words
//     are hidden;
//   - doubled apostrophes are hidden; a pair on one line makes the text
//     between them emphasis (two apostrophes italic, three bold);
//   - an entity escaped twice ("&gt;" in the text) is shown as its character.
//
// The text of math elements (TeX, where "}}" and doubled apostrophes mean something) is
// left alone.
//
// It imports index/article alone, so both the renderer and the index may use
// it.
package wikimarkup

import (
	"html"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/readsim/readsim/index/article"
)

// Kind says how a Range is shown.
type Kind uint8

const (
	// Hide: not shown (the characters stay in the page, hidden) and not
	// analysed by the index.
	Hide Kind = iota + 1
	// Italic: shown in italics (the text between two apostrophes).
	Italic
	// Bold: shown in bold (the text between three apostrophes).
	Bold
	// Caption: an image link's caption, shown as a caption of its own line.
	Caption
	// Replace: shown as Text instead (a doubly escaped entity); not
	// analysed by the index.
	Replace
	// Note: shown as a raised note mark ([N2]): the label of a note that a
	// dropped template left at the end of an infobox value ("None N2").
	Note
)

// Range is a run of characters [Start, End) of Article.Text shown as Kind
// says.
type Range struct {
	Start, End int
	Kind       Kind
	// Text is what a Replace range shows: one character, neither a control
	// character nor markup-significant beyond what escaping handles.
	Text string
	// Rule names the rule that found the range (docs/articles.md):
	// "param-line", "template-open", "template-close", "template",
	// "image-link", "image-alt", "brackets", "quotes", "entity",
	// "empty-brackets", "note-label".
	Rule string
}

// Find returns the ranges of a's text that hold leftover wiki markup,
// sorted by Start (a Caption before a range that starts with it). The
// ranges are disjoint but for the Caption ranges, which may hold other
// ranges (emphasis in a caption); no Caption holds another.
func Find(a *article.Article) []Range {
	text := []rune(a.Text)
	skip := make([]bool, len(text))
	for i := range a.Elements {
		e := &a.Elements[i]
		if e.Name == "math" {
			for c := e.Start; c < e.End && c < len(skip); c++ {
				skip[c] = true
			}
		}
	}
	f := &finder{text: text, taken: skip, hidden: make([]bool, len(text))}
	// line by line: every rule but the template close, a parameter's value
	// on the lines after its name and the entities keeps within a line
	var lines [][2]int
	for s := 0; s < len(text); {
		e := s
		for e < len(text) && text[e] != '\n' {
			e++
		}
		f.line(s, e)
		lines = append(lines, [2]int{s, e})
		s = e + 1
	}
	f.paramValues(lines)
	f.noteLabels(a)
	f.entities(a.Text)
	sort.Slice(f.out, func(i, j int) bool {
		if f.out[i].Start != f.out[j].Start {
			return f.out[i].Start < f.out[j].Start
		}
		return f.out[i].Kind == Caption && f.out[j].Kind != Caption
	})
	return f.out
}

type finder struct {
	text     []rune
	taken    []bool // skipped (math) or already in a range
	hidden   []bool // in a Hide range
	out      []Range
	captions [][2]int // the image captions of the line, marked last
}

// free reports whether no character of [s, e) is taken.
func (f *finder) free(s, e int) bool {
	for c := s; c < e; c++ {
		if f.taken[c] {
			return false
		}
	}
	return true
}

// add records a range when its characters are free.
func (f *finder) add(r Range) bool {
	if r.End <= r.Start || !f.free(r.Start, r.End) {
		return false
	}
	for c := r.Start; c < r.End; c++ {
		f.taken[c] = true
		f.hidden[c] = r.Kind == Hide
	}
	f.out = append(f.out, r)
	return true
}

// hideFree hides the characters of [s, e) that no range holds yet, as
// ranges of the rule.
func (f *finder) hideFree(s, e int, rule string) {
	for c := s; c < e; {
		for c < e && f.taken[c] {
			c++
		}
		d := c
		for d < e && !f.taken[d] {
			d++
		}
		f.add(Range{Start: c, End: d, Kind: Hide, Rule: rule})
		c = d
	}
}

// line applies the line rules to the characters [s, e).
func (f *finder) line(s, e int) {
	t := f.text
	b := s
	for b < e && unicode.IsSpace(t[b]) {
		b++
	}
	if b == e {
		return
	}
	// an image's alternative text left as a line of its own (the converter
	// puts "alt=Photo of …" in an image's caption): not shown, as the
	// alternative text of an image is not
	if e-b > 4 && unicode.ToLower(t[b]) == 'a' && unicode.ToLower(t[b+1]) == 'l' && unicode.ToLower(t[b+2]) == 't' && t[b+3] == '=' {
		f.add(Range{Start: b, End: e, Kind: Hide, Rule: "image-alt"})
		return
	}
	// the characters the rules look for: most lines of prose hold none
	var colon, other, paren bool
	for _, r := range t[b:e] {
		switch r {
		case ':':
			colon = true
		case '|', '{', '}', '[', ']', '\'':
			other = true
		case '(', '（':
			paren = true
		}
	}
	if !colon && !other && !paren {
		return
	}
	if last := t[trimEnd(t, b, e)-1]; t[b] == '|' || t[b] == '{' || last == '|' {
		ln := string(t[b:trimEnd(t, b, e)])
		switch {
		case ln[0] == '|' && strings.ContainsRune(ln, '=') && !strings.HasPrefix(ln, "||"),
			ln == "|" || ln == "|-" || ln == "|}" || strings.HasPrefix(ln, "{|"),
			last == '|' && paramEnd.MatchString(ln):
			f.add(Range{Start: b, End: e, Kind: Hide, Rule: "param-line"})
			return
		case strings.HasPrefix(ln, "{{") && !strings.Contains(ln, "}}"):
			f.add(Range{Start: b, End: e, Kind: Hide, Rule: "template-open"})
			return
		}
	}
	if colon {
		f.images(s, e)
	}
	if other {
		f.templates(s, e)
		f.brackets(s, e)
		f.quotes(s, e)
	}
	if paren {
		f.emptyBrackets(s, e)
	}
	// captions, whole: they may hold emphasis (the other rules' ranges
	// are disjoint)
	for _, c := range f.captions {
		f.out = append(f.out, Range{Start: c[0], End: c[1], Kind: Caption, Rule: "image-link"})
	}
	f.captions = f.captions[:0]
}

// brackets hides the "[[" and "]]" of links the converter left in the
// line [s, e): "[[" glued to the word after it, "]]" to the word before
// ("netsuke]]s"); free-standing ones are text.
func (f *finder) brackets(s, e int) {
	t := f.text
	for i := s; i+1 < e; i++ {
		open := t[i] == '[' && t[i+1] == '[' && i+2 < e && !unicode.IsSpace(t[i+2])
		shut := t[i] == ']' && t[i+1] == ']' && i > s && !unicode.IsSpace(t[i-1])
		if (open || shut) && f.add(Range{Start: i, End: i + 2, Kind: Hide, Rule: "brackets"}) {
			i++
		}
	}
}

// paramEnd matches a template parameter written on a line of its own and
// ended by the bar of the next ("ICD9        =  |").
var paramEnd = regexp.MustCompile(`^[\pL\pN_ -]{1,40}=[^|]*\|$`)

// trimEnd returns the end of [s, e) without its trailing white space.
func trimEnd(t []rune, s, e int) int {
	for e > s && unicode.IsSpace(t[e-1]) {
		e--
	}
	return e
}

// imageNamespaces are the namespaces of an image link, in the
// collection's languages, lower-cased.
var imageNamespaces = map[string]bool{
	"image": true, "file": true, "파일": true, "그림": true, "文件": true, "檔案": true, "档案": true, "图像": true,
	"圖像": true, "图片": true, "圖片": true, "ファイル": true, "画像": true, "datei": true, "bild": true, "fichier": true,
}

// imagePrefixes returns the [start, end) byte offsets in ln of the image
// link prefixes ("Image:", "[[File:", "파일:"): a namespace of
// imageNamespaces, in any case, that starts a word, its colon, and the
// "[[" before it if any.
func imagePrefixes(ln string) [][2]int {
	var out [][2]int
	for i := 0; i < len(ln); i++ {
		if ln[i] != ':' {
			continue
		}
		b := i
		for b > 0 {
			r, n := utf8.DecodeLastRuneInString(ln[:b])
			if !unicode.IsLetter(r) {
				break
			}
			b -= n
		}
		if b == i || !imageNamespaces[strings.ToLower(ln[b:i])] {
			continue
		}
		if strings.HasSuffix(ln[:b], "[[") {
			b -= 2
		}
		out = append(out, [2]int{b, i + 1})
	}
	return out
}

// imageOption matches the options of an image link that are not its caption.
var imageOption = regexp.MustCompile(`(?i)^\s*(thumb|thumbnail|frame|framed|frameless|border|left|right|center|centre|none|upright(\s*=?\s*[0-9.]*)?|baseline|middle|top|bottom|text-top|text-bottom|sub|super|\d+(x\d+)?\s*px|x\d+px|(alt|link|page|class|lang|thumb|thumbtime|upright)\s*=.*)\s*$`)

// images finds image links in the line [s, e).
func (f *finder) images(s, e int) {
	ln := string(f.text[s:e])
	for _, m := range imagePrefixes(ln) {
		start := s + utf8.RuneCountInString(ln[:m[0]])
		rest := f.text[start+utf8.RuneCountInString(ln[m[0]:m[1]]) : e]
		// the link ends at "]]", else at the end of the line
		end, close := e, e
		for i := 0; i+1 < len(rest); i++ {
			if rest[i] == ']' && rest[i+1] == ']' {
				close = start + utf8.RuneCountInString(ln[m[0]:m[1]]) + i
				end = close + 2
				break
			}
		}
		if close == e {
			close = trimEnd(f.text, start, e)
			end = close
		}
		body := f.text[start:close]
		// the file name, then options; the caption is the last part when
		// it is not an option
		bar := -1
		for i, r := range body {
			if r == '|' {
				bar = i
			}
		}
		parts := strings.Split(string(body), "|")
		capStart := close
		if len(parts) > 1 && !imageOption.MatchString(parts[len(parts)-1]) && strings.TrimSpace(parts[len(parts)-1]) != "" {
			capStart = start + bar + 1
		}
		if !f.free(start, end) {
			continue
		}
		f.add(Range{Start: start, End: capStart, Kind: Hide, Rule: "image-link"})
		if capStart < close {
			// the caption is marked after the other rules of the line
			// (emphasis in it: "The ''coat of arms''")
			f.add(Range{Start: close, End: end, Kind: Hide, Rule: "image-link"})
			f.captions = append(f.captions, [2]int{capStart, close})
		} else if close < end {
			f.add(Range{Start: close, End: end, Kind: Hide, Rule: "image-link"})
		}
	}
}

// templates finds template remnants in the line [s, e): "{{…}}" whole, and
// a word glued to "}}".
func (f *finder) templates(s, e int) {
	t := f.text
	for i := s; i+1 < e; i++ {
		if t[i] == '{' && t[i+1] == '{' {
			for j := i + 2; j+1 < e; j++ {
				if t[j] == '}' && t[j+1] == '}' {
					end := j + 2
					for end+1 < e && t[end] == '}' && t[end+1] == '}' {
						end += 2
					}
					if f.add(Range{Start: i, End: end, Kind: Hide, Rule: "template"}) {
						i = end - 1
					}
					break
				}
			}
		}
	}
	for i := s; i+1 < e; i++ {
		if t[i] != '}' || t[i+1] != '}' || f.taken[i] {
			continue
		}
		b := i
		for b > s && !unicode.IsSpace(t[b-1]) && !f.taken[b-1] {
			b--
		}
		if !templateArgs(t[b:i]) {
			b = i // prose glued to the braces (宋慧喬1（韓：}}): the braces alone
		}
		end := i + 2
		for end < e && t[end] == '}' {
			end++
		}
		f.add(Range{Start: b, End: end, Kind: Hide, Rule: "template-close"})
		i = end - 1
	}
}

// templateArgs reports whether w, a word glued to "}}", is a template's
// arguments: it holds a '|' ("PHI|1919", "32|°C|°F|abbr=on") or is a code
// of one to four ASCII letters and digits ("IND").
func templateArgs(w []rune) bool {
	if len(w) == 0 {
		return false
	}
	for _, r := range w {
		if r == '|' {
			return true
		}
	}
	if len(w) > 4 {
		return false
	}
	for _, r := range w {
		if r > unicode.MaxASCII || !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// quotes finds runs of two or more apostrophes in the line [s, e): pairs
// of the same length make emphasis, the rest are hidden.
func (f *finder) quotes(s, e int) {
	t := f.text
	type run struct{ s, e int }
	var runs []run
	for i := s; i < e; i++ {
		if t[i] != '\'' || f.taken[i] {
			continue
		}
		j := i
		for j < e && t[j] == '\'' && !f.taken[j] {
			j++
		}
		if j-i >= 2 {
			runs = append(runs, run{i, j})
		}
		i = j
	}
	for k := 0; k < len(runs); k++ {
		r := runs[k]
		kind := Italic
		if r.e-r.s >= 3 {
			kind = Bold
		}
		paired := false
		for m := k + 1; m < len(runs); m++ {
			if runs[m].e-runs[m].s == r.e-r.s && r.e < runs[m].s && f.free(r.e, runs[m].s) {
				f.add(Range{Start: r.s, End: r.e, Kind: Hide, Rule: "quotes"})
				f.add(Range{Start: r.e, End: runs[m].s, Kind: kind, Rule: "quotes"})
				f.add(Range{Start: runs[m].s, End: runs[m].e, Kind: Hide, Rule: "quotes"})
				runs = append(runs[:m], runs[m+1:]...)
				paired = true
				break
			}
		}
		if !paired {
			f.add(Range{Start: r.s, End: r.e, Kind: Hide, Rule: "quotes"})
		}
	}
}

// entity matches an entity reference left in the text.
var entity = regexp.MustCompile(`&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});`)

// entities finds doubly escaped entities: an entity reference standing in
// the text, shown as its character.
func (f *finder) entities(text string) {
	if !strings.Contains(text, "&") {
		return
	}
	for _, m := range entity.FindAllStringIndex(text, -1) {
		ref := text[m[0]:m[1]]
		ch, ok := Entity(ref)
		if !ok {
			continue
		}
		start := utf8.RuneCountInString(text[:m[0]])
		f.add(Range{Start: start, End: start + utf8.RuneCountInString(ref), Kind: Replace, Text: ch, Rule: "entity"})
	}
}

// Quiet returns the character spans (start, end pairs, increasing and
// disjoint, touching ones joined) of the ranges that are not shown as they
// stand (Hide, Replace): the index does not analyse them.
func Quiet(rs []Range) []int {
	var out []int
	for _, r := range rs {
		if r.Kind != Hide && r.Kind != Replace {
			continue
		}
		if n := len(out); n > 0 && out[n-1] == r.Start {
			out[n-1] = r.End
			continue
		}
		out = append(out, r.Start, r.End)
	}
	return out
}

// Display returns the text s, which starts at character base of the
// article, as it is shown: the Hide ranges left out, the Replace ranges
// replaced by their character, the rest as it stands.
func Display(s string, base int, rs []Range) string {
	rs = Uncaptioned(rs)
	end := base + utf8.RuneCountInString(s)
	k := sort.Search(len(rs), func(i int) bool { return rs[i].End > base })
	if k == len(rs) || rs[k].Start >= end {
		return s
	}
	var b strings.Builder
	c := base
	for _, r := range s {
		for k < len(rs) && rs[k].End <= c {
			k++
		}
		switch {
		case k < len(rs) && rs[k].Start <= c && rs[k].Kind == Hide:
		case k < len(rs) && rs[k].Start <= c && rs[k].Kind == Replace:
			if c == rs[k].Start || c == base {
				b.WriteString(rs[k].Text)
			}
		default:
			b.WriteRune(r)
		}
		c++
	}
	return b.String()
}

// Uncaptioned returns the ranges of rs but the Captions: disjoint ranges.
func Uncaptioned(rs []Range) []Range {
	out := make([]Range, 0, len(rs))
	for _, r := range rs {
		if r.Kind != Caption {
			out = append(out, r)
		}
	}
	return out
}

// Captions returns the Caption ranges of rs.
func Captions(rs []Range) []Range {
	var out []Range
	for _, r := range rs {
		if r.Kind == Caption {
			out = append(out, r)
		}
	}
	return out
}

// Templates returns the character spans (start, end pairs, increasing) of
// the outermost template elements of a (an infobox is
// <template><name>Infobox Country</name><parameters>…): the renderer folds
// them, the index does not analyse them, and no snippet starts in one.
func Templates(a *article.Article) []int {
	var out []int
	for i := 0; i < len(a.Elements); i++ {
		e := &a.Elements[i]
		if e.Name == "template" {
			if e.End > e.Start {
				out = append(out, e.Start, e.End)
			}
			i = e.Next - 1
		}
	}
	return out
}

// Union returns the union of span lists (start, end pairs, each list
// increasing): increasing, disjoint, touching and overlapping spans joined.
func Union(lists ...[]int) []int {
	var all [][2]int
	for _, l := range lists {
		for i := 0; i+1 < len(l); i += 2 {
			if l[i] < l[i+1] {
				all = append(all, [2]int{l[i], l[i+1]})
			}
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i][0] < all[j][0] })
	var out []int
	for _, sp := range all {
		if n := len(out); n > 0 && sp[0] <= out[n-1] {
			out[n-1] = max(out[n-1], sp[1])
			continue
		}
		out = append(out, sp[0], sp[1])
	}
	return out
}

// Entity returns the character a doubly escaped entity reference stands
// for ("&gt;" → ">"), and whether s is one (the Replace rule).
func Entity(s string) (string, bool) {
	if loc := entity.FindStringIndex(s); loc == nil || loc[0] != 0 || loc[1] != len(s) {
		return "", false
	}
	ch := html.UnescapeString(s)
	r, n := utf8.DecodeRuneInString(ch)
	if ch == s || n != len(ch) || r == utf8.RuneError || unicode.IsControl(r) {
		return "", false
	}
	return ch, true
}

// isSep reports whether r separates the items of a bracket ("김치; 泡菜,
// kimchi"): a comma or a semicolon, ASCII, full-width or ideographic.
func isSep(r rune) bool {
	switch r {
	case ',', ';', '、', '，', '；':
		return true
	}
	return false
}

// isOpen and isClose report whether r opens or closes a round bracket,
// ASCII or full-width.
func isOpen(r rune) bool  { return r == '(' || r == '（' }
func isClose(r rune) bool { return r == ')' || r == '）' }

// emptyBrackets hides, in the line [s, e), what templates the converter
// dropped left in round brackets (docs/articles.md, the rule
// empty-brackets): a bracket holding nothing but white space, separators
// and hidden markup ("Shi Jing ()", "(, )"), with the white space before
// it; the separators that open or close a bracket ("(김치; , )" →
// "(김치)", "（まおうたいかんぼ、）"); and the separators of an item left
// empty inside ("A, , B" → "A, B"). An empty ASCII bracket glued to an
// ASCII word ("main()") is code, and stays.
func (f *finder) emptyBrackets(s, e int) {
	t := f.text
	for i := s; i < e; i++ {
		if !isOpen(t[i]) || f.taken[i] {
			continue
		}
		j := i + 1
		for j < e && !isOpen(t[j]) && !isClose(t[j]) {
			j++
		}
		if j == e || isOpen(t[j]) || f.taken[j] {
			i = j - 1 // a bracket opened inside: look from there
			continue
		}
		f.bracket(i, j, s)
		i = j
	}
}

// bracket applies emptyBrackets to the bracket opened at o and closed at
// c, in a line that starts at s.
func (f *finder) bracket(o, c, s int) {
	t := f.text
	// empty: white space or hidden markup; math is content
	empty := func(k int) bool { return f.hidden[k] || !f.taken[k] && unicode.IsSpace(t[k]) }
	sep := func(k int) bool { return !f.taken[k] && isSep(t[k]) }
	content := false
	for k := o + 1; k < c; k++ {
		if !empty(k) && !sep(k) {
			content = true
			break
		}
	}
	if !content {
		if t[o] == '(' && c == o+1 && o > s && t[o-1] < unicode.MaxASCII && (unicode.IsLetter(t[o-1]) || unicode.IsDigit(t[o-1]) || t[o-1] == '_') {
			return // main(): code
		}
		b := o
		for b > s && !f.taken[b-1] && unicode.IsSpace(t[b-1]) {
			b--
		}
		if b == s {
			b = o // at the start of its line: its indent stays
		}
		f.hideFree(b, c+1, "empty-brackets")
		return
	}
	// runs of white space and separators between o and c: the first after
	// o, the last before c, and those between items
	for k := o + 1; k < c; {
		if !empty(k) && !sep(k) {
			k++
			continue
		}
		r := k
		for k < c && (empty(k) || sep(k)) {
			k++
		}
		f.sepRun(r, k, r == o+1, k == c)
	}
}

// sepRun hides the separators of the run [r, k) of white space and
// separators inside a bracket: all of it when it opens or closes the
// bracket (first, last) and holds a separator; between items, when it
// holds two separators, or one with white space before and after it, all
// but a separator glued to the item before it and the run's last white
// space.
func (f *finder) sepRun(r, k int, first, last bool) {
	t := f.text
	seps, spaced := 0, false
	for q := r; q < k; q++ {
		if !f.taken[q] && isSep(t[q]) {
			if seps == 0 && q > r {
				spaced = true
			}
			seps++
		}
	}
	switch {
	case seps == 0:
	case first || last:
		f.hideFree(r, k, "empty-brackets")
	case seps >= 2 || spaced && unicode.IsSpace(t[k-1]):
		from, to := r, k
		if !f.taken[r] && isSep(t[r]) {
			from++
		}
		if !f.taken[k-1] && unicode.IsSpace(t[k-1]) {
			to--
		}
		f.hideFree(from, to, "empty-brackets")
	}
}

// paramValues hides a template parameter's value written on the lines
// after its name: after a hidden parameter line that ends with "=" ("|
// 웹사이트 ="), up to four short lines (at most 120 characters, blank
// lines aside, the text of links as a rule) followed by the next
// parameter's line or the template's closing braces. lines are the
// article's lines, [start, end) each.
func (f *finder) paramValues(lines [][2]int) {
	t := f.text
	const most, long = 4, 120
	for i := 0; i < len(lines); i++ {
		s, e := lines[i][0], trimEnd(t, lines[i][0], lines[i][1])
		for s < e && unicode.IsSpace(t[s]) {
			s++
		}
		if e == s || t[e-1] != '=' || !f.hidden[s] || !f.hidden[e-1] {
			continue
		}
		var value [][2]int
		j := i + 1
		for ; j < len(lines) && len(value) <= most; j++ {
			b, z := lines[j][0], trimEnd(t, lines[j][0], lines[j][1])
			for b < z && unicode.IsSpace(t[b]) {
				b++
			}
			if b == z {
				continue
			}
			if t[b] == '|' || t[b] == '}' && b+1 < z && t[b+1] == '}' {
				break
			}
			if z-b > long {
				value = nil
				break
			}
			value = append(value, [2]int{b, z})
		}
		if j == len(lines) || len(value) > most {
			continue
		}
		for _, v := range value {
			f.hideFree(v[0], v[1], "param-line")
		}
		i = j - 1
	}
}

// noteLabel matches the label of a note left at the end of a template
// parameter's value: N2, n3, nb 1, Note 4.
var noteLabel = regexp.MustCompile(`^(N|n|NB|nb|Nb|Note|note) ?[0-9]{1,2}$`)

// noteLabels finds, at the end of the value of each parameter of a's
// templates (<template>…<parameters><official_languages>None N2…), a note's
// label after white space, shown as a raised mark (Note).
func (f *finder) noteLabels(a *article.Article) {
	t := f.text
	for i := range a.Elements {
		e := &a.Elements[i]
		if e.Name != "parameters" || e.Parent < 0 || a.Elements[e.Parent].Name != "template" {
			continue
		}
		for j := i + 1; j < e.Next; j = a.Elements[j].Next {
			p := &a.Elements[j]
			end := trimEnd(t, p.Start, p.End)
			s := end
			for s > p.Start && !unicode.IsSpace(t[s-1]) {
				s--
			}
			if s > 0 && t[s-1] == ' ' && s-2 >= p.Start && !unicode.IsSpace(t[s-2]) {
				// "nb 1", "Note 4": the word before the number
				if w := s - 1; noteLabel.MatchString(string(t[wordStart(t, p.Start, w):end])) {
					s = wordStart(t, p.Start, w)
				}
			}
			if s > p.Start && noteLabel.MatchString(string(t[s:end])) && !isSpaceRun(t[p.Start:s]) {
				f.add(Range{Start: s, End: end, Kind: Note, Rule: "note-label"})
			}
		}
	}
}

// wordStart returns the start of the word that ends at w (exclusive) in
// t, not before s.
func wordStart(t []rune, s, w int) int {
	for w > s && !unicode.IsSpace(t[w-1]) {
		w--
	}
	return w
}

// isSpaceRun reports whether rs is all white space.
func isSpaceRun(rs []rune) bool {
	for _, r := range rs {
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}
