package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary run as the readsim command inside the
// scripts of TestScript (testscript installs it in the scripts' PATH).
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"readsim": main})
}

// TestScript runs the console examples of README.md and docs/ as scripts,
// one per example, from testdata/script/*.txtar: each runs readsim on the
// bundled corpus-sample/ and compares what it prints with the example's
// output, so an example whose output changes fails here. Each script's work
// folder holds a link corpus-sample to the repository's sample (read only),
// so the commands read exactly as in the documentation.
func TestScript(t *testing.T) {
	sample, err := filepath.Abs(filepath.Join("..", "..", "corpus-sample"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			// The demo's cache folder: never the user's own.
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, ".cache"))
			return os.Symlink(sample, filepath.Join(env.WorkDir, "corpus-sample"))
		},
	})
}
