package inex

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/readsim/readsim/effort"
)

// Judgments read in chunks at once are the judgments read whole, and a
// bad line is named by its line in the file.
func TestTrecEvalQrelsChunks(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 3000; i++ {
		// topics interleaved, so that every chunk holds every topic
		fmt.Fprintf(&b, "%d 0 d%04d %d\n", 100+i%7, i, i%4-1)
		if i%500 == 0 {
			b.WriteString("# a comment\n")
		}
	}
	path := filepath.Join(dir, "q")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	whole, err := OpenTrecEvalQrels(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func(m int64) { chunkMin = m }(chunkMin)
	chunkMin = 1
	chunked, err := OpenTrecEvalQrels(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(whole.IDs, chunked.IDs) || !reflect.DeepEqual(whole.Judged, chunked.Judged) {
		t.Errorf("read in chunks: %v topics, whole: %v", chunked.IDs, whole.IDs)
	}
	if n := len(chunked.Judged["100"]); n != 429 {
		t.Errorf("topic 100: %d judgments, want 429", n)
	}
	lines := strings.SplitAfter(b.String(), "\n")
	lines[2500] = "1 0 d\n"
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenTrecEvalQrels(path); err == nil || !strings.Contains(err.Error(), ":2501: 3 columns, want 4") {
		t.Errorf("bad line 2501: %v", err)
	}
}

// trec_eval's files follow the one rule of every text input (docs/limits.md):
// a UTF-8 byte-order mark is dropped (the first topic keeps its id, so its
// judgments and results are the same as without it), gzip is read, UTF-16
// is refused naming it, a FIFO is refused without blocking; read whole and
// in chunks alike.
func TestTrecEvalByteOrderMarks(t *testing.T) {
	dir := t.TempDir()
	qrels := "101 0 a 1\n101 0 b 0\n102 0 c 2\n"
	run := "101 Q0 a 1 2.0 r\n101 Q0 b 2 1.0 r\n102 Q0 c 1 3.0 r\n"
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gz := func(s string) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.Bytes()
	}
	utf16 := func(s string) []byte {
		b := []byte{0xff, 0xfe}
		for _, r := range s {
			b = append(b, byte(r), 0)
		}
		return b
	}
	plainQ, err := OpenTrecEvalQrels(write("q", []byte(qrels)))
	if err != nil {
		t.Fatal(err)
	}
	plainR, err := OpenTrecEvalRun(write("r", []byte(run)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(plainQ.IDs, []string{"101", "102"}) || len(plainR.Docs["101"]) != 2 {
		t.Fatalf("plain files read as topics %v, %d results of 101", plainQ.IDs, len(plainR.Docs["101"]))
	}
	defer func(m int64) { chunkMin = m }(chunkMin)
	for _, min := range []int64{chunkMin, 1} {
		chunkMin = min
		for _, tc := range []struct {
			name      string
			q, r      []byte
			wantError string // "": read as the plain files
		}{
			{"bom", append([]byte("\xef\xbb\xbf"), qrels...), append([]byte("\xef\xbb\xbf"), run...), ""},
			{"gzip", gz(qrels), gz(run), ""},
			{"gzip bom", gz("\xef\xbb\xbf" + qrels), gz("\xef\xbb\xbf" + run), ""},
			{"utf16", utf16(qrels), utf16(run), "UTF-16"},
		} {
			q, qerr := OpenTrecEvalQrels(write(tc.name+".q", tc.q))
			r, rerr := OpenTrecEvalRun(write(tc.name+".r", tc.r))
			if tc.wantError != "" {
				if qerr == nil || rerr == nil || !strings.Contains(qerr.Error(), tc.wantError) || !strings.Contains(rerr.Error(), tc.wantError) {
					t.Errorf("chunks from %d bytes, %s: %v; %v; want errors naming %s", min, tc.name, qerr, rerr, tc.wantError)
				}
				continue
			}
			if qerr != nil || rerr != nil {
				t.Errorf("chunks from %d bytes, %s: %v; %v", min, tc.name, qerr, rerr)
				continue
			}
			if !reflect.DeepEqual(q.IDs, plainQ.IDs) || !reflect.DeepEqual(q.Judged, plainQ.Judged) || !reflect.DeepEqual(r.Docs, plainR.Docs) {
				t.Errorf("chunks from %d bytes, %s: topics %v, results %v; want %v, %v", min, tc.name, q.IDs, r.Docs, plainQ.IDs, plainR.Docs)
			}
		}
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	if _, err := OpenTrecEvalQrels(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a FIFO as judgments: %v", err)
	}
	if _, err := OpenTrecEvalRun(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a FIFO as a run: %v", err)
	}
}

// A # line is a comment in every judgment format, one at a time, as
// trec_eval 10.0 reads it: a comment right after another, or as the last
// line, is refused at its line (trec_eval reads the second as a judgment,
// and reads past the end of the file after the last).
func TestTrecEvalComments(t *testing.T) {
	open := map[string]func(string) (*TrecEvalQrels, error){
		"qrels":       OpenTrecEvalQrels,
		"qrels_jg":    OpenTrecEvalQrelsJG,
		"qrels_prefs": func(p string) (*TrecEvalQrels, error) { return OpenTrecEvalPrefs(p, true) },
		"prefs":       func(p string) (*TrecEvalQrels, error) { return OpenTrecEvalPrefs(p, false) },
	}
	line := map[string]string{"qrels": "1 0 %s 1\n", "qrels_jg": "1 g %s 1\n", "qrels_prefs": "1 g %s 1\n", "prefs": "1 g s %s 1\n"}
	for format, read := range open {
		l := func(doc string) string { return fmt.Sprintf(line[format], doc) }
		for _, tc := range []struct {
			name, text, err string
			docs            int
		}{
			{"one at a time", "# first\n" + l("a") + "# between\n" + l("b") + "#\n" + l("c"), "", 3},
			{"two in a row", l("a") + "# one\n# two\n" + l("b"), ":3: a comment right after a comment", 0},
			{"last line", l("a") + "# end\n", ":2: the file ends with a comment", 0},
			{"last line without newline", l("a") + "# end", ":2: the file ends with a comment", 0},
		} {
			path := filepath.Join(t.TempDir(), format)
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			q, err := read(path)
			switch {
			case tc.err != "":
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("%s, %s: %v, want %q", format, tc.name, err, tc.err)
				}
			case err != nil:
				t.Errorf("%s, %s: %v", format, tc.name, err)
			case len(q.Judged["1"])+len(q.Prefs["1"])+len(flat(q.Groups["1"])) != tc.docs:
				t.Errorf("%s, %s: %+v, want %d documents", format, tc.name, q, tc.docs)
			}
		}
	}
}

func flat(gs [][]effort.TrecJudgment) []effort.TrecJudgment {
	var out []effort.TrecJudgment
	for _, g := range gs {
		out = append(out, g...)
	}
	return out
}

// Judgments read in two chunks at once refuse two comments in a row where
// one chunk ends with one and the next starts with the other.
func TestTrecEvalCommentsAcrossChunks(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	defer func(m int64) { chunkMin = m }(chunkMin)
	chunkMin = 1
	const n = 1000
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("100 0 d%04d 1\n", i) // 14 bytes, as the comments
	}
	path := filepath.Join(t.TempDir(), "q")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	bounds := chunkBounds(f, 14*n, 2)
	f.Close()
	if len(bounds) != 3 || bounds[1]%14 != 0 {
		t.Fatalf("bounds %v: want one cut at a line end", bounds)
	}
	k := int(bounds[1] / 14) // the first line of the second chunk
	lines[k-1], lines[k] = "# end of one.\n", "# start of 2.\n"
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(":%d: a comment right after a comment", k+1)
	if _, err := OpenTrecEvalQrels(path); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%v, want %q", err, want)
	}
}
