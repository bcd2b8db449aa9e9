package python

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// peers are the modules the Python tests import (.ci/run installs them, at
// the versions docs/python.md names).
var peers = []string{"pytest", "pandas", "ir_measures", "pytrec_eval", "ranx", "pyterrier", "hatchling"}

// TestPytest runs the Python package's tests (tests/) with pytest, on the
// package's source (PYTHONPATH=src) and a readsim binary built from this
// checkout (READSIM_BINARY). The Python is READSIM_PYTHON, or python3 on
// PATH. Without it or without the peers the test skips, saying so on the
// terminal (a passing package's skips are not shown without -v); under CI
// it fails instead, as the tests on ../shared/data do.
func TestPytest(t *testing.T) {
	py := os.Getenv("READSIM_PYTHON")
	if py == "" {
		py = "python3"
	}
	if missing := missingPeers(py); missing != "" {
		msg := fmt.Sprintf("readsim: the Python tests need %s (%s): they skip (docs/python.md says how to install them)", missing, py)
		if os.Getenv("CI") != "" {
			t.Fatal(msg + "; CI must have them (.ci/run installs them)")
		}
		sayOnTerminal(msg)
		t.Skip(msg)
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(dir)
	bin := filepath.Join(t.TempDir(), "readsim")
	gocmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	build := exec.Command(gocmd, "build", "-o", bin, "./cmd/readsim")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/readsim: %v\n%s", err, out)
	}
	// stop pytest before go test's own deadline, so that its output shows
	// what ran long
	ctx := context.Background()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-30*time.Second))
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--durations=5", "tests")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"READSIM_BINARY="+bin,
		"GO="+gocmd,
		"PYTHONPATH="+filepath.Join(dir, "src")+string(os.PathListSeparator)+filepath.Join(dir, "tests"),
		"PYTHONDONTWRITEBYTECODE=1",
	)
	out, err := cmd.CombinedOutput()
	t.Logf("pytest:\n%s", out)
	if err != nil {
		t.Fatalf("pytest failed: %v (its output is above)", err)
	}
	if !strings.Contains(string(out), " passed") {
		t.Fatal("pytest ran no test")
	}
}

// missingPeers returns the peers that py cannot import ("" when none), or
// py itself when it does not run.
func missingPeers(py string) string {
	if _, err := exec.LookPath(py); err != nil {
		return py
	}
	script := "import importlib.util,sys\n" +
		"print(' '.join(m for m in sys.argv[1:] if importlib.util.find_spec(m) is None))"
	out, err := exec.Command(py, append([]string{"-c", script}, peers...)...).Output()
	if err != nil {
		return py + " (it does not run)"
	}
	return strings.TrimSpace(string(out))
}

// sayOnTerminal writes msg to the terminal (/dev/tty) when there is one:
// the go command shows nothing of a passing package's output, skips
// included, without -v (as index/article/shareddata does for absent data).
func sayOnTerminal(msg string) {
	tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer tty.Close()
	fmt.Fprintln(tty, msg)
}
