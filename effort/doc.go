// Package effort computes the measures of readsim's specification (measures.md):
// character span sets (Span, Spans: readsim's one type for a character range),
// the simulated reading orders (Orderer), the tolerance-to-irrelevance stop,
// the document scores (F, T2Ip, T2Ir, T2If, ChP, aveChP, LE), the list scores
// (gP, gR, AgP, AgP′, AgP″, CE, NCE, ANCE, P, AP), the focused scores (iP,
// AiP), the official INEX counts and trec_eval's document measures (map,
// P_k, recip_rank, Rprec, ndcg_cut_k, recall_k). One registry (registry.go,
// names.go) holds every measure: its names and aliases, parameters,
// aggregation, direction, meaning and source, and defaults.go the lists of
// measures asked for without -m and by -m all; parsing, printing, the
// evaluator, the commands, the web view and `readsim measures` all read
// it.
//
// The package is pure: it does no I/O and imports nothing of readsim, so
// every other package may use it. Every computation works on sorted
// half-open intervals, never on per-character arrays: its cost grows with
// the number of passages, not with the length of the documents.
package effort
