// Command readsim measures what focused retrieval saves a reader: it indexes and
// searches INEX-style XML articles, renders them for phone screens, replays
// simulated readers over INEX topics, judgments and runs, computes every measure
// of the specification, and serves a phone prototype with a live simulation view.
//
// This package holds flag parsing and wiring only; the work is done in the
// library packages (effort, scenario, index, render, web). Errors become
// exit statuses in one place (isBadInput, exitStatus): 0 success, 1 a
// failure it explains, 2 bad usage or bad input naming the file, the line
// and the problem.
package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"syscall"

	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
	"github.com/readsim/readsim/web/backend"
)

// command is one readsim subcommand.
type command struct {
	name    string // as typed on the command line
	args    string // synopsis of the arguments, for usage lines
	summary string // one line for the command list
	// details, when set, follow the summary in the command's help (-h,
	// readsim help CMD): what a user needs beyond the flags.
	details string
	// run executes the command with its flag set (newFlags). It returns a
	// usageError or an inputError for exit status 2, any other error for
	// exit status 1.
	run func(e *env, fs *flag.FlagSet, args []string) error
}

// env is what a command may touch of the outside world, so that tests can run
// commands in-process.
type env struct {
	stdout io.Writer
	stderr io.Writer
	// stderrIsTerminal tells whether progress bars may be drawn on stderr.
	stderrIsTerminal bool
}

// commands are readsim's subcommands by name; their synopses and
// summaries are in commands.txt.
var commands = map[string]*command{
	"assess":    {run: runAssess, details: scenario.HighlightsFormat},
	"calibrate": {run: runCalibrate},
	"compare":   {run: runCompare},
	"demo":      {run: runDemo},
	"eval":      {run: runEval},
	"fidelity":  {run: runFidelity},
	"index":     {run: runIndex},
	"inspect":   {run: runInspect},
	"measures":  {run: runMeasures},
	"render":    {run: runRender},
	"replay":    {run: runReplay},
	"run":       {run: runRun},
	"search":    {run: runSearch},
	"serve":     {run: runServe},
}

//go:embed commands.txt
var commandsText string

// init reads each command's synopsis and summary from commandsText.
func init() {
	var c *command
	for _, line := range strings.Split(commandsText, "\n") {
		switch {
		case strings.HasPrefix(line, "\t"):
			c.summary = line[1:]
		case line != "" && line[0] != '#':
			name, args, _ := strings.Cut(line, " ")
			if c = commands[name]; c == nil {
				panic("readsim: commands.txt names no command " + name)
			}
			c.name, c.args = name, args
		}
	}
}

// usageError is bad usage (unknown flag, missing argument): exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// isBadInput tells whether err is a problem with the user's input, as the
// library packages report it: a judgments, run or topics file (inex.Error),
// an article or its DTD (article.Error, article.DTDError), an article id
// several articles have (article.AmbiguousError), an articles folder or
// index (index.InputError), a measure the input cannot give
// (scenario.MeasureError), what a server is asked to serve
// (backend.InputError). The one place errors become exit status 2.
func isBadInput(err error) bool {
	var ie *inex.Error
	var ae *article.Error
	var de *article.DTDError
	var am *article.AmbiguousError
	var xe *index.InputError
	var me *scenario.MeasureError
	var be *backend.InputError
	return errors.As(err, &ie) || errors.As(err, &ae) || errors.As(err, &de) || errors.As(err, &am) ||
		errors.As(err, &xe) || errors.As(err, &me) || errors.As(err, &be)
}

// inputError is bad input (a file that cannot be read or parsed): exit status 2.
// The message names the file, the line and the problem.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

func main() {
	e := &env{stdout: os.Stdout, stderr: os.Stderr, stderrIsTerminal: isTerminal(os.Stderr)}
	// An interrupt or a termination leaves no half-written output behind:
	// the temporary files of --out, --plot and the like are removed first.
	// (The servers shut down gracefully on their own.)
	if len(os.Args) > 1 && !servers[os.Args[1]] {
		removeTempsOnSignal()
	}
	os.Exit(runMain(e, os.Args[1:]))
}

