package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The catalogue of bad input: each is refused at once with exit status 2
// and a message naming the file (and the line where there is one) and the
// problem; none hangs or takes memory out of proportion.
func TestBadInputCatalogue(t *testing.T) {
	dir := t.TempDir()
	good := "1 Q0 a 10 100 0 0:10\n"
	run := "1 Q0 a 1 1.0 r 0 10\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(run + run + run))
	zw.Close()
	corrupt := append([]byte(nil), gz.Bytes()...)
	for i := 12; i < len(corrupt)-8; i++ {
		corrupt[i] ^= 0x5a
	}
	files := map[string][]byte{
		"q":            []byte(good),
		"run":          []byte(run),
		"huge.qrels":   []byte("1 Q0 a 10 1000000000000000000 0 0:10\n"),
		"long.run":     append(bytes.Repeat([]byte("x"), 17<<20), '\n'),
		"corrupt.gz":   corrupt,
		"utf16.run":    append([]byte{0xFF, 0xFE}, []byte("1\x00 \x00Q\x000\x00")...),
		"nan.run":      []byte("1 Q0 a 1 NaN r 0 10\n"),
		"inf.run":      []byte("1 Q0 a 1 +Inf r 0 10\n"),
		"other.qrels":  []byte("7 Q0 a 10 100 0 0:10\n"),
		"spaced.xml":   []byte(`<inex-submission run-id="x"><topic topic-id=" 1 "><result><file>a</file></result></topic></inex-submission>`),
		"trec.qrels":   []byte("1 0 a 1\n1 0 b 0\n"),
		"bigrank.run":  []byte("1 Q0 a 99999999999999999999 1.0 r 0 10\n"),
		"rank2^40.run": []byte("1 Q0 a 1099511627777 1.0 r 0 10\n"),
		"under.run":    []byte("1 Q0 a 1 1_000 r 0 10\n"),
		"under.trec":   []byte("1 Q0 a 1 1e1_0 r\n"),
		"swapped.qrel": []byte(run),
		"long.hl":      append(append([]byte("topic 2026001\narticle 1001\n> "), bytes.Repeat([]byte("x"), 17<<20)...), '\n'),
		"utf16.hl":     append([]byte{0xFF, 0xFE}, []byte("t\x00o\x00p\x00i\x00c\x00 \x001\x00\n\x00")...),
		"hl":           []byte("topic 2026001\narticle 1001\n"),
	}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := func(n string) string { return filepath.Join(dir, n) }
	fifo := p("fifo")
	haveFIFO := syscall.Mkfifo(fifo, 0o644) == nil
	articles := "../../corpus-sample/articles"
	tests := []struct {
		name string
		args []string
		want []string // in the message
		not  []string // not in it
	}{
		{"negative rate limit", []string{"serve", "--index", dir, "--rate-limit", "-1"}, []string{"--rate-limit must be a number of requests per second, 0 for no limit"}, nil},
		{"NaN rate limit", []string{"serve", "--index", dir, "--rate-limit", "NaN"}, []string{"--rate-limit must be"}, nil},
		{"qrels length 10^18", []string{"replay", "--qrels", p("huge.qrels"), "--run", p("run")}, []string{p("huge.qrels") + ":1:", "larger than 1073741824"}, nil},
		{"ANCE[1e11]", []string{"eval", "--qrels", p("q"), "-m", "ANCE[1e11]", p("run")}, []string{"ANCE[1e11]", "integer from 1 to 1000000"}, nil},
		{"ANCE[10^11]", []string{"eval", "--qrels", p("q"), "-m", "ANCE[100000000000]", p("run")}, []string{"integer from 1 to 1000000"}, nil},
		{"permutations 1e12", []string{"compare", "--qrels", p("q"), "--permutations", "1000000000000", p("run"), p("run")}, []string{"--permutations must be from 1 to 10000000"}, nil},
		{"a 17 MiB line", []string{"eval", "--qrels", p("q"), p("long.run")}, []string{p("long.run") + ":1:", "longer than 16 MiB"}, nil},
		{"corrupt gzip", []string{"eval", "--qrels", p("q"), p("corrupt.gz")}, []string{p("corrupt.gz"), "corrupt gzip"}, nil},
		{"a folder", []string{"eval", "--qrels", dir, p("run")}, []string{dir + ": a folder"}, nil},
		{"UTF-16", []string{"eval", "--qrels", p("q"), p("utf16.run")}, []string{p("utf16.run"), "UTF-16"}, nil},
		{"NaN score", []string{"eval", "--qrels", p("q"), p("nan.run")}, []string{p("nan.run") + ":1:", "not a finite number"}, nil},
		{"Inf score", []string{"eval", "--qrels", p("q"), p("inf.run")}, []string{p("inf.run") + ":1:", "not a finite number"}, nil},
		{"no shared topic", []string{"eval", "--qrels", p("other.qrels"), p("run")}, []string{p("run"), "shares no topic with the judgments"}, nil},
		{"topic id with white space", []string{"eval", "--qrels", p("q"), p("spaced.xml")}, []string{p("spaced.xml") + ":1:", "white space"}, nil},
		{"character measure on TREC qrels", []string{"eval", "--qrels", p("trec.qrels"), "-m", `AgP\T2Ip(300)`, p("run")}, []string{`AgP\T2Ip(300)`, "judges whole documents"}, nil},
		{"a rank past the limit", []string{"eval", "--qrels", p("q"), p("bigrank.run")}, []string{p("bigrank.run") + ":1:", "rank", "the largest rank"}, nil},
		{"a rank of 2^40+1", []string{"eval", "--qrels", p("q"), p("rank2^40.run")}, []string{p("rank2^40.run") + ":1:", "rank 1099511627777 is larger than 1099511627776, the largest rank readsim reads"}, []string{"article"}},
		{"a score with an underscore", []string{"eval", "--qrels", p("q"), p("under.run")}, []string{p("under.run") + ":1:", `rsv "1_000" has an underscore`}, nil},
		{"an exponent with an underscore", []string{"eval", "--qrels", p("q"), p("under.trec")}, []string{p("under.trec") + ":1:", `rsv "1e1_0" has an underscore`}, nil},
		{"an empty measure list", []string{"eval", "--qrels", p("q"), "-m", "", p("run")}, []string{"no measure named"}, nil},
		{"a measure list of commas", []string{"eval", "--qrels", p("q"), "-m", ",", p("run")}, []string{"no measure named"}, nil},
		{"standard input twice", []string{"eval", "--qrels", p("q"), "-", "-"}, []string{"standard input (-) given twice"}, nil},
		{"standard input for judgments and run", []string{"compare", "--qrels", "-", "-", p("run")}, []string{"standard input (-) given twice"}, nil},
		{"standard input for replay's judgments and run", []string{"replay", "--qrels", "-", "--run", "-"}, []string{"standard input (-) given twice"}, nil},
		{"--digits -1", []string{"eval", "--qrels", p("q"), "--digits", "-1", p("run")}, []string{"-digits", "from 0 to 17"}, nil},
		{"--digits 100", []string{"compare", "--qrels", p("q"), "--digits", "100", p("run"), p("run")}, []string{"-digits", "from 0 to 17"}, nil},
		{"a bad parameter", []string{"eval", "--qrels", p("q"), "-m", `AgP\T2Ip(NaN)`, p("run")}, []string{`measure "AgP\T2Ip(NaN)": the tolerance x of T2Ip must be an integer`, `not "NaN"`}, []string{"unknown measure", `\\`}},
		{"a bad rank", []string{"eval", "--qrels", p("q"), "-m", "P@0", p("run")}, []string{`measure "P@0"`, "from 1 to"}, []string{"unknown measure"}},
		{"a bad recall level", []string{"eval", "--qrels", p("q"), "-m", `ircl_prn.1.50\T2Ip(300)`, p("run")}, []string{`measure "ircl_prn.1.50\T2Ip(300)"`, "recall level", "[0,1]"}, []string{"unknown measure"}},
		{"a typo", []string{"eval", "--qrels", p("q"), "-m", "Num_Qq", p("run")}, []string{`did you mean "num_q"`}, []string{`"num_q" or "num_q"`}},
		{"a 17 MiB highlights line", []string{"assess", "--articles", articles, p("long.hl")}, []string{p("long.hl") + ":3:", "longer than 16 MiB"}, []string{"token too long"}},
		{"UTF-16 highlights", []string{"assess", "--articles", articles, p("utf16.hl")}, []string{p("utf16.hl"), "UTF-16"}, nil},
		{"--out is the highlights", []string{"assess", "--articles", articles, "--out", p("hl"), p("hl")}, []string{p("hl"), "the output is the input"}, nil},
		{"--out is the run", []string{"replay", "--qrels", p("q"), "--run", p("run"), "--out", p("run")}, []string{"the output is the input " + p("run")}, nil},
		{"--out is the judgments, written otherwise", []string{"replay", "--qrels", p("q"), "--run", p("run"), "--out", dir + "/./q"}, []string{"the output is the input"}, nil},
		{"swapped arguments", []string{"eval", "--qrels", p("swapped.qrel"), p("q")}, []string{p("swapped.qrel") + ":1: this looks like a run, not judgments"}, nil},
		{"alpha NaN", []string{"compare", "--qrels", p("q"), "--alpha", "NaN", p("run"), p("run")}, []string{"--alpha"}, nil},
	}
	if haveFIFO {
		tests = append(tests, struct {
			name      string
			args      []string
			want, not []string
		}{"a FIFO", []string{"eval", "--qrels", fifo, p("run")}, []string{fifo, "not a regular file"}, nil})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			status, _, stderr := runCLI(tc.args...)
			if status != 2 {
				t.Errorf("exit %d, want 2; stderr %q", status, stderr)
			}
			checkText(t, "stderr", stderr, tc.want, tc.not)
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("took %v: refused too slowly", d) // a hang guard, not a speed target
			}
		})
	}
}

