package cli

import (
	"os"
	"runtime/debug"
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

// SoftMemoryLimit sets the runtime's soft memory limit to n bytes, unless
// the user set one with GOMEMLIMIT, and returns the function that restores
// the previous limit.
func SoftMemoryLimit(n int64) (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(n)
	return func() { debug.SetMemoryLimit(prev) }
}
