package web

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/readsim/readsim/effort"
)

// The reference is encoding/json itself, on the value the search API
// used to marshal.
func marshalSearchRef(q string, hits []Hit) ([]byte, error) {
	return json.Marshal(map[string]any{"query": q, "hits": hits})
}

func TestSearchJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		q    string
		hits []Hit
	}{
		{"no hits", "q", nil},
		{"empty hits", "", []Hit{}},
		{"escapes", "a<b>&\"c\\\n\t\b\f\r\x00\x1f\u2028\u2029\xff", []Hit{{Rank: 1, ID: "x&y", Title: "<T>", Snippet: "…[ring]s\u00a0of", Score: 0.1}}},
		{"passages and lang", "ring", []Hit{
			{Rank: 1, ID: "12", Title: "Saturn", Snippet: "s", Score: 12.5, Passages: []effort.Span{{Start: 3, End: 10}, {Start: 20, End: 20}}, Lang: "en"},
			{Rank: 2, ID: "13", Score: 1e-7, Passages: []effort.Span{}},
			{Rank: 3, ID: "14", Score: 1e21, Lang: "zh", Lead: true, Passages: []effort.Span{{Start: 0, End: 5}}},
			{Rank: 10, ID: "21", Lead: true},
			{Rank: 4, ID: "15", Score: -2.5e-10},
			{Rank: 5, ID: "16", Score: 0},
			{Rank: 6, ID: "17", Score: math.Copysign(0, -1)},
			{Rank: 7, ID: "18", Score: 123456789.125},
			{Rank: 8, ID: "19", Score: 1e-6},
			{Rank: 9, ID: "20", Score: 9.999999999999999e20},
		}},
	} {
		want, err := marshalSearchRef(tc.q, tc.hits)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendSearchJSON(nil, tc.q, tc.hits)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s (%v)\nwant %s", tc.name, got, err, want)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := appendSearchJSON(nil, "q", []Hit{{Score: f}}); err == nil {
			t.Errorf("score %v written; encoding/json refuses it", f)
		}
	}
}

func FuzzSearchJSON(f *testing.F) {
	f.Add("ring", "12", "Saturn", "…the [ring]s of…", "en", 1.5, 3, 7)
	f.Add("<&>", "a\x00", "\u2028", "\xff\xfe", "", 1e-9, 0, 0)
	f.Add("", "", "", "", "zh", 1e22, -1, 5)
	f.Fuzz(func(t *testing.T, q, id, title, snippet, lang string, score float64, start, end int) {
		hits := []Hit{{Rank: 1, ID: id, Title: title, Snippet: snippet, Score: score, Lang: lang, Lead: start > end,
			Passages: []effort.Span{{Start: start, End: end}}}, {Rank: 2, ID: title}}
		want, werr := marshalSearchRef(q, hits)
		got, gerr := appendSearchJSON(nil, q, hits)
		if (werr == nil) != (gerr == nil) || !bytes.Equal(got, want) {
			t.Fatalf("got %s (%v)\nwant %s (%v)", got, gerr, want, werr)
		}
	})
}
