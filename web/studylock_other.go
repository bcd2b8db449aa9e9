//go:build !unix

package web

import "os"

// flock does nothing where flock(2) is missing: the lock then keeps no
// other process out (studylock.go).
func flock(*os.File) error { return nil }
