package backend

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readsim/readsim/index"
)

// TestIndexDemoRefusesUserFolder points the demo's index
// (READSIM_DEMO_INDEX) at a folder of the user's files: IndexDemo refuses
// it with an index.InputError naming the folder, and the file in it is
// left as it was.
func TestIndexDemoRefusesUserFolder(t *testing.T) {
	sample, err := SampleConfig("")
	if err != nil {
		t.Fatal(err)
	}
	mine := t.TempDir()
	p := filepath.Join(mine, "photos.txt")
	if err := os.WriteFile(p, []byte("holiday"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	_, err = IndexDemo(sample, mine, &out, false)
	var ie *index.InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), mine+" holds 1 file and is not a readsim index") {
		t.Errorf("IndexDemo into a folder of files: %v, want an InputError naming it", err)
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != "holiday" {
		t.Errorf("the user's file: %q %v", b, err)
	}
	if ents, _ := os.ReadDir(mine); len(ents) != 1 {
		t.Errorf("%d entries in the folder, want the user's file alone", len(ents))
	}
}
