// Package trace is the one home of readsim's trace-event schema
// (docs/scenario.md, "Trace events"): the event (Event, its kinds and
// scores) and its JSON line (AppendJSON), written by the simulated reader;
// the fields each kind of event may have (Fields), the stop reasons, the
// outcomes and the source of a recording, the bounds of seq and t; the
// strict decoding of one line (Decode) and the order rules of a trace
// (Order: seq increasing, t never going back); and the line of a recorded
// event (Recorded, AppendLine).
//
// The scenario package writes traces with Event and reads readings with
// Decode and Order; the study recorder in web writes its lines with
// Recorded and checks its events with the kinds, fields, reasons,
// outcomes and bounds named here, so that every file it writes is a
// reading scenario reads.
//
// It imports effort and the standard library (and the strict JSON
// decoder) only.
package trace
