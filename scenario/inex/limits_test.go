package inex

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// gzipRepeat returns a gzip file whose content is head followed by body
// repeated n times, made small and fast: body is compressed once as one
// gzip member, which is concatenated (a gzip reader reads the members
// one after another).
func gzipRepeat(t testing.TB, head string, body string, n int) []byte {
	t.Helper()
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestCompression)
	zw.Write([]byte(head))
	zw.Close()
	var m bytes.Buffer
	zw, _ = gzip.NewWriterLevel(&m, gzip.BestCompression)
	zw.Write([]byte(body))
	zw.Close()
	for range n {
		out.Write(m.Bytes())
	}
	return out.Bytes()
}

// readers are every text reader of the package, by name.
var readers = []struct {
	name string
	read func(name string, r io.Reader) error
}{
	{"run", func(n string, r io.Reader) error { _, err := ReadRun(n, r, RunOptions{}); return err }},
	{"judgments", func(n string, r io.Reader) error { _, err := ReadQrels(n, r, nil); return err }},
	{"lengths", func(n string, r io.Reader) error { _, err := ReadLengths(n, r); return err }},
	{"text lines", func(n string, r io.Reader) error {
		return TextLines(n, r, func(int, []byte) error { return nil })
	}},
}

// A gzip bomb (newlines that decompress a thousand times their size) stops
// at the gzip ratio, having read a small part of the file; a run, judgments
// or lengths with an error at line 2 of 20 million lines stops at line 2,
// having read only the start of the file.
func TestGzipBounds(t *testing.T) {
	// 2 GiB of newlines: 32 members of 64 MiB each
	bomb := gzipRepeat(t, "", strings.Repeat("\n", 64<<20), 32)
	if len(bomb) > 4<<20 {
		t.Fatalf("the bomb is %d bytes compressed: the test meant it small", len(bomb))
	}
	for _, rd := range readers {
		t.Run("bomb/"+rd.name, func(t *testing.T) {
			c := &countReader{r: bytes.NewReader(bomb)}
			err := rd.read("bomb.gz", c)
			if err == nil || !strings.Contains(err.Error(), "times its size") || !strings.Contains(err.Error(), "bomb.gz:") {
				t.Fatalf("err = %v, want the gzip ratio refused", err)
			}
			// the ratio is reached by 200 × 64 KiB (the read-ahead)
			// decompressed: far from the whole file
			if c.n >= int64(len(bomb)) {
				t.Errorf("read %d of %d compressed bytes: the whole file", c.n, len(bomb))
			}
		})
	}
	lines := []struct {
		reader, good, bad, want string
	}{
		{"run", "1 Q0 a 1 1.0 r 0 10\n", "1 Q0 a x 1.0 r 0 10\n", `:2: rank "x" is not a non-negative integer`},
		{"judgments", "1 Q0 a 10 100 0 0:10\n", "1 Q0 b 10 -5 0 0:10\n", `:2: negative length "-5"`},
		{"lengths", "a 100\n", "b x\n", `:2: length "x" is not a non-negative integer`},
	}
	for _, tc := range lines {
		t.Run("line 2/"+tc.reader, func(t *testing.T) {
			// 20 million lines: 20 members of a million lines
			gz := gzipRepeat(t, tc.good+tc.bad, strings.Repeat(tc.good, 1_000_000), 20)
			c := &countReader{r: bytes.NewReader(gz)}
			for _, rd := range readers {
				if rd.name != tc.reader {
					continue
				}
				err := rd.read("big.gz", c)
				if err == nil || !strings.Contains(err.Error(), "big.gz"+tc.want) {
					t.Fatalf("err = %v, want %q", err, tc.want)
				}
			}
			if c.n > 1<<20 {
				t.Errorf("read %d compressed bytes before the error at line 2", c.n)
			}
		})
	}
}

// newlines is an endless stream of newlines.
type newlines struct{}

func (newlines) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '\n'
	}
	return len(p), nil
}

// A file of more than MaxLines lines stops at line MaxLines+1.
func TestMaxLines(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 100 million lines")
	}
	err := TextLines("many", newlines{}, func(int, []byte) error { return nil })
	want := "many:100000001: more than 100000000 lines"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

