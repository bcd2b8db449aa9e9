package inex

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
)

// One file of each kind, for the detectors.
const (
	folQrels      = "1 Q0 a 30 100 0 10:20 40:10\n1 Q0 b 0 50 0\n"
	trecQrels     = "1 0 a 1\n1 0 b 0\n"
	genomicsQrels = "200\t14747618\t64716\t19412\tICAM-1|TNF-ALPHA|CD14\n200\t10662869\t40671\t1038\tANTI-DS DNA ANTIBODIES|KR\xfcPPEL\n"
	spanQrels     = "q1 doc1 0 120 2 a|b\nq1 doc2 40 60\n"
	folRun        = "1 Q0 a 1 1.5 r 10 20\n"
	trecRun       = "1 Q0 a 1 1.5 r\n"
	genomicsRun   = "200 12595615 1 48.63 28426 295 yorkuga1\n200 12595615 2 46.25 3839 339 yorkuga1\n"
)

// Every judgments detector on every kind of file: each file is read as
// what it is, and a run given as judgments (swapped arguments) is named.
func TestDetectQrels(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		format   QrelsFormat
		err      string
	}{
		{"FOL", folQrels, FOLQrels, ""},
		{"FOL, one passage (7 columns)", "1 Q0 12345 10 100 0 10:10\n", FOLQrels, ""},
		{"TREC", trecQrels, TRECQrels, ""},
		{"TREC, numeric documents", "1 0 12345 1\n", TRECQrels, ""},
		{"TREC, Q0", "1 Q0 12345 2\n", TRECQrels, ""},
		{"Genomics", genomicsQrels, GenomicsQrels, ""},
		{"span", spanQrels, SpanQrels, ""},
		{"span, 4 columns", "q1 12345 0 10\n", SpanQrels, ""},
		{"span, tabs", "q1\td\t0\t10\t1\n", SpanQrels, ""},
		{"FOL run", folRun, 0, "q:1: this looks like a run"},
		{"TREC run", trecRun, 0, "q:1: this looks like a run"},
		{"Genomics run", genomicsRun, 0, "q:1: this looks like a run"},
		{"Genomics run, integer scores", "200 123 1 48 28426 295 r\n", 0, "q:1: this looks like a run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, err := ReadQrels("q", strings.NewReader(tc.in), nil)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if q.Format != tc.format {
				t.Errorf("format %v, want %v", q.Format, tc.format)
			}
		})
	}
}

// Every run detector on every kind of file: a Genomics run is never read
// as FOL or TREC, judgments given as a run are named.
func TestDetectRun(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		format   Format
		err      string
	}{
		{"FOL", folRun, FOL, ""},
		{"TREC", trecRun, TREC, ""},
		{"Genomics", genomicsRun, Genomics, ""},
		{"Genomics, tabs", strings.ReplaceAll(genomicsRun, " ", "\t"), Genomics, ""},
		{"FOL judgments", folQrels, 0, "r:1: this looks like judgments"},
		{"FOL judgment, one passage", "1 Q0 a 30 100 0 10:20\n", 0, "r:1: this looks like judgments"},
		{"TREC qrels", trecQrels, 0, "r:1: this looks like judgments"},
		{"Genomics judgments", genomicsQrels, 0, "r:1: this looks like judgments (span or TREC Genomics)"},
		{"span judgments", "q1 doc2 40 60\n", 0, "r:1: this looks like judgments (span or TREC Genomics)"},
		{"a FOL line a column short", "1 Q0 a 1 1 r 0\n", 0, "r:1: 7 columns, want 8 (FOL"},
		{"Genomics then FOL", genomicsRun + folRun, 0, "r:3: 8 columns, want 7 as the lines before"},
		{"FOL then Genomics", folRun + genomicsRun, 0, "r:2: 7 columns, want 8 (FOL"},
		{"TREC then Genomics", trecRun + genomicsRun, 0, "r:2: 7 columns"},
		{"negative length", "200 1 1 1.0 10 -5 r\n", 0, `r:1: negative length "-5"`},
		{"bad rank", "200 1 x 1.0 10 5 r\n", 0, `r:1: rank "x" is not`},
		{"bad score", "200 1 1 NaN 10 5 r\n", 0, `r:1: rsv "NaN" is not a finite number`},
		{"bad offset", "200 1 1 1.0 1e3 5 r\n", 0, `r:1: offset "1e3" is not`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ReadRun("r", strings.NewReader(tc.in), RunOptions{})
			if tc.err != "" {
				var e *Error
				if !errors.As(err, &e) || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want an *Error with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Format != tc.format {
				t.Errorf("format %v, want %v", r.Format, tc.format)
			}
		})
	}
}

