package durable

import (
	"errors"
	"os"
	"path/filepath"
)

// WriteFile writes data to the file name in dir: into a temporary file
// beside it (".name.tmp…", removed on failure), synced, renamed over name,
// then dir synced.
func WriteFile(dir, name string, data []byte) error {
	f, err := os.CreateTemp(dir, "."+name+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err = errors.Join(err, f.Sync(), f.Close()); err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return SyncDir(dir)
}
