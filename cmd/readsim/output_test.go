package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// writeOutput writes to standard output without --out, else to the file,
// which a failed write leaves as it was.
func TestWriteOutput(t *testing.T) {
	var stdout bytes.Buffer
	e := &env{stdout: &stdout, stderr: io.Discard}
	hello := func(w io.Writer) error { _, err := io.WriteString(w, "hello\n"); return err }
	if err := writeOutput(e, "", hello); err != nil || stdout.String() != "hello\n" {
		t.Errorf("to standard output: %q, %v", stdout.String(), err)
	}
	out := filepath.Join(t.TempDir(), "out.txt")
	stdout.Reset()
	if err := writeOutput(e, out, hello); err != nil || stdout.Len() != 0 {
		t.Fatalf("to %s: %v; standard output %q", out, err, stdout.String())
	}
	if b, _ := os.ReadFile(out); string(b) != "hello\n" {
		t.Errorf("%s holds %q", out, b)
	}
	if err := writeOutput(e, out, func(w io.Writer) error { io.WriteString(w, "half"); return errors.New("disk full") }); err == nil {
		t.Error("a failed write: no error")
	}
	if b, _ := os.ReadFile(out); string(b) != "hello\n" {
		t.Errorf("after a failed write %s holds %q", out, b)
	}
}
