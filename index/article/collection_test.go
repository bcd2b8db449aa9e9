package article

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/readsim/readsim/index/article/shareddata"
	"github.com/readsim/readsim/internal/ground/testfs"
)

// TestCollectionIDs checks the ids of a collection's files: the file name
// without .xml, qualified by the path for every file of a name several
// files have.
func TestCollectionIDs(t *testing.T) {
	for _, tc := range []struct {
		name    string
		rels    []string
		ids     []string
		clashes []IDClash
	}{
		{"unique names stay plain", []string{"en/1.xml", "ja/2.xml", "3.XML"}, []string{"1", "2", "3"}, nil},
		{"a name in two language folders",
			[]string{"en/3951.xml", "en/7.xml", "ja/3951.xml"},
			[]string{"en/3951", "7", "ja/3951"},
			[]IDClash{{ID: "3951", IDs: []string{"en/3951", "ja/3951"}}}},
		{"a clash at the root and deeper; two clashes",
			[]string{"3951.xml", "a/b/3951.Xml", "en/9.xml", "zh/9.xml"},
			[]string{"3951", "a/b/3951", "en/9", "zh/9"},
			[]IDClash{{ID: "3951", IDs: []string{"3951", "a/b/3951"}}, {ID: "9", IDs: []string{"en/9", "zh/9"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ids, clashes := CollectionIDs(tc.rels)
			if !reflect.DeepEqual(ids, tc.ids) || !reflect.DeepEqual(clashes, tc.clashes) {
				t.Errorf("ids %v clashes %+v, want %v %+v", ids, clashes, tc.ids, tc.clashes)
			}
		})
	}
	w := ClashWarning([]IDClash{{ID: "3951", IDs: []string{"en/3951", "ja/3951"}}})
	if !strings.Contains(w, "3951 is en/3951 and ja/3951") || strings.Contains(w, "\n") {
		t.Errorf("warning %q: want one line naming 3951, en/3951 and ja/3951", w)
	}
	if ClashWarning(nil) != "" {
		t.Error("a warning without a clash")
	}
}

// multilang is the test collection of two Wikipedias: en/3951 and
// ja/3951 (a clash), en/7001 and ja/7001 (a clash), en/4001, en/4002 and
// ja/2121 (unique).
const multilang = "testdata/multilang"

// TestDirClashes checks that a folder of two languages serves both
// articles of a clashing id under their qualified ids, refuses the plain
// id naming them, and resolves internal links within the linking
// article's language: ja/3951 links ../001/7001.xml (ja/7001) and
// ../121/2121.xml (2121); en/3951 links ../001/7001.xml (en/7001) and
// ../080/8080.xml (no such article: left as the file name).
func TestDirClashes(t *testing.T) {
	d, err := OpenDir(multilang)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"2121", "4001", "4002", "en/3951", "en/7001", "ja/3951", "ja/7001"}; !reflect.DeepEqual(d.IDs(), want) {
		t.Errorf("ids %v, want %v", d.IDs(), want)
	}
	if want := []IDClash{{"3951", []string{"en/3951", "ja/3951"}}, {"7001", []string{"en/7001", "ja/7001"}}}; !reflect.DeepEqual(d.Clashes(), want) {
		t.Errorf("clashes %+v, want %+v", d.Clashes(), want)
	}
	for _, tc := range []struct {
		id, want, title, lang string
		links                 []string
	}{
		{"ja/3951", "ja/3951", "灯台", "ja", []string{"ja/7001", "2121"}},
		{"en/3951", "en/3951", "Harbour lighthouse", "en", []string{"en/7001", "8080"}},
		{"ja/2121", "2121", "観音埼灯台", "ja", nil}, // a path names a unique article too
		{"2121", "2121", "観音埼灯台", "ja", nil},
	} {
		a, err := d.Parse(tc.id)
		if err != nil {
			t.Errorf("%s: %v", tc.id, err)
			continue
		}
		var links []string
		for _, l := range a.Links {
			links = append(links, l.Target)
		}
		if a.ID != tc.want || a.Title != tc.title || a.Lang != tc.lang || !reflect.DeepEqual(links, tc.links) {
			t.Errorf("%s: id %s title %s lang %s links %v, want %s %s %s %v", tc.id, a.ID, a.Title, a.Lang, links, tc.want, tc.title, tc.lang, tc.links)
		}
	}
	_, err = d.Parse("3951")
	var ae *AmbiguousError
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), "en/3951, ja/3951") {
		t.Errorf("plain 3951: err %v, want an ambiguous id naming en/3951 and ja/3951", err)
	}
	if _, ok := d.Path("3951"); ok {
		t.Error("Path(3951) found a file")
	}
	if _, err := d.Parse("fr/3951"); err == nil {
		t.Error("fr/3951 parsed")
	}
}

