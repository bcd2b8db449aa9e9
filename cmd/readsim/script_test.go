package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/readsim/readsim/web"
)

// TestMain lets the test binary run as the readsim command inside the
// scripts of TestScript (testscript installs it in the scripts' PATH). A
// test that runs this binary again as a child of its own (the demo's and the
// signal tests' children, marked by testBinaryEnv) runs the tests alone:
// testscript's setup would leave its folder behind in a child stopped by a
// signal.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) != "readsim" && os.Getenv(testBinaryEnv) != "" {
		os.Exit(m.Run())
	}
	os.Setenv(testBinaryEnv, "1")
	testscript.Main(m, map[string]func(){"readsim": main})
}

// testBinaryEnv marks, in the environment of the test binary's children,
// that testscript is set up by their parent.
const testBinaryEnv = "READSIM_TESTSCRIPT_PARENT"

// scriptDir holds the scripts of TestScript, one per console example of
// README.md and docs/.
var scriptDir = filepath.Join("testdata", "script")

// TestScript runs the console examples of README.md and docs/ as scripts,
// one per example, from testdata/script/*.txtar. Each script's work folder
// holds a link corpus-sample to the repository's sample (read only), so the
// commands read exactly as in the documentation. A script checks its example
// with the command example (see runExample), and may check more with
// testscript's own commands.
func TestScript(t *testing.T) {
	sample, err := filepath.Abs(filepath.Join("..", "..", "corpus-sample"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("the console examples run in sh, which is not here")
	}
	testscript.Run(t, testscript.Params{
		Dir:                 scriptDir,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			// The demo's cache folder: never the user's own.
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, ".cache"))
			env.Values[envKey{}] = append([]string(nil), env.Vars...)
			return os.Symlink(sample, filepath.Join(env.WorkDir, "corpus-sample"))
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"example": runExample,
		},
		Condition: scriptCondition,
	})
}

// scriptCondition gives the scripts' own conditions: [port-free:N] holds
// when TCP port N can be listened on, on every interface, now; [lan] when
// the machine has an address besides loopback (web.LANIP), which the
// demo's LAN line shows.
func scriptCondition(cond string) (bool, error) {
	if port, ok := strings.CutPrefix(cond, "port-free:"); ok {
		l, err := net.Listen("tcp", ":"+port)
		if err != nil {
			return false, nil
		}
		return true, l.Close()
	}
	if cond == "lan" {
		return web.LANIP() != "", nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// envKey keys the script's environment in testscript.Env.Values.
type envKey struct{}

// runExample is the script command "example [-interrupt] FILE": FILE (a
// section of the script) is a console example exactly as the
// documentation shows it. Each line "$ COMMAND" (continued on the next
// line after a trailing backslash) runs in sh, in the script's work
// folder ("$ cd DIR" moves there for the lines after it), with standard
// error and standard output in one stream as a terminal shows them; the
// lines after it, up to the next "$ ", are what it must print. In those
// lines a line "…" stands for any number of lines, and "…" inside a line
// for any text. The exit status is not checked: a script checks it, where
// it matters, with exec. With -interrupt, for a command that runs until
// stopped (a server), each command is interrupted as Ctrl-C does (SIGINT
// to its process group) as soon as what it printed is what the example
// shows (or once it printed a line the example's last line matches), and
// what it prints after is not compared; one that has not printed it
// within exampleWait fails the script (unix only).
func runExample(ts *testscript.TestScript, neg bool, args []string) {
	interrupt := len(args) == 2 && args[0] == "-interrupt"
	if interrupt {
		args = args[1:]
	}
	if neg || len(args) != 1 {
		ts.Fatalf("usage: example [-interrupt] FILE")
	}
	env, _ := ts.Value(envKey{}).([]string)
	dir := ts.MkAbs(".")
	steps, err := parseConsole(ts.ReadFile(args[0]))
	ts.Check(err)
	for _, s := range steps {
		cmd := exec.Command("sh", "-c", s.command)
		cmd.Dir, cmd.Env = dir, env
		var got []string
		if interrupt {
			got, err = runUntilShown(cmd, s.want)
		} else {
			got, err = runWhole(cmd)
		}
		if _, exit := err.(*exec.ExitError); err != nil && !exit {
			ts.Fatalf("$ %s: %v\nprinted:\n%s", s.command, err, strings.Join(got, "\n"))
		}
		if !matchLines(s.want, got) {
			ts.Fatalf("$ %s\nprinted:\n%s\nthe example shows:\n%s", s.command, strings.Join(got, "\n"), strings.Join(s.want, "\n"))
		}
		if d, ok := strings.CutPrefix(s.command, "cd "); ok && err == nil && !strings.ContainsAny(d, ";&|") {
			dir = filepath.Join(dir, strings.TrimSpace(d))
		}
		ts.Logf("$ %s: as shown (%d lines)", s.command, len(got))
	}
}

// runWhole runs cmd to its end and returns the lines it printed on
// standard output and standard error, in one stream.
func runWhole(cmd *exec.Cmd) ([]string, error) {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if out.Len() == 0 {
		return nil, err
	}
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"), err
}

// exampleWait bounds how long example -interrupt waits for a command to
// print what its example shows, and then for it to stop.
const exampleWait = 2 * time.Minute

// runUntilShown runs cmd in a process group of its own, reading what it
// prints (standard output and standard error in one stream) line by line
// until the lines match want, or until a line matches want's last (past
// which the example shows nothing), then interrupts the group as Ctrl-C
// does and waits for it to end. It returns the lines read up to then, or
// every line with an error when the command ended or exampleWait passed
// first.
func runUntilShown(cmd *exec.Cmd, want []string) ([]string, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	cmd.Stdout, cmd.Stderr = w, w
	inGroup(cmd)
	err = cmd.Start()
	w.Close()
	if err != nil {
		return nil, err
	}
	lines := make(chan *string) // nil: the end of the output
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			l := sc.Text()
			lines <- &l
		}
		lines <- nil
	}()
	var got []string
	timeout := time.After(exampleWait)
	for {
		select {
		case l := <-lines:
			if l == nil {
				return got, errors.Join(errors.New("it ended before it printed what the example shows"), cmd.Wait())
			}
			got = append(got, *l)
			last := len(want) > 0 && matchLine(want[len(want)-1], *l)
			if !last && !matchLines(want, got) {
				continue
			}
			if err := interruptGroup(cmd); err != nil {
				return got, err
			}
			go func() { // what it prints as it stops
				for l := <-lines; l != nil; l = <-lines {
				}
			}()
			return got, waitStopped(cmd, exampleWait)
		case <-timeout:
			killGroup(cmd)
			cmd.Wait()
			return got, fmt.Errorf("it did not print what the example shows in %v", exampleWait)
		}
	}
}

