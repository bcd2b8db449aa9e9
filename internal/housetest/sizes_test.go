package housetest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The house's sizes (docs/architecture.md, "Rules"): the command line is
// flags and wiring, at most maxCmdLines lines of non-test Go under cmd/;
// no function or method of non-test code passes maxFuncLines lines, from
// its signature to its closing brace. Tables in tests may be longer.
const (
	maxCmdLines  = 1100
	maxFuncLines = 80
)

// sizes are the lines of non-test Go under root and the functions of
// more than maxFuncLines lines, as "file: name (n lines)".
func sizes(root string) (lines int, long []string, err error) {
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		lines += strings.Count(string(src), "\n")
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
				if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxFuncLines {
					long = append(long, fmt.Sprintf("%s: %s (%d lines)", p, fd.Name.Name, n))
				}
			}
		}
		return nil
	})
	return lines, long, err
}

// TestSizes checks the module against the house's sizes.
func TestSizes(t *testing.T) {
	cmd, _, err := sizes("../../cmd")
	if err != nil {
		t.Fatal(err)
	}
	if cmd == 0 || cmd > maxCmdLines {
		t.Errorf("cmd/ has %d lines of non-test Go, want 1 to %d: move what a command knows beyond its flags into the packages", cmd, maxCmdLines)
	}
	_, long, err := sizes("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range long {
		t.Errorf("over %d lines: %s", maxFuncLines, l)
	}
}

// TestSizesFindLongFunctions checks that sizes counts lines and finds a
// function one line too long, and not one at the bound.
func TestSizesFindLongFunctions(t *testing.T) {
	dir := t.TempDir()
	body := func(name string, n int) string { // a function of n lines
		return "func " + name + "() {\n" + strings.Repeat("\t_ = 0\n", n-2) + "}\n"
	}
	src := "package x\n\n" + body("atBound", maxFuncLines) + body("over", maxFuncLines+1)
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte("package x\n\n"+body("longTest", 200)), 0o644); err != nil {
		t.Fatal(err)
	}
	lines, long, err := sizes(dir)
	want := 2 + maxFuncLines + maxFuncLines + 1
	if err != nil || lines != want || len(long) != 1 || !strings.Contains(long[0], "over (81 lines)") {
		t.Errorf("sizes: %d lines, long %q, %v; want %d lines and only over (81 lines)", lines, long, err, want)
	}
}
