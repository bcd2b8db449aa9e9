package inex

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
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
