//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// inGroup makes cmd the leader of a process group of its own, so that
// interruptGroup reaches the command sh runs as well as sh.
func inGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// interruptGroup sends SIGINT to cmd's process group, as Ctrl-C in a
// terminal does.
func interruptGroup(cmd *exec.Cmd) error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }

// killGroup kills cmd's process group.
func killGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