// Open refuses what is not a regular file, and a file larger than its
// bound by its size, before reading it: a sparse file of 5 GiB (no disk
// used) is refused at once.
func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	if err := syscall.Mkfifo(p("fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(p("sparse"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(5 << 30); err != nil {
		t.Skip("no sparse file here:", err)
	}
	f.Close()
	os.WriteFile(p("small"), []byte("0123456789"), 0o644)
	for _, tc := range []struct {
		path string
		max  int64
		want string
	}{
		{p("fifo"), 0, "fifo: not a regular file"},
		{dir, 0, ": a folder, not a file"},
		{p("sparse"), 0, "sparse: 5368709120 bytes, larger than 4 GiB"},
		{p("small"), 9, "small: 10 bytes, larger than 9 bytes"},
		{p("none"), 0, "none: no such file"},
	} {
		f, err := Open(tc.path, tc.max)
		if err == nil {
			f.Close()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%s) = %v, want %q", tc.path, err, tc.want)
		}
	}
	if f, err := Open(p("small"), 10); err != nil {
		t.Errorf("a file of its bound: %v", err)
	} else {
		f.Close()
	}
}

// One rule for byte-order marks: a UTF-8 BOM is dropped by every reader
// (the judgments read with one equal those read without), and UTF-16 and
// UTF-32 are refused naming the encoding, as is gzip inside gzip.
func TestByteOrderMarks(t *testing.T) {
	bom := "\xef\xbb\xbf"
	for _, tc := range []struct{ name, in string }{
		{"FOL", folQrels}, {"TREC", trecQrels}, {"Genomics", genomicsQrels}, {"span", spanQrels},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plain, err := ReadQrels("q", strings.NewReader(tc.in), nil)
			if err != nil {
				t.Fatal(err)
			}
			var gz bytes.Buffer
			zw := gzip.NewWriter(&gz)
			zw.Write([]byte(bom + tc.in))
			zw.Close()
			for _, in := range []io.Reader{strings.NewReader(bom + tc.in), &gz} {
				q, err := ReadQrels("q", in, nil)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Join(q.IDs, " ") != strings.Join(plain.IDs, " ") {
					t.Errorf("topics %q with a BOM, %q without", q.IDs, plain.IDs)
				}
				for _, id := range plain.IDs {
					if len(q.Topics[id].Docs) != len(plain.Topics[id].Docs) {
						t.Errorf("topic %s: %d judgments with a BOM, %d without", id, len(q.Topics[id].Docs), len(plain.Topics[id].Docs))
					}
				}
			}
		})
	}
	var inner, outer bytes.Buffer
	zw := gzip.NewWriter(&inner)
	zw.Write([]byte(folQrels))
	zw.Close()
	zw = gzip.NewWriter(&outer)
	zw.Write(inner.Bytes())
	zw.Close()
	for _, tc := range []struct{ name, in, want string }{
		{"gzip inside gzip", outer.String(), "f: gzip data inside gzip data"},
		{"UTF-16 LE", "\xff\xfe1\x00 \x00", "UTF-16"},
		{"UTF-16 BE", "\xfe\xff\x001\x00 ", "UTF-16"},
		{"UTF-32 LE", "\xff\xfe\x00\x001\x00\x00\x00", "UTF-32"},
		{"UTF-32 BE", "\x00\x00\xfe\xff\x00\x00\x001", "UTF-32"},
	} {
		for _, rd := range readers {
			err := rd.read("f", strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s, %s: err = %v, want %q", tc.name, rd.name, err, tc.want)
			}
		}
	}
}

