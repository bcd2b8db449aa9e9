package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/readsim/readsim/internal/ground/durable"
)

// The study's folder administered from outside the server (readsim study):
// listing its participants, clearing consents that never recorded a
// reading or whose retention date is past, repairing torn last lines and
// finding recordings without a key, and exporting the readings of the
// participants not withdrawn with a table of the participants and a data
// dictionary. The commands that change the folder (clear, repair) take its
// lock (studylock.go) and refuse while a server uses it; list and export
// only read it, and are safe while the server runs: a batch being written
// is left out (its line has no newline yet). Each command but list is
// logged in the audit log (studyaudit.go).

// StudyParticipant is a participant as the folder holds them.
type StudyParticipant struct {
	ID string
	// Consented is the time of consent (zero for keys written before
	// issue 26: then the key file's modification time is in KeyTime);
	// ConsentSHA256 the text agreed to. For a participant without a key
	// (withdrawn, or a recording whose key is gone) they come from the
	// consent's record in the audit log, when there is one
	// (ConsentOnRecord).
	Consented       time.Time
	KeyTime         time.Time
	ConsentSHA256   string
	ConsentOnRecord bool
	Topics          int // assigned
	// Recruitment are the recruitment platform's ids kept with the consent.
	Recruitment map[string]string
	// Events counts the recording's whole lines, Done its done events;
	// Recorded tells whether there is a recording; TornBytes counts the
	// bytes of a last line without its newline (a batch cut short).
	Events, Done int
	Recorded     bool
	TornBytes    int
	// HasKey: the participant's key is in the folder.
	HasKey bool
	// NoKey: a recording whose participant has no key and no tombstone
	// (a key deleted under a running server): no one can add to it or
	// withdraw it by code.
	NoKey bool
	// Withdrawn is the tombstone's time, when the participant withdrew
	// (their files are deleted; a crash may have left some).
	Withdrawn time.Time
}

// Finished reports whether the participant has done every topic assigned.
func (p *StudyParticipant) Finished() bool { return p.Topics > 0 && p.Done >= p.Topics }

// ReadStudyFolder lists the participants of the study folder dir (keys,
// recordings without a key, tombstones), in order of id.
func ReadStudyFolder(dir string) ([]StudyParticipant, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	byID := map[string]*StudyParticipant{}
	get := func(id string) *StudyParticipant {
		if byID[id] == nil {
			byID[id] = &StudyParticipant{ID: id}
		}
		return byID[id]
	}
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !participantPattern.MatchString(id) || !e.Type().IsRegular() {
			continue
		}
		if err := get(id).readKey(dir, e); err != nil {
			return nil, err
		}
	}
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || !participantPattern.MatchString(id) || !e.Type().IsRegular() || byID[id] != nil {
			continue
		}
		p := get(id)
		p.NoKey = true
		if err := p.readRecording(filepath.Join(dir, e.Name())); err != nil {
			return nil, err
		}
	}
	tombs, err := ReadTombstones(dir)
	if err != nil {
		return nil, err
	}
	for _, t := range tombs {
		p := get(t.Participant)
		p.NoKey = false
		p.Withdrawn, _ = time.Parse(time.RFC3339, t.Withdrawn)
		if !p.Recorded {
			if err := p.readRecording(filepath.Join(dir, p.ID+".jsonl")); err != nil {
				return nil, err
			}
		}
	}
	recs, err := ReadAudit(dir)
	if err != nil {
		return nil, err
	}
	on := consentsOnRecord(recs)
	out := make([]StudyParticipant, 0, len(byID))
	for _, p := range byID {
		if r, ok := on[p.ID]; ok && p.ConsentSHA256 == "" {
			p.Consented, _ = time.Parse(time.RFC3339, r.Time)
			p.ConsentSHA256, p.ConsentOnRecord = r.ConsentSHA256, true
			p.Topics = max(p.Topics, len(r.Topics))
		}
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// readKey reads the participant's key, the file e of dir, and their
// recording.
func (p *StudyParticipant) readKey(dir string, e fs.DirEntry) error {
	path := filepath.Join(dir, e.Name())
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var k participantKey
	if err := json.Unmarshal(b, &k); err != nil || k.Participant != p.ID {
		return fmt.Errorf("%s: not a participant's key", path)
	}
	p.HasKey = true
	p.Topics, p.ConsentSHA256, p.Recruitment = len(k.Topics), k.ConsentSHA256, k.Recruitment
	if k.Consented != "" {
		if p.Consented, err = time.Parse(time.RFC3339, k.Consented); err != nil {
			return fmt.Errorf("%s: consented %q is not an RFC 3339 time", path, k.Consented)
		}
	}
	if info, err := e.Info(); err == nil {
		p.KeyTime = info.ModTime()
	}
	return p.readRecording(filepath.Join(dir, p.ID+".jsonl"))
}

// readRecording counts the recording's lines, done events and torn bytes.
func (p *StudyParticipant) readRecording(path string) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	p.Recorded = true
	whole := b
	if i := bytes.LastIndexByte(b, '\n'); i < len(b)-1 {
		whole = b[:i+1]
		p.TornBytes = len(b) - len(whole)
	}
	sc := bufio.NewScanner(bytes.NewReader(whole))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		p.Events++
		if bytes.Contains(sc.Bytes(), []byte(`"ev":"done"`)) {
			p.Done++
		}
	}
	return nil
}

