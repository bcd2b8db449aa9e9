package web

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"text/template"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/readsim/readsim/internal/ground/durable"
)

// readsim study export --out DIR (issue 36) writes, into a new or empty
// folder outside the study's:
//
//   - P-….jsonl: each recording's whole lines (a torn last line left out),
//     of every participant not withdrawn; with RedactQueries, each query
//     event without its q (the words typed), its time kept;
//   - participants.csv: one row per participant, withdrawn ones included
//     (their consent stays on record): the columns of participantsHeader;
//   - the data dictionary (dictionaryFile): what each file, column and event field means;
//   - consent-….txt: the consent texts agreed to.
//
// A recording without a key (its key deleted under a running server) is
// exported when the audit log holds its consent (its row says so), and
// left out by name otherwise: no recording leaves without a consent on
// record. The export is logged in the audit log.

// ExportOptions are the options of ExportStudy.
type ExportOptions struct {
	// RedactQueries drops the words of each query event.
	RedactQueries bool
}

// ExportReport is what ExportStudy wrote: the participants whose
// recordings it exported, those left out as withdrawn, the recordings
// without a key it exported on their consent on record, and those it left
// out for lack of one.
type ExportReport struct {
	Exported, Withdrawn []string
	NoKey, NoConsent    []string
}

// participantsFile and dictionaryFile are the export's table of
// participants and its data dictionary.
const (
	participantsFile = "participants.csv"
	dictionaryFile   = "data-dictionary.md"
)

// ExportStudy writes into the folder out (created; it must not exist or
// be empty, and lie outside dir) the readings of the participants of the
// study folder dir who have not withdrawn, participants.csv, the data
// dictionary and the consent texts agreed to.
func ExportStudy(dir, out string, opt ExportOptions) (*ExportReport, error) {
	if err := outsideStudy(dir, out); err != nil {
		return nil, err
	}
	ps, err := ReadStudyFolder(dir)
	if err != nil {
		return nil, err
	}
	if ents, err := os.ReadDir(out); err == nil && len(ents) > 0 {
		return nil, fmt.Errorf("%s: the export's folder is not empty (readsim overwrites nothing)", out)
	}
	if err := os.MkdirAll(out, 0o700); err != nil {
		return nil, err
	}
	rep := &ExportReport{}
	texts := map[string]bool{}
	var rows []StudyParticipant
	files := map[string]string{}
	for _, p := range ps {
		switch {
		case !p.Withdrawn.IsZero():
			rep.Withdrawn = append(rep.Withdrawn, p.ID)
			rows = append(rows, p)
			continue
		case p.NoKey && !p.ConsentOnRecord:
			rep.NoConsent = append(rep.NoConsent, p.ID)
			continue
		case p.NoKey:
			rep.NoKey = append(rep.NoKey, p.ID)
		}
		rows = append(rows, p)
		if p.ConsentSHA256 != "" {
			texts[p.ConsentSHA256] = true
		}
		name, err := exportRecording(dir, out, p, opt)
		if err != nil {
			return rep, err
		}
		if name != "" {
			files[p.ID] = name
			rep.Exported = append(rep.Exported, p.ID)
		}
	}
	if err := writeParticipants(out, rows, files); err != nil {
		return rep, err
	}
	if err := writeDictionary(out, rows, opt); err != nil {
		return rep, err
	}
	for h := range texts {
		name := "consent-" + h[:min(16, len(h))] + ".txt"
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			if err := durable.WriteFile(out, name, b); err != nil {
				return rep, err
			}
		}
	}
	abs, _ := filepath.Abs(out)
	return rep, logAdmin(dir, "study export", nil, fmt.Sprintf("%d reading(s) to %s (queries redacted: %v); %d withdrawn left out, %d recording(s) without a consent on record left out",
		len(rep.Exported), abs, opt.RedactQueries, len(rep.Withdrawn), len(rep.NoConsent)))
}