// "-" reads a run (or judgments) from standard input.
func TestStandardInput(t *testing.T) {
	qrels, run := simFiles(t)
	f, err := os.Open(run)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	old := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = old }()
	status, stdout, stderr := runCLI("eval", "--qrels", qrels, "-m", "num_ret", "-")
	// the run: topic 1 retrieves a, c, b; topic 2 d: 4 articles
	if status != 0 || !strings.HasSuffix(stdout, "num_ret\tall\t4\n") {
		t.Errorf("eval -: exit %d, %q, %s", status, stdout, stderr)
	}
}

// Output files are written beside and renamed: the replaced file keeps its
// mode, and a symbolic link is replaced, not followed.
func TestOutKeepsModeAndLeavesLinkTargets(t *testing.T) {
	qrels, run := simFiles(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "trace.jsonl")
	os.WriteFile(out, []byte("old"), 0o600)
	if status, _, stderr := runCLI("replay", "--qrels", qrels, "--run", run, "--out", out); status != 0 {
		t.Fatal(stderr)
	}
	if st, _ := os.Stat(out); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the replaced file's 0600", st.Mode().Perm())
	}
	target := filepath.Join(dir, "precious.txt")
	os.WriteFile(target, []byte("keep me"), 0o644)
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here")
	}
	if status, _, stderr := runCLI("replay", "--qrels", qrels, "--run", run, "--out", link); status != 0 {
		t.Fatal(stderr)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me" {
		t.Errorf("the link's target was overwritten: %q", b)
	}
	if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink != 0 {
		t.Errorf("--out left the link in place instead of the file")
	}
}