// waitStopped waits for cmd to end, killing its process group after d. A
// command that ends by the interrupt (an exit status) is no error.
func waitStopped(cmd *exec.Cmd, d time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if _, exit := err.(*exec.ExitError); exit {
			return nil
		}
		return err
	case <-time.After(d):
		killGroup(cmd)
		<-done
		return fmt.Errorf("it did not stop within %v of the interrupt", d)
	}
}

// consoleStep is one command of a console example and the lines it shows.
type consoleStep struct {
	command string
	want    []string
}

// parseConsole splits a console example into its commands and their output.
func parseConsole(text string) ([]consoleStep, error) {
	var steps []consoleStep
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		c, ok := strings.CutPrefix(line, "$ ")
		if !ok {
			if len(steps) == 0 {
				return nil, fmt.Errorf("line %d: %q: an example starts with a command line \"$ …\"", i+1, line)
			}
			steps[len(steps)-1].want = append(steps[len(steps)-1].want, line)
			continue
		}
		for strings.HasSuffix(c, "\\") && i+1 < len(lines) {
			i++
			c = strings.TrimSuffix(c, "\\") + " " + strings.TrimSpace(lines[i])
		}
		steps = append(steps, consoleStep{command: c})
	}
	return steps, nil
}

// matchLines tells whether got matches want, where a want line "…" matches
// any number of lines and "…" within a line any text.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "…" {
		for skip := 0; skip <= len(got); skip++ {
			if matchLines(want[1:], got[skip:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && matchLine(want[0], got[0]) && matchLines(want[1:], got[1:])
}

// matchLine tells whether got matches want, "…" in want matching any text.
func matchLine(want, got string) bool {
	if !strings.Contains(want, "…") {
		return want == got
	}
	parts := strings.Split(want, "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$").MatchString(got)
}

// update makes TestExamplesHaveScripts write a script for each console
// example that has none.
var update = flag.Bool("update", false, "write a testdata/script/*.txtar for each console example of README.md and docs/ that has none")

// TestExamplesHaveScripts checks that every console example of README.md
// and docs/*.md is, byte for byte, the example file of a script in
// testdata/script (so TestScript runs it), and that every script's example
// is still shown somewhere. With -update it writes the missing scripts
// (named after the document and the example's place in it); TestScript then
// says whether their examples print what they show.
func TestExamplesHaveScripts(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, filepath.Join("..", "..", "README.md"))
	shown := map[string]string{} // example → the document showing it
	name := map[string]string{}  // example → a script name for -update
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		rel := strings.TrimPrefix(filepath.ToSlash(doc), "../../")
		for i, ex := range consoleBlocks(string(b)) {
			shown[ex] = rel
			name[ex] = fmt.Sprintf("%s-%d", strings.NewReplacer("/", "-", ".md", "").Replace(strings.ToLower(rel)), i+1)
		}
	}
	scripts, err := filepath.Glob(filepath.Join(scriptDir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	tested := map[string]bool{}
	for _, s := range scripts {
		a, err := txtar.ParseFile(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if !strings.HasSuffix(f.Name, ".console") {
				continue
			}
			tested[string(f.Data)] = true
			if shown[string(f.Data)] == "" {
				t.Errorf("%s: %s is shown in no document (README.md, docs/*.md): update it or remove the script", s, f.Name)
			}
		}
	}
	for ex, doc := range shown {
		if !tested[ex] && *update {
			first, _, _ := strings.Cut(ex, "\n")
			script := fmt.Sprintf("# %s: %s\nexample %s.console\n-- %s.console --\n%s", doc, strings.TrimPrefix(first, "$ "), name[ex], name[ex], ex)
			if err := os.WriteFile(filepath.Join(scriptDir, name[ex]+".txtar"), []byte(script), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if !tested[ex] {
			t.Errorf("%s: a console example no script runs (copy it into a testdata/script/*.txtar as NAME.console, checked with \"example NAME.console\"):\n%s", doc, ex)
		}
	}
	if len(shown) == 0 {
		t.Error("no console example found in README.md and docs/")
	}
}

// consoleBlocks returns the text of every ```console block of a Markdown
// document, each ending with a newline.
func consoleBlocks(doc string) []string {
	var blocks []string
	var cur *strings.Builder
	for _, line := range strings.SplitAfter(doc, "\n") {
		switch {
		case cur == nil && strings.TrimSpace(line) == "```console":
			cur = new(strings.Builder)
		case cur != nil && strings.TrimSpace(line) == "```":
			blocks = append(blocks, cur.String())
			cur = nil
		case cur != nil:
			cur.WriteString(line)
		}
	}
	return blocks
}

// TestMatchLines checks the console examples' wildcard "…" on cases worked
// out by hand.
func TestMatchLines(t *testing.T) {
	for _, c := range []struct {
		want, got []string
		ok        bool
	}{
		{nil, nil, true},
		{nil, []string{"x"}, false},
		{[]string{"a"}, []string{"a"}, true},
		{[]string{"a"}, []string{"ab"}, false},
		{[]string{"a…"}, []string{"ab"}, true},
		{[]string{"…b"}, []string{"ab"}, true},
		{[]string{"a…c"}, []string{"abd"}, false},
		{[]string{"a.c"}, []string{"abc"}, false}, // no regular expression
		{[]string{"…"}, nil, true},
		{[]string{"…"}, []string{"x", "y"}, true},
		{[]string{"a", "…", "d"}, []string{"a", "b", "c", "d"}, true},
		{[]string{"a", "…", "d"}, []string{"a", "b", "c"}, false},
		{[]string{"a", "…"}, []string{"b"}, false},
	} {
		if got := matchLines(c.want, c.got); got != c.ok {
			t.Errorf("matchLines(%q, %q) = %v, want %v", c.want, c.got, got, c.ok)
		}
	}
}

// TestParseConsole checks how a console example splits into commands and
// their output, on cases worked out by hand.
func TestParseConsole(t *testing.T) {
	for _, c := range []struct {
		text string
		want []consoleStep
		bad  bool
	}{
		{text: "$ a\n", want: []consoleStep{{command: "a"}}},
		{text: "$ a\nx\ny\n$ b\nz\n", want: []consoleStep{{"a", []string{"x", "y"}}, {"b", []string{"z"}}}},
		{text: "$ a -m x \\\n    -m y\nout\n", want: []consoleStep{{"a -m x  -m y", []string{"out"}}}},
		{text: "$ a\n\n", want: []consoleStep{{"a", []string{""}}}},
		{text: "out\n$ a\n", bad: true},
	} {
		got, err := parseConsole(c.text)
		if (err != nil) != c.bad {
			t.Errorf("parseConsole(%q) error = %v, want an error: %v", c.text, err, c.bad)
			continue
		}
		if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.want) {
			t.Errorf("parseConsole(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
