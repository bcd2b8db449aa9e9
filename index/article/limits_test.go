package article

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// An article file is refused by its kind and size before the XML decoder
// reads it (a sparse file of 2 GiB takes no time), and a gzip article is
// named as gzip.
func TestArticleFileBounds(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	f, err := os.Create(p("sparse.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Skip("no sparse file here:", err)
	}
	f.Close()
	if err := syscall.Mkfifo(p("fifo.xml"), 0o644); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("<article><name>x</name><body>text</body></article>"))
	zw.Close()
	os.WriteFile(p("a.xml.gz"), gz.Bytes(), 0o644)
	os.WriteFile(p("big.dtd"), bytes.Repeat([]byte(" "), MaxDTDBytes+1), 0o644)
	os.WriteFile(p("a.dtd.gz"), gz.Bytes(), 0o644)
	for _, tc := range []struct {
		name string
		read func() error
		want string
	}{
		{"a 2 GiB sparse article", func() error { _, err := ParseFile(p("sparse.xml")); return err }, "sparse.xml: 2147483648 bytes, larger than 32 MiB: not an article readsim reads"},
		{"a FIFO", func() error { _, err := ParseFile(p("fifo.xml")); return err }, "fifo.xml: not a regular file"},
		{"a folder", func() error { _, err := ParseFile(dir); return err }, "a folder, not an article file"},
		{"gzip", func() error { _, err := ParseFile(p("a.xml.gz")); return err }, "a.xml.gz: gzip data: articles are read as XML files"},
		{"a DTD past 4 MiB", func() error { _, err := ReadDTD(p("big.dtd")); return err }, "big.dtd: 4194305 bytes, larger than 4 MiB: not a DTD readsim reads"},
		{"a gzip DTD", func() error { _, err := ReadDTD(p("a.dtd.gz")); return err }, "a.dtd.gz: gzip data: a DTD is read as text"},
		{"a FIFO as DTD", func() error { _, err := ReadDTD(p("fifo.xml")); return err }, "fifo.xml: not a regular file"},
	} {
		if err := tc.read(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
