package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionOfABuild builds a program whose main prints Version (with
// this package's version.go, copied into a module of its own in a new git
// repository) as a user builds readsim, and reads the commit it prints
// against git's own: go build -buildvcs=true in a clone names the commit
// git rev-parse gives, "+changes" once a file changed, and
// -buildvcs=false records none.
func TestVersionOfABuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git command")
	}
	dir := t.TempDir()
	src, err := os.ReadFile("version.go")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/vtool\n\ngo 1.22\n")
	write("cli/version.go", string(src))
	write("main.go", "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/vtool/cli\"\n)\n\nfunc main() { fmt.Println(cli.Version(\"vtool\")) }\n")
	run := func(name string, args ...string) string {
		t.Helper()
		c := exec.Command(name, args...)
		c.Dir = dir
		c.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GOFLAGS=")
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("git", "init", "-q")
	run("git", "add", ".")
	run("git", "commit", "-q", "-m", "first")
	rev := run("git", "rev-parse", "HEAD")
	exe := filepath.Join(t.TempDir(), "vtool") // outside the clone, which it would change
	version := func(buildvcs string) string {
		run(goCmd, "build", "-buildvcs="+buildvcs, "-o", exe, ".")
		return run(exe)
	}
	for _, tc := range []struct {
		buildvcs, change, want string
	}{
		{"true", "", "vtool v0.0.0-"},
		{"true", "", " commit " + rev[:12] + " ("},
		{"false", "", "vtool devel (no commit recorded), go"},
		{"true", "// changed\n", " commit " + rev[:12] + "+changes ("},
	} {
		if tc.change != "" {
			write("main.go", tc.change+"package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/vtool/cli\"\n)\n\nfunc main() { fmt.Println(cli.Version(\"vtool\")) }\n")
		}
		if got := version(tc.buildvcs); !strings.Contains(got, tc.want) {
			t.Errorf("-buildvcs=%s: %q, want it to hold %q", tc.buildvcs, got, tc.want)
		}
	}
}
