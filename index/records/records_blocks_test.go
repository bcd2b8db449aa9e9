package records

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/golang/snappy"
)

// blocksRecord writes by hand a record with no title, language, path,
// element, quiet span, break, separator nor XPath, a text of bytes bytes (ASCII:
// as many characters), and the text blocks given as raw lengths, each
// block the snappy of that many 'a's.
func blocksRecord(bytes int, raws []int) []byte {
	b := []byte{0, 0, 0} // title, lang, path
	b = binary.AppendUvarint(b, uint64(bytes))
	b = binary.AppendUvarint(b, uint64(bytes))
	b = append(b, 0, 0, 0, 0, 0, 0) // elements, quiet, breaks, separators, XPaths raw and compressed
	b = binary.AppendUvarint(b, uint64(len(raws)))
	var zs [][]byte
	for _, n := range raws {
		z := snappy.Encode(nil, make([]byte, n))
		zs = append(zs, z)
		b = binary.AppendUvarint(b, uint64(n))
		b = binary.AppendUvarint(b, uint64(n))
		b = binary.AppendUvarint(b, uint64(len(z)))
	}
	for _, z := range zs {
		b = append(b, z...)
	}
	return b
}

// TestRecordBlocksAsWritten: a record's text blocks are those a build
// writes — recordBlock bytes or more each but the last, none empty —
// or the record is damaged. A record of empty blocks decoded before,
// each costing 56 bytes of memory for 3 of the record's: 3 MB of it
// took 67 MB.
func TestRecordBlocksAsWritten(t *testing.T) {
	for _, tc := range []struct {
		name  string
		bytes int
		raws  []int
		ok    bool
	}{
		{"no text", 0, nil, true},
		{"one block", 10, []int{10}, true},
		{"two blocks", recordBlock + 5, []int{recordBlock, 5}, true},
		{"an empty block", 0, []int{0}, false},
		{"an empty block after the text", 10, []int{10, 0}, false},
		{"a million empty blocks", 0, make([]int, 1<<20), false},
		{"more blocks than the text needs", 30, []int{10, 10, 10}, false},
	} {
		_, err := Decode(blocksRecord(tc.bytes, tc.raws), false, nil)
		if tc.ok && err != nil {
			t.Errorf("%s: %v, want it decoded", tc.name, err)
		}
		if !tc.ok && !errors.Is(err, errRecord) {
			t.Errorf("%s: %v, want a damaged record", tc.name, err)
		}
	}
}