// servers are the commands that handle signals themselves (graceful shutdown).
var servers = map[string]bool{"serve": true, "demo": true}

// stopSignals are the signals that stop readsim after it removes the
// temporary files being written, with the exit status 128 + the signal's
// number, as a shell reports a process the signal killed.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// removeTempsOnSignal removes the temporary files being written and exits
// when an interrupt, a termination or a hang-up arrives.
func removeTempsOnSignal() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, stopSignals...)
	go func() {
		s := <-sig
		scenario.RemoveTempFiles()
		fmt.Fprintf(os.Stderr, "readsim: %v: stopped\n", s)
		code := 128 + 2 // SIGINT
		if n, ok := s.(syscall.Signal); ok {
			code = 128 + int(n)
		}
		os.Exit(code)
	}()
}

// commandContext is the context of a command's searches: cancelled by an
// interrupt or a termination (stopSignals), so that Ctrl-C stops them.
func commandContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), stopSignals...)
}

// runMain runs the command line args and returns the exit status.
func runMain(e *env, args []string) int {
	if len(args) == 2 && args[0] == "help" {
		// readsim help CMD is readsim CMD -h
		args = []string{args[1], "-h"}
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		printCommands(e.stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "version" || args[0] == "--version" || args[0] == "-version" {
		fmt.Fprintln(e.stdout, versionLine())
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "readsim: unknown command %q\n\n", args[0])
		printCommands(e.stderr)
		return 2
	}
	err := c.run(e, newFlags(e, c), args[1:])
	return exitStatus(e, c, err)
}

// exitStatus reports err on stderr and maps it to an exit status.
func exitStatus(e *env, c *command, err error) int {
	var ue usageError
	var ie inputError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(e.stderr, "readsim %s: %s\nusage: readsim %s %s\n", c.name, ue.msg, c.name, c.args)
		return 2
	case errors.As(err, &ie) || isBadInput(err):
		fmt.Fprintf(e.stderr, "readsim %s: %v\n", c.name, err)
		return 2
	default:
		fmt.Fprintf(e.stderr, "readsim %s: %v\n", c.name, err)
		return 1
	}
}

func printCommands(w io.Writer) {
	fmt.Fprintln(w, "usage: readsim COMMAND [flags] [arguments]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "  help      readsim help COMMAND: a command's arguments and flags")
	fmt.Fprintln(w, "  version   readsim's version, commit and Go version")
	fmt.Fprintln(w, "\nRun 'readsim help COMMAND' (or 'readsim COMMAND -h') for a command's flags; the README has examples.")
}

// versionLine names the build: the module version (or "devel"), the commit
// and its time when the binary was built from a checkout, and Go's version.
func versionLine() string {
	v, rev, when, dirty := "devel", "", "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	line := "readsim " + v
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		line += " commit " + rev
		if dirty {
			line += "+changes"
		}
		if when != "" {
			line += " (" + when + ")"
		}
	}
	return line + ", " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
}

// newFlags returns a flag set for c whose usage message prints c's synopsis and
// flags to e.stderr.
func newFlags(e *env, c *command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: readsim %s %s\n\n%s\n", c.name, c.args, c.summary)
		if c.details != "" {
			fmt.Fprintf(e.stderr, "\n%s\n", c.details)
		}
		var b strings.Builder
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fs.SetOutput(e.stderr)
		if b.Len() > 0 {
			fmt.Fprintf(e.stderr, "\nflags:\n%s", b.String())
		}
	}
	return fs
}

// parseFlags parses args with fs, allowing flags before and after positional
// arguments (cli.md), and returns the positional arguments. "--" ends flag
// parsing. A flag error becomes a usageError; -h becomes flag.ErrHelp.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usageError{err.Error()}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// fs.Parse stops at the first non-flag or after "--".
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// writeOutput writes with write to standard output, or to the file out
// when one is given (scenario.WriteFileAtomic: beside it, then renamed).
func writeOutput(e *env, out string, write func(io.Writer) error) error {
	if out == "" {
		return write(e.stdout)
	}
	return scenario.WriteFileAtomic(out, func(f *os.File) error { return write(f) })
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }
