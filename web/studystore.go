package web

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/readsim/readsim/internal/ground/durable"
)

// The study's folder holds, per participant P-<16 hex digits>:
//
//   - P-….jsonl: the recording, the participant's events one JSON object
//     per line (studyevents.go), appended batch by batch. It exists from
//     the first batch accepted. These files are the readings: readsim eval
//     --readings DIR/*.jsonl, readsim calibrate DIR/*.jsonl.
//   - P-….json: the participant's key: {"participant", "token_sha256" (the
//     SHA-256 of the token, hex), "topics" (assigned, in order),
//     "position" (the participant's place in the round robin)}. Written
//     atomically at consent; what lets a restarted server accept the
//     participant. Never the token itself, no name, address or browser.
//     Since issue 26 also "consented" (the time), "consent_sha256" (the
//     text agreed to) and "withdrawal_code_sha256".
//   - consent-<16 hex>.txt: the consent text whose SHA-256 starts so.
//   - withdrawn.jsonl: a tombstone per withdrawal, {"participant",
//     "withdrawn"}, written before the files are deleted, so that an
//     export made earlier can drop the withdrawn.
//
// and rotation.json, {"next": N}: the round-robin position of the next
// participant, written (atomically) before each new participant's key, so
// that a restarted server goes on where it stopped, withdrawals or not. A
// server starts at the largest of N, the keys' positions + 1, and the
// number of keys (a folder of keys written before rotation.json existed).
//
// Durability: a batch is appended with one write(2) on a file opened with
// O_APPEND, then fsync; a write or fsync that fails or comes short is cut
// off again (truncated to the size before it), so a refused or failed
// batch leaves nothing. Once the fsync has succeeded the batch is recorded:
// the participant's state moves on even if closing the file or the
// folder's fsync then fails (logged, and the folder's fsync is tried again
// with the next batch), so that the page, told the batch is written, never
// sends the same seqs twice. A crash can at worst leave the batch in flight
// cut short: when a participant's file is first read after a start, a last
// line without its newline is cut off (and logged), so no torn line
// survives. New files are made durable by an fsync of the folder.

// participantPattern is a participant id.
var participantPattern = regexp.MustCompile(`^P-[0-9a-f]{16}$`)

// participant is one participant of the study.
type participant struct {
	id     string
	hash   [sha256.Size]byte
	code   string // the withdrawal code's SHA-256 (hex; "" none)
	topics []string
	// recruitment are the platform's ids the participant came with
	recruitment map[string]string
	// mu orders the participant's batches and withdrawal.
	mu       sync.Mutex
	assigned map[string]bool
	loaded   bool  // st holds the file's state
	broken   error // the file cannot be read back: refuse events
	gone     bool  // withdrawn
	// dirPending: the folder's fsync after the recording was created
	// failed; the next batch tries it again.
	dirPending bool
	st         recState
}

// participantKey is the JSON of a participant's key file.
type participantKey struct {
	Participant string   `json:"participant"`
	TokenSHA256 string   `json:"token_sha256"`
	Topics      []string `json:"topics"`
	Position    *int     `json:"position,omitempty"`
	// Consented is the time of consent (RFC 3339, UTC), ConsentSHA256 the
	// hash of the consent text agreed to, WithdrawalSHA256 that of the
	// withdrawal code (keys written before issue 26 have none of them).
	Consented        string `json:"consented,omitempty"`
	ConsentSHA256    string `json:"consent_sha256,omitempty"`
	WithdrawalSHA256 string `json:"withdrawal_code_sha256,omitempty"`
	// Recruitment holds the recruitment platform's ids the participant
	// came with (StudyOptions.Params; issue 36).
	Recruitment map[string]string `json:"recruitment,omitempty"`
}

// tombstoneFile lists the withdrawn participants, one JSON object a line:
// {"participant": id, "withdrawn": RFC 3339 time}.
const tombstoneFile = "withdrawn.jsonl"

// Tombstone is a line of withdrawn.jsonl.
type Tombstone struct {
	Participant string `json:"participant"`
	Withdrawn   string `json:"withdrawn"`
}

// rotationFile is the study's round-robin counter, in the folder.
const rotationFile = "rotation.json"

