package store

import "errors"

// InputError is bad input: a missing or unreadable folder, or a folder with
// no article. Commands map it to exit status 2.
type InputError struct{ Msg string }

// BadInput reports that the error is bad input: readsim exits with
// status 2 (docs/cli.md, "Exit status").
func (e *InputError) BadInput() bool { return true }

// Error returns the message, which names the file and the problem.
func (e *InputError) Error() string { return e.Msg }

// ErrLocked means that another process is writing the index.
var ErrLocked = errors.New("another process is writing the index")
