package web

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The study's folder is used by one process at a time (issue 36): two
// servers on one folder would both hand out the same round-robin position
// and each keep its own participants in memory; `readsim study clear` or
// `repair` under a running server would delete keys the server still
// uses. So a server holds the lock of the folder, DIR/lock (flock(2),
// exclusive, on an open file: the kernel releases it when the process
// ends, however it ends), from start to stop, and the admin commands that
// change the folder hold it while they work. Whoever holds it writes a
// line into the file saying who they are (the command, its process id,
// since when), which the refusal quotes. `study list` and `study export`
// only read the folder and take no lock.
//
// Decision where the issue is silent: where flock(2) is missing (not a
// Unix system) the lock is taken without the kernel's help and does not
// keep a second process out.

// lockFile is the lock's file in the study's folder.
const lockFile = "lock"

// ErrStudyLocked is the error of a lock that another process holds.
var ErrStudyLocked = errors.New("the study's folder is in use")

// folderLock is a held lock of a study's folder.
type folderLock struct{ f *os.File }

// lockStudy takes the lock of the study folder dir for who (a command's
// name), or returns an error wrapping ErrStudyLocked that says who holds
// it.
func lockStudy(dir, who string) (*folderLock, error) {
	path := filepath.Join(dir, lockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("the study's lock: %w", err)
	}
	if err := flock(f); err != nil {
		b := make([]byte, 200)
		n, _ := f.ReadAt(b, 0)
		f.Close()
		holder := strings.TrimSpace(string(b[:n]))
		if holder == "" {
			holder = "another process"
		}
		if errors.Is(err, ErrStudyLocked) {
			return nil, fmt.Errorf("%s: %w by %s: stop it first", dir, ErrStudyLocked, holder)
		}
		return nil, fmt.Errorf("%s: the study's lock: %w", path, err)
	}
	line := fmt.Sprintf("%s (process %d) since %s\n", who, os.Getpid(), time.Now().UTC().Format(time.RFC3339))
	f.Truncate(0)
	f.WriteAt([]byte(line), 0)
	return &folderLock{f: f}, nil
}

// release lets the lock go (nil: nothing held).
func (l *folderLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	f := l.f
	l.f = nil
	f.Truncate(0)
	return f.Close() // closing the file releases the flock
}
