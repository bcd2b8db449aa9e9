package scenario

import (
	"errors"
	"reflect"
	"testing"

	"github.com/readsim/readsim/scenario/inex"
)

func TestTopicFields(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want []string
		err  string
	}{
		{"title", []string{"title"}, ""},
		{" title , description,", []string{"title", "description"}, ""},
		{"narrative,phrasetitle,castitle", []string{"narrative", "phrasetitle", "castitle"}, ""},
		{",, ", nil, "--fields names no field"},
		{"title,nosuch", nil, `unknown topic field "nosuch" (title, castitle, phrasetitle, description, narrative)`},
	} {
		got, err := TopicFields(tc.s)
		if tc.err != "" {
			var re *RequestError
			if !errors.As(err, &re) || err.Error() != tc.err {
				t.Errorf("TopicFields(%q): error %v, want a RequestError %q", tc.s, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("TopicFields(%q) = %q, %v; want %q", tc.s, got, err, tc.want)
		}
	}
}

// A query joins the named fields that are not empty, in the order named;
// a topic without a title falls back to its castitle's keywords
// (inex.Topic.Field); a topic with nothing gets an empty query.
func TestTopicQueries(t *testing.T) {
	ts := []inex.Topic{
		{ID: "1", Title: "cuttlefish camouflage", Description: "How do cuttlefish hide?"},
		{ID: "2", CASTitle: `//article[about(., lighthouse)]`, Description: "Lighthouses."},
		{ID: "3"},
	}
	for _, tc := range []struct {
		fields []string
		want   []string
	}{
		{[]string{"title"}, []string{"cuttlefish camouflage", "lighthouse", ""}},
		{[]string{"description", "title"}, []string{"How do cuttlefish hide? cuttlefish camouflage", "Lighthouses. lighthouse", ""}},
		{[]string{"narrative"}, []string{"", "", ""}},
	} {
		qs := TopicQueries(ts, tc.fields)
		if len(qs) != len(ts) {
			t.Fatalf("%v: %d queries for %d topics", tc.fields, len(qs), len(ts))
		}
		for i, q := range qs {
			if q.ID != ts[i].ID || q.Text != tc.want[i] {
				t.Errorf("%v: topic %s: query %+v, want %q", tc.fields, ts[i].ID, q, tc.want[i])
			}
		}
	}
}