// ReadTombstones reads the folder's withdrawn.jsonl (none: no tombstone).
func ReadTombstones(dir string) ([]Tombstone, error) {
	path := filepath.Join(dir, tombstoneFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Tombstone
	for i, l := range bytes.Split(b, []byte{'\n'}) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var t Tombstone
		if err := json.Unmarshal(l, &t); err != nil || !participantPattern.MatchString(t.Participant) {
			if i == bytes.Count(b, []byte{'\n'}) {
				break // a last line cut short by a crash: that withdrawal did not finish
			}
			return nil, fmt.Errorf("%s:%d: not a tombstone {\"participant\",\"withdrawn\"}", path, i+1)
		}
		out = append(out, t)
	}
	return out, nil
}

// lockedFolder takes the folder's lock for a readsim study command (who)
// and reads its participants; release lets the lock go.
func lockedFolder(dir, who string) (ps []StudyParticipant, release func(), err error) {
	lock, err := lockStudy(dir, who)
	if err != nil {
		return nil, nil, err
	}
	if ps, err = ReadStudyFolder(dir); err != nil {
		lock.release()
		return nil, nil, err
	}
	return ps, func() { lock.release() }, nil
}

// logAdmin logs a readsim study command in the audit log: the participants
// it deleted or named, and a detail.
func logAdmin(dir, command string, ids []string, detail string) error {
	return appendAudit(dir, time.Now(), AuditRecord{Event: "admin", Command: command, Participants: ids, Detail: detail})
}

// ClearUnrecorded deletes the keys of participants who consented before
// cutoff and never recorded anything (no recording): consents that hold no
// data, which count against the study's participants. It holds the
// folder's lock (an error wrapping ErrStudyLocked while a server uses the
// folder) and logs the command. It returns the ids cleared.
func ClearUnrecorded(dir string, cutoff time.Time) ([]string, error) {
	ps, release, err := lockedFolder(dir, "readsim study clear")
	if err != nil {
		return nil, err
	}
	defer release()
	var gone []string
	for _, p := range ps {
		when := p.Consented
		if when.IsZero() {
			when = p.KeyTime
		}
		if !p.HasKey || p.Recorded || !p.Withdrawn.IsZero() || p.Topics == 0 || !when.Before(cutoff) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, p.ID+".json")); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return gone, errors.Join(err, logAdmin(dir, "study clear", gone, "consents older than "+cutoff.UTC().Format(time.RFC3339)+" that never recorded a reading; stopped by an error"))
		}
		gone = append(gone, p.ID)
	}
	if len(gone) > 0 {
		if err := durable.SyncDir(dir); err != nil {
			return gone, err
		}
	}
	return gone, logAdmin(dir, "study clear", gone, "consents older than "+cutoff.UTC().Format(time.RFC3339)+" that never recorded a reading")
}

// ExpiredReport is what ClearExpired did: the participants whose
// recordings and keys it deleted, and the consent texts (by the first 16
// hex digits of their hash) that give no retention date, with the
// participants who agreed to them (kept).
type ExpiredReport struct {
	Cleared []string
	NoDate  map[string][]string
}