func TestReadGenomicsRun(t *testing.T) {
	var warns []string
	r, err := ReadRun("r", strings.NewReader("200 9 2 5.0 10 5 run-a\n200 10 1 6.0 0 5 run-a\n201 9 1 1 0 0 run-a\n"), RunOptions{Warn: func(s string) { warns = append(warns, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != "run-a" || !r.Ranked || len(r.Topics) != 2 || r.Lines != 3 {
		t.Fatalf("run %+v", r)
	}
	want := []Result{
		{Article: "9", Span: effort.Span{Start: 10, End: 15}, Entry: -1, Score: 5, Rank: 2, Line: 1},
		{Article: "10", Span: effort.Span{Start: 0, End: 5}, Entry: -1, Score: 6, Rank: 1, Line: 2},
	}
	if !reflect.DeepEqual(r.Topics[0].Results, want) {
		t.Errorf("results %+v", r.Topics[0].Results)
	}
	// Rank 1 after rank 2: the official measures order by rank; the score
	// is not looked at (NIST's scorer ignores it).
	if len(warns) != 2 || !strings.Contains(warns[0], "r:2: warning: rank disagrees with the line order") ||
		!strings.Contains(warns[1], "r:3: warning: zero-length passages (they retrieve nothing): 1 line") {
		t.Errorf("warnings %q", warns)
	}
	// Written back in the Genomics format, read again.
	var b bytes.Buffer
	if err := WriteRun(&b, r); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != "200 9 1 5.000000 10 5 run-a\n200 10 2 6.000000 0 5 run-a\n201 9 1 1.000000 0 0 run-a\n" {
		t.Errorf("written %q", got)
	}
}

func TestReadGenomicsQrels(t *testing.T) {
	q, err := ReadQrels("g", strings.NewReader(genomicsQrels+
		"200\t10662869\t40671\t1038\tOTHER\n"+ // the same passage again: one ID, first line's aspects first
		"200\t10662869\t40000\t1000\t\n"+ // an empty aspects field: the aspect "" (NIST)
		"201\t1\t5\t0\t X | Y |X\n"), nil) // zero length; aspects trimmed, repeats once
	if err != nil {
		t.Fatal(err)
	}
	if q.Format != GenomicsQrels || q.Unit != Bytes || !q.Aspects() || !q.Passages() || q.Lengths() {
		t.Fatalf("qrels %+v", q)
	}
	t200 := q.Topics["200"]
	// aspects: ICAM-1 TNF-ALPHA CD14 | ANTI-DS DNA ANTIBODIES, KR\xfcPPEL | OTHER | ""
	if t200.Trel != 2 || t200.GoldPassages != 3 || t200.Aspects != 7 || t200.RelChars != 19412+1709 {
		t.Errorf("topic 200: trel %d, passages %d, aspects %d, chars %d", t200.Trel, t200.GoldPassages, t200.Aspects, t200.RelChars)
	}
	j := t200.Docs["10662869"]
	if len(j.Passages) != 3 || j.Passages[0].ID != j.Passages[1].ID || j.Passages[2].ID == j.Passages[0].ID ||
		!reflect.DeepEqual(j.Passages[0].Aspects, []int{3, 4}) || !reflect.DeepEqual(j.Passages[1].Aspects, []int{5}) || len(j.Passages[2].Aspects) != 1 {
		t.Errorf("passages %+v", j.Passages)
	}
	if !reflect.DeepEqual(j.Rel, effort.Spans{{Start: 40000, End: 41709}}) {
		t.Errorf("rel %v", j.Rel)
	}
	t201 := q.Topics["201"]
	if t201.Trel != 1 || t201.RelChars != 0 || t201.Aspects != 2 || !reflect.DeepEqual(t201.Docs["1"].Passages[0].Aspects, []int{0, 1}) {
		t.Errorf("topic 201 %+v %+v", t201, t201.Docs["1"].Passages)
	}
}

func TestReadSpanQrels(t *testing.T) {
	q, err := ReadQrels("s", strings.NewReader("q1 d1 0 10\nq1 d1 20 10 2 x|y\nq1 d2 0 50 0\nq2\td1\t5\t5\tan aspect|x\nq1 d1 5 10 1\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if q.Format != SpanQrels || q.Unit != Chars || !q.Aspects() {
		t.Fatalf("qrels %+v", q)
	}
	t1 := q.Topics["q1"]
	d1, d2 := t1.Docs["d1"], t1.Docs["d2"]
	if d1.Grade != 2 || d1.Line != 1 || !reflect.DeepEqual(d1.Rel, effort.Spans{{Start: 0, End: 15}, {Start: 20, End: 30}}) || d1.NRC != 25 {
		t.Errorf("d1 %+v", d1)
	}
	if d2.Grade != 0 || d2.Relevant() || len(d2.Passages) != 0 || d2.NRC != 0 {
		t.Errorf("d2 (grade 0) %+v", d2)
	}
	if t1.Trel != 1 || t1.RelChars != 25 || t1.GoldPassages != 3 || t1.Aspects != 2 || !reflect.DeepEqual(t1.Ideal, []int{2}) {
		t.Errorf("q1 %+v", t1)
	}
	if t2 := q.Topics["q2"]; t2.Aspects != 2 {
		t.Errorf("q2: %d aspects", t2.Aspects)
	}
	// Without an aspects column there are no aspects.
	q, _ = ReadQrels("s", strings.NewReader("q1 d1 0 10\n"), nil)
	if q.Aspects() {
		t.Error("aspects without an aspects column")
	}
}

func TestSpanQrelsErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"Genomics, 4 columns", genomicsQrels + "200\t1\t0\t10\n", "q:3: 4 columns, want 5 as the lines before (TREC Genomics"},
		{"Genomics, 6 columns", genomicsQrels + "200\t1\t0\t10\tA\tB\n", "q:3: 6 columns, want 5"},
		{"span, 7 columns", spanQrels + "q1 d 0 1 1 a b\n", "q:3: 7 columns, want 4 to 6"},
		{"span, 3 columns", spanQrels + "q1 d 0\n", "q:3: 3 columns"},
		{"negative offset", spanQrels + "q1 d -1 5\n", `q:3: negative offset "-1"`},
		{"bad length", genomicsQrels + "200\t1\t0\tten\tA\n", `q:3: length "ten" is not`},
		{"bad grade", spanQrels + "q1 d 0 5 x a\n", `q:3: relevance "x"`},
		{"empty document", "200\t\t0\t10\tA\n", "q:1: empty topic or document id"},
		{"past the limit", "q d 1073741800 100\n", "q:1: passage 1073741800:100 ends past"},
		{"a run line later", spanQrels + genomicsRun, "q:3: 7 columns"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadQrels("q", strings.NewReader(tc.in), nil)
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want an *Error with %q", err, tc.want)
			}
		})
	}
}

