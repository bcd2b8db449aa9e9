package shareddata

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDir checks that Dir finds a data set beside the module root and skips,
// naming the folder, when the set or its probe file is absent.
func TestDir(t *testing.T) {
	root := t.TempDir()
	mod := filepath.Join(root, "repo")
	set := filepath.Join(root, "shared", "data", "present")
	for _, d := range []string{filepath.Join(mod, "sub"), set} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(mod, "go.mod"), filepath.Join(set, "probe")} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("CI", "")
	t.Chdir(filepath.Join(mod, "sub"))
	for _, c := range []struct {
		set, probe string
		skip       bool
	}{
		{"present", "probe", false},
		{"present", "other", true},
		{"absent", "probe", true},
	} {
		var sub *testing.T
		var got string
		t.Run(c.set+"/"+c.probe, func(t *testing.T) {
			sub = t
			got = Dir(t, c.set, c.probe)
		})
		if sub.Skipped() != c.skip {
			t.Errorf("Dir(%q, %q) skipped = %v, want %v", c.set, c.probe, sub.Skipped(), c.skip)
		}
		if want := filepath.Join(mod, "..", "shared", "data", c.set); !c.skip && got != want {
			t.Errorf("Dir(%q, %q) = %q, want %q", c.set, c.probe, got, want)
		}
	}
}

// TestSayWhatSkips prints one line when reference data is absent, so that a
// plain `go test ./...` says that the tests on real data skip. The go
// command shows nothing a passing package prints (not even its skips) unless
// -v is given, so the line goes to the terminal itself, /dev/tty, when there
// is one. Under CI those tests fail instead of skipping, and nothing is
// printed. A cached result prints nothing: the go command does not run the
// test again (go test -count=1 does).
func TestSayWhatSkips(t *testing.T) {
	if os.Getenv("CI") != "" {
		t.Skip("under CI the tests on absent data fail instead of skipping")
	}
	var absent []string
	for _, s := range []struct{ set, probe string }{
		{"inex", "inex2009-2010.qrels"},
		{"wikipedia", "article.dtd"},
		{"genomics07", "gold-standard-07.txt"},
	} {
		var sub *testing.T
		t.Run(s.set, func(t *testing.T) {
			sub = t
			Dir(t, s.set, s.probe)
		})
		if sub.Skipped() {
			absent = append(absent, s.set)
		}
	}
	if len(absent) == 0 {
		return
	}
	line := fmt.Sprintf("readsim: ../shared/data/{%s} absent: the tests on real data skip (go test -v ./... | grep SKIP names them)\n", strings.Join(absent, ","))
	t.Log(strings.TrimSpace(line))
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		fmt.Fprint(tty, line)
		tty.Close()
	}
}
