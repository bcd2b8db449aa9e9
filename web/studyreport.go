package web

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// This file holds what `readsim study` says of a study folder: the table
// of `study list` and the lines of `study clear`, `repair` and `export`
// (docs/study.md, "Administration"). The lines carry no program prefix:
// the command adds it.

// WriteStudyList writes the participants ps as the table of `readsim
// study list`: one row each, with the state a researcher acts on.
func WriteStudyList(w io.Writer, ps []StudyParticipant) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "participant\tconsented\tconsent text\ttopics\tdone\tevents\tstate")
	for _, p := range ps {
		when, text := "", ""
		if !p.Consented.IsZero() {
			when = p.Consented.UTC().Format(time.RFC3339)
		}
		if p.ConsentSHA256 != "" {
			text = p.ConsentSHA256[:min(16, len(p.ConsentSHA256))]
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%s\n", p.ID, when, text, p.Topics, p.Done, p.Events, strings.Join(p.state(), "; "))
	}
	return tw.Flush()
}

// state is the last column of p's row in WriteStudyList.
func (p *StudyParticipant) state() []string {
	var state []string
	switch {
	case !p.Withdrawn.IsZero():
		state = append(state, "withdrawn "+p.Withdrawn.UTC().Format(time.RFC3339))
	case p.NoKey && p.ConsentOnRecord:
		state = append(state, "a recording without a key (its consent on record in audit.jsonl)")
	case p.NoKey:
		state = append(state, "a recording without a key or a consent on record: export leaves it out")
	case !p.Recorded:
		state = append(state, "no recording")
	case p.Finished():
		state = append(state, "finished")
	default:
		state = append(state, "reading")
	}
	if p.TornBytes > 0 {
		state = append(state, fmt.Sprintf("torn last line (%d bytes: study repair cuts it)", p.TornBytes))
	}
	return state
}

// ClearedLines are the lines of `study clear` for the participants gone
// (ClearUnrecorded), the count last.
func ClearedLines(gone []string) []string {
	var ls []string
	for _, id := range gone {
		ls = append(ls, "cleared "+id+": consented, never recorded a reading")
	}
	return append(ls, fmt.Sprintf("%d consent(s) without a recording cleared", len(gone)))
}

// Lines are the lines of `study clear --expired` for r, the count last
// when done is true (the clearing ended without an error).
func (r *ExpiredReport) Lines(done bool) []string {
	var ls []string
	for _, id := range r.Cleared {
		ls = append(ls, "cleared "+id+": past the retention date of the consent text agreed to")
	}
	for _, h := range sortedKeys(r.NoDate) {
		ls = append(ls, fmt.Sprintf("warning: consent-%s.txt gives no retention date (YYYY-MM-DD in its Retention field, or its copy is missing): its %d participant(s) are kept", h, len(r.NoDate[h])))
	}
	if done {
		ls = append(ls, fmt.Sprintf("%d participant(s) past their retention date cleared", len(r.Cleared)))
	}
	return ls
}

// Lines are the lines of `study repair` for r, the count last when done
// is true.
func (r *RepairReport) Lines(done bool) []string {
	var ls []string
	for _, id := range sortedKeys(r.Cut) {
		ls = append(ls, fmt.Sprintf("%s.jsonl: cut its torn last line (%d bytes)", id, r.Cut[id]))
	}
	for _, id := range r.NoKeyOnRecord {
		ls = append(ls, "warning: "+id+".jsonl: a recording without a key (its participant can neither add to it nor withdraw by code); its consent is on record in audit.jsonl, so export keeps it")
	}
	for _, id := range r.NoConsent {
		ls = append(ls, "warning: "+id+".jsonl: a recording without a key and without a consent on record: export leaves it out; delete it if no one agreed to it")
	}
	if done {
		ls = append(ls, fmt.Sprintf("%d recording(s) repaired, %d without a key", len(r.Cut), len(r.NoKeyOnRecord)+len(r.NoConsent)))
	}
	return ls
}

// Lines are the lines of `study export` for r, written with opt into the
// folder out.
func (r *ExportReport) Lines(out string, opt ExportOptions) []string {
	var ls []string
	for _, id := range r.NoKey {
		ls = append(ls, "warning: "+id+".jsonl: a recording without a key, exported on its consent on record in audit.jsonl")
	}
	for _, id := range r.NoConsent {
		ls = append(ls, "warning: "+id+".jsonl: left out: a recording without a key and without a consent on record")
	}
	redacted := ""
	if opt.RedactQueries {
		redacted = " (queries redacted)"
	}
	return append(ls, fmt.Sprintf("exported %d reading(s)%s to %s with %s and %s; left out %d withdrawn participant(s)",
		len(r.Exported), redacted, out, participantsFile, dictionaryFile, len(r.Withdrawn)))
}

// sortedKeys are m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
