package inex

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
)

func sp(xs ...int) effort.Spans {
	var s effort.Spans
	for i := 0; i+1 < len(xs); i += 2 {
		s = append(s, effort.Span{Start: xs[i], End: xs[i+1]})
	}
	return s
}

func gz(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

func TestReadQrels(t *testing.T) {
	const good = "1 Q0 a 30 100 0 10:20 40:10\n1 Q0 b 0 50 0\n2 Q0 a 5 10 0 8:5\n"
	for _, tc := range []struct {
		name, in string
		warns    int
	}{
		{"LF", good, 1},
		{"CRLF", strings.ReplaceAll(good, "\n", "\r\n"), 1},
		{"gzip", gz(good), 1},
		{"no final newline", strings.TrimSuffix(good, "\n"), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var warns []string
			q, err := ReadQrels("q.txt", strings.NewReader(tc.in), func(s string) { warns = append(warns, s) })
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(q.IDs, []string{"1", "2"}) {
				t.Errorf("IDs %v", q.IDs)
			}
			t1 := q.Topics["1"]
			if t1.Trel != 1 || t1.RelChars != 30 || t1.Docs["b"].NRC != 0 {
				t.Errorf("topic 1: %+v", t1)
			}
			if !reflect.DeepEqual(t1.Docs["a"].Rel, sp(10, 30, 40, 50)) {
				t.Errorf("rel %v", t1.Docs["a"].Rel)
			}
			// 2/a: 8:5 runs past 10 → clipped to [8,10), rsize 5 ≠ 2.
			if a := q.Topics["2"].Docs["a"]; !reflect.DeepEqual(a.Rel, sp(8, 10)) || a.NRC != 2 {
				t.Errorf("2/a %+v", a)
			}
			if len(warns) != 2 || !strings.Contains(warns[0], "q.txt:3:") {
				t.Errorf("warnings %q", warns)
			}
		})
	}
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "q.txt: empty file"},
		{"blank", "\n \r\n", "q.txt: empty file"},
		{"columns", "1 Q0 a 30 100\n", "q.txt:1: 5 columns"},
		{"negative", "1 Q0 a 30 100 0\n1 Q0 b -3 100 0\n", "q.txt:2: negative rsize"},
		{"non-numeric", "1 Q0 a 30 1x0 0\n", `q.txt:1: length "1x0" is not`},
		{"passage", "1 Q0 a 30 100 0 10-20\n", `q.txt:1: passage "10-20"`},
		{"passage length", "1 Q0 a 30 100 0 10:-2\n", `q.txt:1: negative passage length`},
		{"duplicate", "1 Q0 a 30 100 0\n2 Q0 a 1 1 0\n1 Q0 a 30 100 0\n", "q.txt:3: topic 1, article a judged twice (lines 1 and 3)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadQrels("q.txt", strings.NewReader(tc.in), nil)
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestReadRun(t *testing.T) {
	const fol = "1 Q0 a 1 9 r 0 10\n1 Q0 a 2 8 r 20 5\n1 Q0 b 3 7 r 5 5\n2 Q0 c 1 1 r 0 3\n"
	for _, in := range []string{fol, strings.ReplaceAll(fol, "\n", "\r\n"), gz(fol)} {
		r, err := ReadRun("r.fol", strings.NewReader(in), RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r.ID != "r" || r.Format != FOL || r.Lines != 4 || len(r.Topics) != 2 {
			t.Fatalf("%+v", r)
		}
		docs, err := r.Topics[0].Group("r.fol", false, false)
		if err != nil {
			t.Fatal(err)
		}
		want := []RankedArticle{{Article: "a", Ret: sp(0, 10, 20, 25), Entry: -1, Line: 1, Score: 9}, {Article: "b", Ret: sp(5, 10), Entry: -1, Line: 3, Score: 7}}
		if !reflect.DeepEqual(docs, want) {
			t.Errorf("docs %+v", docs)
		}
	}
	r, err := ReadRun("r.trec", strings.NewReader("1 Q0 a 1 2.5 x\n1 Q0 b 2 1.5 x\n"), RunOptions{})
	if err != nil || r.Format != TREC || !r.Topics[0].Results[0].Full {
		t.Fatalf("trec: %v %+v", err, r)
	}
	var warns []string
	if _, err := ReadRun("r", strings.NewReader("1 Q0 a 2 1 r 0 1\n1 Q0 b 1 2 r 0 1\n"), RunOptions{Warn: func(s string) { warns = append(warns, s) }}); err != nil || len(warns) != 1 || !strings.Contains(warns[0], "r:2: warning: rank or rsv") {
		t.Errorf("rank warning: %v %q", err, warns)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "r: empty file"},
		{"columns", "1 Q0 a 1 1 r 0\n", "r:1: 7 columns"},
		{"negative", "1 Q0 a 1 1 r -5 10\n", "r:1: negative offset"},
		{"rsv", "1 Q0 a 1 abc r 0 10\n", `r:1: rsv "abc"`},
		{"rank", "1 Q0 a x 1 r 0 10\n", `r:1: rank "x"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadRun("r", strings.NewReader(tc.in), RunOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestGroup(t *testing.T) {
	for _, tc := range []struct {
		name, in     string
		group, merge bool
		want         []RankedArticle
		err          string
	}{
		{name: "interleaved", in: "1 Q0 a 1 1 r 0 10\n1 Q0 b 2 1 r 0 10\n1 Q0 a 3 1 r 20 10\n",
			err: "r:3: topic 1: article a (line 1) reappears at line 3 after article b (line 2)"},
		{name: "grouped", in: "1 Q0 a 1 1 r 0 10\n1 Q0 b 2 1 r 0 10\n1 Q0 a 3 1 r 20 10\n", group: true,
			want: []RankedArticle{{Article: "a", Ret: sp(0, 10, 20, 30), Entry: -1, Line: 1, Score: 1}, {Article: "b", Ret: sp(0, 10), Entry: -1, Line: 2, Score: 1}}},
		{name: "overlap", in: "1 Q0 a 1 1 r 0 10\n1 Q0 a 2 1 r 5 10\n", err: "r:2: topic 1, article a: this result overlaps the one at line 1"},
		{name: "duplicate", in: "1 Q0 a 1 1 r 0 10\n1 Q0 a 2 1 r 0 10\n", err: "r:2: topic 1, article a: this result repeats the one at line 1"},
		{name: "unordered overlap", in: "1 Q0 a 1 1 r 50 10\n1 Q0 a 2 1 r 0 100\n", err: "r:2: topic 1, article a: this result overlaps the one at line 1"},
		{name: "unordered fine", in: "1 Q0 a 1 1 r 50 10\n1 Q0 a 2 1 r 0 10\n",
			want: []RankedArticle{{Article: "a", Ret: sp(0, 10, 50, 60), Entry: -1, Line: 1, Score: 1}}},
		{name: "merged", in: "1 Q0 a 1 1 r 0 10\n1 Q0 a 2 1 r 5 10\n", merge: true,
			want: []RankedArticle{{Article: "a", Ret: sp(0, 15), Entry: -1, Line: 1, Score: 1}}},
		// TREC: a whole article twice is a repeat, as the same FOL line twice is.
		{name: "trec duplicate", in: "1 Q0 a 1 2 r\n1 Q0 a 2 1 r\n", err: "r:2: topic 1, article a: this result repeats the one at line 1"},
		{name: "trec duplicate later", in: "1 Q0 b 1 3 r\n1 Q0 a 2 2 r\n1 Q0 a 3 1 r\n", err: "r:3: topic 1, article a: this result repeats the one at line 2"},
		{name: "trec grouped duplicate", in: "1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n1 Q0 a 3 1 r\n", group: true, err: "r:3: topic 1, article a: this result repeats the one at line 1"},
		{name: "trec merged duplicate", in: "1 Q0 a 1 2 r\n1 Q0 a 2 1 r\n1 Q0 b 3 1 r\n", merge: true,
			want: []RankedArticle{{Article: "a", Full: true, Entry: -1, Line: 1, Score: 2}, {Article: "b", Full: true, Entry: -1, Line: 3, Score: 1}}},
		{name: "trec distinct", in: "1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n",
			want: []RankedArticle{{Article: "a", Full: true, Entry: -1, Line: 1, Score: 2}, {Article: "b", Full: true, Entry: -1, Line: 2, Score: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkGroup(t, tc.in, tc.group, tc.merge, tc.want, tc.err) })
	}
}

// checkGroup reads the run text (named r) and checks that its first topic's
// results group (RunTopic.Group) into want, or fail with an error holding
// wantErr when it is not "".
func checkGroup(t *testing.T, text string, group, merge bool, want []RankedArticle, wantErr string) {
	t.Helper()
	r, err := ReadRun("r", strings.NewReader(text), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	docs, err := r.Topics[0].Group("r", group, merge)
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("error %v, want %q", err, wantErr)
		}
		return
	}
	if err != nil || !reflect.DeepEqual(docs, want) {
		t.Errorf("%v %+v", err, docs)
	}
}

type fakeResolver map[string][2]int

func (f fakeResolver) Span(article, xpath string) (int, int, error) {
	s, ok := f[article+xpath]
	if !ok {
		return 0, 0, errors.New("no such element")
	}
	return s[0], s[1], nil
}

func TestReadXML(t *testing.T) {
	const sub = `<?xml version="1.0"?>
<inex-submission participant-id="7" run-id="xr" task="RelevantInContext" query="automatic" result-type="element">
  <topic topic-id="2009001">
    <result><file>12</file><rank>1</rank><rsv>2.0</rsv><fol offset="5" length="10"/><fol offset="40" length="5"/></result>
    <result><file>13.xml</file><rank>2</rank><rsv>1.0</rsv><path>/article[1]/bdy[1]</path></result>
    <result><file>14</file><rank>3</rank><rsv>0.5</rsv><bep offset="70"/></result>
    <result><file>15</file><rank>4</rank><rsv>0.1</rsv></result>
  </topic>
</inex-submission>
`
	r, err := ReadRun("s.xml", strings.NewReader(sub), RunOptions{Resolver: fakeResolver{"13/article[1]/bdy[1]": {3, 30}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []Result{
		{Article: "12", Span: effort.Span{Start: 5, End: 15}, Entry: -1, Line: 4, Score: 2},
		{Article: "12", Span: effort.Span{Start: 40, End: 45}, Entry: -1, Line: 4, Score: 2},
		{Article: "13", Span: effort.Span{Start: 3, End: 30}, Entry: -1, Line: 5, Score: 1},
		{Article: "14", Entry: 70, Line: 6, Score: 0.5},
		{Article: "15", Full: true, Entry: -1, Line: 7, Score: 0.1},
	}
	if r.ID != "xr" || r.Format != XML || !reflect.DeepEqual(r.Topics[0].Results, want) {
		t.Errorf("%+v %+v", r, r.Topics[0].Results)
	}
	_, err = ReadRun("s.xml", strings.NewReader(sub), RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "s.xml:5:") || !strings.Contains(err.Error(), "--articles") {
		t.Errorf("without resolver: %v", err)
	}
	_, err = ReadRun("s.xml", strings.NewReader(strings.Replace(sub, `length="5"`, `length="x"`, 1)), RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "s.xml:4:") {
		t.Errorf("bad length: %v", err)
	}
}

// TestReadRunLeadingBlanks checks that blank lines before the first result
// count in the line numbers of errors and warnings (FOL, TREC and XML), and
// that only a whole UTF-8 byte order mark is dropped.
func TestReadRunLeadingBlanks(t *testing.T) {
	const bad = "1 Q0 a 1 1 r 0\n" // 7 columns
	for _, tc := range []struct{ name, in, want string }{
		// Two blank lines: the bad line is line 3.
		{"LF", "\n\n" + bad, "r:3: 7 columns"},
		{"CRLF", "\r\n\r\n" + bad, "r:3: 7 columns"},
		{"spaces", "  \n\t\n" + bad, "r:3: 7 columns"},
		{"indented", "\n  " + bad, "r:2: 7 columns"},
		{"gzip", gz("\n\n\n" + bad), "r:4: 7 columns"},
		{"BOM", "\xEF\xBB\xBF\n" + bad, "r:2: 7 columns"},
		// Good line 3 then the bad line 4.
		{"after results", "\n\n1 Q0 a 1 1 r 0 10\n" + bad, "r:4: 7 columns"},
		// XML: the unnamed rsv is on line 4 (after two blank lines).
		{"XML", "\n\n<inex-submission run-id=\"x\"><topic topic-id=\"1\">\n<result><file>a</file><rsv>zz</rsv></result></topic></inex-submission>\n", `r:4: rsv "zz"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadRun("r", strings.NewReader(tc.in), RunOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	// Warnings too: the disagreeing rank is on line 3.
	var warns []string
	_, err := ReadRun("r", strings.NewReader("\n1 Q0 a 2 1 r 0 1\n1 Q0 b 1 2 r 0 1\n"), RunOptions{Warn: func(s string) { warns = append(warns, s) }})
	if err != nil || len(warns) != 1 || !strings.Contains(warns[0], "r:3: warning: rank or rsv") {
		t.Errorf("rank warning: %v %q", err, warns)
	}
	// A whole BOM is dropped; a lone byte of it makes a topic id that is
	// not UTF-8, refused.
	for _, tc := range []struct{ name, in, topic, err string }{
		{"BOM", "\xEF\xBB\xBF1 Q0 a 1 1 r 0 10\n", "1", ""},
		{"lone EF", "\xEF1 Q0 a 1 1 r 0 10\n", "", `r:1: topic id "\xef1" is not UTF-8 text`},
		{"lone BB", "\xBB1 Q0 a 1 1 r 0 10\n", "", `r:1: topic id "\xbb1" is not UTF-8 text`},
		{"lone BF", "\xBF1 Q0 a 1 1 r 0 10\n", "", `r:1: topic id "\xbf1" is not UTF-8 text`},
		{"EF BB", "\xEF\xBB1 Q0 a 1 1 r 0 10\n", "", `r:1: topic id "\xef\xbb1" is not UTF-8 text`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ReadRun("r", strings.NewReader(tc.in), RunOptions{})
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Topics[0].ID != tc.topic {
				t.Errorf("topic %q, want %q", r.Topics[0].ID, tc.topic)
			}
		})
	}
}

// TestXMLRepeats checks that a repeated whole-article or entry-point result
// of an XML submission is an error naming both lines, unless merged.
func TestXMLRepeats(t *testing.T) {
	const head = "<inex-submission run-id=\"x\">\n<topic topic-id=\"1\">\n"
	const tail = "</topic>\n</inex-submission>\n"
	const whole = "<result><file>a</file></result>\n"
	bep := func(off string) string { return "<result><file>a</file><bep offset=\"" + off + "\"/></result>\n" }
	for _, tc := range []struct {
		name, body string
		merge      bool
		want       []RankedArticle
		err        string
	}{
		// Results start on line 3.
		{name: "whole twice", body: whole + whole, err: "r:4: topic 1, article a: this result repeats the one at line 3"},
		{name: "bep twice", body: bep("10") + bep("10"), err: "r:4: topic 1, article a: this result repeats the one at line 3"},
		{name: "bep twice elsewhere", body: bep("10") + bep("40"), err: "r:4: topic 1, article a: this result repeats the one at line 3"},
		{name: "whole twice merged", body: whole + whole, merge: true, want: []RankedArticle{{Article: "a", Full: true, Entry: -1, Line: 3}}},
		{name: "bep twice merged", body: bep("10") + bep("40"), merge: true, want: []RankedArticle{{Article: "a", Entry: 10, Line: 3}}},
		{name: "one each", body: whole + bep("10"), want: []RankedArticle{{Article: "a", Full: true, Entry: 10, Line: 3}}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkGroup(t, head+tc.body+tail, false, tc.merge, tc.want, tc.err) })
	}
}

// TestXMLStrict checks that malformed XML is an error with its line and that
// a <result> after its topic closed is not filed under that topic.
func TestXMLStrict(t *testing.T) {
	const head = "<inex-submission run-id=\"x\">\n<topic topic-id=\"1\">\n"
	const res = "<result><file>a</file><fol offset=\"0\" length=\"5\"/></result>\n"
	for _, tc := range []struct{ name, in, want string }{
		// Line 3 is the first result line.
		{"unquoted attribute", head + "<result><file>a</file><fol offset=0 length=\"5\"/></result>\n</topic></inex-submission>\n", "r:3: XML:"},
		{"mismatched end tag", head + "<result><file>a</file></rsv></result>\n</topic></inex-submission>\n", "r:3: XML:"},
		{"unknown entity", head + "<result><file>a&foo;</file></result>\n</topic></inex-submission>\n", "r:3: XML:"},
		{"bare ampersand", head + "<result><file>a & b</file></result>\n</topic></inex-submission>\n", "r:3: XML:"},
		{"unclosed", head + res, "r:4: XML:"},
		// The second result (line 5) follows </topic> (line 4).
		{"result after topic", head + res + "</topic>\n" + res + "</inex-submission>\n", "r:5: <result> outside a <topic>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ReadRun("r", strings.NewReader(tc.in), RunOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				n := 0
				if r != nil {
					n = r.Lines
				}
				t.Errorf("error %v (%d results), want %q", err, n, tc.want)
			}
		})
	}
	// Well-formed, with a second topic: each result under its own topic.
	r, err := ReadRun("r", strings.NewReader(head+res+"</topic>\n<topic topic-id=\"2\">\n"+res+"</topic></inex-submission>\n"), RunOptions{})
	if err != nil || len(r.Topics) != 2 || len(r.Topics[0].Results) != 1 || len(r.Topics[1].Results) != 1 || r.Topics[1].Results[0].Line != 6 {
		t.Errorf("two topics: %v %+v", err, r)
	}
}

