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
// reading, repairing torn last lines and exporting the readings of the
// participants not withdrawn. Clear and repair change the folder: run them
// with the server stopped (a running server keeps its participants in
// memory). Export only reads it, and is safe while the server runs: a
// batch being written is left out (its line has no newline yet).

// StudyParticipant is a participant as the folder holds them.
type StudyParticipant struct {
	ID string
	// Consented is the time of consent (zero for keys written before
	// issue 26: then the key file's modification time is in KeyTime);
	// ConsentSHA256 the text agreed to.
	Consented     time.Time
	KeyTime       time.Time
	ConsentSHA256 string
	Topics        int // assigned
	// Events counts the recording's whole lines, Done its done events;
	// Recorded tells whether there is a recording; TornBytes counts the
	// bytes of a last line without its newline (a batch cut short).
	Events, Done int
	Recorded     bool
	TornBytes    int
	// Withdrawn is the tombstone's time, when the participant withdrew
	// (their files are deleted; a crash may have left some).
	Withdrawn time.Time
}

// ReadStudyFolder lists the participants of the study folder dir (keys and
// tombstones), in order of id.
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
		path := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		var k participantKey
		if err := json.Unmarshal(b, &k); err != nil || k.Participant != id {
			return nil, fmt.Errorf("%s: not a participant's key", path)
		}
		p := get(id)
		p.Topics, p.ConsentSHA256 = len(k.Topics), k.ConsentSHA256
		if k.Consented != "" {
			if p.Consented, err = time.Parse(time.RFC3339, k.Consented); err != nil {
				return nil, fmt.Errorf("%s: consented %q is not an RFC 3339 time", path, k.Consented)
			}
		}
		if info, err := e.Info(); err == nil {
			p.KeyTime = info.ModTime()
		}
		if err := p.readRecording(filepath.Join(dir, id+".jsonl")); err != nil {
			return nil, err
		}
	}
	tombs, err := ReadTombstones(dir)
	if err != nil {
		return nil, err
	}
	for _, t := range tombs {
		p := get(t.Participant)
		p.Withdrawn, _ = time.Parse(time.RFC3339, t.Withdrawn)
		if !p.Recorded {
			if err := p.readRecording(filepath.Join(dir, p.ID+".jsonl")); err != nil {
				return nil, err
			}
		}
	}
	out := make([]StudyParticipant, 0, len(byID))
	for _, p := range byID {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
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

// ClearUnrecorded deletes the keys of participants who consented before
// cutoff and never recorded anything (no recording): consents that hold no
// data, which count against the study's participants. It returns the ids
// cleared.
func ClearUnrecorded(dir string, cutoff time.Time) ([]string, error) {
	ps, err := ReadStudyFolder(dir)
	if err != nil {
		return nil, err
	}
	var gone []string
	for _, p := range ps {
		when := p.Consented
		if when.IsZero() {
			when = p.KeyTime
		}
		if p.Recorded || !p.Withdrawn.IsZero() || p.Topics == 0 || !when.Before(cutoff) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, p.ID+".json")); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return gone, err
		}
		gone = append(gone, p.ID)
	}
	if len(gone) > 0 {
		if err := durable.SyncDir(dir); err != nil {
			return gone, err
		}
	}
	return gone, nil
}

// RepairTorn cuts off the torn last line (no newline: a batch cut short by
// a crash) of each recording, as the server does when it first reads one;
// it returns the ids repaired with the bytes cut.
func RepairTorn(dir string) (map[string]int, error) {
	ps, err := ReadStudyFolder(dir)
	if err != nil {
		return nil, err
	}
	cut := map[string]int{}
	for _, p := range ps {
		if p.TornBytes == 0 {
			continue
		}
		path := filepath.Join(dir, p.ID+".jsonl")
		info, err := os.Stat(path)
		if err != nil {
			return cut, err
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return cut, err
		}
		err = f.Truncate(info.Size() - int64(p.TornBytes))
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return cut, fmt.Errorf("%s: cutting the torn last line: %w", path, err)
		}
		cut[p.ID] = p.TornBytes
	}
	return cut, nil
}

// ExportStudy writes into the folder out (created; it must not exist or be
// empty) the readings of the participants of dir who have not withdrawn:
// each recording's whole lines (a torn last line left out), and the
// consent texts agreed to. It returns the participants exported and those
// left out as withdrawn.
func ExportStudy(dir, out string) (exported, withdrawn []string, err error) {
	ps, err := ReadStudyFolder(dir)
	if err != nil {
		return nil, nil, err
	}
	if ents, err := os.ReadDir(out); err == nil && len(ents) > 0 {
		return nil, nil, fmt.Errorf("%s: the export's folder is not empty (readsim overwrites nothing)", out)
	}
	if err := os.MkdirAll(out, 0o700); err != nil {
		return nil, nil, err
	}
	texts := map[string]bool{}
	for _, p := range ps {
		if !p.Withdrawn.IsZero() {
			withdrawn = append(withdrawn, p.ID)
			continue
		}
		if p.ConsentSHA256 != "" {
			texts[p.ConsentSHA256] = true
		}
		if !p.Recorded {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, p.ID+".jsonl"))
		if err != nil {
			return exported, withdrawn, err
		}
		b = b[:len(b)-p.TornBytes]
		if len(b) == 0 {
			continue
		}
		if err := durable.WriteFile(out, p.ID+".jsonl", b); err != nil {
			return exported, withdrawn, err
		}
		exported = append(exported, p.ID)
	}
	for h := range texts {
		name := "consent-" + h[:min(16, len(h))] + ".txt"
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			if err := durable.WriteFile(out, name, b); err != nil {
				return exported, withdrawn, err
			}
		}
	}
	return exported, withdrawn, nil
}