// TestResolveLink checks the choice among the articles of a clashing file
// name: the file the href leads to, else the one sharing the most leading
// folders with the linking file, else none on a tie.
func TestResolveLink(t *testing.T) {
	ids := map[string]string{"7": "", "ja/3951": "", "en/3951": "", "ja/929/17": "", "en/929/17": "", "zh/17": ""}
	clashes := map[string][]string{"3951": {"en/3951", "ja/3951"}, "17": {"en/929/17", "ja/929/17", "zh/17"}}
	for _, tc := range []struct{ rel, href, target, want string }{
		{"ja/1.xml", "../7.xml", "7", "7"},                     // unique
		{"ja/1.xml", "../951/3951.xml", "3951", "ja/3951"},     // same language folder
		{"en/2/1.xml", "../951/3951.xml", "3951", "en/3951"},   // deeper: the shared en
		{"ja/951/1.xml", "../929/17.xml", "17", "ja/929/17"},   // the file the href leads to
		{"zh/1.xml", "../929/17.xml", "17", "zh/17"},           // zh is nearer than en/929 or ja/929
		{"1.xml", "929/17.xml", "17", ""},                      // the root: en/929 or ja/929, a tie
		{"fr/1.xml", "../951/3951.xml", "3951", ""},            // neither shares a folder: a tie
		{"ja/1.xml", "../123/404.xml", "404", ""},              // not in the collection
		{"ja/1.xml", "../../ja/929/17.xml", "17", "ja/929/17"}, // led to by the href
	} {
		if got := resolveLink(tc.rel, tc.href, tc.target, ids, clashes); got != tc.want {
			t.Errorf("%s → %s: %q, want %q", tc.rel, tc.href, got, tc.want)
		}
	}
}