// rotation is the JSON of rotationFile.
type rotation struct {
	Next int `json:"next"`
}

// studyStore is the study's folder and its participants.
type studyStore struct {
	opt  StudyOptions
	logf func(string, ...any)

	mu    sync.Mutex
	parts map[string]*participant
	// next is the round-robin position of the next participant's topics.
	next int

	// fs are the file operations of appendBatch (tests make them fail).
	fs fileOps
	// now is the clock of consents and withdrawals.
	now func() time.Time
	// consentSaved: the consent text's copy is in the folder.
	consentSaved bool
	// lock is the folder's lock, held from open to close.
	lock *folderLock
	// tokens issue and check the consent form's tokens.
	tokens *consentTokens
	// closed: close has run.
	closed bool
}

// fileOps are the file system calls appendBatch makes after opening the
// recording.
type fileOps struct {
	write   func(f *os.File, b []byte) (int, error)
	sync    func(f *os.File) error
	close   func(f *os.File) error
	syncDir func(dir string) error
}

// osFileOps are the real calls.
var osFileOps = fileOps{
	write:   (*os.File).Write,
	sync:    (*os.File).Sync,
	close:   (*os.File).Close,
	syncDir: durable.SyncDir,
}

// openStudy opens (creating it if needed) the study's folder: it takes
// the folder's lock, completes the withdrawals a crash left half done,
// reads the participants' keys and the round-robin counter, and logs the
// start (and a change of the consent text) in the audit log.
func openStudy(opt StudyOptions, logf func(string, ...any)) (*studyStore, error) {
	if err := os.MkdirAll(opt.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("study folder: %w", err)
	}
	lock, err := lockStudy(opt.Dir, "readsim serve")
	if err != nil {
		return nil, err
	}
	s := &studyStore{opt: opt, logf: logf, parts: map[string]*participant{}, fs: osFileOps, now: time.Now, lock: lock, tokens: newConsentTokens()}
	if err := s.open(); err != nil {
		lock.release()
		return nil, err
	}
	return s, nil
}

// open is openStudy's work under the lock.
func (s *studyStore) open() error {
	tombs, err := ReadTombstones(s.opt.Dir)
	if err != nil {
		return err
	}
	if err := s.completeWithdrawals(tombs); err != nil {
		return err
	}
	ents, err := os.ReadDir(s.opt.Dir)
	if err != nil {
		return fmt.Errorf("study folder: %w", err)
	}
	keys := map[string]bool{}
	for _, e := range ents {
		name := e.Name()
		if (strings.HasPrefix(name, ".P-") || strings.HasPrefix(name, "."+rotationFile)) && strings.Contains(name, ".tmp") {
			// a key or counter file whose writing was interrupted: never
			// renamed, never given to anyone
			os.Remove(filepath.Join(s.opt.Dir, name))
			continue
		}
		id, ok := strings.CutSuffix(name, ".json")
		if !ok || !participantPattern.MatchString(id) || !e.Type().IsRegular() {
			continue
		}
		p, pos, err := readKey(filepath.Join(s.opt.Dir, name), id)
		if err != nil {
			return err
		}
		keys[id] = true
		s.parts[id] = p
		s.next = max(s.next, pos+1)
	}
	for _, e := range ents {
		if id, ok := strings.CutSuffix(e.Name(), ".jsonl"); ok && participantPattern.MatchString(id) && !keys[id] {
			s.logf("web: study: %s: a recording without a key (no one can add to it or withdraw it by code): readsim study repair says more", filepath.Join(s.opt.Dir, e.Name()))
		}
	}
	s.next = max(s.next, len(s.parts))
	b, err := os.ReadFile(filepath.Join(s.opt.Dir, rotationFile))
	switch {
	case err == nil:
		var r rotation
		if err := json.Unmarshal(b, &r); err != nil || r.Next < 0 {
			return fmt.Errorf("%s: not the study's round-robin counter {\"next\": N}", filepath.Join(s.opt.Dir, rotationFile))
		}
		s.next = max(s.next, r.Next)
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("study folder: %w", err)
	}
	return s.auditStart()
}