// TestXMLEncodings checks the encodings a submission may declare: an
// ISO-8859-1 file's byte 0xE9 is é (a file name with it resolves like its
// UTF-8 spelling), and an encoding readsim does not read is an error naming
// it.
func TestXMLEncodings(t *testing.T) {
	body := "<inex-submission run-id=\"caf\xe9\">\n<topic topic-id=\"1\">\n<result><file>a</file><fol offset=\"0\" length=\"5\"/></result>\n</topic></inex-submission>\n"
	r, err := ReadRun("l.xml", strings.NewReader("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n"+body), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != "café" || len(r.Topics) != 1 || r.Topics[0].Results[0].Line != 4 {
		t.Errorf("latin-1: run id %q, %+v", r.ID, r.Topics)
	}
	_, err = ReadRun("k.xml", strings.NewReader("<?xml version=\"1.0\" encoding=\"KOI8-R\"?>\n"+body), RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "k.xml") || !strings.Contains(err.Error(), "KOI8-R") {
		t.Errorf("unknown encoding: %v", err)
	}
}

// A run written in each format reads back as the same results (the XML
// submission groups an article's consecutive passages into one result).
func TestWriteRunRoundTrip(t *testing.T) {
	run := &Run{ID: "w<1>", Format: FOL, Topics: []*RunTopic{
		{ID: "1", Results: []Result{
			{Article: "a", Span: effort.Span{Start: 0, End: 10}, Entry: -1, Score: 2.5, Line: 1},
			{Article: "a", Span: effort.Span{Start: 20, End: 25}, Entry: -1, Score: 2.5, Line: 2},
			{Article: "b&c", Span: effort.Span{Start: 5, End: 6}, Entry: -1, Score: 1, Line: 3},
		}},
		{ID: "2", Results: []Result{{Article: "d", Span: effort.Span{Start: 0, End: 3}, Entry: -1, Score: 0.125, Line: 4}}},
	}}
	for _, f := range []Format{FOL, TREC, XML} {
		r := *run
		r.Format = f
		if f == TREC {
			r.Topics = []*RunTopic{{ID: "1", Results: []Result{
				{Article: "a", Full: true, Entry: -1, Score: 2.5}, {Article: "x", Full: true, Entry: -1, Score: 1},
			}}}
		}
		var b strings.Builder
		if err := WriteRun(&b, &r); err != nil {
			t.Fatal(err)
		}
		back, err := ReadRun("w", strings.NewReader(b.String()), RunOptions{})
		if err != nil {
			t.Fatalf("%v: %v\n%s", f, err, b.String())
		}
		if back.ID != r.ID || back.Format != f || len(back.Topics) != len(r.Topics) {
			t.Fatalf("%v: read back %+v from\n%s", f, back, b.String())
		}
		for i, tp := range r.Topics {
			got := back.Topics[i].Results
			if len(got) != len(tp.Results) {
				t.Fatalf("%v topic %s: %d results, want %d", f, tp.ID, len(got), len(tp.Results))
			}
			for k, want := range tp.Results {
				g := got[k]
				if g.Article != want.Article || g.Start != want.Start || g.End != want.End || g.Full != want.Full || g.Score != want.Score {
					t.Errorf("%v topic %s result %d: %+v, want %+v", f, tp.ID, k, g, want)
				}
			}
		}
	}
	// a whole article has no FOL line
	bad := &Run{Format: FOL, Topics: []*RunTopic{{ID: "1", Results: []Result{{Article: "a", Full: true}}}}}
	if err := WriteRun(io.Discard, bad); err == nil {
		t.Error("a whole-article result written as FOL")
	}
}

// Judgments written and read back are the same.
func TestWriteJudgmentsRoundTrip(t *testing.T) {
	const in = "1 Q0 a 15 100 5 5:10 50:5\n1 Q0 b 0 40 0\n2 Q0 c 3 30 0 0:3\n"
	q, err := ReadQrels("q", strings.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	var js []*Judgment
	for _, id := range q.IDs {
		for _, a := range []string{"a", "b", "c"} {
			if j := q.Topics[id].Docs[a]; j != nil {
				js = append(js, j)
			}
		}
	}
	var b strings.Builder
	if err := WriteJudgments(&b, js); err != nil {
		t.Fatal(err)
	}
	if b.String() != in {
		t.Errorf("written\n%s\nwant\n%s", b.String(), in)
	}
}
