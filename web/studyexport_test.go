package web

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRedactQueries: a query event loses its q and nothing else, in its
// order; other events are left as they are; a line that is no object is
// refused with its file and line.
func TestRedactQueries(t *testing.T) {
	in := `{"ev":"topic","topic":"T1","seq":1,"run":"P-1","t":0,"source":"recorded"}` + "\n" +
		`{"ev":"query","topic":"T1","rank":0,"doc":"","seq":2,"q":"my name \u003cx\u003e","t":5,"source":"recorded"}` + "\n"
	want := `{"ev":"topic","topic":"T1","seq":1,"run":"P-1","t":0,"source":"recorded"}` + "\n" +
		`{"ev":"query","topic":"T1","rank":0,"doc":"","seq":2,"t":5,"source":"recorded"}` + "\n"
	got, err := redactQueries("P-1.jsonl", []byte(in))
	if err != nil || string(got) != want {
		t.Errorf("%q %v\nwant %q", got, err, want)
	}
	if _, err := redactQueries("P-1.jsonl", []byte(in+`{"ev":"query",`+"\n")); err == nil || !strings.HasPrefix(err.Error(), "P-1.jsonl:3: ") {
		t.Errorf("a torn query line: %v", err)
	}
}

// FuzzRedactQueries: whatever a recording holds, redaction gives lines
// without a query's words or an error naming the file and line, never a
// panic.
func FuzzRedactQueries(f *testing.F) {
	f.Add([]byte(`{"ev":"query","topic":"T1","seq":2,"q":"secret","t":5}` + "\n"))
	f.Add([]byte(`{"ev":"query","q":{"q":"secret"},"x":[1,{"q":2}]}` + "\n"))
	f.Add([]byte(`{ "ev" : "query" , "q" : "secret" }` + "\n" + `{"ev":"read","q":"query"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := redactQueries("r.jsonl", b)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "r.jsonl:") {
				t.Errorf("an error without the file: %v", err)
			}
			return
		}
		for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
			var m map[string]json.RawMessage
			if json.Unmarshal([]byte(l), &m) == nil && string(m["ev"]) == `"query"` && m["q"] != nil {
				t.Errorf("a query's words kept: %s", l)
			}
		}
	})
}
