package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/readsim/readsim/index/article/shareddata"
)

// gzipMembers returns a gzip file of head followed by body n times, small
// and quick to make: body is compressed once and its member repeated.
func gzipMembers(t *testing.T, head, body string, n int) []byte {
	t.Helper()
	member := func(s string) []byte {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write([]byte(s))
		zw.Close()
		return b.Bytes()
	}
	out := member(head)
	m := member(body)
	for range n {
		out = append(out, m...)
	}
	return out
}

// Issue 24's catalogue of inputs past a bound, or silently accepted: each
// is refused with exit status 2 and a message naming the file (and line)
// and the bound, before the work (a gzip bomb at its ratio, a line's error
// at its line, a FIFO and a 2 GiB sparse file without reading them).
func TestInputBoundsCatalogue(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	good := "1 Q0 a 10 100 0 0:10\n"
	run := "1 Q0 a 1 1.0 r 0 10\n"
	topic := `{"ev":"topic","topic":"1","seq":1}` + "\n"
	bomb := gzipMembers(t, "", strings.Repeat("\n", 64<<20), 32) // 2 GiB of newlines in 2 MB
	files := map[string][]byte{
		"q":              []byte(good),
		"run":            []byte(run),
		"bomb.gz":        bomb,
		"line2.gz":       gzipMembers(t, run+"1 Q0 b x 1.0 r 0 10\n", strings.Repeat(run, 1_000_000), 20),
		"hl":             []byte("topic 1\narticle 1001\n"),
		"dup.jsonl":      []byte(topic + `{"ev":"open","topic":"1","doc":"a","seq":2,"len":100,"len":100}` + "\n"),
		"unknown.jsonl":  []byte(topic + `{"ev":"open","topic":"1","doc":"a","seq":2,"length":100}` + "\n"),
		"garbage.jsonl":  []byte(topic + `{"ev":"open","topic":"1","doc":"a","seq":2} {}` + "\n"),
		"outcome.jsonl":  []byte(topic + `{"ev":"done","topic":"1","seq":2,"outcome":"maybe"}` + "\n"),
		"len.jsonl":      []byte(topic + `{"ev":"open","topic":"1","doc":"a","seq":2,"len":99}` + "\n"),
		"utf16.jsonl":    append([]byte{0xFF, 0xFE}, []byte("{\x00\"\x00")...),
		"readings.bomb":  bomb,
		"bom.qrels":      []byte("\xef\xbb\xbf" + good),
		"utf32.qrels":    []byte("\xff\xfe\x00\x001\x00\x00\x00"),
		"a.xml.gz":       gzipMembers(t, "<article><name>x</name><body>x</body></article>", "", 0),
		"bomb-topics.gz": gzipMembers(t, "", strings.Repeat(" ", 64<<20), 2),
	}
	for n, b := range files {
		if err := os.WriteFile(p(n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fifo := p("fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	// sparse files: their size costs no disk
	sparse, bigReading := p("sparse.xml"), p("big.jsonl")
	for path, size := range map[string]int64{sparse: 2 << 30, bigReading: 415 << 20} {
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(path, size); err != nil {
			t.Fatal(err)
		}
	}
	articles := "../../corpus-sample/articles"
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"--t2i past 10^9", []string{"replay", "--qrels", p("q"), "--run", p("run"), "--t2i", "1000000001"}, []string{"--t2i must be from 0 to 1000000000"}},
		{"--screen past 10^9", []string{"replay", "--qrels", p("q"), "--run", p("run"), "--screen", "1000000001"}, []string{"--screen and --nr from 1 to 1000000000"}},
		{"--nr past 10^9", []string{"replay", "--qrels", p("q"), "--run", p("run"), "--nr", "1000000001"}, []string{"--screen and --nr from 1 to 1000000000"}},
		{"a gzip bomb as a run", []string{"eval", "--qrels", p("q"), p("bomb.gz")}, []string{p("bomb.gz") + ":", "decompresses to more than 200 times its size"}},
		{"a gzip bomb as judgments", []string{"eval", "--qrels", p("bomb.gz"), p("run")}, []string{p("bomb.gz") + ":", "200 times its size"}},
		{"a gzip bomb as lengths", []string{"eval", "--qrels", p("q"), "--lengths", p("bomb.gz"), p("run")}, []string{p("bomb.gz")}},
		{"a gzip bomb as highlights", []string{"assess", "--articles", articles, p("bomb.gz")}, []string{p("bomb.gz") + ":", "200 times its size"}},
		{"a gzip bomb as readings", []string{"eval", "--qrels", p("q"), "--readings", p("readings.bomb")}, []string{p("readings.bomb") + ":", "200 times its size"}},
		{"a gzip bomb as topics", []string{"run", "--index", p("none"), "--topics", p("bomb-topics.gz")}, []string{p("bomb-topics.gz")}},
		{"an error at line 2 of 20 million", []string{"eval", "--qrels", p("q"), p("line2.gz")}, []string{p("line2.gz") + ":2:", `rank "x"`}},
		{"assess on a FIFO", []string{"assess", "--articles", articles, fifo}, []string{fifo + ": not a regular file"}},
		{"readings on a FIFO", []string{"eval", "--qrels", p("q"), "--readings", fifo}, []string{fifo + ": not a regular file"}},
		{"topics on a FIFO", []string{"run", "--index", p("none"), "--topics", fifo}, []string{fifo}},
		{"inspect a 2 GiB sparse file", []string{"inspect", sparse}, []string{sparse + ": 2147483648 bytes, larger than 32 MiB"}},
		{"inspect a FIFO", []string{"inspect", fifo}, []string{fifo + ": not a regular file"}},
		{"inspect a gzip article", []string{"inspect", p("a.xml.gz")}, []string{p("a.xml.gz") + ": gzip data"}},
		{"415 MB of readings", []string{"eval", "--qrels", p("q"), "--readings", bigReading}, []string{bigReading + ": 435159040 bytes, larger than 256 MiB"}},
		{"a reading's duplicate key", []string{"eval", "--qrels", p("q"), "--readings", p("dup.jsonl")}, []string{p("dup.jsonl") + ":2: not a trace event", "duplicate"}},
		{"a reading's unknown field", []string{"eval", "--qrels", p("q"), "--readings", p("unknown.jsonl")}, []string{p("unknown.jsonl") + ":2: not a trace event", "length"}},
		{"garbage after a reading's object", []string{"eval", "--qrels", p("q"), "--readings", p("garbage.jsonl")}, []string{p("garbage.jsonl") + ":2: not a trace event"}},
		{"a reading's unknown outcome", []string{"eval", "--qrels", p("q"), "--readings", p("outcome.jsonl")}, []string{p("outcome.jsonl") + `:2: unknown outcome "maybe"`}},
		{"a reading's len against the judgments", []string{"eval", "--qrels", p("q"), "--readings", p("len.jsonl")}, []string{p("len.jsonl") + ":2: article a is opened with len 99, but it has 100 characters"}},
		{"a UTF-16 reading", []string{"eval", "--qrels", p("q"), "--readings", p("utf16.jsonl")}, []string{p("utf16.jsonl"), "UTF-16"}},
		{"--threshold NaN", []string{"search", "--index", p("none"), "--threshold", "NaN", "q"}, []string{"--threshold NaN: want a finite number"}},
		{"--title-boost Inf", []string{"search", "--index", p("none"), "--title-boost", "Inf", "q"}, []string{"--title-boost +Inf: want a finite number"}},
		{"--text-boost -Inf", []string{"run", "--index", p("none"), "--text-boost", "-Inf", "--topics", p("q")}, []string{"--text-boost -Inf: want a finite number"}},
		{"--workers -1", []string{"index", "--articles", articles, "--index", p("idx"), "--workers", "-1"}, []string{"--workers must be from 1 to 1024"}},
		{"an unknown --lang", []string{"inspect", "--lang", "english", articles + "/bridges/2001.xml"}, []string{`--lang "english": want the code of a language`}},
		{"--lang xx", []string{"index", "--articles", articles, "--index", p("idx"), "--lang", "xx"}, []string{`--lang "xx"`}},
		{"--addr without a port", []string{"serve", "--addr", "localhost", "--index", p("none")}, []string{`--addr "localhost": want host:port`}},
		{"--addr past port 65535", []string{"serve", "--addr", ":99999", "--index", p("none")}, []string{`--addr ":99999"`, "invalid port"}},
		{"demo --addr with a space", []string{"demo", "--addr", "local host:80"}, []string{`--addr "local host:80"`}},
		{"UTF-32 judgments", []string{"eval", "--qrels", p("utf32.qrels"), p("run")}, []string{p("utf32.qrels"), "UTF-32"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, stderr := runCLI(tc.args...)
			if status != 2 {
				t.Errorf("exit %d, want 2; stderr %q", status, stderr)
			}
			checkText(t, "stderr", stderr, tc.want, nil)
			if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine") {
				t.Errorf("a panic: %s", stderr)
			}
		})
	}
	// a UTF-8 BOM changes nothing
	_, with, _ := runCLI("eval", "--qrels", p("bom.qrels"), "-m", "num_rel", p("run"))
	_, without, _ := runCLI("eval", "--qrels", p("q"), "-m", "num_rel", p("run"))
	if with != without || !strings.Contains(with, "num_rel\tall\t1") {
		t.Errorf("with a BOM %q, without %q", with, without)
	}
}

// withBOM writes a copy of file src to dir with a UTF-8 byte-order mark
// before its first line, gzip-compressed when gz.
func withBOM(t *testing.T, dir, src string, gz bool) string {
	t.Helper()
	b := append([]byte("\xef\xbb\xbf"), readFile(t, src)...)
	name := filepath.Join(dir, filepath.Base(src))
	if gz {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(b)
		zw.Close()
		b, name = z.Bytes(), name+".gz"
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// A UTF-8 byte-order mark before the first line of the real Genomics gold
// standard and runs, plain or gzip, changes nothing: --compat trecgen is
// still NIST's output byte for byte (the BOM stayed in the first topic's
// id, whose judgments were lost). The same for INEX judgments and a run.
func TestByteOrderMarkRealData(t *testing.T) {
	d := shareddata.Genomics(t)
	n1 := readFile(t, filepath.Join(d, "york07-ga-01.nist.tsv"))
	for _, gz := range []bool{false, true} {
		dir := t.TempDir()
		gold := withBOM(t, dir, filepath.Join(d, "gold-standard-07.txt"), gz)
		run := withBOM(t, dir, filepath.Join(d, "york07-ga-01.txt"), gz)
		status, stdout, stderr := runCLI("eval", "--qrels", gold, "--compat", "trecgen", run)
		if status != 0 || stdout != string(n1) {
			t.Errorf("gzip %v: status %d, %s; output differs from NIST's:\n%.300s", gz, status, stderr, stdout)
		}
	}
	in := shareddata.INEX(t)
	qrels, fol := filepath.Join(in, "inex2009-2010.qrels"), filepath.Join(in, "passage-run.ric.fol")
	_, want, _ := runCLI("eval", "--qrels", qrels, "-q", fol)
	dir := t.TempDir()
	bq, br := withBOM(t, dir, qrels, false), withBOM(t, dir, fol, true)
	status, got, stderr := runCLI("eval", "--qrels", bq, "-q", br)
	if status != 0 || got != want || want == "" {
		t.Errorf("INEX with a BOM: status %d, %s; the scores differ: %d bytes, %d without", status, stderr, len(got), len(want))
	}
}
