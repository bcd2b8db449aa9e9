package inex

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestRealINEX2009(t *testing.T) {
	path := filepath.Join("..", "..", "..", "shared", "data", "inex", "inex2009-topics.xml")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("skipping: %s is absent (shared data folder not beside the repository)", path)
	}
	ts, err := OpenTopics(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 115 {
		t.Errorf("%d topics, want 115 (2009001–2009115)", len(ts))
	}
	if ts[0].ID != "2009001" || ts[0].Title != "Nobel prize" || Keywords(ts[0].CASTitle) != "Nobel prize" {
		t.Errorf("first topic %+v", ts[0])
	}
	// "&amp;" keeps its XML meaning although the DTD redefines amp
	for _, tp := range ts {
		if strings.Contains(tp.Narrative, "history of Java") && !strings.Contains(tp.Narrative, "history of Java & on") {
			t.Errorf("topic %s narrative: %q", tp.ID, tp.Narrative)
		}
	}
}

func TestFormats(t *testing.T) {
	tests := []struct {
		name, in string
		want     []Topic
	}{
		{"2009", `<?xml version="1.0"?>
<!DOCTYPE inex-topic-file [ <!ENTITY lt "lessthan"> <!ENTITY co "company"> ]>
<inex-topic-file><topic id="7" ct_no="1"><title> fish
  &amp; chips </title><castitle>//article[about(., fish)]</castitle><description>a &co; &lt;x&gt;</description></topic></inex-topic-file>`,
			[]Topic{{ID: "7", Title: "fish & chips", CASTitle: "//article[about(., fish)]", Description: "a company <x>"}}},
		{"2006", `<inex_topic topic_id="289" query_type="CO+S"><title>emperor "Napoleon I" Polish</title><castitle>//article[about(.,Napoleon)]//section[about(., Polish)]</castitle><description>d</description><narrative>n</narrative></inex_topic>`,
			[]Topic{{ID: "289", Title: `emperor "Napoleon I" Polish`, CASTitle: "//article[about(.,Napoleon)]//section[about(., Polish)]", Description: "d", Narrative: "n"}}},
		{"plain", "# comment\n1 nobel prize\n\n2  best   movie\n",
			[]Topic{{ID: "1", Title: "nobel prize"}, {ID: "2", Title: "best movie"}}},
	}
	for _, tc := range tests {
		got, err := ReadTopics([]byte(tc.in), tc.name)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"1 a\n2\n", "x:2:"},
		{"<inex-topic-file><topic><title>a</title></topic></inex-topic-file>", "without an id"},
		{"<inex-topic-file><topic id='1'><title>a</title></inex-topic-file>", "x:1:"},
		{"1 a\n1 b\n", "appears twice"},
		{"<inex-topic-file/>", "no topic"},
	} {
		if _, err := ReadTopics([]byte(tc.in), "x"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestKeywords(t *testing.T) {
	for in, want := range map[string]string{
		"//article[about(., Nobel prize)]":                         "Nobel prize",
		"//article[about(.,Napoleon)]//section[about(., Polish)]":  "Napoleon Polish",
		`//article[about(., +"hatha yoga" -deity)]`:                `+"hatha yoga" -deity`,
		"//article//sec[about(.//st, history) and about(., lens)]": "history lens",
		"//article[fresnel lens]":                                  "fresnel lens",
	} {
		if got := Keywords(in); got != want {
			t.Errorf("Keywords(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLatin1 reads a topic file declared ISO-8859-1: byte 0xE9 is é.
func TestLatin1(t *testing.T) {
	in := "<?xml version=\"1.0\" encoding=\"iso-8859-1\"?>\n<inex-topic-file><topic id=\"3\"><title>caf\xe9 culture</title></topic></inex-topic-file>"
	got, err := ReadTopics([]byte(in), "l.xml")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Title != "café culture" {
		t.Errorf("got %+v, want the title café culture", got)
	}
}

// A topic file's root is an <inex-topic-file>, an <inex_topic> or a list
// of <inex_topic>s (formats.md); its entities expand fully or the file is
// refused, naming the line: a <topic> under another root and an entity
// whose text refers to an undeclared one were used as they stood
// ("&b;" became a title), and an entity of 1 MiB referenced a hundred times
// took 100 MiB.
func TestTopicFileRootsAndEntities(t *testing.T) {
	const dtd = "<!DOCTYPE inex-topic-file [%s]>\n"
	one := "<inex-topic-file><topic id=\"1\"><title>%s</title></topic></inex-topic-file>"
	big := strings.Repeat("x", 1<<20)
	for _, tc := range []struct {
		name, in string
		title    string // when read
		want     string // in the error
	}{
		{"nested entities expand", fmt.Sprintf(dtd, `<!ENTITY b "x"><!ENTITY a "&b;y">`) + fmt.Sprintf(one, "&a;"), "xy", ""},
		{"2006 list under any root", `<topics><inex_topic topic_id="5"><title>t</title></inex_topic></topics>`, "t", ""},
		{"an indri parameter file", "<parameters>\n<query><number>1</number><text>a</text></query></parameters>", "", `x: the root element is <parameters>: a topic file is`},
		{"a <topic> under another root", "<html>\n<topic id=\"1\"><title>a</title></topic></html>", "", "x:2: a <topic> in a file whose root element is <html>"},
		{"an entity referring to an undeclared one", fmt.Sprintf(dtd, `<!ENTITY a "&b;">`) + "\n" + fmt.Sprintf(one, "&a;"), "", "x:3: entity &a; cannot be used: its replacement text refers to the undefined entity &b;"},
		{"an external entity", fmt.Sprintf(dtd, `<!ENTITY e SYSTEM "/etc/passwd">`) + fmt.Sprintf(one, "&e;"), "", "x:2: entity &e; cannot be used: an external entity"},
		{"an undeclared entity", fmt.Sprintf(one, "&zz;"), "", "x:1: undefined entity &zz;"},
		{"entities past the bound", fmt.Sprintf(dtd, `<!ENTITY k "`+big+`">`) + fmt.Sprintf(one, strings.Repeat("&k;", 65)), "", "x:1: its entities could expand to more than 64 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts, err := ReadTopics([]byte(tc.in), "x")
			if tc.want == "" {
				if err != nil || len(ts) != 1 || ts[0].Title != tc.title {
					t.Errorf("%+v, %v; want one topic titled %q", ts, err, tc.title)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%+v, %v; want an error with %q", ts, err, tc.want)
			}
		})
	}
}
