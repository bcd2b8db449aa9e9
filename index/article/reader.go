package article

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Reader reads the articles of one collection. It finds each article's DTD
// (the file its <!DOCTYPE article SYSTEM "…"> names), reads every DTD once,
// and warns once, not once per article, when a DTD is missing. A Reader is
// safe for concurrent use; the zero Reader reads articles on their own (no
// collection root, no --dtd file, warnings discarded).
//
// An article's DTD is looked for, in order:
//  1. where its system identifier points, relative to the article's folder
//     ("../article.dtd" from en/15165.xml is article.dtd beside en/);
//  2. in Root, the collection's root folder, under the identifier's base name;
//  3. in DTD, a file the user names (readsim's --dtd).
//
// When none exists the article is read with the 253 character entities of
// XHTML 1.0 built in (lat1, symbol, special: the entities the INEX Wikipedia
// collection's DTD declares), and Warn is called once. An identifier that is
// a URL (http:, https:, …) is never fetched: only steps 2 and 3 apply to it.
// Steps 1 and 2 open only a regular *.dtd file inside the collection or
// directly beside it, never an absolute path (allowedDTD, docs/safety.md):
// any other place is refused before it is opened, with a warning naming it.
type Reader struct {
	// Root is the collection's root folder ("" for none).
	Root string
	// DTD is the DTD file to use when an article's own is not found ("" for none).
	DTD string
	// Lang, when not empty, is every article's language (BCP 47, "en", "zh",
	// "ja", "ko"…); empty means the language of the article's folder
	// (LangFolder) or, when no folder names one, detected from its prose
	// (DetectArticleLang).
	Lang string
	// Warn receives warnings; nil discards them.
	Warn func(msg string)

	mu             sync.Mutex
	resolved       map[string]*resolvedDTD // by article folder + "\x00" + system id
	loaded         map[string]*resolvedDTD // by the DTD file's cleaned path
	warned         bool                    // a missing DTD was reported
	refused        map[string]bool         // DTD places refused and reported
	splitEvery     int                     // for tests: cut runs of text this long (0: splitEvery)
	fallbackWarned atomic.Bool             // a built-in entity standing in was reported
}

// resolvedDTD is a DTD read from disk (or the built-in entities) with its
// entities ready for the decoder, or why it could not be read.
type resolvedDTD struct {
	raw  *DTD
	ents *entitySet
	err  error
}

// dtdFor returns the entities of the DTD whose system identifier is sysID,
// for the article file named article.
func (rd *Reader) dtdFor(article, sysID string) (*resolvedDTD, error) {
	key := filepath.Dir(article) + "\x00" + sysID
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if r, ok := rd.resolved[key]; ok {
		return r, r.err
	}
	if rd.resolved == nil {
		rd.resolved = map[string]*resolvedDTD{}
		rd.loaded = map[string]*resolvedDTD{}
	}
	var tried, missing []string
	for _, c := range rd.dtdCandidates(article, sysID) {
		if slices.Contains(tried, c.path) {
			continue
		}
		tried = append(tried, c.path)
		real, why := rd.allowedDTD(article, c)
		if why != "" {
			rd.warnRefused(article, sysID, c.path, why)
			continue
		}
		if real == "" {
			missing = append(missing, c.path)
			continue // nothing there: the next place
		}
		clean := filepath.Clean(real)
		r, ok := rd.loaded[clean]
		if !ok {
			r = &resolvedDTD{}
			if r.raw, r.err = ReadDTD(c.path); r.err == nil {
				r.ents, r.err = newEntitySet(c.path, true, r.raw)
			}
			if r.err != nil {
				r.err = fmt.Errorf("its DTD %s: %w", c.path, r.err)
			}
			rd.loaded[clean] = r
		}
		rd.resolved[key] = r
		return r, r.err
	}
	if !rd.warned && rd.Warn != nil {
		rd.warned = true
		rd.Warn(missingDTD(article, sysID, missing))
	}
	r := &resolvedDTD{raw: builtinDTD(), ents: builtinEntities()}
	rd.resolved[key] = r
	return r, nil
}