// TestLangFolders checks the languages folder names give: the deepest
// folder below the collection root named by a language code decides; a
// file read without a root, its own folder.
func TestLangFolders(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"ja", "ja"}, {"EN", "en"}, {"zh_TW", "zh-tw"}, {"pt-br", "pt-br"}, {"de", "de"},
		{"articles", ""}, {"to", ""}, {"my", ""}, {"ja-", ""}, {"ja-x!", ""}, {"", ""},
	} {
		if got := LangFolder(tc.name); got != tc.want {
			t.Errorf("LangFolder(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	sep := string(filepath.Separator)
	for _, tc := range []struct{ root, file, want string }{
		{"/c", "/c/ja/1.xml", "ja"},
		{"/c", "/c/ja/pages/951/1.xml", "ja"},
		{"/c", "/c/en/ko/1.xml", "ko"}, // the deepest
		{"/c", "/c/1.xml", ""},
		{"/data/ja", "/data/ja/x/1.xml", ""}, // above the root: not the article's
		{"", "/data/zh/1.xml", "zh"},
		{"", "/data/zh/x/1.xml", ""},
		{"/c", "/elsewhere/ko/1.xml", "ko"}, // outside the root: its own folder
	} {
		root := filepath.FromSlash(tc.root)
		file := filepath.FromSlash(tc.file)
		if got := pathLang(root, file); got != tc.want {
			t.Errorf("pathLang(%q, %q) = %q, want %q (sep %q)", tc.root, tc.file, got, tc.want, sep)
		}
	}
}

// TestDetectArticleLang checks language detection on the prose of
// hand-written articles of each kind (their folder is named by no
// language). Their whole text would mislead: the Japanese band's song
// titles and members (lists, a table) make its letters mostly Latin; the
// Japanese list of rivers is a table of kanji, its kana few; the Chinese
// article's table quotes Japanese titles in kana.
func TestDetectArticleLang(t *testing.T) {
	rd := &Reader{Root: "testdata/lang"}
	for _, tc := range []struct {
		file, want string
		whole      string               // what the whole text is like
		check      func(c scripts) bool // the whole text's statistics
	}{
		{"ja-band.xml", "ja", "Latin letters thrice the CJK", func(c scripts) bool { return c.latin > 3*(c.han+c.kana) }},
		{"ja-list.xml", "ja", "kana under a tenth of the CJK", func(c scripts) bool { return 10*c.kana < c.han+c.kana }},
		{"ja-stub.xml", "ja", "", nil},
		{"zh-japan.xml", "zh", "kana over a tenth of the CJK", func(c scripts) bool { return 10*c.kana > c.han+c.kana }},
		{"zh-short.xml", "zh", "", nil}, // quotes 千と千尋: one kana
		{"en-cjk.xml", "en", "", nil},   // a few Japanese and Chinese words
		{"ko.xml", "ko", "", nil},       // Hangul with Hanja in parentheses
	} {
		a, err := rd.ParseFile(filepath.Join("testdata", "lang", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if a.Lang != tc.want {
			t.Errorf("%s: %s, want %s", tc.file, a.Lang, tc.want)
		}
		var c scripts
		c.add(a.Text)
		if tc.check != nil && !tc.check(c) {
			t.Errorf("%s: the whole text is not what the test needs (%s): %+v", tc.file, tc.whole, c)
		}
	}
	// --lang wins over folders and statistics; a language folder over the
	// statistics
	if a, err := (&Reader{Lang: "ko"}).ParseFile(filepath.Join(multilang, "ja", "3951.xml")); err != nil || a.Lang != "ko" {
		t.Errorf("--lang ko: %v %v", a, err)
	}
	dir := t.TempDir()
	testfs.Write(t, dir, map[string]string{"zh/1.xml": `<article><bdy><p>The English text of a mislabelled folder.</p></bdy></article>`})
	if a, err := (&Reader{Root: dir}).ParseFile(filepath.Join(dir, "zh", "1.xml")); err != nil || a.Lang != "zh" {
		t.Errorf("zh/: %v %v, want zh", a, err)
	}
}

// TestDetectSharedArticles checks detection against the folders of the 77
// real articles of the shared data (en, zh, ko), which their folder names
// would give anyway: here the statistics alone must.
func TestDetectSharedArticles(t *testing.T) {
	root := shareddata.Wikipedia(t)
	rd := &Reader{Root: root}
	n := 0
	for _, lang := range []string{"en", "zh", "ko"} {
		files, _ := filepath.Glob(filepath.Join(root, lang, "*.xml"))
		for _, f := range files {
			a, err := rd.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if got := DetectArticleLang(a); got != lang {
				t.Errorf("%s: detected %s", f, got)
			}
			n++
		}
	}
	if n != 77 {
		t.Errorf("%d articles, want 77", n)
	}
}

// TestFallbackEntities checks that a DTD which takes the XHTML entities
// from external files (never read) still gives them, built in, for the
// names it does not declare, its own declarations first, with one warning
// for the collection; a name declared nowhere is still an error.
func TestFallbackEntities(t *testing.T) {
	var warnings []string
	rd := &Reader{Root: "testdata/pe", Warn: func(m string) { warnings = append(warnings, m) }}
	for _, tc := range []struct{ file, text string }{
		// "Café on the pier" 16, then the paragraph: the DTD's &mdash; is "--"
		{"en/8201.xml", "Caf\u00e9 on the pierAsk the harbour office\u00a0-- or the caf\u00e9."},
		{"en/8202.xml", "Pi\u00f1a\u20ac\u2026"},
	} {
		a, err := rd.ParseFile(filepath.Join("testdata", "pe", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if a.Text != tc.text || a.Len != len([]rune(tc.text)) {
			t.Errorf("%s: %q (%d), want %q", tc.file, a.Text, a.Len, tc.text)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "&eacute; is not declared in testdata/pe/article.dtd") || !strings.Contains(warnings[0], "built-in XHTML entities") {
		t.Errorf("warnings %q, want one naming &eacute; and the DTD", warnings)
	}
	dir := t.TempDir()
	testfs.Write(t, dir, map[string]string{
		"article.dtd": `<!ENTITY nbsp "&#160;">`,
		"en/1.xml":    `<!DOCTYPE article SYSTEM "../article.dtd"><article>&nosuch;</article>`,
	})
	if _, err := (&Reader{Root: dir}).ParseFile(filepath.Join(dir, "en", "1.xml")); err == nil || !strings.Contains(err.Error(), "undefined entity &nosuch;") {
		t.Errorf("err %v, want undefined entity &nosuch;", err)
	}
}

// TestURLDTDWarning checks the warning for a DTD named by a URL that is
// nowhere on disk: it says the URL is never fetched and which entities
// are used, with no empty list of places.
func TestURLDTDWarning(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, dir, map[string]string{"en/1.xml": `<!DOCTYPE article SYSTEM "http://127.0.0.1:9/article.dtd"><article>&eacute;</article>`})
	for _, root := range []string{dir, ""} {
		var warnings []string
		rd := &Reader{Root: root, Warn: func(m string) { warnings = append(warnings, m) }}
		if _, err := rd.ParseFile(filepath.Join(dir, "en", "1.xml")); err != nil {
			t.Fatal(err)
		}
		if len(warnings) != 1 {
			t.Fatalf("root %q: warnings %q", root, warnings)
		}
		w := warnings[0]
		if !strings.Contains(w, `"http://127.0.0.1:9/article.dtd" is a URL, which readsim never fetches`) || !strings.Contains(w, "built-in XHTML entities") || strings.Contains(w, "not at :") || strings.Contains(w, "at , ") {
			t.Errorf("root %q: warning %q", root, w)
		}
		if root != "" && !strings.Contains(w, "no file "+filepath.Join(dir, "article.dtd")) {
			t.Errorf("warning %q does not name the file looked for", w)
		}
	}
}

// TestWalkCollection checks what a walk of a collection reports: hidden
// folders skipped, symbolic links to files followed, every file with its
// slash-separated relative path.
func TestWalkCollection(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, dir, map[string]string{"en/1.xml": "x", ".git/2.xml": "x", "ja/sub/3.xml": "x", "article.dtd": "x"})
	if err := os.Symlink(filepath.Join(dir, "en", "1.xml"), filepath.Join(dir, "ja", "4.xml")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	var rels []string
	err := WalkCollection(dir, func(rel, _ string, _ os.FileInfo) { rels = append(rels, rel) }, func(p string, err error) { t.Errorf("%s: %v", p, err) })
	if want := []string{"article.dtd", "en/1.xml", "ja/4.xml", "ja/sub/3.xml"}; err != nil || !reflect.DeepEqual(rels, want) {
		t.Errorf("%v %v, want %v", rels, err, want)
	}
	if err := WalkCollection(filepath.Join(dir, "nope"), func(string, string, os.FileInfo) {}, func(string, error) {}); err == nil {
		t.Error("a missing root: no error")
	}
}

func TestWellFormedID(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want bool
	}{
		{"3951", true}, {"ja/3951", true}, {"en/x/1", true}, {"odd name é (1)", true}, {"a.b", true},
		{"", false}, {"/3951", false}, {"ja/", false}, {"ja//3951", false}, {"../x", false}, {"ja/./3951", false},
		{".", false}, {"..", false}, {`ja\3951`, false},
	} {
		if got := WellFormedID(tc.id); got != tc.want {
			t.Errorf("WellFormedID(%q) = %v, want %v", tc.id, got, tc.want)
		}
	}
}

// fakeDevice is a FileInfo that says its file is a device.
type fakeDevice struct{ os.FileInfo }

func (f fakeDevice) Mode() os.FileMode { return f.FileInfo.Mode() | os.ModeDevice }

// Entries named like articles that are none are named, each with its
// kind, never skipped without a word: a FIFO, a socket, a device (a
// regular file the stat hook calls one: no test touches a real device)
// and a file named ".xml" alone, whose id would be empty (it aborted a
// build, naming no file). Special files with other names stay silent. Both
// cases were silent (or fatal) before.
func TestWalkNamesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, dir, map[string]string{"en/1.xml": "<article/>", ".xml": "<article/>", "en/.XML": "<article/>", "dev.xml": "x"})
	p := func(n string) string { return filepath.Join(dir, n) }
	if err := syscall.Mkfifo(p("fifo.xml"), 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	if err := syscall.Mkfifo(p("notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", p("s.xml"))
	if err != nil {
		t.Skip("no Unix socket here:", err)
	}
	defer l.Close()
	statFile = func(name string) (os.FileInfo, error) {
		st, err := os.Stat(name)
		if err == nil && filepath.Base(name) == "dev.xml" {
			return fakeDevice{st}, nil
		}
		return st, err
	}
	defer func() { statFile = os.Stat }()
	want := map[string]string{
		p("fifo.xml"): "a FIFO, not a regular file",
		p("s.xml"):    "a socket, not a regular file",
		p("dev.xml"):  "a device, not a regular file",
		p(".xml"):     "needs a name before .xml",
		p("en/.XML"):  "needs a name before .xml",
	}
	got := map[string]string{}
	var rels []string
	err = WalkCollection(dir, func(rel, _ string, _ os.FileInfo) { rels = append(rels, rel) }, func(path string, err error) {
		var sk *SkippedFile
		if !errors.As(err, &sk) {
			t.Errorf("%s: %v is no *SkippedFile", path, err)
		}
		got[path] = err.Error()
	})
	if err != nil || !reflect.DeepEqual(rels, []string{"en/1.xml"}) {
		t.Errorf("walk: %v, %v; want only en/1.xml", rels, err)
	}
	for path, w := range want {
		if !strings.Contains(got[path], w) {
			t.Errorf("%s: %q, want %q", path, got[path], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("reported %v, want %d entries", got, len(want))
	}
	d, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.IDs(), []string{"1"}) || len(d.Skipped()) != len(want) {
		t.Errorf("OpenDir: ids %v, skipped %q", d.IDs(), d.Skipped())
	}
}