// completeWithdrawals deletes what a crash left of the withdrawn (a
// tombstone written, the recording or the key still there), as the
// withdrawal would have, and logs it.
func (s *studyStore) completeWithdrawals(tombs []Tombstone) error {
	for _, t := range tombs {
		rec, key := s.recording(t.Participant), s.keyFile(t.Participant)
		if !exists(rec) && !exists(key) {
			continue
		}
		if err := removeParticipant(rec, key); err != nil {
			return fmt.Errorf("completing the withdrawal of %s: %w", t.Participant, err)
		}
		s.logf("web: study: completed the withdrawal of %s (withdrawn %s; a crash had left its files)", t.Participant, t.Withdrawn)
		if err := appendAudit(s.opt.Dir, s.now(), AuditRecord{Event: "withdrawal_completed", Participant: t.Participant}); err != nil {
			return err
		}
	}
	return durable.SyncDir(s.opt.Dir)
}

// removeParticipant deletes a participant's recording, then their key.
func removeParticipant(rec, key string) error {
	for _, f := range []string{rec, key} {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// auditStart logs the server's start, after a consent_text record when
// the text served is not the one of the last start.
func (s *studyStore) auditStart() error {
	recs, err := ReadAudit(s.opt.Dir)
	if err != nil {
		return err
	}
	last, started := "", false
	for _, r := range recs {
		if r.Event == "start" {
			last, started = r.ConsentSHA256, true
		}
	}
	if !started || last != s.opt.Consent.SHA256 {
		if err := appendAudit(s.opt.Dir, s.now(), AuditRecord{Event: "consent_text", ConsentSHA256: s.opt.Consent.SHA256, PreviousSHA256: &last}); err != nil {
			return err
		}
	}
	return appendAudit(s.opt.Dir, s.now(), AuditRecord{Event: "start", ConsentSHA256: s.opt.Consent.SHA256,
		Topics: topicIDs(s.opt.Topics), PerParticipant: s.opt.PerParticipant})
}

func topicIDs(ts []StudyTopic) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.ID
	}
	return out
}

// close logs the server's stop and lets the folder's lock go.
func (s *studyStore) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	err := appendAudit(s.opt.Dir, s.now(), AuditRecord{Event: "stop"})
	return errors.Join(err, s.lock.release())
}

// readKey reads a participant's key file, and its round-robin position
// (-1 when the key has none).
func readKey(path, id string) (*participant, int, error) {
	h, k, err := readKeyFile(path, id)
	if err != nil {
		return nil, 0, err
	}
	p := &participant{id: id, topics: k.Topics, assigned: map[string]bool{}, code: k.WithdrawalSHA256, recruitment: k.Recruitment, hash: h}
	for _, t := range k.Topics {
		p.assigned[t] = true
	}
	pos := -1
	if k.Position != nil {
		pos = *k.Position
	}
	return p, pos, nil
}

// readKeyFile reads and checks the key file of participant id: its token
// hash and the key.
func readKeyFile(path, id string) ([sha256.Size]byte, *participantKey, error) {
	var h [sha256.Size]byte
	f, err := os.Open(path)
	if err != nil {
		return h, nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 64<<10))
	if err != nil {
		return h, nil, err
	}
	var k participantKey
	if err := json.Unmarshal(b, &k); err != nil || k.Participant != id || len(k.Topics) == 0 || k.Position != nil && *k.Position < 0 {
		return h, nil, fmt.Errorf("%s: not a participant's key", path)
	}
	raw, err := hex.DecodeString(k.TokenSHA256)
	if err != nil || len(raw) != sha256.Size {
		return h, nil, fmt.Errorf("%s: token_sha256 is not a SHA-256 in hex", path)
	}
	copy(h[:], raw)
	return h, &k, nil
}

func (s *studyStore) recording(id string) string { return filepath.Join(s.opt.Dir, id+".jsonl") }
func (s *studyStore) keyFile(id string) string   { return filepath.Join(s.opt.Dir, id+".json") }

// errStudyFull is the answer to a consent past MaxParticipants.
var errStudyFull = errors.New("the study is full")