// outsideStudy refuses an export folder inside the study's folder (or the
// study's folder itself), by any path or link (durable.Inside).
func outsideStudy(dir, out string) error {
	if durable.Inside(out, dir) {
		return fmt.Errorf("--out %s: inside the study's folder %s (an export goes elsewhere)", out, dir)
	}
	return nil
}

// exportRecording writes participant p's whole lines (redacted as opt
// says) into out, returning the file's name ("" when there is nothing to
// write).
func exportRecording(dir, out string, p StudyParticipant, opt ExportOptions) (string, error) {
	if !p.Recorded {
		return "", nil
	}
	path := filepath.Join(dir, p.ID+".jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	if n := bytes.LastIndexByte(b, '\n') + 1; n < len(b) {
		b = b[:n] // a batch being written, or cut short
	}
	if len(b) == 0 {
		return "", nil
	}
	if opt.RedactQueries {
		if b, err = redactQueries(path, b); err != nil {
			return "", err
		}
	}
	return p.ID + ".jsonl", durable.WriteFile(out, p.ID+".jsonl", b)
}

// redactQueries returns the lines of a recording with every query event's
// q left out, all else as it was (path names the file in errors). A line
// is a query event when its top-level "ev" is "query", however it is
// spaced.
func redactQueries(path string, b []byte) ([]byte, error) {
	var out bytes.Buffer
	line := 0
	for rest := b; len(rest) > 0; {
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte{'\n'})
		line++
		if !bytes.Contains(l, []byte("query")) {
			out.Write(l)
			out.WriteByte('\n')
			continue
		}
		if err := redactLine(&out, l); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
	}
	return out.Bytes(), nil
}

// member is a member of a JSON object, its value as written.
type member struct {
	name  string
	value jsontext.Value
}

// redactLine writes the JSON object l and a newline: without its member q
// when its member ev is "query", else as it is.
func redactLine(w *bytes.Buffer, l []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(l))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return fmt.Errorf("not a JSON object")
	}
	var ms []member
	query := false
	for dec.PeekKind() != '}' {
		k, err := dec.ReadToken()
		if err != nil {
			return fmt.Errorf("not a JSON object: %v", jsonv2Problem(err))
		}
		name := k.String()
		v, err := dec.ReadValue()
		if err != nil {
			return fmt.Errorf("not a JSON object: %v", jsonv2Problem(err))
		}
		if name == "ev" && v.Kind() == '"' && string(v) == `"query"` {
			query = true
		}
		ms = append(ms, member{name, v.Clone()})
	}
	if _, err := dec.ReadToken(); err != nil {
		return fmt.Errorf("not a JSON object: %v", jsonv2Problem(err))
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return fmt.Errorf("not one JSON object")
	}
	if !query {
		w.Write(l)
		w.WriteByte('\n')
		return nil
	}
	enc := jsontext.NewEncoder(w)
	enc.WriteToken(jsontext.BeginObject)
	for _, m := range ms {
		if m.name == "q" {
			continue
		}
		enc.WriteToken(jsontext.String(m.name))
		enc.WriteValue(m.value)
	}
	return enc.WriteToken(jsontext.EndObject) // the encoder ends it with a newline
}