// ClearExpired deletes the recordings and keys of the participants whose
// consent text's retention date (Consent.RetentionDate) is past at now,
// the recording first: what the people running the study promised them.
// A consent text without a date, or whose copy is missing from the
// folder, keeps its participants (NoDate). It holds the folder's lock and
// logs the command (the consents stay on record in the audit log).
func ClearExpired(dir string, now time.Time) (*ExpiredReport, error) {
	ps, release, err := lockedFolder(dir, "readsim study clear --expired")
	if err != nil {
		return nil, err
	}
	defer release()
	rep := &ExpiredReport{NoDate: map[string][]string{}}
	texts := map[string]*Consent{}
	for _, p := range ps {
		if !p.HasKey && !p.Recorded || p.ConsentSHA256 == "" {
			continue
		}
		c, ok := texts[p.ConsentSHA256]
		if !ok {
			c, _ = readConsentCopy(dir, p.ConsentSHA256)
			texts[p.ConsentSHA256] = c
		}
		if c == nil || c.RetentionDate.IsZero() {
			h := p.ConsentSHA256[:min(16, len(p.ConsentSHA256))]
			rep.NoDate[h] = append(rep.NoDate[h], p.ID)
			continue
		}
		if !c.Expired(now) {
			continue
		}
		if err := removeParticipant(filepath.Join(dir, p.ID+".jsonl"), filepath.Join(dir, p.ID+".json")); err != nil {
			return rep, errors.Join(err, logAdmin(dir, "study clear --expired", rep.Cleared, "recordings past their retention date; stopped by an error"))
		}
		rep.Cleared = append(rep.Cleared, p.ID)
	}
	if len(rep.Cleared) > 0 {
		if err := durable.SyncDir(dir); err != nil {
			return rep, err
		}
	}
	return rep, logAdmin(dir, "study clear --expired", rep.Cleared, "recordings past their retention date ("+now.UTC().Format(time.DateOnly)+")")
}

// readConsentCopy reads and parses the folder's copy of the consent text
// of hash h (nil when missing or not a consent text).
func readConsentCopy(dir, h string) (*Consent, error) {
	path := filepath.Join(dir, "consent-"+h[:min(16, len(h))]+".txt")
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxConsentBytes {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseConsent(path, b)
}

// ExpiredText is a consent text of a study's folder past its retention
// date: its copy's name, the date, and how many participants with a key
// agreed to it.
type ExpiredText struct {
	File         string
	Date         time.Time
	Participants int
}

// ExpiredConsents lists the consent texts kept in the study folder dir
// whose retention date is past at now and to which participants with a
// key agreed, in order of file name. It reads the keys only (a server's
// start calls it).
func ExpiredConsents(dir string, now time.Time) ([]ExpiredText, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	count := map[string]int{}
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !participantPattern.MatchString(id) || !e.Type().IsRegular() {
			continue
		}
		_, k, err := readKeyFile(filepath.Join(dir, e.Name()), id)
		if err != nil {
			return nil, err
		}
		if k.ConsentSHA256 != "" {
			count[k.ConsentSHA256]++
		}
	}
	var out []ExpiredText
	for h, n := range count {
		c, _ := readConsentCopy(dir, h)
		if c != nil && c.Expired(now) {
			out = append(out, ExpiredText{"consent-" + h[:min(16, len(h))] + ".txt", c.RetentionDate, n})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out, nil
}

// RepairReport is what RepairTorn did: the torn last lines cut (bytes by
// participant), and the recordings without a key, with their consent on
// record in the audit log (kept by export) or not (left out of exports).
type RepairReport struct {
	Cut                      map[string]int
	NoKeyOnRecord, NoConsent []string
}

// RepairTorn cuts off the torn last line (no newline: a batch cut short by
// a crash) of each recording, as the server does when it first reads one,
// and finds the recordings without a key. It holds the folder's lock and
// logs the command.
func RepairTorn(dir string) (*RepairReport, error) {
	ps, release, err := lockedFolder(dir, "readsim study repair")
	if err != nil {
		return nil, err
	}
	defer release()
	rep := &RepairReport{Cut: map[string]int{}}
	var named []string
	for _, p := range ps {
		if p.NoKey && p.Recorded {
			named = append(named, p.ID)
			if p.ConsentOnRecord {
				rep.NoKeyOnRecord = append(rep.NoKeyOnRecord, p.ID)
			} else {
				rep.NoConsent = append(rep.NoConsent, p.ID)
			}
		}
		if p.TornBytes == 0 {
			continue
		}
		if err := cutTorn(filepath.Join(dir, p.ID+".jsonl"), p.TornBytes); err != nil {
			return rep, err
		}
		rep.Cut[p.ID] = p.TornBytes
		named = append(named, p.ID)
	}
	return rep, logAdmin(dir, "study repair", named, fmt.Sprintf("%d torn last line(s) cut, %d recording(s) without a key", len(rep.Cut), len(rep.NoKeyOnRecord)+len(rep.NoConsent)))
}

// cutTorn cuts the last n bytes of the recording path.
func cutTorn(path string, n int) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	err = f.Truncate(info.Size() - int64(n))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: cutting the torn last line: %w", path, err)
	}
	return nil
}