// newParticipant creates a participant with the next topics and the
// recruitment ids rec, and returns it with its token. The consent is
// logged in the audit log before the key is written.
func (s *studyStore) newParticipant(rec map[string]string) (*participant, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.parts) >= s.opt.MaxParticipants {
		return nil, "", errStudyFull
	}
	var idb [8]byte
	var tok [32]byte
	var id string
	for {
		rand.Read(idb[:]) // crypto/rand never fails (Go 1.24+)
		id = "P-" + hex.EncodeToString(idb[:])
		if s.parts[id] == nil && !exists(s.keyFile(id)) && !exists(s.recording(id)) {
			break
		}
	}
	rand.Read(tok[:])
	token := base64.RawURLEncoding.EncodeToString(tok[:])
	p := &participant{id: id, hash: sha256.Sum256([]byte(token)), assigned: map[string]bool{}, loaded: true, code: codeHash(withdrawalCode(token))}
	p.st = recState{started: map[string]bool{}, done: map[string]bool{}}
	if len(rec) > 0 {
		p.recruitment = rec
	}
	n := len(s.opt.Topics)
	for i := 0; i < s.opt.PerParticipant; i++ {
		t := s.opt.Topics[(s.next+i)%n].ID
		p.topics = append(p.topics, t)
		p.assigned[t] = true
	}
	if err := s.saveConsentText(); err != nil {
		return nil, "", err
	}
	// the counter first: a crash before the key skips a position, never
	// gives one twice
	pos := s.next
	next, _ := json.Marshal(rotation{Next: pos + 1})
	if err := durable.WriteFile(s.opt.Dir, rotationFile, append(next, '\n')); err != nil {
		return nil, "", err
	}
	s.next++
	now := s.now()
	if err := appendAudit(s.opt.Dir, now, AuditRecord{Event: "consent", Participant: id, ConsentSHA256: s.opt.Consent.SHA256, Topics: p.topics, WithdrawalSHA256: p.code}); err != nil {
		return nil, "", err
	}
	key, _ := json.Marshal(participantKey{Participant: id, TokenSHA256: hex.EncodeToString(p.hash[:]), Topics: p.topics, Position: &pos,
		Consented: now.UTC().Format(time.RFC3339), ConsentSHA256: s.opt.Consent.SHA256, WithdrawalSHA256: p.code, Recruitment: p.recruitment})
	if err := durable.WriteFile(s.opt.Dir, id+".json", append(key, '\n')); err != nil {
		if aerr := appendAudit(s.opt.Dir, s.now(), AuditRecord{Event: "consent_failed", Participant: id}); aerr != nil {
			s.logf("web: study: %v", aerr)
		}
		return nil, "", err
	}
	s.parts[id] = p
	return p, token, nil
}

// saveConsentText writes the consent text's copy into the folder, once
// (s.mu held): the text agreed to, on record beside the keys that name
// its hash.
func (s *studyStore) saveConsentText() error {
	if s.consentSaved {
		return nil
	}
	name := consentCopy(s.opt.Consent)
	if b, err := os.ReadFile(filepath.Join(s.opt.Dir, name)); err != nil || !bytes.Equal(b, s.opt.Consent.Text) {
		if err := durable.WriteFile(s.opt.Dir, name, s.opt.Consent.Text); err != nil {
			return fmt.Errorf("the consent text's copy: %w", err)
		}
	}
	s.consentSaved = true
	return nil
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// authenticate returns the participant of a cookie value "ID.TOKEN", or
// nil when it names none or the token is wrong.
func (s *studyStore) authenticate(value string) *participant {
	id, token, ok := strings.Cut(value, ".")
	if !ok || !participantPattern.MatchString(id) || len(token) != 43 {
		return nil
	}
	s.mu.Lock()
	p := s.parts[id]
	s.mu.Unlock()
	if p == nil {
		return nil
	}
	h := sha256.Sum256([]byte(token))
	if subtle.ConstantTimeCompare(h[:], p.hash[:]) != 1 {
		return nil
	}
	return p
}

// load reads the participant's recording into its state, once (p.mu held).
func (s *studyStore) load(p *participant) error {
	if p.loaded || p.broken != nil {
		return p.broken
	}
	p.st = recState{started: map[string]bool{}, done: map[string]bool{}}
	path := s.recording(p.id)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		p.loaded = true
		return nil
	}
	if err != nil {
		p.broken = err
		return err
	}
	if n := bytes.LastIndexByte(b, '\n') + 1; n < len(b) {
		// the batch in flight at a crash, cut short: cut it off
		if err := os.Truncate(path, int64(n)); err != nil {
			p.broken = err
			return err
		}
		s.logf("web: study: %s: cut off a torn last line (%d bytes)", path, len(b)-n)
		b = b[:n]
	}
	line := 0
	for rest := b; len(rest) > 0; {
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte{'\n'})
		line++
		if err := p.st.replayLine(l, p.assigned); err != nil {
			p.broken = fmt.Errorf("%s:%d: %v", path, line, err)
			s.logf("web: study: %v: the participant's events are refused", p.broken)
			return p.broken
		}
	}
	p.st.size = int64(len(b))
	p.loaded = true
	return nil
}

