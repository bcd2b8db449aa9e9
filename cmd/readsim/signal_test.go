//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/readsim/readsim/scenario"
)

// TestSignalLeavesNoTempFile runs a child process (this test binary) that is
// writing an output file beside its target when SIGTERM arrives: it must exit
// with 143 and leave neither the target nor its temporary file.
func TestSignalLeavesNoTempFile(t *testing.T) {
	if dir := os.Getenv("READSIM_SIGNAL_CHILD"); dir != "" {
		removeTempsOnSignal()
		scenario.WriteFileAtomic(filepath.Join(dir, "out.tsv"), func(f *os.File) error {
			f.WriteString("half a line")
			os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644)
			select {} // wait for the signal
		})
		return
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestSignalLeavesNoTempFile$")
	cmd.Env = append(os.Environ(), "READSIM_SIGNAL_CHILD="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the child never started writing")
		}
		time.Sleep(10 * time.Millisecond)
	}
	before, _ := os.ReadDir(dir)
	if len(before) != 2 { // ready and the temporary file
		t.Fatalf("while writing: %d files, want the temporary file and ready", len(before))
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 143 {
		t.Errorf("exit: %v, want status 143", err)
	}
	after, _ := os.ReadDir(dir)
	if len(after) != 1 || after[0].Name() != "ready" {
		var names []string
		for _, e := range after {
			names = append(names, e.Name())
		}
		t.Errorf("after SIGTERM the folder holds %v, want only ready", names)
	}
}
