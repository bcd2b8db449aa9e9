package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/readsim/readsim/internal/ground/durable"
)

// The study's audit log (issue 36), audit.jsonl in its folder: what an
// ethics board asks of a study, one JSON object a line, appended durably
// (durable.Append: one write, synced) and never rewritten or cut by
// readsim. Each record has "time" (RFC 3339, UTC) and "event":
//
//	start                 a server started on the folder: the consent text
//	                      served (consent_sha256), its topics and topics
//	                      per participant
//	stop                  the server stopped
//	consent_text          the consent text changed since the last start:
//	                      consent_sha256 and previous_sha256 ("" for the
//	                      folder's first)
//	consent               a participant agreed: participant, the text
//	                      (consent_sha256), the topics assigned and the
//	                      withdrawal code's SHA-256; written before the key
//	consent_failed        the key of a consent just logged could not be
//	                      written: no participant was made
//	withdrawal            a participant withdrew (by: "cookie" or "code"),
//	                      written after the tombstone, before the files go
//	withdrawal_completed  a withdrawal left half done by a crash (a
//	                      tombstone, files still there) was completed at
//	                      start
//	admin                 a readsim study command: command, the
//	                      participants it deleted or named, a detail
//
// No network address, browser, name or recruitment id is ever written:
// only participant ids, hashes, topics and times. A withdrawal deletes the
// participant's files but never their records here: the consent stays on
// record, as a signed consent form does.

// auditFile is the audit log's name in the study's folder.
const auditFile = "audit.jsonl"

// maxAuditBytes bounds the audit log readsim reads back (a study of 1,000
// participants writes some 600 KB; a server started every minute for a
// year some 100 MB more): past it the log is not read, and what needs it
// (the consent of a recording without a key, the consent text's changes)
// says so.
const maxAuditBytes = 256 << 20

// AuditRecord is a line of audit.jsonl.
type AuditRecord struct {
	Time             string   `json:"time"`
	Event            string   `json:"event"`
	Participant      string   `json:"participant,omitempty"`
	ConsentSHA256    string   `json:"consent_sha256,omitempty"`
	PreviousSHA256   *string  `json:"previous_sha256,omitempty"`
	Topics           []string `json:"topics,omitempty"`
	PerParticipant   int      `json:"per_participant,omitempty"`
	WithdrawalSHA256 string   `json:"withdrawal_code_sha256,omitempty"`
	By               string   `json:"by,omitempty"`
	Command          string   `json:"command,omitempty"`
	Participants     []string `json:"participants,omitempty"`
	Detail           string   `json:"detail,omitempty"`
}

// auditEvents are the events of the log.
var auditEvents = map[string]bool{"start": true, "stop": true, "consent_text": true, "consent": true, "consent_failed": true,
	"withdrawal": true, "withdrawal_completed": true, "admin": true}

// appendAudit appends rec to the audit log of dir, its time set to now.
func appendAudit(dir string, now time.Time, rec AuditRecord) error {
	rec.Time = now.UTC().Format(time.RFC3339)
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return durable.Append(filepath.Join(dir, auditFile), append(b, '\n'))
}

// ReadAudit reads the audit log of the study folder dir (none: no
// record). A last line without its newline (an append cut short by a
// crash) is dropped; any other line that is not a record is an error
// naming the file and line.
func ReadAudit(dir string) ([]AuditRecord, error) {
	path := filepath.Join(dir, auditFile)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() || st.Size() > maxAuditBytes {
		return nil, fmt.Errorf("%s: not the study's audit log (a regular file of at most %d MiB)", path, maxAuditBytes>>20)
	}
	return parseAudit(path, f)
}

// parseAudit reads audit records from r (path names it in errors).
func parseAudit(path string, r io.Reader) ([]AuditRecord, error) {
	br := bufio.NewReader(r)
	var out []AuditRecord
	for line := 1; ; line++ {
		l, err := br.ReadBytes('\n')
		if err == io.EOF {
			return out, nil // a last line without its newline: an append cut short
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		var rec AuditRecord
		if err := jsonv2.Unmarshal(bytes.TrimSuffix(l, []byte{'\n'}), &rec, jsonv2.RejectUnknownMembers(true)); err != nil {
			return nil, fmt.Errorf("%s:%d: not an audit record: %s", path, line, jsonv2Problem(err))
		}
		if !auditEvents[rec.Event] {
			return nil, fmt.Errorf("%s:%d: unknown audit event %q", path, line, rec.Event)
		}
		if _, err := time.Parse(time.RFC3339, rec.Time); err != nil {
			return nil, fmt.Errorf("%s:%d: time %q is not an RFC 3339 time", path, line, rec.Time)
		}
		if rec.Participant != "" && !participantPattern.MatchString(rec.Participant) {
			return nil, fmt.Errorf("%s:%d: participant %q is not a participant id", path, line, rec.Participant)
		}
		out = append(out, rec)
	}
}

// jsonv2Problem says what is wrong with a JSON line decoded by jsonv2,
// without Go's type names.
func jsonv2Problem(err error) string {
	var se *jsonv2.SemanticError
	if errors.As(err, &se) {
		name := se.JSONPointer.LastToken()
		switch {
		case errors.Is(se.Err, jsonv2.ErrUnknownName):
			return fmt.Sprintf("unknown field %q", name)
		case name != "":
			return fmt.Sprintf("field %q: a JSON %s where another type is wanted", name, se.JSONKind)
		}
		return "not a JSON object of the record's fields"
	}
	var xe *jsontext.SyntacticError
	if errors.As(err, &xe) {
		if errors.Is(xe.Err, jsontext.ErrDuplicateName) {
			return fmt.Sprintf("field %q given twice", xe.JSONPointer.LastToken())
		}
		return fmt.Sprintf("malformed JSON at byte %d", xe.ByteOffset)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return "empty or cut short"
	}
	return "malformed JSON"
}

// consentsOnRecord are the consent records of the audit log by
// participant (the last of each).
func consentsOnRecord(recs []AuditRecord) map[string]AuditRecord {
	out := map[string]AuditRecord{}
	for _, r := range recs {
		if r.Event == "consent" {
			out[r.Participant] = r
		}
	}
	return out
}