// dtdPlace is a file where an article's DTD may be, and whether the
// article's DOCTYPE named it (its system identifier, or that name's base
// in the collection root) or the user did (--dtd).
type dtdPlace struct {
	path     string
	byUser   bool
	absolute bool // an absolute system identifier: refused
}

// maxRefusedWarnings bounds the warnings one Reader gives about DTD paths
// it refused: a hostile collection naming a million paths gets sixteen.
const maxRefusedWarnings = 16

// allowedDTD applies the rule of docs/safety.md ("The DTD an article
// names") to the place c of an article's DTD, before anything is opened:
// a DTD an article names is read only when it is a regular *.dtd file
// whose real path (symbolic links resolved) lies inside the collection
// root, or directly in the folder that holds the root (the INEX
// collection's ../article.dtd beside its language folders); with no
// collection root, the article's own folder stands for it. The file the
// user names (--dtd) is read wherever it is, if it is a regular file. It
// returns the real path to read, or why the place is refused; neither
// when nothing is there.
func (rd *Reader) allowedDTD(article string, c dtdPlace) (real, why string) {
	switch {
	case c.absolute:
		return "", "an absolute path"
	case !c.byUser && !strings.EqualFold(filepath.Ext(c.path), ".dtd"):
		return "", "not a *.dtd file"
	}
	real, err := filepath.EvalSymlinks(c.path)
	if err != nil {
		if _, lerr := os.Lstat(c.path); lerr == nil {
			return "", "a symbolic link to nothing readsim may read (" + unwrapPath(err).Error() + ")"
		}
		return "", ""
	}
	if !c.byUser {
		root := rd.Root
		if root == "" {
			root = filepath.Dir(article)
		}
		realRoot, err := filepath.EvalSymlinks(root)
		if err != nil {
			realRoot = root
		}
		realRoot, _ = filepath.Abs(realRoot)
		real, _ = filepath.Abs(real)
		if !within(realRoot, real) && filepath.Dir(real) != filepath.Dir(realRoot) {
			return "", "outside the collection " + root + " and the folder that holds it"
		}
	}
	st, err := os.Stat(real)
	switch {
	case err != nil:
		return "", ""
	case st.IsDir():
		return "", "a folder, not a DTD file"
	case !st.Mode().IsRegular():
		return "", "not a regular file (a pipe, a socket or a device)"
	}
	return real, ""
}

// within reports whether the path p lies inside the folder dir (both
// absolute and clean).
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// warnRefused warns that the DTD place path, from the system identifier
// sysID of article, was refused (why) and never opened; at most
// maxRefusedWarnings times per Reader, once per place. It is called
// under mu.
func (rd *Reader) warnRefused(article, sysID, path, why string) {
	if rd.Warn == nil || rd.refused[path] || len(rd.refused) >= maxRefusedWarnings {
		return
	}
	if rd.refused == nil {
		rd.refused = map[string]bool{}
	}
	rd.refused[path] = true
	more := ""
	if len(rd.refused) == maxRefusedWarnings {
		more = fmt.Sprintf(" (the last of %d such warnings)", maxRefusedWarnings)
	}
	rd.Warn(fmt.Sprintf("%s: its DTD %q is not read: %s is %s (readsim reads a DTD an article names only as a regular *.dtd file in the collection or beside it: docs/safety.md)%s", article, sysID, path, why, more))
}

// missingDTD says that an article's DTD, named by the system identifier
// sysID, was looked for in the files tried and not found.
func missingDTD(article, sysID string, tried []string) string {
	const builtin = "reading the articles with the built-in XHTML entities (lat1, symbol, special); name the DTD with --dtd"
	where := "not at " + strings.Join(tried, ", nor at ")
	if len(tried) == 0 && !isURL(sysID) {
		where = "not read (nor is any DTD at the places readsim may read)"
	}
	if isURL(sysID) {
		where = "a URL, which readsim never fetches"
		if len(tried) > 0 {
			where += ", and no file " + strings.Join(tried, " nor ") + " exists"
		}
	}
	return fmt.Sprintf("%s: its DTD %q is %s: %s", article, sysID, where, builtin)
}

