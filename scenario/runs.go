package scenario

import (
	"strings"

	"github.com/readsim/readsim/scenario/inex"
)

// TopicQuery is one topic's id and query text.
type TopicQuery struct {
	ID, Text string
}

// TopicFields reads a comma-separated list of topic fields (readsim run
// --fields): title, castitle, phrasetitle, description or narrative
// (inex.Topic.Field), spaces around a name and empty names dropped. An
// unknown name, or a list that names none, is a RequestError.
func TopicFields(s string) ([]string, error) {
	var fields []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			if _, err := (&inex.Topic{}).Field(f); err != nil {
				return nil, &RequestError{err}
			}
			fields = append(fields, f)
		}
	}
	if len(fields) == 0 {
		return nil, requestErrorf("--fields names no field")
	}
	return fields, nil
}

// TopicQueries makes each topic's query from the named fields
// (TopicFields): their texts that are not empty, joined by a space, in the
// order named. A topic whose fields are all empty gets an empty query,
// which the wiring's MakeRun skips with a warning.
func TopicQueries(ts []inex.Topic, fields []string) []TopicQuery {
	qs := make([]TopicQuery, len(ts))
	for i := range ts {
		var parts []string
		for _, f := range fields {
			if v, _ := ts[i].Field(f); v != "" {
				parts = append(parts, v)
			}
		}
		qs[i] = TopicQuery{ID: ts[i].ID, Text: strings.Join(parts, " ")}
	}
	return qs
}
