package scenario

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"testing"

	"github.com/readsim/readsim/scenario/inex"
)

// FuzzReadReading: any input is read as a reading or refused with an
// *inex.Error, never a panic; a reading read keeps its invariants (reads
// within the open's len, the reading order new characters in spans), and
// the same bytes gzip-compressed or after a UTF-8 byte-order mark read
// alike.
func FuzzReadReading(f *testing.F) {
	if b, err := os.ReadFile("testdata/readings/byhand.jsonl"); err == nil {
		f.Add(b)
	}
	for _, s := range []string{
		`{"ev":"topic","topic":"1","seq":1,"t":0}` + "\n" + `{"ev":"open","topic":"1","doc":"a","seq":2,"len":100,"passages":[[1,5]]}` + "\n" +
			`{"ev":"read","topic":"1","doc":"a","seq":3,"from":0,"to":60,"screen":1}` + "\n" + `{"ev":"stop","topic":"1","doc":"a","seq":4,"reason":"t2i"}` + "\n" +
			`{"ev":"done","topic":"1","seq":5,"outcome":"found","scores":{"AP":0.5}}` + "\n",
		`{"ev":"topic","topic":"1","seq":1,"seq":2}`,
		`{"ev":"topic","topic":"1","seq":1} {}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		rd, err := ReadReading("r", bytes.NewReader(b))
		if err != nil {
			var e *inex.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *inex.Error", err)
			}
		} else {
			for _, tp := range rd.Topics {
				for _, a := range tp.Articles {
					for _, v := range a.Views {
						if v.From < 0 || v.To < v.From || a.Length > 0 && v.To > a.Length {
							t.Fatalf("read [%d,%d) of an article of len %d", v.From, v.To, a.Length)
						}
					}
					for _, s := range a.Order {
						if s.End <= s.Start {
							t.Fatalf("an empty span %v in the reading order", s)
						}
					}
				}
			}
		}
		if len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b || bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
			return
		}
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(b)
		zw.Close()
		for name, in := range map[string][]byte{"gzip": z.Bytes(), "BOM": append([]byte("\xef\xbb\xbf"), b...)} {
			got, gerr := ReadReading("r", bytes.NewReader(in))
			if (err == nil) != (gerr == nil) || err == nil && len(got.Topics) != len(rd.Topics) {
				t.Fatalf("%s: %v; plain %v", name, gerr, err)
			}
		}
	})
}
