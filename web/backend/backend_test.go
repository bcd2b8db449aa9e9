package backend

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/topics"
	"github.com/readsim/readsim/scenario/inex"
	"github.com/readsim/readsim/web"
)

// Two topics judged; the run answers T1 and an unjudged T9.
const qrelsText = `T1 Q0 a1 10 100 5 5:10
T1 Q0 a2 0 50 0
T2 Q0 a3 20 200 0 0:10 50:10
`

const runText = `T1 Q0 a1 1 2.0 myrun 0 20
T1 Q0 a2 2 1.0 myrun 0 50
T9 Q0 a1 1 1.0 myrun 0 10
`

func newReplays(t *testing.T) *Replays {
	t.Helper()
	q, err := inex.ReadQrels("q", strings.NewReader(qrelsText), nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := inex.ReadRun("r", strings.NewReader(runText), inex.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts := []topics.Topic{{ID: "T1", Title: "first topic"}}
	return NewReplays(q, ts, []Run{{Run: r, Source: "flag"}})
}

func TestReplaysLists(t *testing.T) {
	rp := newReplays(t)
	topics := rp.Topics()
	if len(topics) != 2 || topics[0] != (web.Topic{ID: "T1", Title: "first topic"}) || topics[1] != (web.Topic{ID: "T2"}) {
		t.Errorf("Topics = %+v", topics)
	}
	runs := rp.Runs()
	if len(runs) != 1 || runs[0].ID != "myrun" || runs[0].Source != "flag" || strings.Join(runs[0].Topics, ",") != "T1" {
		t.Errorf("Runs = %+v (T9 is not judged, T2 not answered)", runs)
	}
}

func TestReplaysRelevant(t *testing.T) {
	rp := newReplays(t)
	tests := []struct {
		topic, doc string
		want       []web.Passage
	}{
		{"T1", "a1", []web.Passage{{Offset: 5, Length: 10}}},
		{"T1", "a2", []web.Passage{}},
		{"T2", "a3", []web.Passage{{Offset: 0, Length: 10}, {Offset: 50, Length: 10}}},
		{"T1", "zz", nil},
		{"T7", "a1", nil},
	}
	for _, tc := range tests {
		got := rp.Relevant(tc.topic, tc.doc)
		if len(got) != len(tc.want) {
			t.Errorf("Relevant(%s,%s) = %v, want %v", tc.topic, tc.doc, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("Relevant(%s,%s) = %v, want %v", tc.topic, tc.doc, got, tc.want)
			}
		}
	}
}

// TestReplayTrace checks the trace of T1 by hand: a1 (length 100, relevant
// [5,15)) retrieved [0,20) is read 0…19 first, then, in natural order, from
// 20 on; with T2I 10 the reader stops at the 10th non-relevant character,
// i.e. after reading [0,20): 5 + 5 non-relevant around the 10 relevant ones.
func TestReplayTrace(t *testing.T) {
	rp := newReplays(t)
	var evs []map[string]any
	err := rp.Replay(context.Background(), web.ReplayRequest{Topic: "T1", Run: "myrun", Order: "natural", T2I: 10, Screen: 300},
		func(b []byte) error {
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			evs = append(evs, m)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if evs[0]["ev"] != "topic" || evs[0]["trel"] != 1.0 || evs[len(evs)-1]["ev"] != "done" {
		t.Fatalf("trace %v", evs)
	}
	for _, e := range evs {
		if e["ev"] == "stop" && e["doc"] == "a1" {
			if e["read"] != 20.0 || e["relread"] != 10.0 || e["reason"] != "t2i" {
				t.Errorf("a1 stop %v, want read 20, relread 10, reason t2i", e)
			}
		}
	}
	// An unknown run or order is an error, not a panic.
	for _, req := range []web.ReplayRequest{{Topic: "T1", Run: "nope", Order: "natural"}, {Topic: "T1", Run: "myrun", Order: "sideways"}} {
		if err := rp.Replay(context.Background(), req, func([]byte) error { return nil }); err == nil {
			t.Errorf("%+v: no error", req)
		}
	}
	// A cancelled context stops the replay.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := rp.Replay(ctx, web.ReplayRequest{Topic: "T1", Run: "myrun", Order: "natural", Screen: 300}, func([]byte) error { return nil }); err == nil {
		t.Error("cancelled replay: no error")
	}
}