func TestReadLengths(t *testing.T) {
	ls, err := ReadLengths("l", strings.NewReader("a 100\n\nb\t50\na 100\n"))
	if err != nil || !reflect.DeepEqual(ls, map[string]int{"a": 100, "b": 50}) {
		t.Errorf("lengths %v, %v", ls, err)
	}
	for _, tc := range []struct{ in, want string }{
		{"", "l: empty file"},
		{"a 100\na 90\n", "l:2: document a has two lengths, 100 (line 1) and 90"},
		{"a 100 x\n", "l:1: 3 columns, want 2"},
		{"a -1\n", `l:1: negative length "-1"`},
	} {
		if _, err := ReadLengths("l", strings.NewReader(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestSetLengthsAndUnit(t *testing.T) {
	fol, _ := ReadQrels("f", strings.NewReader(folQrels), nil)
	trec, _ := ReadQrels("t", strings.NewReader(trecQrels), nil)
	for _, q := range []*Qrels{fol, trec} {
		if err := q.SetLengths(map[string]int{"a": 1}, "l", nil); err == nil || !strings.Contains(err.Error(), "--lengths l is for span judgments") {
			t.Errorf("%s: %v", q.Format, err)
		}
	}
	if err := fol.SetUnit(Bytes); err == nil || !strings.Contains(err.Error(), "INEX judgments count characters") {
		t.Errorf("FOL in bytes: %v", err)
	}
	if err := trec.SetUnit(Chars); err == nil || !strings.Contains(err.Error(), "no offsets") {
		t.Errorf("TREC offsets: %v", err)
	}
	g, _ := ReadQrels("g", strings.NewReader(genomicsQrels), nil)
	if err := g.SetUnit(Chars); err != nil || g.Unit != Chars {
		t.Errorf("Genomics in chars: %v", err)
	}
	if u, err := ParseUnit("bytes"); err != nil || u != Bytes || u.String() != "bytes" {
		t.Errorf("ParseUnit: %v %v", u, err)
	}
	if _, err := ParseUnit("words"); err == nil {
		t.Error("ParseUnit(words)")
	}
}

// OpenQrelsWith gives span judgments their unit and lengths; each step's
// error comes out naming its file.
func TestOpenQrelsWith(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := dir + "/" + name
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	span, fol := write("span.txt", spanQrels), write("fol.qrels", folQrels)
	lengths, short := write("lengths.txt", "doc1 200\ndoc2 100\n"), write("short.txt", "doc1 200\n")
	bytes := Bytes
	for _, tc := range []struct {
		name, path string
		unit       *Unit
		lengths    string
		want       Unit
		hasLengths bool
		err        string
	}{
		{"span, as read", span, nil, "", Chars, false, ""},
		{"span in bytes with lengths", span, &bytes, lengths, Bytes, true, ""},
		{"FOL", fol, nil, "", Chars, true, ""},
		{"FOL in bytes", fol, &bytes, "", 0, false, "INEX judgments count characters"},
		{"a document without a length", span, nil, short, 0, false, "document doc2"},
		{"no lengths file", span, nil, dir + "/nosuch", 0, false, "nosuch"},
		{"no judgments", dir + "/none", nil, "", 0, false, "none"},
	} {
		q, err := OpenQrelsWith(tc.path, tc.unit, tc.lengths, nil)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || q.Unit != tc.want || q.Lengths() != tc.hasLengths {
			t.Errorf("%s: unit %v, lengths %v, %v; want %v, %v", tc.name, q.Unit, q.Lengths(), err, tc.want, tc.hasLengths)
		}
	}
}
