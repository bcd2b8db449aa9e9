package app

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/readsim/readsim/web"
)

// Two articles judged for T1: a1 (length 100, relevant [5,15): 10
// characters) and a2 (length 50, not relevant). The run ranks a2 first,
// then a1 with the passage [0,20).
const summaryQrels = `T1 Q0 a1 10 100 5 5:10
T1 Q0 a2 0 50 0
`

const summaryRun = `T1 Q0 a2 1 2.0 sumrun 0 50
T1 Q0 a1 2 1.0 sumrun 0 20
`

func summaryReplays(t *testing.T) *Replays {
	t.Helper()
	q, r := readInputs(t, summaryQrels, summaryRun)
	return NewReplays(q, nil, []Run{{Run: r, Source: "flag"}})
}

// fBeta is F(0.25) of precision p and recall r (measures.md).
func fBeta(p, r float64) float64 { b2 := 0.0625; return (1 + b2) * p * r / (b2*p + r) }

// TestSummaryByHand: the scores of the run cut after each rank, by hand.
// Trel = 1. After rank 1 (a2, not relevant) AP and AgP are 0. After rank 2,
// AP = 1/2 (the relevant article at rank 2), and AgP\F(0.25) = gP[2] =
// (F(a2) + F(a1))/2 with F(a2) = 0 and F(a1) from precision 10/20 and recall
// 10/10. The document baseline reads a1 whole: precision 10/100.
func TestSummaryByHand(t *testing.T) {
	rp := summaryReplays(t)
	tests := []struct {
		baseline bool
		agp2     float64
	}{
		{false, fBeta(0.5, 1) / 2},
		{true, fBeta(0.1, 1) / 2},
	}
	for _, tc := range tests {
		req := web.ReplayRequest{Topic: "T1", Run: "sumrun", Order: "natural", T2I: 300, Screen: 300, DocBaseline: tc.baseline}
		sum, err := rp.Summary(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Trel != 1 || sum.NR != 5 || strings.Join(sum.Docs, " ") != "a2 a1" || len(sum.Running) != 2 {
			t.Fatalf("baseline %v: summary %+v", tc.baseline, sum)
		}
		col := func(name string) int {
			for i, m := range sum.Measures {
				if m.Name == name {
					return i
				}
			}
			t.Fatalf("no measure %s in %+v", name, sum.Measures)
			return -1
		}
		ap, agp := col("AP"), col(`AgP\F(0.25)`)
		if sum.Measures[ap].Better != "higher" || sum.Measures[col(`ANCE[100]\LE(300,5,300)`)].Better != "lower" {
			t.Errorf("directions %+v", sum.Measures)
		}
		if got := []float64{sum.Running[0][ap], sum.Running[1][ap]}; got[0] != 0 || got[1] != 0.5 {
			t.Errorf("baseline %v: AP by rank %v, want [0 0.5]", tc.baseline, got)
		}
		if got := []float64{sum.Running[0][agp], sum.Running[1][agp]}; got[0] != 0 || math.Abs(got[1]-tc.agp2) > 1e-12 {
			t.Errorf("baseline %v: AgP\\F(0.25) by rank %v, want [0 %v]", tc.baseline, got, tc.agp2)
		}
		// the document scores: LE is an effort (lower is better)
		dirs := map[string]string{}
		for _, d := range sum.DocScores {
			dirs[d.Name] = d.Better
		}
		if dirs["F(0.25)"] != "higher" || dirs["LE(300,5,300)"] != "lower" {
			t.Errorf("document scores %+v", sum.DocScores)
		}
		// the last row is the done event's
		var done map[string]float64
		err = rp.Replay(context.Background(), req, func(b []byte) error {
			var e struct {
				Ev     string
				Scores map[string]float64
			}
			if err := json.Unmarshal(b, &e); err != nil {
				return err
			}
			if e.Ev == "done" {
				done = e.Scores
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range sum.Measures {
			if v, ok := done[m.Name]; !ok || v != sum.Running[1][i] {
				t.Errorf("baseline %v: %s after the last rank %v, done event %v (%v)", tc.baseline, m.Name, sum.Running[1][i], v, ok)
			}
		}
	}
	if _, err := rp.Summary(context.Background(), web.ReplayRequest{Topic: "T1", Run: "nope", Order: "natural"}); err == nil {
		t.Error("unknown run: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := rp.Summary(ctx, web.ReplayRequest{Topic: "T1", Run: "sumrun", Order: "best", Screen: 300})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestMissingText(t *testing.T) {
	q, r := readInputs(t, qrelsText, runText)
	// myrun retrieves a1 and a2 for the judged T1 (T9 is not judged)
	got := MissingText(q, []Run{{Run: r}}, func(id string) bool { return id == "a1" })
	if len(got) != 1 || got[0] != (TextCount{Run: "myrun", Articles: 2, None: 1}) {
		t.Errorf("MissingText = %+v", got)
	}
	if got := MissingText(q, []Run{{Run: r}}, NoArticles{}.Has); got[0].None != 2 {
		t.Errorf("no articles: %+v", got)
	}
	if _, err := (NoArticles{}).Info("a1"); !errors.Is(err, web.ErrNoArticle) {
		t.Errorf("NoArticles.Info: %v", err)
	}
}

func TestWordSnippet(t *testing.T) {
	tests := []struct{ in, want string }{
		{"…ng the rings of a lens…", "…the rings of a…"},
		{"A [Fresnel] lens is compact…", "A [Fresnel] lens is…"},
		{"…[lens] is a compact, thin…", "…[lens] is a compact…"},
		{"…word [light]…", "…[light]…"},
		{"…bend [light]. In a tower, the lamp…", "…[light]. In a tower, the…"},
		{"…珈琲の歴史は長い…", "…珈琲の歴史は長い…"},
		{"whole text, no cut", "whole text, no cut"},
		{"…" + strings.Repeat("x", 30) + " tail", "…" + strings.Repeat("x", 30) + " tail"},
	}
	for _, tc := range tests {
		if got := wordSnippet(tc.in); got != tc.want {
			t.Errorf("wordSnippet(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
