// Package cli is the command-line plumbing of a program with subcommands
// (NAME COMMAND [flags] [arguments]) that knows nothing of what the
// commands do: the table of commands with the synopses and summaries read
// from a text, the list of commands and each command's help, flags that
// may follow positional arguments, usage errors and the mapping of errors
// to exit statuses, the version line, the signals that stop a command,
// terminal detection and progress bars.
//
// It imports no package of readsim; cmd/readsim holds readsim's table of
// commands and decides which of its errors are bad input (Program.Status).
package cli
