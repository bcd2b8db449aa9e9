package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/readsim/readsim/scenario/inex"
)

// screensRecording is the recording of participant pid who, in one topic
// "T" given up at the end, opens each article of docs and has on screen,
// one screen at a time, [0,100), [100,200) … up to n screens. With end,
// each stop says the participant saw the article's last visible
// character.
func screensRecording(t *testing.T, pid string, docs []string, n int, end bool) *Reading {
	t.Helper()
	var b strings.Builder
	seq, at := 0, int64(0)
	ev := func(s string) {
		seq++
		at += 100
		fmt.Fprintf(&b, `{%s,"topic":"T","seq":%d,"t":%d,"source":"recorded"}`+"\n", s, seq, at)
	}
	ev(`"ev":"topic","run":"` + pid + `"`)
	for _, d := range docs {
		ev(`"ev":"open","doc":"` + d + `","rank":1`)
		for from := 0; from < 100*n; from += 100 {
			ev(fmt.Sprintf(`"ev":"read","doc":%q,"from":%d,"to":%d`, d, from, from+100))
		}
		if end {
			ev(`"ev":"stop","doc":"` + d + `","reason":"end"`)
		} else {
			ev(`"ev":"stop","doc":"` + d + `"`)
		}
	}
	ev(`"ev":"done","outcome":"gave up"`)
	rd, err := ReadReading(pid+".jsonl", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return rd
}

// TestCalibrateByParticipant, worked by hand. Judgments: topic T judges
// articles a1…a3 of 1,000 characters and b1…b3 of 300 with one relevant
// character each at their very end ([999,1000) and [299,300)), so that
// what is read of [0,300) is all non-relevant. Participant A reads three
// screens of a1…a3 and leaves: each visit gives (200, 300] (not censored:
// 700 non-relevant characters were left unread), so A's Turnbull estimate
// is all its mass on (200, 300], spread evenly: median 250, every
// resample the same cell, 95% interval 201–300. Participant C reads
// b1…b3 to the end (stop "end"): each visit is right-censored at 200, so
// C's tolerance is more than 200 and its interval more than 200, no
// upper bound. Participant B reads six screens of a1…a3 ([0,100) …
// [500,600)): (500, 600] each, median 550, interval 501–600.
//
// The spread over A = 250, B = 550 and C > 200: Turnbull's cells (249,
// 250] and (549, 550] (C's (200, ∞) holds both), the likelihood p1·p2·
// (p1 + p2) largest at p1 = p2 = 1/2: Q1 and the median 250 (the
// distribution reaches 1/2 at 250), Q3 550; lowest–highest finite 250–
// 550. Resampling the three participants: a resample of C alone (1 in 27,
// more than 2.5%) has median "more than 200", so the median's 95%
// interval is more than 200, no upper bound.
func TestCalibrateByParticipant(t *testing.T) {
	q, err := inex.ReadQrels("q.qrels", strings.NewReader(
		"T Q0 a1 1 1000 0 999:1\nT Q0 a2 1 1000 0 999:1\nT Q0 a3 1 1000 0 999:1\nT Q0 b1 1 300 0 299:1\nT Q0 b2 1 300 0 299:1\nT Q0 b3 1 300 0 299:1\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	a := screensRecording(t, "P-000000000000000a", []string{"a1", "a2", "a3"}, 3, false)
	b := screensRecording(t, "P-000000000000000b", []string{"a1", "a2", "a3"}, 6, false)
	c := screensRecording(t, "P-000000000000000c", []string{"b1", "b2", "b3"}, 3, true)
	res, err := CalibrateByParticipant(q, []*Reading{c, b, a}, CalibrateOptions{Bootstrap: 1000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	for _, p := range res.Participants {
		got += fmt.Sprintf("%s %d %d %v %v %v %v; ", p.Participant, p.Visits, p.Censored, p.T2I, p.T2IBounded, p.T2ILow, p.T2IHigh)
	}
	want := "P-000000000000000a 3 0 250 true 201 300; P-000000000000000b 3 0 550 true 501 600; P-000000000000000c 3 3 200 false 201 +Inf; "
	if got != want {
		t.Errorf("participants:\n%s\nwant\n%s", got, want)
	}
	sp := res.Spread
	if sp.Participants != 3 || sp.Bounded != 2 || sp.Median != 250 || !sp.MedianBounded || sp.Q1 != 250 || sp.Q3 != 550 || !sp.Q3Bounded ||
		sp.Lowest != 250 || sp.Highest != 550 || sp.MedianLow != 201 || !math.IsInf(sp.MedianHigh, 1) {
		t.Errorf("spread %+v", sp)
	}
	var tab bytes.Buffer
	if err := res.Write(&tab, FormatTable, 3); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"P-000000000000000c", "more than 200", "more than 200, no upper bound", "201–300", "250 – 550", "250–550", "3 with visits; 2 finite, 1 more than N"} {
		if !strings.Contains(tab.String(), w) {
			t.Errorf("the table lacks %q:\n%s", w, tab.String())
		}
	}
	if strings.Contains(tab.String(), "Inf") || strings.Contains(tab.String(), "NaN") {
		t.Errorf("the table says Inf or NaN:\n%s", tab.String())
	}
	var js bytes.Buffer
	if err := res.Write(&js, FormatJSON, 3); err != nil {
		t.Fatal(err)
	}
	var j struct {
		Participants []map[string]any
		Spread       map[string]any
	}
	if err := json.Unmarshal(js.Bytes(), &j); err != nil {
		t.Fatalf("%v\n%s", err, js.String())
	}
	if p := j.Participants[2]; p["t2i"] != nil || p["t2i_more_than"] != 200.0 || p["t2i_high"] != nil || p["t2i_low"] != 201.0 {
		t.Errorf("C in JSON: %v", p)
	}
	if s := j.Spread; s["median"] != 250.0 || s["median_high"] != nil || s["q3"] != 550.0 || s["finite"] != 2.0 {
		t.Errorf("the spread in JSON: %v", s)
	}
}
