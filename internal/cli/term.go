package cli

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/schollz/progressbar/v3"
)

// IsTerminal reports whether f is a character device (a terminal).
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// NewBar returns a progress bar of total steps (bytes: total counts bytes,
// shown as sizes; otherwise a count is shown) on e.Stderr, described by
// desc. It is drawn only when e.StderrIsTerminal: invisible, it writes
// nothing. It clears itself when finished.
func NewBar(e *Env, total int64, desc string, bytes bool) *progressbar.ProgressBar {
	opt := []progressbar.Option{progressbar.OptionSetWriter(e.Stderr), progressbar.OptionSetVisibility(e.StderrIsTerminal),
		progressbar.OptionSetDescription(desc), progressbar.OptionSetWidth(30), progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionClearOnFinish(), progressbar.OptionShowBytes(bytes)}
	if !bytes {
		opt = append(opt, progressbar.OptionShowCount())
	}
	return progressbar.NewOptions64(total, opt...)
}

// BytesBar is a progress bar of bytes (NewBar) for work whose total is
// known once it starts: progress's first call makes the bar, each call
// sets how many of total bytes are done and the bar's description;
// finish clears the bar when one was made. Without a terminal on e.Stderr
// progress is nil: there is nothing to draw.
func BytesBar(e *Env) (progress func(done, total int64, desc string), finish func()) {
	var bar *progressbar.ProgressBar
	finish = func() {
		if bar != nil {
			bar.Finish()
		}
	}
	if !e.StderrIsTerminal {
		return nil, finish
	}
	return func(done, total int64, desc string) {
		if bar == nil {
			bar = NewBar(e, total, "", true)
		}
		bar.Describe(desc)
		bar.Set64(done)
	}, finish
}

// SoftMemoryLimit sets the runtime's soft memory limit to n bytes, unless
// the user set one with GOMEMLIMIT, and returns the function that restores
// the previous limit. The limit keeps the heap near n while what is live
// stays under it; once what is live passes three quarters of n, the limit
// is lifted (the collector would otherwise run without pause: 1 million
// topics took 53 s of CPU under a limit of 160 MiB, 15 s without).
func SoftMemoryLimit(n int64) (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(n)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			if metrics.Read(live); live[0].Value.Kind() == metrics.KindUint64 && live[0].Value.Uint64() > uint64(n)/4*3 {
				debug.SetMemoryLimit(prev)
				return
			}
		}
	}()
	return func() {
		close(stop)
		<-done
		debug.SetMemoryLimit(prev)
	}
}
