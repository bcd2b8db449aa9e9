package web

import (
	"strings"
	"testing"

	"github.com/readsim/readsim/scenario/trace"
)

// TestEventFieldsInSchema checks that every kind of event the study takes
// is a kind of the trace schema and every field it takes from the page
// (but rank and doc, which every event has) one the schema allows its
// kind, so that what the recorder writes is a reading.
func TestEventFieldsInSchema(t *testing.T) {
	for ev, fields := range eventFields {
		if _, ok := trace.Fields[ev]; !ok {
			t.Errorf("study event %q is no kind of trace.Fields", ev)
			continue
		}
		for _, f := range strings.Fields(fields) {
			if f != "rank" && f != "doc" && !trace.Allowed(ev, f) {
				t.Errorf("study event %q takes field %s, which the trace schema does not allow it", ev, f)
			}
		}
	}
}
