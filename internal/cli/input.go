package cli

import "errors"

// InputError is bad input that no library error type names (a file that
// cannot be read, a folder that is none): exit status 2
// (InputStatus). Its message names the file and the problem.
type InputError struct{ Err error }

// BadInput reports that the error is bad input.
func (e InputError) BadInput() bool { return true }

// Error returns the problem.
func (e InputError) Error() string { return e.Err.Error() }

// Unwrap returns the problem.
func (e InputError) Unwrap() error { return e.Err }

// InputStatus is the exit status of a command's error that is no bad
// usage (docs/cli.md, "Exit status"): 2 when it, or an error it wraps,
// is bad input, which every library error of that family tells by a
// BadInput method; 1 for any other failure.
func InputStatus(err error) int {
	var b interface{ BadInput() bool }
	if errors.As(err, &b) && b.BadInput() {
		return 2
	}
	return 1
}
