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
		"swapped.qrel": []byte(run),
	}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := func(n string) string { return filepath.Join(dir, n) }
	fifo := p("fifo")
	haveFIFO := syscall.Mkfifo(fifo, 0o644) == nil
	tests := []struct {
		name string
		args []string
		want []string // in the message
	}{
		{"qrels length 10^18", []string{"replay", "--qrels", p("huge.qrels"), "--run", p("run")}, []string{p("huge.qrels") + ":1:", "larger than 1073741824"}},
		{"ANCE[1e11]", []string{"eval", "--qrels", p("q"), "-m", "ANCE[1e11]", p("run")}, []string{"ANCE[1e11]", "integer from 1 to 1000000"}},
		{"ANCE[10^11]", []string{"eval", "--qrels", p("q"), "-m", "ANCE[100000000000]", p("run")}, []string{"integer from 1 to 1000000"}},
		{"permutations 1e12", []string{"compare", "--qrels", p("q"), "--permutations", "1000000000000", p("run"), p("run")}, []string{"--permutations must be from 1 to 10000000"}},
		{"a 17 MiB line", []string{"eval", "--qrels", p("q"), p("long.run")}, []string{p("long.run") + ":1:", "longer than 16 MiB"}},
		{"corrupt gzip", []string{"eval", "--qrels", p("q"), p("corrupt.gz")}, []string{p("corrupt.gz"), "corrupt gzip"}},
		{"a folder", []string{"eval", "--qrels", dir, p("run")}, []string{dir + ": a folder"}},
		{"UTF-16", []string{"eval", "--qrels", p("q"), p("utf16.run")}, []string{p("utf16.run"), "UTF-16"}},
		{"NaN score", []string{"eval", "--qrels", p("q"), p("nan.run")}, []string{p("nan.run") + ":1:", "not a finite number"}},
		{"Inf score", []string{"eval", "--qrels", p("q"), p("inf.run")}, []string{p("inf.run") + ":1:", "not a finite number"}},
		{"no shared topic", []string{"eval", "--qrels", p("other.qrels"), p("run")}, []string{p("run"), "shares no topic with the judgments"}},
		{"topic id with white space", []string{"eval", "--qrels", p("q"), p("spaced.xml")}, []string{p("spaced.xml") + ":1:", "white space"}},
		{"character measure on TREC qrels", []string{"eval", "--qrels", p("trec.qrels"), "-m", `AgP\T2Ip(300)`, p("run")}, []string{`AgP\T2Ip(300)`, "judges whole documents"}},
		{"a rank past the limit", []string{"eval", "--qrels", p("q"), p("bigrank.run")}, []string{p("bigrank.run") + ":1:", "rank"}},
		{"swapped arguments", []string{"eval", "--qrels", p("swapped.qrel"), p("q")}, []string{p("swapped.qrel") + ":1: this looks like a run, not judgments"}},
		{"alpha NaN", []string{"compare", "--qrels", p("q"), "--alpha", "NaN", p("run"), p("run")}, []string{"--alpha"}},
	}
	if haveFIFO {
		tests = append(tests, struct {
			name string
			args []string
			want []string
		}{"a FIFO", []string{"eval", "--qrels", fifo, p("run")}, []string{fifo, "not a regular file"}})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			status, _, stderr := runCLI(tc.args...)
			if status != 2 {
				t.Errorf("exit %d, want 2; stderr %q", status, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
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
