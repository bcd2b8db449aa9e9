package durable

import (
	"path/filepath"
	"strings"
)

// Inside reports whether path, once written, would be dir itself or lie
// inside it, by any path or symbolic link. Both are made absolute and
// their links resolved: for path, those of the longest part that exists
// (the rest is yet to be created, so no link can hide in it). path counts
// as inside when it is so either with its own last step resolved (a
// folder written through a link) or left as it is (a file that replaces
// the link itself), so a link pointing into dir, or a link inside dir
// pointing out, are both inside. A dir that does not exist holds nothing.
func Inside(path, dir string) bool {
	d, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	if d, err = filepath.EvalSymlinks(d); err != nil {
		return false
	}
	p, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	within := func(p string) bool {
		rel, err := filepath.Rel(d, p)
		return err == nil && (rel == "." || rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)))
	}
	return within(resolved(p)) || within(filepath.Join(resolved(filepath.Dir(p)), filepath.Base(p)))
}

// resolved is the absolute path p with the links of its longest existing
// part resolved.
func resolved(p string) string {
	rest := ""
	for cur := p; ; cur = filepath.Dir(cur) {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		if filepath.Dir(cur) == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
	}
}
