package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
)

// TestMeasureRequestCheck: the checks before the judgments are read, in
// their order, each problem a RequestError (or a MeasureError).
func TestMeasureRequestCheck(t *testing.T) {
	for _, tc := range []struct {
		name     string
		r        MeasureRequest
		defaults []string
		order    effort.Order
		ms       string // canonical names, comma-separated
		err      string
		measure  bool // the error is a MeasureError, not a RequestError
	}{
		{name: "defaults", r: MeasureRequest{Qrels: "q"}, defaults: effort.DefaultNames, ms: strings.Join(effort.DefaultNames, ",")},
		{name: "no defaults", r: MeasureRequest{Qrels: "q", Use: UsePerTopic}},
		{name: "order and measures", r: MeasureRequest{Qrels: "q", Order: "best", Names: []string{"AgP", "AP"}}, order: effort.Best, ms: `AgP\F(0.25),AP`},
		{name: "repeat dropped", r: MeasureRequest{Qrels: "q", Names: []string{`AgP\F(0.25)`, "AgP"}}, ms: `AgP\F(0.25)`},
		{name: "no qrels", r: MeasureRequest{Order: "x"}, err: "--qrels is required"},
		{name: "bad order", r: MeasureRequest{Qrels: "q", Order: "x", Compat: "y"}, err: `unknown reading order "x"`},
		{name: "bad compat", r: MeasureRequest{Qrels: "q", Compat: "y", Names: []string{"nope"}}, err: `unknown --compat "y" (only inex)`},
		{name: "bad compat of two", r: MeasureRequest{Qrels: "q", Compat: "y", Compats: []string{CompatINEX, CompatTrecGen}}, err: `unknown --compat "y" (inex or trecgen)`},
		{name: "bad measure", r: MeasureRequest{Qrels: "q", Names: []string{"nope"}}, err: `unknown measure "nope"`},
		// compare takes no count; eval takes it
		{name: "count in compare", r: MeasureRequest{Qrels: "q", Names: []string{"num_rel_ret"}, Use: UsePerTopic}, err: "num_rel_ret: an official count", measure: true},
		{name: "count in eval", r: MeasureRequest{Qrels: "q", Names: []string{"num_rel_ret"}}, ms: "num_rel_ret"},
		{name: "focused in replay", r: MeasureRequest{Qrels: "q", Names: []string{"iP[0.01]"}, Use: UseSimulated}, err: "a focused measure", measure: true},
		{name: "trecgen defaults", r: MeasureRequest{Qrels: "q", Compat: CompatTrecGen, Compats: []string{CompatINEX, CompatTrecGen}}, ms: strings.Join(effort.GenomicsNames, ",")},
		{name: "trecgen refuses AP", r: MeasureRequest{Qrels: "q", Compat: CompatTrecGen, Compats: []string{CompatINEX, CompatTrecGen}, Names: []string{"AP"}}, err: "AP: --compat trecgen writes NIST's TREC Genomics measures only", measure: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.r.Order == "" {
				tc.r.Order = "natural"
			}
			cfg, ms, err := tc.r.Check(tc.defaults)
			if tc.err != "" {
				var re *RequestError
				var me *MeasureError
				if tc.measure && !errors.As(err, &me) || !tc.measure && !errors.As(err, &re) || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want a %s with %q", err, map[bool]string{true: "MeasureError", false: "RequestError"}[tc.measure], tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, m := range ms {
				names = append(names, m.String())
			}
			if cfg.Order != tc.order || strings.Join(names, ",") != tc.ms {
				t.Errorf("order %v, measures %v; want %v, %s", cfg.Order, names, tc.order, tc.ms)
			}
			if cfg.CompatINEX || cfg.DocBaseline {
				t.Error("--compat inex or the document baseline set by default")
			}
		})
	}
	if cfg, _, err := (&MeasureRequest{Qrels: "q", Order: "natural", Compat: CompatINEX}).Check(nil); err != nil || !cfg.CompatINEX {
		t.Errorf("--compat inex: %+v %v", cfg, err)
	}
	// "all" is every measure the use can give: compare no count, the
	// fidelity suite and replay no focused measure (no passage ranking)
	for _, tc := range []struct {
		use Use
		bad func(effort.Measure) bool
	}{
		{UsePerTopic, effort.Measure.IsCount},
		{UseRecordedPerTopic, effort.Measure.IsFocused},
		{UseSimulatedPerTopic, effort.Measure.IsFocused},
		{UseSimulated, effort.Measure.IsSpan},
	} {
		_, ms, err := (&MeasureRequest{Qrels: "q", Order: "natural", Names: []string{"all"}, Use: tc.use}).Check(nil)
		if err != nil || len(ms) < 10 {
			t.Errorf("use %d: -m all: %d measures, %v", tc.use, len(ms), err)
		}
		for _, m := range ms {
			if tc.bad(m) {
				t.Errorf("use %d: -m all holds %s", tc.use, m)
			}
		}
	}
}

// TestMeasureRequestSelect: without -m the judgments' defaults (TREC
// qrels: trec_eval's 18 usual measures, effort.DocumentNames, of which
// compare drops the four counts num_q, num_ret, num_rel, num_rel_ret);
// compare refuses a measure the judgments cannot give; a bad --offsets is
// a RequestError.
func TestMeasureRequestSelect(t *testing.T) {
	dir := t.TempDir()
	qrels := filepath.Join(dir, "q.txt")
	if err := os.WriteFile(qrels, []byte("1 0 d1 1\n1 0 d2 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := MeasureRequest{Qrels: qrels, Order: "natural", Use: UsePerTopic}
	q, err := r.Judgments(nil)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := r.Select(q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 14 {
		t.Errorf("compare defaults on TREC qrels: %v, want 14 measures", ms)
	}
	for _, m := range ms {
		if m.NeedsPassages() || m.IsCount() {
			t.Errorf("compare default %s needs passages or is a count", m)
		}
	}
	r.Names = []string{`AgP\F(0.25)`}
	var me *MeasureError
	if _, err := r.Select(q, nil); !errors.As(err, &me) || !strings.Contains(err.Error(), "judgments of characters") {
		t.Errorf("AgP on TREC qrels in compare: %v, want a MeasureError", err)
	}
	// recorded readings on judgments of whole documents: of
	// effort.ReadingNames (AgP\Read, gP[5]\Read, two ANCE[10]\LE, AP,
	// num_ret, num_rel_ret) those that need no passage or length
	rr := MeasureRequest{Qrels: qrels, Order: "natural", Use: UseRecorded}
	ms, err = rr.Select(q, nil)
	var got []string
	for _, m := range ms {
		got = append(got, m.String())
	}
	if err != nil || strings.Join(got, " ") != "AP num_ret num_rel_ret" {
		t.Errorf("readings on TREC qrels: %v %v, want AP num_ret num_rel_ret", got, err)
	}
	r.Offsets = "words"
	var re *RequestError
	if _, err := r.Judgments(nil); !errors.As(err, &re) || !strings.Contains(err.Error(), "--offsets") {
		t.Errorf("--offsets words: %v, want a RequestError naming --offsets", err)
	}
}
