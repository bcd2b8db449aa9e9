package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// UsageError is bad usage (an unknown flag, a missing argument, a flag
// value out of range): Program.Run reports it with the command's usage
// line, exit status 2.
type UsageError struct{ Err error }

// Error returns the problem.
func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the problem.
func (e *UsageError) Unwrap() error { return e.Err }

// Usage makes err a UsageError.
func Usage(err error) error { return &UsageError{err} }

// Usagef is a UsageError formatted as fmt.Errorf does.
func Usagef(format string, a ...any) error { return &UsageError{fmt.Errorf(format, a...)} }

// Parse parses args with fs, allowing flags before and after positional
// arguments, and returns the positional arguments in order. "--" ends flag
// parsing: every argument after it is positional. A flag error is a
// UsageError; -h or --help is flag.ErrHelp (fs's usage is printed).
func Parse(fs *flag.FlagSet, args []string) ([]string, error) {
	// The flag package prints a bad flag's error and the whole help; the
	// UsageError says it once, with the usage line: only -h prints the
	// help.
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	defer func() { fs.SetOutput(out); fs.Usage = usage }()
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(out)
				usage()
				return nil, err
			}
			return nil, Usage(err)
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

// ParseFlagsOnly is Parse for a command that takes no positional
// argument: one is a UsageError naming it.
func ParseFlagsOnly(fs *flag.FlagSet, args []string) error {
	pos, err := Parse(fs, args)
	if err == nil && len(pos) > 0 {
		err = Usagef("unexpected argument %q", pos[0])
	}
	return err
}

// CommaList splits a comma-separated flag value into its items, white
// space around them trimmed and empty ones dropped.
func CommaList(s string) []string {
	var items []string
	for _, it := range strings.Split(s, ",") {
		if it = strings.TrimSpace(it); it != "" {
			items = append(items, it)
		}
	}
	return items
}

// Strings is a repeatable string flag: each use adds a value.
type Strings []string

// String returns the values, comma-separated.
func (s *Strings) String() string { return strings.Join(*s, ",") }

// Set adds v.
func (s *Strings) Set(v string) error { *s = append(*s, v); return nil }

// FlagName is a flag's name as usage lines and flag lists spell it: "-x"
// for a one-letter name (as trec_eval and most tools spell -m, -q, -c),
// "--name" for a longer one. Parse reads either spelling of either.
func FlagName(name string) string {
	if len([]rune(name)) == 1 {
		return "-" + name
	}
	return "--" + name
}

// PrintFlags writes fs's flags to w in the order of their names, as
// flag.PrintDefaults does but spelt by FlagName: a line with the name and
// the value's placeholder (a word in back quotes in the flag's usage, or
// its type), then the usage, indented, with the default when it is not
// the zero value.
func PrintFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		line := "  " + FlagName(f.Name)
		arg, usage := flag.UnquoteUsage(f)
		if arg != "" {
			line += " " + arg
		}
		if len(line) <= 4 { // a one-letter flag with no value: usage on its line
			line += "\t"
		} else {
			line += "\n    \t"
		}
		line += strings.ReplaceAll(usage, "\n", "\n    \t")
		if d, ok := flagDefault(f); ok {
			line += " (default " + d + ")"
		}
		fmt.Fprintln(w, line)
	})
}

// flagDefault is f's default as a flag list shows it (a string quoted),
// and false when it is the zero value of its type, which the list omits.
func flagDefault(f *flag.Flag) (string, bool) {
	switch f.DefValue {
	case "", "0", "false", "0s", "[]":
		return "", false
	}
	if fmt.Sprintf("%T", f.Value) == "*flag.stringValue" {
		return fmt.Sprintf("%q", f.DefValue), true
	}
	return f.DefValue, true
}