// isURL reports whether a system identifier is a URL other than file:
// (http:, https:, ftp:…).
func isURL(sysID string) bool {
	return strings.Contains(strings.TrimPrefix(sysID, "file://"), "://")
}

// warnFallback warns, once per Reader, that an article used an XHTML
// entity its DTD does not declare, which the built-in one stood in for.
// The parse workers of a build share the Reader: after the warning, a
// use costs one atomic load, no lock.
func (rd *Reader) warnFallback(article, name, source string) {
	if rd.Warn == nil || rd.fallbackWarned.Load() {
		return
	}
	rd.mu.Lock() // Warn is called under mu, as the Reader's other warnings
	defer rd.mu.Unlock()
	if !rd.fallbackWarned.CompareAndSwap(false, true) {
		return
	}
	rd.Warn(fmt.Sprintf("%s: &%s; is not declared in %s (a DTD may take the XHTML entities from files it names, which readsim never reads): the built-in XHTML entities (lat1, symbol, special) stand in for the ones it does not declare", article, name, source))
}

// dtdCandidates lists the places where an article's DTD may be, in
// order. An absolute system identifier is listed to be refused (a
// collection is read on other machines than the one that wrote it): its
// base name is looked for in the root.
func (rd *Reader) dtdCandidates(article, sysID string) []dtdPlace {
	var out []dtdPlace
	id := strings.TrimPrefix(sysID, "file://")
	switch {
	case isURL(sysID) || id == "":
	case filepath.IsAbs(filepath.FromSlash(id)) || strings.HasPrefix(id, "/"):
		out = append(out, dtdPlace{path: filepath.FromSlash(id), absolute: true})
	default:
		out = append(out, dtdPlace{path: filepath.Join(filepath.Dir(article), filepath.FromSlash(id))})
	}
	if rd.Root != "" {
		if base := path.Base(strings.ReplaceAll(id, "\\", "/")); base != "" && base != "." && base != "/" && base != ".." {
			out = append(out, dtdPlace{path: filepath.Join(rd.Root, base)})
		}
	}
	if rd.DTD != "" {
		out = append(out, dtdPlace{path: rd.DTD, byUser: true})
	}
	return out
}

var (
	builtinOnce sync.Once
	builtinRaw  *DTD
	builtinSet  *entitySet
)

func loadBuiltin() {
	builtinRaw = &DTD{Path: "", Entities: make(map[string]string, len(xhtmlEntities)), External: map[string]bool{}}
	for n, r := range xhtmlEntities {
		builtinRaw.Entities[n] = string(r)
	}
	builtinSet, _ = newEntitySet("the built-in XHTML entities", false, builtinRaw)
}

// builtinDTD is a DTD declaring the XHTML 1.0 character entities.
func builtinDTD() *DTD { builtinOnce.Do(loadBuiltin); return builtinRaw }

// builtinEntities are the XHTML 1.0 character entities, ready for the decoder.
func builtinEntities() *entitySet { builtinOnce.Do(loadBuiltin); return builtinSet }

// placeholderMark starts and ends the text encoding/xml inserts for an entity
// whose replacement text is not one character: U+FDD0, a Unicode
// noncharacter ("reserved for a process's internal use"), the digits of the
// replacement text's number, U+FDD0 again. The parser replaces it by the
// replacement text, counting what that adds against MaxExpandedChars, so a
// reference costs the decoder a few bytes however long its text. (A
// document's own text would have to hold U+FDD0, digits, U+FDD0 to be taken
// for a placeholder; a lone U+FDD0 is kept as text.)
const placeholderMark = "\uFDD0"

// entitySet is the general entities an article may use, ready for
// encoding/xml's decoder: each name maps to its character, to "" or to a
// placeholder of its replacement text.
type entitySet struct {
	source          string            // where the entities come from, for messages
	decoder         map[string]string // for xml.Decoder.Entity
	texts           []string          // placeholder k → replacement text
	bad             map[string]string // entities that cannot be used, and why
	hasPlaceholders bool
	// fallbacks[k-fallbackFrom] names the built-in XHTML entity whose
	// character texts[k] is, for k ≥ fallbackFrom (see newEntitySet).
	fallbackFrom int
	fallbacks    []string
}

