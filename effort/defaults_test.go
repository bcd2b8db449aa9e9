package effort

import (
	"slices"
	"strings"
	"testing"
)

// The replay's defaults for a reader, by the names reports print: the
// three INEX measures, aveChP, the effort on the reader's screen and AP;
// a tolerance x adds the T2I measures after gP[10] and stops the effort.
func TestReplayDefaults(t *testing.T) {
	for _, tc := range []struct {
		x, s, nr int
		want     []string
	}{
		{0, 300, 5, []string{`AgP\F(0.25)`, `gP[5]\F(0.25)`, `gP[10]\F(0.25)`, `AgP\aveChP`, `ANCE[100]\LE(300,5)`, `AP`}},
		{0, 2000, 3, []string{`AgP\F(0.25)`, `gP[5]\F(0.25)`, `gP[10]\F(0.25)`, `AgP\aveChP`, `ANCE[100]\LE(2000,3)`, `AP`}},
		{300, 300, 5, []string{`AgP\F(0.25)`, `gP[5]\F(0.25)`, `gP[10]\F(0.25)`, `AgP\T2Ip(300)`, `AgP\T2Ir(300)`, `AgP\T2If(300,1)`,
			`AgP\aveChP`, `ANCE[100]\LE(300,5,300)`, `AP`}},
		{120, 2000, 7, []string{`AgP\F(0.25)`, `gP[5]\F(0.25)`, `gP[10]\F(0.25)`, `AgP\T2Ip(120)`, `AgP\T2Ir(120)`, `AgP\T2If(120,1)`,
			`AgP\aveChP`, `ANCE[100]\LE(2000,7,120)`, `AP`}},
	} {
		var got []string
		for _, m := range ReplayDefaults(tc.x, tc.s, tc.nr) {
			got = append(got, m.String())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("ReplayDefaults(%d, %d, %d) = %q, want %q", tc.x, tc.s, tc.nr, got, tc.want)
		}
	}
	// the lists themselves are left as they are
	if ReplayNames[3] != `AgP\aveChP` || len(ReplayNames) != 6 {
		t.Errorf("ReplayDefaults changed ReplayNames: %q", ReplayNames)
	}
}

// TestDefaultNamesFor: the defaults per kind of judgments, written out as
// the README and readsim help eval give them (eval's eleven; trec_eval's
// default document measures but gm_map, bpref and iprec_at_recall, with
// ndcg and ndcg_cut_10; NIST's four, ASPECT only with aspects).
func TestDefaultNamesFor(t *testing.T) {
	evalDefaults := []string{`AgP\F(0.25)`, `gP[5]\F(0.25)`, `gP[10]\F(0.25)`, `gP[25]\F(0.25)`, `gP[50]\F(0.25)`,
		`AgP\T2Ip(300)`, `AgP\T2Ip(2000)`, `AgP\aveChP`, `ANCE[100]\LE(300,5)`, `ANCE[100]\LE(2000,5)`, `AP`}
	trecDefaults := []string{"num_q", "num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "recip_rank",
		"P_5", "P_10", "P_15", "P_20", "P_30", "P_100", "P_200", "P_500", "P_1000", "ndcg", "ndcg_cut_10"}
	for _, tc := range []struct {
		j       Judged
		aspects bool
		want    []string
	}{
		{JudgedText, false, evalDefaults},
		{JudgedText, true, evalDefaults},
		{JudgedDocuments, false, trecDefaults},
		{JudgedSpans, true, []string{"DOCUMENT", "PASSAGE", "ASPECT", "PASSAGE2"}},
		{JudgedSpans, false, []string{"DOCUMENT", "PASSAGE", "PASSAGE2"}},
	} {
		if got := DefaultNamesFor(tc.j, tc.aspects); !slices.Equal(got, tc.want) {
			t.Errorf("DefaultNamesFor(%d, %v) = %q, want %q", tc.j, tc.aspects, got, tc.want)
		}
	}
	for _, tc := range []struct {
		j           Judged
		first, last string
		n           int
	}{
		{JudgedText, `AgP\F(0.25)`, "recall_100", len(AllNames)},
		{JudgedDocuments, "num_q", "ndcg_cut_1000", len(DocumentNames) + 17},
		{JudgedSpans, "DOCUMENT", "recall_100", 4 + len(AllNames)},
	} {
		got := AllNamesFor(tc.j)
		if len(got) != tc.n || got[0] != tc.first || got[len(got)-1] != tc.last {
			t.Errorf("AllNamesFor(%d) = %q: want %d names from %s to %s", tc.j, got, tc.n, tc.first, tc.last)
		}
	}
}

// Every default list parses, and the reading lists differ by the counts.
func TestDefaultListsParse(t *testing.T) {
	for _, names := range [][]string{DefaultNames, GenomicsNames, AllNames, DocumentNames, DocumentAllNames, ReadingNames, ReadingListNames} {
		if _, err := ParseMeasures(names); err != nil {
			t.Errorf("%q: %v", names, err)
		}
	}
	if want := append(slices.Clone(ReadingListNames), "num_ret", "num_rel_ret"); !slices.Equal(ReadingNames, want) {
		t.Errorf("ReadingNames = %q, want %q", ReadingNames, want)
	}
}

// The help texts name the lists; without counts the document measures
// lose num_q, num_ret, num_rel and num_rel_ret (trec_eval's counts).
func TestDefaultsUsage(t *testing.T) {
	with, without := DefaultsUsage(true), DefaultsUsage(false)
	for _, s := range []string{with, without} {
		if !strings.HasPrefix(s, "default: "+`AgP\F(0.25) gP[5]\F(0.25)`) || !strings.HasSuffix(s, "; on span judgments DOCUMENT PASSAGE ASPECT PASSAGE2") {
			t.Errorf("DefaultsUsage: %q", s)
		}
	}
	if !strings.Contains(with, "(whole documents) num_q num_ret num_rel num_rel_ret map Rprec") {
		t.Errorf("DefaultsUsage(true) lacks the counts: %q", with)
	}
	if !strings.Contains(without, "(whole documents) map Rprec recip_rank P_5") || strings.Contains(without, "num_") {
		t.Errorf("DefaultsUsage(false) keeps a count: %q", without)
	}
	want := `default: AgP\F(0.25), gP[5], gP[10], AgP\aveChP, ANCE[100]\LE(s,NR), AP, and with --t2i X AgP\T2Ip(X), AgP\T2Ir(X), AgP\T2If(X,1)`
	if got := ReplayUsage(); got != want {
		t.Errorf("ReplayUsage() = %q, want %q", got, want)
	}
}
