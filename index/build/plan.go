package build

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/blevesearch/bleve/v2"

	"github.com/readsim/readsim/index/records"
	"github.com/readsim/readsim/index/store"
)

// summarise sets the counts of the index described by m.
func (r *Result) summarise(m *store.Manifest) {
	t := store.Sum(m.Articles)
	r.Articles, r.Elements, r.Langs = t.Articles, t.Elems, t.Langs
}

// rebuildReason says why the index described by old must be built again
// rather than updated to next, or "".
func rebuildReason(old, next *store.Manifest) string {
	if old.Version != next.Version {
		return fmt.Sprintf("built by another version of readsim (layout %d, now %d)", old.Version, next.Version)
	}
	if o, n := strings.Join(old.Elements, ","), strings.Join(next.Elements, ","); o != n {
		return fmt.Sprintf("the candidate elements changed from %s to %s", o, n)
	}
	if old.Shards != next.Shards {
		return fmt.Sprintf("the number of shards changed from %d to %d", old.Shards, next.Shards)
	}
	if old.Lang != next.Lang {
		lang := func(l string) string {
			if l == "" {
				return "detected per article"
			}
			return l
		}
		return fmt.Sprintf("the articles' language changed from %s to %s", lang(old.Lang), lang(next.Lang))
	}
	if why := recordsWaste(old); why != "" {
		return why
	}
	was := map[string]store.FileStamp{}
	for _, d := range old.DTDs {
		was[d.Path] = d
	}
	for _, d := range next.DTDs {
		o, ok := was[d.Path]
		switch {
		case !ok:
			return fmt.Sprintf("the DTD %s is new: the articles' text may change", d.Path)
		case o != d:
			return fmt.Sprintf("the DTD %s changed: the articles' text may change", d.Path)
		}
		delete(was, d.Path)
	}
	for _, d := range old.DTDs {
		if _, gone := was[d.Path]; gone {
			return fmt.Sprintf("the DTD %s is gone: the articles' text may change", d.Path)
		}
	}
	return ""
}

// recordsWaste says, when the records files of the index described by old
// are more than half the records of articles deleted or changed since it
// was built in full (an update appends records and never takes any out),
// that it must be built again; or "".
func recordsWaste(old *store.Manifest) string {
	var live, size int64
	for _, e := range old.Articles {
		live += e.Rec
	}
	for _, r := range old.Records {
		size += r.Size - int64(len(records.Magic))
	}
	if size > 2*live+RecordsSlack {
		return fmt.Sprintf("its records files hold %d MB, of which %d MB are of articles deleted or changed since", size>>20, (size-live)>>20)
	}
	return ""
}

// RecordsSlack is how many bytes of old records an index may hold
// whatever its size.
const RecordsSlack = 1 << 20

// stampDTD identifies the DTD file p (the Reader's DTD) by its absolute path,
// size and modification time.
func stampDTD(p string) (store.FileStamp, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return store.FileStamp{}, &store.InputError{Msg: fmt.Sprintf("DTD file %s: %v", p, err)}
	}
	st, err := os.Stat(abs)
	if err != nil {
		return store.FileStamp{}, &store.InputError{Msg: fmt.Sprintf("DTD file %s: %v", p, errors.Unwrap(err))}
	}
	if !st.Mode().IsRegular() {
		return store.FileStamp{}, &store.InputError{Msg: fmt.Sprintf("DTD file %s: not a regular file", p)}
	}
	return store.FileStamp{Path: abs, Size: st.Size(), MTime: st.ModTime().UnixNano()}, nil
}

// checkIndex checks that the complete index in dir, described by m, can be
// updated exactly: its element frequencies are readable, its records files
// are those of the manifest and hold its articles' records, and its Bleve
// index holds every article of the manifest.
func checkIndex(dir string, m *store.Manifest) error {
	if err := store.CheckElemDFStamp(dir, dir, m.ElemDF); err != nil {
		return err
	}
	if err := store.CheckElemDF(dir); err != nil {
		return err
	}
	// a damaged segment would make the update panic in Bleve's own
	// goroutines (its merger), where it cannot be recovered: the segments
	// are checked first, and a damaged index is built again
	if err := store.CheckShards(dir, dir, m); err != nil {
		return err
	}
	want := make([]uint64, m.Shards)
	live := make([]int64, m.Shards) // the bytes of each shard's articles' records
	for _, e := range m.Articles {
		want[store.ShardOf(e.ID, m.Shards)]++
		live[store.ShardOf(e.ID, m.Shards)] += e.Rec
	}
	for i := range m.Shards {
		if i >= len(m.Records) {
			return fmt.Errorf("%s: %d records files for %d shards", store.ManifestPath(dir), len(m.Records), m.Shards)
		}
		p := records.Path(store.ShardDir(dir, i))
		rf, err := records.Open(dir, p, m.Records[i])
		if err != nil {
			return err
		}
		rf.Close()
		// a file cut short, its stamp made again, passes Open:
		// an update would keep records lying past its end
		if size := m.Records[i].Size - int64(len(records.Magic)); live[i] > size {
			return &store.DamagedError{Index: dir, File: p, Err: fmt.Errorf("its articles' records are %d bytes, more than its %d", live[i], size)}
		}
	}
	for i := range m.Shards {
		sd := store.ShardDir(dir, i)
		var n uint64
		err := store.Guard(dir, sd, func() error {
			ai, err := bleve.OpenUsing(sd, map[string]interface{}{"read_only": true, "bolt_timeout": "1s"})
			if err != nil {
				return err
			}
			defer ai.Close()
			n, err = ai.DocCount()
			return err
		})
		var de *store.DamagedError
		if errors.As(err, &de) {
			return err
		} else if err != nil {
			return fmt.Errorf("%s: %w", sd, err)
		}
		if n != want[i] {
			return fmt.Errorf("%s holds %d articles, its manifest %d", sd, n, want[i])
		}
	}
	return nil
}

// damageReason is err said as the reason to build an index again: for a
// DamagedError, the file and what is wrong with it.
func damageReason(err error) string {
	var de *store.DamagedError
	if errors.As(err, &de) {
		return fmt.Sprintf("%s is damaged: %v", de.File, de.Err)
	}
	return err.Error()
}
