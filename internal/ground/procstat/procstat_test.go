package procstat

import (
	"runtime"
	"testing"
)

// On Linux the process has a peak resident size of at least what the Go
// runtime took from the system for this test, and CPU time grows with work.
func TestPeakRSSAndCPUTime(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	buf := make([]byte, 32<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	if p := PeakRSS(); p < int64(len(buf)) {
		t.Errorf("peak RSS %d bytes, less than the %d bytes just written", p, len(buf))
	}
	c0 := CPUTime()
	x := 0
	for i := 0; i < 50_000_000; i++ {
		x += i % 7
	}
	if c1 := CPUTime(); c1 <= c0 || x == 0 {
		t.Errorf("CPU time %v then %v after a loop", c0, c1)
	}
	runtime.KeepAlive(buf)
}