// newEntitySet expands the entities of the DTDs (the first declaration of a
// name binds: list the internal subset first) into an entitySet. With
// fallback, the built-in XHTML entities stand in for the XHTML names the
// DTDs do not declare: a DTD may take them from the W3C's entity files
// through external parameter entities (<!ENTITY % HTMLlat1 PUBLIC …>
// %HTMLlat1;), which readsim never reads. They are placeholders, so that
// the parser sees when one is used (and warns, once per Reader).
func newEntitySet(source string, fallback bool, dtds ...*DTD) (*entitySet, error) {
	raw := map[string]string{}
	external := map[string]bool{}
	for _, d := range dtds {
		if d == nil {
			continue
		}
		for n, v := range d.Entities {
			if _, dup := raw[n]; !dup && !external[n] {
				raw[n] = v
			}
		}
		for n := range d.External {
			if _, dup := raw[n]; !dup {
				external[n] = true
			}
		}
	}
	s := &entitySet{source: source, decoder: make(map[string]string, len(raw)), bad: map[string]string{}}
	x := expander{raw: raw, memo: map[string]expanded{}, busy: map[string]bool{}}
	for n := range raw {
		v, _, err := x.expand(n, 0)
		if err != nil {
			s.bad[n] = err.Error()
			continue
		}
		switch utf8.RuneCountInString(v) {
		case 0, 1:
			s.decoder[n] = v
		default:
			s.decoder[n] = placeholderMark + strconv.Itoa(len(s.texts)) + placeholderMark
			s.texts = append(s.texts, v)
			s.hasPlaceholders = true
		}
	}
	for n := range external {
		s.bad[n] = "an external entity (readsim reads no file but the DTD)"
	}
	if fallback {
		s.fallbackFrom = len(s.texts)
		names := make([]string, 0, len(xhtmlEntities))
		for n := range xhtmlEntities {
			if _, declared := raw[n]; !declared && !external[n] {
				names = append(names, n)
			}
		}
		sort.Strings(names) // placeholders numbered the same in every run
		for _, n := range names {
			s.decoder[n] = placeholderMark + strconv.Itoa(len(s.texts)) + placeholderMark
			s.texts = append(s.texts, string(xhtmlEntities[n]))
			s.fallbacks = append(s.fallbacks, n)
			s.hasPlaceholders = true
		}
	}
	return s, nil
}

// undefined explains why a reference to the entity name failed.
func (s *entitySet) undefined(name string) string {
	if s == nil {
		return fmt.Sprintf("undefined entity &%s; (the article declares no DTD; readsim --dtd FILE names one)", name)
	}
	if why, ok := s.bad[name]; ok {
		return fmt.Sprintf("entity &%s; cannot be used: %s", name, why)
	}
	return fmt.Sprintf("undefined entity &%s; (not declared in %s)", name, s.source)
}

// parts calls f on each part of in, in order: a run of the text's own
// bytes (k < 0), or the placeholder (lit) of texts[k]. A U+FDD0 that does
// not start a placeholder is the text's own.
func (s *entitySet) parts(in []byte, f func(lit []byte, k int)) {
	mark := []byte(placeholderMark)
	for len(in) > 0 {
		i := bytes.Index(in, mark)
		if i < 0 {
			f(in, -1)
			return
		}
		rest := in[i+len(mark):]
		k := -1
		if j := bytes.Index(rest, mark); j > 0 && j <= 10 && rest[0] >= '0' && rest[0] <= '9' {
			if v, err := strconv.Atoi(string(rest[:j])); err == nil && v < len(s.texts) {
				k = v
				if i > 0 {
					f(in[:i], -1)
				}
				f(in[i:i+2*len(mark)+j], k)
				in = rest[j+len(mark):]
				continue
			}
		}
		f(in[:i+len(mark)], -1) // a U+FDD0 of the document's own text
		in = rest
	}
}

