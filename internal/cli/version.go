package cli

import (
	"runtime"
	"runtime/debug"
)

// Version is the program's version line: "NAME VERSION", with the commit
// and its time when the binary was built from a checkout ("+changes" when
// the checkout had uncommitted changes), then Go's version, OS and
// architecture. VERSION is the module's version (a pseudo-version naming
// the commit for a go build in a clone), or "devel" for a build that is no
// released module. A devel build that recorded no commit says "(no commit
// recorded)": go records one with -buildvcs=true, or with go build's
// default -buildvcs=auto in a clone whose .git is a folder (not a git
// worktree's), unless GOFLAGS holds -buildvcs=false (docs/cli.md).
func Version(name string) string {
	bi, _ := debug.ReadBuildInfo()
	return versionLine(name, bi) + ", " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
}

// versionLine is Version's line up to Go's version, from the build
// information bi (nil: none).
func versionLine(name string, bi *debug.BuildInfo) string {
	v, rev, when, dirty := "devel", "", "", false
	if bi != nil {
		if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	line := name + " " + v
	if rev == "" && v == "devel" {
		return line + " (no commit recorded)"
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		line += " commit " + rev
		if dirty {
			line += "+changes"
		}
		if when != "" {
			line += " (" + when + ")"
		}
	}
	return line
}
