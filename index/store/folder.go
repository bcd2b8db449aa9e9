package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// buildEntry matches the names a build of this layout writes into its
// folder (leftovers: a folder holding a layout-1 "articles" folder is no
// build of this readsim's, and may be someone's articles).
var buildEntry = regexp.MustCompile(`^(manifest\.json|articles\.json|elements\.fst|articles-[0-9]+)$`)

// IsIndexManifest reports whether b is the manifest of a readsim index,
// of any layout: a JSON object with a positive version, the articles
// folder it was built from (an absolute path), its candidate elements and
// when it was built. A manifest.json of anything else (a web app's, say)
// is not one.
func IsIndexManifest(b []byte) bool {
	var m struct {
		Version  *int       `json:"version"`
		Source   *string    `json:"source"`
		Elements []string   `json:"elements"`
		Built    *time.Time `json:"built"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return false
	}
	return m.Version != nil && *m.Version > 0 && m.Source != nil && filepath.IsAbs(*m.Source) &&
		len(m.Elements) > 0 && m.Built != nil && !m.Built.IsZero()
}

// leftovers returns the folders beside idx that a build of idx left
// (pat is ".building-*" or ".old-*"): a process id after the dash, and
// only the names a build writes inside (buildEntry; a folder of the
// user's that happens to be called idx.old-photos, or idx.old-1 holding
// other files, is not readsim's to remove).
func leftovers(idx, pat string) []string {
	ms, _ := filepath.Glob(idx + pat)
	out := ms[:0]
	for _, m := range ms {
		pid := m[len(idx)+len(pat)-1:]
		if pid == "" || strings.Trim(pid, "0123456789") != "" {
			continue
		}
		if st, err := os.Lstat(m); err != nil || !st.IsDir() {
			continue
		}
		ents, err := os.ReadDir(m)
		if err != nil {
			continue
		}
		ours := true
		for _, e := range ents {
			ours = ours && buildEntry.MatchString(e.Name())
		}
		if ours {
			out = append(out, m)
		}
	}
	return out
}

// ReadSmall reads the file p, which must be a regular file (a FIFO would
// block the read, a device never end) of at most limit bytes.
func ReadSmall(p string, limit int64) ([]byte, error) {
	st, err := os.Stat(p)
	switch {
	case err != nil:
		return nil, err
	case !st.Mode().IsRegular():
		return nil, &fs.PathError{Op: "read", Path: p, Err: errors.New("not a regular file")}
	case st.Size() > limit:
		return nil, &fs.PathError{Op: "read", Path: p, Err: fmt.Errorf("%d bytes, more than the %d a readsim index's file of its kind holds", st.Size(), limit)}
	}
	return os.ReadFile(p)
}

// MaxManifest bounds a manifest.json and an index_meta.json: a
// manifest without its articles (articles.json) is a few kilobytes.
const MaxManifest = 16 << 20

// MaxArticlesJSON bounds the index's larger files, articles.json and
// elements.fst (94 MB and less at 500k articles).
const MaxArticlesJSON = 8 << 30

// Unwrap returns the cause of a file-system error, without the operation
// and path it repeats.
func Unwrap(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}
