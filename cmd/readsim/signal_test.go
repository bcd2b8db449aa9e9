//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/internal/ground/durable"
)

// TestSignalLeavesNoTempFile runs a child process (this test binary) that is
// writing an output file beside its target when a signal arrives: on an
// interrupt, a termination or a hang-up it must exit with 128 + the
// signal's number and leave neither the target nor its temporary file.
func TestSignalLeavesNoTempFile(t *testing.T) {
	if dir := os.Getenv("READSIM_SIGNAL_CHILD"); dir != "" {
		cli.ExitOnSignal(program.Name, program.Stop)
		durable.Write(filepath.Join(dir, "out.trace.jsonl"), 0o644, func(f *os.File) error {
			f.WriteString("half a line")
			os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644)
			select {} // wait for the signal
		})
		return
	}
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{
		{syscall.SIGTERM, 143},
		{syscall.SIGHUP, 129},
		{syscall.SIGINT, 130},
	} {
		t.Run(tc.sig.String(), func(t *testing.T) {
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
			cmd.Process.Signal(tc.sig)
			err := cmd.Wait()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != tc.code {
				t.Errorf("exit: %v, want status %d", err, tc.code)
			}
			after, _ := os.ReadDir(dir)
			if len(after) != 1 || after[0].Name() != "ready" {
				var names []string
				for _, e := range after {
					names = append(names, e.Name())
				}
				t.Errorf("after %v the folder holds %v, want only ready", tc.sig, names)
			}
		})
	}
}
