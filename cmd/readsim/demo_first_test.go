//go:build unix

package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/readsim/readsim/internal/cli"
)

// eof marks the end of the child's output (package main has its own close).
const eof = "\x00EOF"

// TestDemoPrintsURLFirst runs `readsim demo` in a child process (this test
// binary) on a fresh index folder: its first line is the URL to open,
// printed before the sample is indexed, and SIGTERM stops it.
func TestDemoPrintsURLFirst(t *testing.T) {
	if os.Getenv("READSIM_DEMO_CHILD") != "" {
		os.Exit(program.Run(&cli.Env{Stdout: os.Stdout, Stderr: os.Stderr}, []string{"demo", "--addr", "127.0.0.1:0"}))
	}
	if testing.Short() {
		t.Skip("indexes the sample")
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestDemoPrintsURLFirst$")
	cmd.Env = append(os.Environ(), "READSIM_DEMO_CHILD=1", "READSIM_DEMO_INDEX="+filepath.Join(t.TempDir(), "idx"))
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = w, w // one stream: the order of the lines is the order of the writes
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	lines := make(chan string, 1000)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			lines <- sc.Text()
		}
		lines <- eof
	}()
	var got []string
	timeout := time.After(60 * time.Second)
wait:
	for {
		select {
		case l := <-lines:
			if l == eof {
				break wait
			}
			got = append(got, l)
			if strings.Contains(l, "Ctrl-C stops") {
				break wait
			}
		case <-timeout:
			cmd.Process.Kill()
			t.Fatalf("the demo did not start: %q", got)
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Errorf("after SIGTERM: %v", err)
	}
	if len(got) < 3 || !strings.HasPrefix(got[0], "local: http://localhost:") {
		t.Fatalf("first lines %q, want the URL first", got)
	}
	indexed := -1
	for i, l := range got {
		if strings.Contains(l, "indexing the sample") || strings.Contains(l, "readsim index: built") {
			indexed = i
			break
		}
	}
	if indexed < 1 {
		t.Errorf("the URL does not come before the indexing: %q", got)
	}
}
