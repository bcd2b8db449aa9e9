package testfs

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := Temp(t, map[string]string{"a.txt": "one", "sub/deeper/b.xml": "<b/>", "empty": ""})
	for name, want := range map[string]string{"a.txt": "one", "sub/deeper/b.xml": "<b/>", "empty": ""} {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || string(b) != want {
			t.Errorf("%s: %q, %v; want %q", name, b, err, want)
		}
	}
}