// recruitmentNames are the recruitment parameters of the rows, sorted.
func recruitmentNames(rows []StudyParticipant) []string {
	seen := map[string]bool{}
	var names []string
	for _, p := range rows {
		for n := range p.Recruitment {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	return names
}

// writeParticipants writes participants.csv: a header, then a row per
// participant (files: the recordings exported, by participant).
func writeParticipants(out string, rows []StudyParticipant, files map[string]string) error {
	names := recruitmentNames(rows)
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(append(append([]string{"participant"}, names...), "consented", "consent_sha256", "topics_assigned", "topics_done", "completed", "withdrawn", "recording"))
	for _, p := range rows {
		rec := []string{p.ID}
		for _, n := range names {
			rec = append(rec, p.Recruitment[n])
		}
		when := ""
		if !p.Consented.IsZero() {
			when = p.Consented.UTC().Format(time.RFC3339)
		}
		done, completed, withdrawn := strconv.Itoa(p.Done), "no", ""
		if p.Finished() {
			completed = "yes"
		}
		if !p.Withdrawn.IsZero() {
			done, completed, withdrawn = "", "", p.Withdrawn.UTC().Format(time.RFC3339)
		}
		rec = append(rec, when, p.ConsentSHA256, strconv.Itoa(p.Topics), done, completed, withdrawn, files[p.ID])
		w.Write(rec)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return durable.WriteFile(out, participantsFile, b.Bytes())
}

// writeDictionary writes the export's data dictionary.
func writeDictionary(out string, rows []StudyParticipant, opt ExportOptions) error {
	var b bytes.Buffer
	err := dictionary.Execute(&b, map[string]any{"Names": recruitmentNames(rows), "Redacted": opt.RedactQueries})
	if err != nil {
		return err
	}
	return durable.WriteFile(out, dictionaryFile, b.Bytes())
}

// dictionary is the data dictionary's text.
var dictionary = template.Must(template.New("dictionary").Parse(`# Data dictionary

An export of a reading study run with readsim (readsim study export). Participants
read search results on their own phones; readsim recorded which characters of each
article were on their screen. No name, network address or browser was recorded.

## Files

| file | what it holds |
|---|---|
| participants.csv | one row per participant who consented, withdrawn ones included |
| P-<16 hex digits>.jsonl | one participant's recording: one event per line, JSON |
| consent-<16 hex digits>.txt | a consent text participants agreed to; the digits start its SHA-256 |
| data-dictionary.md | this file |

Participants who withdrew have no recording here: theirs was deleted when they
withdrew. A participant who consented but never read has a row and no recording.

## participants.csv

| column | meaning |
|---|---|
| participant | the participant's random id, P- and 16 hex digits; their recording is P-….jsonl |
{{range .Names}}| {{.}} | the recruitment platform's id {{.}}, from the study's address at consent (empty: not given) |
{{end}}| consented | the time of consent (RFC 3339, UTC) |
| consent_sha256 | the SHA-256 of the consent text agreed to (its copy: consent-<first 16 hex digits>.txt) |
| topics_assigned | how many topics the participant was given |
| topics_done | how many they ended with Found it or Give up (empty: withdrawn) |
| completed | yes when every topic assigned was done, no otherwise (empty: withdrawn) |
| withdrawn | the time of withdrawal (RFC 3339, UTC); empty: not withdrawn |
| recording | the participant's recording in this folder (empty: none) |

## The recordings (P-….jsonl)

Each line is an event, in the order it happened. Every event has:

| field | meaning |
|---|---|
| ev | the kind of event: topic, query, open, read, jump, stop, done |
| topic | the topic's id |
| rank | open: the article's position in the result list seen (0: not from the list); read, jump, stop: the open's |
| doc | the article's id (open, read, jump, stop; "" otherwise) |
| seq | the event's number, increasing through the file (gaps allowed) |
| t | milliseconds since the participant started |
| source | always "recorded" |

and by kind:

| kind | fields |
|---|---|
| topic | run: the participant's id. The topic was shown; its events follow |
| query | {{if .Redacted}}none: the words of the query were left out of this export (redacted); its time is kept{{else}}q: the query typed{{end}} |
| open | len: the article's length in characters; passages: the passages the system highlighted, [[from, to], …] |
| read | from, to: the characters [from, to) of the article that were on screen; the reads of one screen share their t |
| jump | to: the character an arrow link jumped to |
| stop | the article was left; reason "end" when the participant saw its last visible character |
| done | outcome: "found" (Found it) or "gave up" (Give up) |

Characters are counted in Unicode code points of the article's text, spaces and line
breaks included, as the judgments count them. A topic without a done event was left
unfinished. readsim eval --readings scores these files and readsim calibrate fits the
simulated reader to them (docs/study.md of readsim).
`))
