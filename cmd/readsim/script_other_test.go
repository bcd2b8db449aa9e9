//go:build !unix

package main

import (
	"errors"
	"os/exec"
)

// inGroup does nothing: example -interrupt needs unix process groups.
func inGroup(cmd *exec.Cmd) {}

// interruptGroup kills cmd, and says that example -interrupt needs unix.
func interruptGroup(cmd *exec.Cmd) error {
	cmd.Process.Kill()
	return errors.New("example -interrupt: no process groups to interrupt here (unix only)")
}

// killGroup kills cmd.
func killGroup(cmd *exec.Cmd) { cmd.Process.Kill() }
