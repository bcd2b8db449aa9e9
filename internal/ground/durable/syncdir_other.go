//go:build !unix

package durable

// SyncDir does nothing where a folder cannot be opened and synced
// (Windows): its renames are as durable as the system makes them.
func SyncDir(dir string) error { return nil }
