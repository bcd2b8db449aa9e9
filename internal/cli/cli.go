package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// Env is what a command may touch of the outside world, so that tests can
// run commands in-process.
type Env struct {
	Stdout, Stderr io.Writer
	// StderrIsTerminal tells whether progress bars may be drawn on Stderr.
	StderrIsTerminal bool
}

// Command is one subcommand.
type Command struct {
	Name     string // as typed on the command line
	Synopsis string // the arguments, for usage lines
	Summary  string // one line for the command list
	// Details, when set, follow the summary in the command's help (-h,
	// NAME help COMMAND): what a user needs beyond the flags.
	Details string
	// Run executes the command with its flag set, whose usage message is
	// the command's help. It returns a UsageError for exit status 2, any
	// other error for the status Program.Status gives it.
	Run func(e *Env, fs *flag.FlagSet, args []string) error
	// HandlesSignals tells that the command stops on a signal by itself (a
	// server's graceful shutdown): Main does not stop it (ExitOnSignal).
	HandlesSignals bool
}

// Program is a command-line program: its name and its commands.
type Program struct {
	Name     string
	Commands map[string]*Command
	// Footer is the last line of the list of commands.
	Footer string
	// Status is the exit status of an error a command returns that is no
	// UsageError and that BadUsage does not tell is bad usage (nil: 1 for
	// every such error).
	Status func(error) int
	// BadUsage tells whether an error a command returns that is no
	// UsageError is bad usage all the same (a library's error for a request
	// it cannot take): it is reported as a UsageError is, status 2. nil:
	// none is.
	BadUsage func(error) bool
	// Stop is called when a signal stops a command (ExitOnSignal): it
	// removes what must not be left behind.
	Stop func()
}

// Describe gives p's commands their names, synopses and summaries from
// text: a line "NAME SYNOPSIS" for each command, then its one-line summary
// after a tab; blank lines and lines starting with # are comments. A line
// naming a command p does not have is an error.
func (p *Program) Describe(text string) error {
	var c *Command
	for i, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "\t"):
			if c == nil {
				return fmt.Errorf("line %d: a summary before any command", i+1)
			}
			c.Summary = line[1:]
		case line != "" && line[0] != '#':
			name, args, _ := strings.Cut(line, " ")
			if c = p.Commands[name]; c == nil {
				return fmt.Errorf("line %d: no command %s", i+1, name)
			}
			c.Name, c.Synopsis = name, args
		}
	}
	return nil
}

// Main runs the program on os.Args and exits with its status. Unless the
// command handles signals itself, a signal of StopSignals stops it
// (ExitOnSignal).
func (p *Program) Main() {
	e := &Env{Stdout: os.Stdout, Stderr: os.Stderr, StderrIsTerminal: IsTerminal(os.Stderr)}
	if len(os.Args) > 1 {
		if c := p.Commands[os.Args[1]]; c == nil || !c.HandlesSignals {
			ExitOnSignal(p.Name, p.Stop)
		}
	}
	os.Exit(p.Run(e, os.Args[1:]))
}

// Run runs the command line args (without the program's name) and returns
// the exit status. Help asked for is on e.Stdout, status 0: help, -h or
// --help the list of commands, help COMMAND or COMMAND -h the command's
// help. With no argument the list is on e.Stderr, status 2, as is an
// unknown command's. version, --version or -version print the version
// line (Version) on e.Stdout. A UsageError (or an error p.BadUsage tells
// is bad usage) is reported on e.Stderr as "NAME COMMAND: problem" and the
// command's usage line, status 2; any other error as "NAME COMMAND:
// error", with the status p.Status gives it.
func (p *Program) Run(e *Env, args []string) int {
	if len(args) == 2 && args[0] == "help" {
		args = []string{args[1], "-h"}
	}
	switch {
	case len(args) == 0:
		p.printCommands(e.Stderr)
		return 2
	case args[0] == "-h" || args[0] == "--help" || args[0] == "help":
		p.printCommands(e.Stdout)
		return 0
	case args[0] == "version" || args[0] == "--version" || args[0] == "-version":
		fmt.Fprintln(e.Stdout, Version(p.Name))
		return 0
	}
	c, ok := p.Commands[args[0]]
	if !ok {
		fmt.Fprintf(e.Stderr, "%s: unknown command %q\n\n", p.Name, args[0])
		p.printCommands(e.Stderr)
		return 2
	}
	return p.status(e, c, c.Run(e, p.flags(e, c), args[1:]))
}

// status reports the error err that command c returned on e.Stderr (none
// for nil or flag.ErrHelp) and returns the exit status (Run).
func (p *Program) status(e *Env, c *Command, err error) int {
	var ue *UsageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		err = ue.Err
		fallthrough
	case p.BadUsage != nil && p.BadUsage(err):
		fmt.Fprintf(e.Stderr, "%s %s: %v\nusage: %s %s %s\n", p.Name, c.Name, err, p.Name, c.Name, c.Synopsis)
		return 2
	}
	fmt.Fprintf(e.Stderr, "%s %s: %v\n", p.Name, c.Name, err)
	if p.Status == nil {
		return 1
	}
	return p.Status(err)
}

// printCommands writes the list of commands, by name.
func (p *Program) printCommands(w io.Writer) {
	fmt.Fprintf(w, "usage: %s COMMAND [flags] [arguments]\n\ncommands:\n", p.Name)
	names := make([]string, 0, len(p.Commands))
	for n := range p.Commands {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, p.Commands[n].Summary)
	}
	fmt.Fprintf(w, "  help      %s help COMMAND: a command's arguments and flags\n", p.Name)
	fmt.Fprintf(w, "  version   %s's version, commit and Go version\n", p.Name)
	fmt.Fprintf(w, "\n%s\n", p.Footer)
}

// flags returns a flag set for c whose usage message, the command's help,
// prints c's synopsis, summary, details and flags (PrintFlags) to
// e.Stdout: it is printed only when asked for (Parse prints no help for a
// bad flag). Whatever else the flag package would print goes to e.Stderr.
func (p *Program) flags(e *Env, c *Command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.Stdout, "usage: %s %s %s\n\n%s\n", p.Name, c.Name, c.Synopsis, c.Summary)
		if c.Details != "" {
			fmt.Fprintf(e.Stdout, "\n%s\n", c.Details)
		}
		var b strings.Builder
		PrintFlags(&b, fs)
		if b.Len() > 0 {
			fmt.Fprintf(e.Stdout, "\nflags:\n%s", b.String())
		}
	}
	return fs
}
