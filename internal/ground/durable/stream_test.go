package durable

import (
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// fakeDevice is a FileInfo that says its file is a device: no test
// touches a real one.
type fakeDevice struct{ fs.FileInfo }

func (f fakeDevice) Mode() fs.FileMode { return f.FileInfo.Mode()&^fs.ModeType | fs.ModeDevice }

// An output that is a FIFO, a socket or a device is written into as a
// stream and stays what it was (replay --out /dev/null renamed a regular
// file over the machine's /dev/null); Write, which replaces files whole,
// refuses it and leaves it. Each case failed before: the special file was
// replaced by a regular one.
func TestOutputIntoSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	hello := func(w io.Writer) error { _, err := io.WriteString(w, "hello\n"); return err }
	if err := syscall.Mkfifo(p("fifo"), 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	l, err := net.Listen("unix", p("sock"))
	if err != nil {
		t.Skip("no Unix socket here:", err)
	}
	defer l.Close()
	if err := os.WriteFile(p("dev"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	lstat = func(name string) (fs.FileInfo, error) {
		st, err := os.Lstat(name)
		if err == nil && filepath.Base(name) == "dev" {
			return fakeDevice{st}, nil
		}
		return st, err
	}
	defer func() { lstat = os.Lstat }()
	for _, tc := range []struct {
		name, kind string
		read       func() (string, error) // what the other end receives
		mode       fs.FileMode
	}{
		{"fifo", "a FIFO", func() (string, error) { b, err := os.ReadFile(p("fifo")); return string(b), err }, fs.ModeNamedPipe},
		{"sock", "a socket", func() (string, error) {
			c, err := l.Accept()
			if err != nil {
				return "", err
			}
			defer c.Close()
			b, err := io.ReadAll(c)
			return string(b), err
		}, fs.ModeSocket},
		{"dev", "a device", func() (string, error) {
			time.Sleep(100 * time.Millisecond) // the stream is written by then
			b, err := os.ReadFile(p("dev"))
			return string(b), err
		}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := os.Lstat(p(tc.name))
			wrote := false
			err := Write(p(tc.name), 0o644, func(*os.File) error { wrote = true; return nil })
			var se *SpecialError
			if !errors.As(err, &se) || se.Kind != tc.kind || wrote {
				t.Errorf("Write: %v (wrote %v), want a SpecialError naming %s and nothing written", err, wrote, tc.kind)
			}
			got := make(chan string, 1)
			go func() {
				s, err := tc.read()
				if err != nil {
					s = err.Error()
				}
				got <- s
			}()
			if err := WriteOutput(io.Discard, p(tc.name), hello); err != nil {
				t.Fatal(err)
			}
			select {
			case s := <-got:
				if s != "hello\n" {
					t.Errorf("the other end read %q", s)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the other end read nothing")
			}
			after, err := os.Lstat(p(tc.name))
			if err != nil || !os.SameFile(before, after) || after.Mode().Type() != tc.mode {
				t.Errorf("%s was replaced: %v, mode %v", tc.name, err, after.Mode())
			}
			if m, _ := filepath.Glob(p(".*")); len(m) != 0 {
				t.Errorf("temporary files left: %v", m)
			}
		})
	}
}
