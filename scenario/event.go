package scenario

import "github.com/readsim/readsim/scenario/trace"

// The trace event and its kinds live in package trace (the one home of
// the event schema and its rules, shared with the study recorder in web);
// these names keep scenario's API.

// Kind is the kind of a trace event (trace.Kind).
type Kind = trace.Kind

// Score is one named value of a `score` or `done` event (trace.Score).
type Score = trace.Score

// Event is one trace event (trace.Event).
type Event = trace.Event

// The trace events (trace.EvTopic …).
const (
	EvTopic = trace.EvTopic
	EvOpen  = trace.EvOpen
	EvJump  = trace.EvJump
	EvRead  = trace.EvRead
	EvStop  = trace.EvStop
	EvScore = trace.EvScore
	EvDone  = trace.EvDone
)