// What was accepted silently is refused, or accepted with a named warning
// that names the first line (issue 24).
func TestSilentAcceptances(t *testing.T) {
	for _, tc := range []struct {
		name, reader, in string
		err, warning     string
	}{
		{"a zero-length FOL passage", "judgments", "1 Q0 a 10 100 0 0:10 50:0\n", "", "q:1: warning: zero-length passages (ignored)"},
		{"a bep past the article", "judgments", "1 Q0 a 10 100 150 0:10\n", "", "q:1: warning: bep past the article's length"},
		{"a zero-length span", "judgments", "q1 d1 0 10\nq1 d2 5 0\n", "", "q:2: warning: zero-length passages (kept"},
		{"duplicate span judgments", "judgments", "q1 d1 0 10\nq1 d1 20 5\nq1 d1 0 10\n", "", "q:3: warning: duplicate span judgments"},
		{"duplicate Genomics judgments", "judgments", "200\t1\t0\t10\tA\n200\t1\t0\t10\tB\n", "", "q:2: warning: duplicate span judgments"},
		{"a NUL in a FOL topic", "judgments", "1\x00 Q0 a 10 100 0 0:10\n", `q:1: topic id "1\x00" holds a NUL byte`, ""},
		{"Latin-1 in a TREC qrels document", "judgments", "1 0 caf\xe9 1\n", `q:1: document id "caf\xe9" is not UTF-8 text`, ""},
		{"a NUL in a span document", "judgments", "q1 d\x001 0 10\n", `q:1: document id "d\x001" holds a NUL byte`, ""},
		{"a NUL in a run's article", "run", "1 Q0 a\x00 1 1.0 r 0 10\n", `q:1: article id "a\x00" holds a NUL byte`, ""},
		{"invalid UTF-8 in a run's topic", "run", "1 Q0 a 1 1.0 r 0 10\n\xff Q0 a 1 1.0 r 0 10\n", `q:2: topic id "\xff" is not UTF-8 text`, ""},
		{"a zero-length run passage", "run", "1 Q0 a 1 1.0 r 0 10\n1 Q0 b 2 0.5 r 7 0\n", "", "q:2: warning: zero-length passages (they retrieve nothing)"},
		{"a NUL in a lengths document", "lengths", "a 10\nb\x00 10\n", `q:2: document id "b\x00" holds a NUL byte`, ""},
		{"a NUL in a plain topic id", "topics", "1 bridges\n2\x00 pigeons\n", `q:2: topic id "2\x00" holds a NUL byte`, ""},
		{"Latin-1 in a plain topic id", "topics", "caf\xe9 culture\n", `q:1: topic id "caf\xe9" is not UTF-8 text`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var warns []string
			warn := func(s string) { warns = append(warns, s) }
			var err error
			switch tc.reader {
			case "judgments":
				_, err = ReadQrels("q", strings.NewReader(tc.in), warn)
			case "run":
				_, err = ReadRun("q", strings.NewReader(tc.in), RunOptions{Warn: warn})
			case "lengths":
				_, err = ReadLengths("q", strings.NewReader(tc.in))
			case "topics":
				_, err = ReadTopics([]byte(tc.in), "q")
			}
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(warns) != 1 || !strings.HasPrefix(warns[0], tc.warning) {
				t.Errorf("warnings %q, want one %q", warns, tc.warning)
			}
		})
	}
}

// BenchmarkTextLines reads 32 MiB of run lines through the one decoder,
// plain and gzip: the cost of the bounds (a count per read, a line count
// per line) is in the numbers of the plain case.
func BenchmarkTextLines(b *testing.B) {
	var text bytes.Buffer
	for i := 0; text.Len() < 32<<20; i++ {
		fmt.Fprintf(&text, "%d Q0 %d %d %.4f run %d %d\n", i/1500, 1000+i%7919, i%1500+1, 1/float64(i%1500+1), i%5000, 300)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(text.Bytes())
	zw.Close()
	for _, tc := range []struct {
		name string
		in   []byte
	}{{"plain", text.Bytes()}, {"gzip", gz.Bytes()}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(text.Len()))
			for b.Loop() {
				n := 0
				if err := TextLines("r", bytes.NewReader(tc.in), func(int, []byte) error { n++; return nil }); err != nil || n == 0 {
					b.Fatal(err, n)
				}
			}
		})
	}
}

// A span judgment of 200,000 aspects (a 1.5 MB line), one of them listed
// twice, is read at once: its passage has each aspect once, the topic
// counts them all.
func TestManyAspects(t *testing.T) {
	const n = 200_000
	var b strings.Builder
	b.WriteString("q1 d1 0 10 1 ")
	for i := range n {
		fmt.Fprintf(&b, "a%d|", i)
	}
	b.WriteString("a7\n")
	q, err := ReadQrels("q", strings.NewReader(b.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	tj := q.Topics["q1"]
	if got := len(tj.Docs["d1"].Passages[0].Aspects); tj.Aspects != n || got != n {
		t.Errorf("%d aspects in the topic, %d in the passage; want %d", tj.Aspects, got, n)
	}
}

// A UTF-8 byte-order mark before a topic file, plain or XML, is no part of
// the first topic's id.
func TestTopicsByteOrderMark(t *testing.T) {
	for _, in := range []string{
		"\xef\xbb\xbf2026001 bridges\n",
		"\xef\xbb\xbf<inex-topic-file><topic id=\"2026001\"><title>bridges</title></topic></inex-topic-file>",
	} {
		ts, err := ReadTopics([]byte(in), "t")
		if err != nil || len(ts) != 1 || ts[0].ID != "2026001" {
			t.Errorf("%q: %+v, %v; want topic 2026001", in, ts, err)
		}
	}
}
