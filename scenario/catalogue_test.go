package scenario

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Every measure family of the registry is listed, with its aliases, kind,
// direction and aggregation (measures.md: AgP and the INEX measures are
// higher-better means, ANCE lower-better, the counts sums, the Genomics
// measures means over every judged topic, a document score has no `all`).
func TestWriteCatalogue(t *testing.T) {
	for _, tc := range []struct {
		f    ReportFormat
		want []string
	}{
		{FormatTSV, []string{"measure\talso\tkind\tbetter\tall\tmeaning\tsource\n",
			"AgP\\D\tMAgP[\\D]\tlist score\thigher\tmean", "ANCE[k]\\LE(s,NR[,x])\t\tlist score\tlower", "AP\tmap\tdocument\thigher",
			"nDCG[k]\tnDCG (no cutoff), nDCG@k, ndcg, ndcg_cut_k\tdocument\thigher", "num_q\tNumQ\tcount\tneutral\tsum", "T2Ip(x)\t\tdocument score\thigher\t—",
			"P[k]\tP@k, P_k\tdocument\thigher", "R[k]\tR@k, recall_k\tdocument\thigher", "gR[k][\\D]\t\tlist score", "igP[x]\\D\tircl_prn.x[\\D]\tlist score\thigher",
			"PASSAGE2\t\tpassages\thigher\tmean, every judged topic"}},
		{FormatMarkdown, []string{"| measure | also | kind | better | all | meaning | source |\n|---|", "| AP | map | document | higher | mean |"}},
		{FormatTable, []string{"measure ", "AgP\\D ", "-m all asks for"}},
	} {
		var b bytes.Buffer
		if err := WriteCatalogue(&b, tc.f); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s catalogue lacks %q:\n%s", tc.f, w, b.String())
			}
		}
	}
}

// The JSON catalogue is an array of objects with every field, aliases an
// array even when empty, and no notes.
func TestWriteCatalogueJSON(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCatalogue(&b, FormatJSON); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("%v:\n%s", err, b.String())
	}
	byForm := map[string]map[string]any{}
	for _, e := range got {
		if _, ok := e["aliases"].([]any); !ok || len(e) != 7 {
			t.Errorf("entry %v: want 7 fields, aliases an array", e)
		}
		byForm[e["form"].(string)] = e
	}
	ap := byForm["AP"]
	if ap == nil || ap["better"] != "higher" || ap["all"] != "mean" || ap["kind"] != "document" || ap["aliases"].([]any)[0] != "map" {
		t.Errorf("AP: %v", ap)
	}
	if ance := byForm[`ANCE[k]\LE(s,NR[,x])`]; ance == nil || ance["better"] != "lower" {
		t.Errorf("ANCE: %v", ance)
	}
	if strings.Contains(b.String(), "-m all asks for") {
		t.Error("JSON carries the notes")
	}
}
