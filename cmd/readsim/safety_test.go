package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A collection holding a FIFO named like an article and a file named .xml
// alone: index builds the rest and names both (a .xml aborted the build
// with "document ID cannot be empty", naming no file; the FIFO went
// unsaid), render, eval and assess warn of them, and an article whose
// DOCTYPE names /etc/passwd is read without opening it, with a warning.
func TestCollectionSpecialEntries(t *testing.T) {
	dir := t.TempDir()
	arts := filepath.Join(dir, "articles")
	mustMkdir(t, filepath.Join(arts, "en"))
	mustWriteFile(t, filepath.Join(arts, "en", "1.xml"), `<!DOCTYPE article SYSTEM "/etc/passwd"><article><header><title>One</title></header><bdy><p>lens &eacute;</p></bdy></article>`)
	mustWriteFile(t, filepath.Join(arts, ".xml"), `<article><p>no name</p></article>`)
	fifo := filepath.Join(arts, "en", "2.xml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	hl := filepath.Join(dir, "hl")
	mustWriteFile(t, hl, "topic 1\narticle 1\n> lens\n")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"index", []string{"index", "--articles", arts, "--index", filepath.Join(dir, "idx")}},
		{"render", []string{"render", "--articles", arts, "1"}},
		{"assess", []string{"assess", "--articles", arts, hl}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, stderr := runCLI(tc.args...)
			if status != 0 {
				t.Fatalf("exit %d: %s", status, stderr)
			}
			checkText(t, "stderr", stderr, []string{
				fifo + ": named like an article but a FIFO (named pipe), not a regular file",
				filepath.Join(arts, ".xml") + ": an article file needs a name before .xml",
				`its DTD "/etc/passwd" is not read: /etc/passwd is an absolute path`,
			}, []string{"root:"})
		})
	}
}

func mustMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}
