package scenario

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/readsim/readsim/internal/ground/durable"
	"github.com/readsim/readsim/scenario/inex"
)

// CheckInputs refuses a list of input files that names standard input ("-")
// more than once: it can be read once only (two runs read from it would
// share and interleave its lines). The error is an *inex.Error (bad input).
func CheckInputs(paths []string) error {
	n := 0
	for _, p := range paths {
		if p == inex.Stdin {
			n++
		}
	}
	if n > 1 {
		return &inex.Error{File: inex.Stdin, Err: errors.New("standard input (-) given twice: it can be read once only; give the other files by name")}
	}
	return nil
}

// CheckOutput refuses an output file out that is one of the inputs (what
// names the same file: a hard link, a symbolic link to it, the same path
// written otherwise), which writing it would overwrite before, or while,
// they are read. A symbolic link at out is replaced, never followed
// (durable.Write), so it may point to an input. "" and "-" (standard
// output) are never inputs. The error is an *inex.Error (bad input).
func CheckOutput(out string, inputs ...string) error {
	if out == "" || out == inex.Stdin {
		return nil
	}
	ost, oerr := os.Lstat(out)
	abs, _ := filepath.Abs(out)
	for _, in := range inputs {
		if in == "" || in == inex.Stdin {
			continue
		}
		same := false
		if ist, err := os.Stat(in); err == nil && oerr == nil {
			same = os.SameFile(ost, ist)
		} else if a, err := filepath.Abs(in); err == nil {
			same = a == abs
		}
		if same {
			return &inex.Error{File: out, Err: fmt.Errorf("the output is the input %s: writing it would destroy what is being read; write the output elsewhere", in)}
		}
	}
	return nil
}

// InputFolder is a folder a command reads (its articles, an index, a
// study's recordings), named by what it is for messages ("the articles
// folder").
type InputFolder struct {
	What, Dir string
}

// CheckOutsideFolders refuses an output out (a file or a folder a command
// writes) that is one of the input folders or lies inside one: writing it
// would put readsim's file among, or over, what it reads (assess --out
// naming an article replaced the user's article). Paths are compared as
// durable.Inside does, by any path or link. A folder given as "" is
// skipped. The error is an *inex.Error (bad input).
func CheckOutsideFolders(out string, folders ...InputFolder) error {
	if out == "" || out == inex.Stdin {
		return nil
	}
	for _, f := range folders {
		if f.Dir != "" && durable.Inside(out, f.Dir) {
			return &inex.Error{File: out, Err: fmt.Errorf("inside %s %s: readsim writes nothing into a folder it reads; write the output elsewhere", f.What, f.Dir)}
		}
	}
	return nil
}

// NameApart gives the evaluations of runs that share a run id labels
// that tell them apart (Evaluation.Label): the run id followed by the
// file's name, "indri (int.trec)" (its path when the names are alike too,
// and a number when one file is given twice), so that tables and JSON name
// each run once. warn (may be nil) says which runs were renamed.
func NameApart(evs []*Evaluation, warn func(string)) {
	names := make([]string, len(evs))
	files := make([]string, len(evs))
	for i, r := range evs {
		names[i], files[i] = r.Name(), r.File
	}
	was := append([]string(nil), names...)
	renamed := apart(names, files)
	for i, r := range evs {
		if names[i] != was[i] {
			r.Label = names[i]
		}
	}
	if warn == nil {
		return
	}
	for _, n := range renamed {
		var as []string
		for i := range evs {
			if was[i] == n {
				as = append(as, strconv.Quote(names[i]))
			}
		}
		warn(fmt.Sprintf("warning: %d runs are named %q (their run id): they are told apart as %s", len(as), n, strings.Join(as, ", ")))
	}
}

// apart makes repeated names unique: each becomes "NAME (FILE)" with the
// file's base name, its path when the base names are alike too, and ", 2",
// ", 3"… when the paths are. It returns the names it renamed, in order.
func apart(names, files []string) []string {
	at := map[string][]int{}
	var repeated []string
	for i, n := range names {
		if files[i] == "" {
			continue
		}
		if len(at[n]) == 1 {
			repeated = append(repeated, n)
		}
		at[n] = append(at[n], i)
	}
	for _, n := range repeated {
		is := at[n]
		form := filepath.Base
		if !distinct(is, files, form) {
			form = filepath.Clean
		}
		k := map[string]int{}
		for _, i := range is {
			f := form(files[i])
			if k[f]++; k[f] > 1 {
				f += ", " + strconv.Itoa(k[f])
			}
			names[i] = n + " (" + f + ")"
		}
	}
	return repeated
}

// distinct tells whether form gives the files at is different names.
func distinct(is []int, files []string, form func(string) string) bool {
	seen := map[string]bool{}
	for _, i := range is {
		f := form(files[i])
		if seen[f] {
			return false
		}
		seen[f] = true
	}
	return true
}
