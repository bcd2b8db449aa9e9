package cli

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// StopSignals are the signals that stop a command: an interrupt, a
// termination and a hang-up.
var StopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// ExitOnSignal makes the process exit when a signal of StopSignals
// arrives: stop (when not nil) runs first, then "NAME: SIGNAL: stopped" is
// written on standard error and the exit status is 128 + the signal's
// number, as a shell reports a process the signal killed.
func ExitOnSignal(name string, stop func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, StopSignals...)
	go func() {
		s := <-sig
		if stop != nil {
			stop()
		}
		fmt.Fprintf(os.Stderr, "%s: %v: stopped\n", name, s)
		os.Exit(signalStatus(s))
	}()
}

// signalStatus is the exit status of a process s stops: 128 + its number
// (an interrupt's where the number is unknown).
func signalStatus(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 128 + int(syscall.SIGINT)
}

// Warner returns a function that writes a line to w, safe for concurrent
// use: the warnings of work done in parallel.
func Warner(w io.Writer) func(string) {
	var mu sync.Mutex
	return func(s string) {
		mu.Lock()
		fmt.Fprintln(w, s)
		mu.Unlock()
	}
}
