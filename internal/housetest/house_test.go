package housetest

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// module is readsim's module path.
const module = "github.com/readsim/readsim"

// pkg is a package of the module and the packages of the module it
// imports: in its code, and in its tests of the same package.
type pkg struct {
	path    string
	imports []string
	tests   []string
}

// rule is one rule of the house: a package that breaks it, with the
// import that does, gives a violation (empty: none).
type rule struct {
	name  string
	check func(p pkg, imp string, test bool) bool
}

// under reports whether the package path p is the package dir of the
// module or one below it.
func under(p, dir string) bool {
	return p == module+"/"+dir || strings.HasPrefix(p, module+"/"+dir+"/")
}

// rules are the house's rules (docs/architecture.md, "Rules"). Each is
// asked of every import of the module's own packages: check is true when
// the import breaks the rule.
var rules = []rule{
	{"the ground imports no package of readsim's", func(p pkg, imp string, test bool) bool {
		return under(p.path, "internal/ground") && !test
	}},
	{"only cmd/readsim imports the wiring (internal/app, internal/cli)", func(p pkg, imp string, test bool) bool {
		for _, w := range []string{"internal/app", "internal/cli"} {
			if under(imp, w) && !under(p.path, "cmd/readsim") && !under(p.path, w) {
				return true
			}
		}
		return false
	}},
	{"effort and index/article import only the ground (and their own subpackages)", func(p pkg, imp string, test bool) bool {
		if test {
			return false
		}
		for _, low := range []string{"effort", "index/article"} {
			if under(p.path, low) && !under(imp, low) && !under(imp, "internal/ground") {
				return true
			}
		}
		return false
	}},
	{"no index subpackage imports the index API", func(p pkg, imp string, test bool) bool {
		return strings.HasPrefix(p.path, module+"/index/") && imp == module+"/index"
	}},
}

// violations returns, for the packages pkgs, each import that breaks a
// rule, as "rule: package imports package".
func violations(pkgs []pkg) []string {
	var out []string
	for _, p := range pkgs {
		for _, set := range []struct {
			imps []string
			test bool
		}{{p.imports, false}, {p.tests, true}} {
			for _, imp := range set.imps {
				for _, r := range rules {
					if r.check(p, imp, set.test) {
						out = append(out, r.name+": "+p.path+" imports "+imp)
					}
				}
			}
		}
	}
	return out
}

// ownImports keeps the paths of the module's own packages.
func ownImports(imps []string) []string {
	var out []string
	for _, i := range imps {
		if i == module || strings.HasPrefix(i, module+"/") {
			out = append(out, i)
		}
	}
	return out
}

// modulePackages lists the module's packages and their imports of its
// own packages, as go list gives them. A package's external tests
// (package x_test) may import anything, as tests of the whole do.
func modulePackages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", module+"/...")
	cmd.Dir = "../.."
	outp, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(outp)))
	var pkgs []pkg
	for {
		var p struct {
			ImportPath  string
			Imports     []string
			TestImports []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, pkg{p.ImportPath, ownImports(p.Imports), ownImports(p.TestImports)})
	}
	return pkgs
}

// TestHouse checks the module's import graph against the rules.
func TestHouse(t *testing.T) {
	pkgs := modulePackages(t)
	seen := map[string]bool{}
	for _, p := range pkgs {
		seen[p.path] = true
	}
	// the graph is the module's: the packages the rules speak of are in it
	for _, want := range []string{"index", "index/store", "index/article", "effort", "internal/app", "internal/cli", "internal/ground/durable", "cmd/readsim"} {
		if !seen[module+"/"+want] {
			t.Fatalf("go list gives no %s: not the module's graph", want)
		}
	}
	for _, v := range violations(pkgs) {
		t.Error(v)
	}
}

// TestRules checks that each rule finds an import that breaks it, and
// lets one that keeps it pass.
func TestRules(t *testing.T) {
	m := func(p string) string { return module + "/" + p }
	tests := []struct {
		name string
		p    pkg
		bad  bool
	}{
		{"the ground imports readsim", pkg{path: m("internal/ground/durable"), imports: []string{m("effort")}}, true},
		{"the ground imports the ground", pkg{path: m("internal/ground/headless"), imports: []string{m("internal/ground/testfs")}}, true},
		{"the ground's tests import the ground", pkg{path: m("internal/ground/headless"), tests: []string{m("internal/ground/testfs")}}, false},
		{"web imports the wiring", pkg{path: m("web"), imports: []string{m("internal/app")}}, true},
		{"index imports the command line", pkg{path: m("index"), imports: []string{m("internal/cli")}}, true},
		{"a test of scenario imports the wiring", pkg{path: m("scenario"), tests: []string{m("internal/app")}}, true},
		{"cmd/readsim imports the wiring", pkg{path: m("cmd/readsim"), imports: []string{m("internal/app"), m("internal/cli")}}, false},
		{"internal/app imports internal/cli", pkg{path: m("internal/app"), imports: []string{m("internal/cli")}}, true},
		{"effort imports index", pkg{path: m("effort"), imports: []string{m("index")}}, true},
		{"effort imports the ground", pkg{path: m("effort"), imports: []string{m("internal/ground/durable")}}, false},
		{"index/article imports index/chars", pkg{path: m("index/article"), imports: []string{m("index/chars")}}, true},
		{"wikimarkup imports index/article", pkg{path: m("index/article/wikimarkup"), imports: []string{m("index/article")}}, false},
		{"index/store imports index", pkg{path: m("index/store"), imports: []string{m("index")}}, true},
		{"a test of index/build imports index", pkg{path: m("index/build"), tests: []string{m("index")}}, true},
		{"index imports index/store", pkg{path: m("index"), imports: []string{m("index/store")}}, false},
		{"internal/app imports index", pkg{path: m("internal/app"), imports: []string{m("index")}}, false},
	}
	for _, tc := range tests {
		got := violations([]pkg{tc.p})
		if bad := len(got) > 0; bad != tc.bad {
			t.Errorf("%s: violations %q, want some: %v", tc.name, got, tc.bad)
		}
	}
}