// fallbackOf names the built-in entity that texts[k] stands for, or "".
func (s *entitySet) fallbackOf(k int) string {
	if k >= s.fallbackFrom && len(s.fallbacks) > 0 {
		return s.fallbacks[k-s.fallbackFrom]
	}
	return ""
}

// expand replaces the placeholders in s by their texts; it returns the text,
// the number of characters the replacements added and the name of the
// first built-in entity standing in for an undeclared one ("" for none).
func (s *entitySet) expand(in string) (string, int, string) {
	var b strings.Builder
	added := 0
	fallback := ""
	s.parts([]byte(in), func(lit []byte, k int) {
		if k < 0 {
			b.Write(lit)
			return
		}
		b.WriteString(s.texts[k])
		added += utf8.RuneCountInString(s.texts[k])
		if fallback == "" {
			fallback = s.fallbackOf(k)
		}
	})
	return b.String(), added, fallback
}

// expander computes entities' replacement texts with every reference in them
// expanded, bounded in depth and length (no "billion laughs"). The bounds
// hold whatever the order the entities are expanded in: an entity's
// height (the longest chain of references below it) is kept with its
// text, so that one expanded before, at a lesser depth, still counts.
type expander struct {
	raw  map[string]string
	memo map[string]expanded
	busy map[string]bool
}

// expanded is an entity's replacement text with every reference expanded,
// and its height: 0 for a text without references, else one more than the
// highest entity it refers to.
type expanded struct {
	text   string
	height int
}

var predefined = map[string]string{"lt": "<", "gt": ">", "amp": "&", "quot": `"`, "apos": "'"}

// errTooLong is the error of an entity longer than MaxEntityChars.
var errTooLong = fmt.Errorf("its replacement text is longer than %d characters (nested entities: a \"billion laughs\"?)", MaxEntityChars)

// expand returns the expanded text of entity name, referred to depth
// references down, and its height.
func (x *expander) expand(name string, depth int) (string, int, error) {
	if v, ok := x.memo[name]; ok {
		if depth+v.height > maxEntityNesting {
			return "", 0, fmt.Errorf("entities nested deeper than %d", maxEntityNesting)
		}
		return v.text, v.height, nil
	}
	raw, ok := x.raw[name]
	if !ok {
		return "", 0, fmt.Errorf("its replacement text refers to the undefined entity &%s;", name)
	}
	if x.busy[name] {
		return "", 0, fmt.Errorf("it refers to itself (&%s;)", name)
	}
	if depth > maxEntityNesting {
		return "", 0, fmt.Errorf("entities nested deeper than %d", maxEntityNesting)
	}
	if !strings.Contains(raw, "&") {
		if utf8.RuneCountInString(raw) > MaxEntityChars {
			return "", 0, errTooLong
		}
		x.memo[name] = expanded{raw, 0}
		return raw, 0, nil
	}
	x.busy[name] = true
	defer delete(x.busy, name)
	var b strings.Builder
	n, height := 0, 0 // characters so far, the height so far
	for s := raw; s != ""; {
		i := strings.IndexByte(s, '&')
		if i < 0 {
			b.WriteString(s)
			n += utf8.RuneCountInString(s)
			break
		}
		b.WriteString(s[:i])
		n += utf8.RuneCountInString(s[:i])
		s = s[i:]
		var part string
		if r, size, ok := charRef(s); ok {
			part, s = string(r), s[size:]
		} else {
			j := strings.IndexByte(s, ';')
			if j < 2 {
				return "", 0, fmt.Errorf("its replacement text has a bare '&'")
			}
			ref := s[1:j]
			s = s[j+1:]
			if v, ok := predefined[ref]; ok {
				part = v
			} else {
				v, h, err := x.expand(ref, depth+1)
				if err != nil {
					return "", 0, err
				}
				part, height = v, max(height, h+1)
			}
		}
		n += utf8.RuneCountInString(part)
		if n > MaxEntityChars {
			return "", 0, errTooLong
		}
		b.WriteString(part)
	}
	v := b.String()
	x.memo[name] = expanded{v, height}
	return v, height, nil
}