// appendBatch writes lines to the participant's recording (p.mu held): one
// write, then fsync. It returns an error only when the batch is not
// recorded, the file then cut back to its size before (p.st.size); once
// the fsync succeeded, a failure to close the file or to fsync the folder
// is logged, not returned (the batch is on disk: the caller moves the
// participant's state on). The caller updates the size.
func (s *studyStore) appendBatch(p *participant, lines []byte) error {
	path := s.recording(p.id)
	if p.st.size == 0 && !exists(path) {
		p.dirPending = true // a new file: its name needs the folder's fsync
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	n, err := s.fs.write(f, lines)
	if err == nil && n < len(lines) {
		err = io.ErrShortWrite
	}
	if err == nil {
		err = s.fs.sync(f)
	}
	if err != nil {
		f.Truncate(p.st.size)
		f.Sync()
		f.Close()
		return err
	}
	// recorded
	if err := s.fs.close(f); err != nil {
		s.logf("web: study: %s: closing after the batch was written and synced: %v", path, err)
	}
	if p.dirPending {
		if err := s.fs.syncDir(s.opt.Dir); err != nil {
			s.logf("web: study: %s: the folder's fsync after creating the recording: %v (tried again with the next batch)", s.opt.Dir, err)
		} else {
			p.dirPending = false
		}
	}
	return nil
}

// errDeleteFailed is a withdrawal on record whose files could not all be
// deleted: the server completes it at its next start.
var errDeleteFailed = errors.New("the withdrawal is on record, but the files could not all be deleted")

// withdraw appends the participant's tombstone and the audit record,
// then deletes its recording, then its key (in that order: a crash
// between leaves a tombstone with files, which the next start deletes
// and exports leave out meanwhile, never a recording no one can
// withdraw). Once the tombstone is written the participant is gone: their
// events are refused even if a deletion fails (errDeleteFailed, logged).
func (s *studyStore) withdraw(p *participant, by string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gone {
		return nil
	}
	if err := s.tombstone(p.id); err != nil {
		return err
	}
	p.gone = true
	s.mu.Lock()
	delete(s.parts, p.id)
	s.mu.Unlock()
	if err := appendAudit(s.opt.Dir, s.now(), AuditRecord{Event: "withdrawal", Participant: p.id, By: by}); err != nil {
		s.logf("web: study: withdrawing %s: %v (the tombstone is written: the withdrawal holds)", p.id, err)
	}
	if err := removeParticipant(s.recording(p.id), s.keyFile(p.id)); err != nil {
		s.logf("web: study: withdrawing %s: %v (the next start deletes what is left)", p.id, err)
		return fmt.Errorf("%w: %v", errDeleteFailed, err)
	}
	durable.SyncDir(s.opt.Dir)
	return nil
}

// tombstone appends participant id's line to withdrawn.jsonl, durably.
func (s *studyStore) tombstone(id string) error {
	line, _ := json.Marshal(Tombstone{Participant: id, Withdrawn: s.now().UTC().Format(time.RFC3339)})
	return durable.Append(filepath.Join(s.opt.Dir, tombstoneFile), append(line, '\n'))
}

// byCode returns the participant whose withdrawal code is code, or nil.
func (s *studyStore) byCode(code string) *participant {
	if normalCode(code) == "" {
		return nil
	}
	h := codeHash(code)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.parts {
		if p.code != "" && subtle.ConstantTimeCompare([]byte(p.code), []byte(h)) == 1 {
			return p
		}
	}
	return nil
}
