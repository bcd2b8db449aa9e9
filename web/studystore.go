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

// openStudy opens (creating it if needed) the study's folder and reads the
// participants' keys.
func openStudy(opt StudyOptions, logf func(string, ...any)) (*studyStore, error) {
	if err := os.MkdirAll(opt.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("study folder: %w", err)
	}
	s := &studyStore{opt: opt, logf: logf, parts: map[string]*participant{}, fs: osFileOps, now: time.Now}

	ents, err := os.ReadDir(opt.Dir)
	if err != nil {
		return nil, fmt.Errorf("study folder: %w", err)
	}
	for _, e := range ents {
		name := e.Name()
		if (strings.HasPrefix(name, ".P-") || strings.HasPrefix(name, "."+rotationFile)) && strings.Contains(name, ".tmp") {
			// a key or counter file whose writing was interrupted: never
			// renamed, never given to anyone
			os.Remove(filepath.Join(opt.Dir, name))
			continue
		}
		id, ok := strings.CutSuffix(name, ".json")
		if !ok || !participantPattern.MatchString(id) || !e.Type().IsRegular() {
			continue
		}
		p, pos, err := readKey(filepath.Join(opt.Dir, name), id)
		if err != nil {
			return nil, err
		}
		s.parts[id] = p
		s.next = max(s.next, pos+1)
	}
	s.next = max(s.next, len(s.parts))
	b, err := os.ReadFile(filepath.Join(opt.Dir, rotationFile))
	switch {
	case err == nil:
		var r rotation
		if err := json.Unmarshal(b, &r); err != nil || r.Next < 0 {
			return nil, fmt.Errorf("%s: not the study's round-robin counter {\"next\": N}", filepath.Join(opt.Dir, rotationFile))
		}
		s.next = max(s.next, r.Next)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("study folder: %w", err)
	}
	return s, nil
}

// readKey reads a participant's key file, and its round-robin position
// (-1 when the key has none).
func readKey(path, id string) (*participant, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 64<<10))
	if err != nil {
		return nil, 0, err
	}
	var k participantKey
	if err := json.Unmarshal(b, &k); err != nil || k.Participant != id || len(k.Topics) == 0 || k.Position != nil && *k.Position < 0 {
		return nil, 0, fmt.Errorf("%s: not a participant's key", path)
	}
	h, err := hex.DecodeString(k.TokenSHA256)
	if err != nil || len(h) != sha256.Size {
		return nil, 0, fmt.Errorf("%s: token_sha256 is not a SHA-256 in hex", path)
	}
	p := &participant{id: id, topics: k.Topics, assigned: map[string]bool{}, code: k.WithdrawalSHA256}
	copy(p.hash[:], h)
	for _, t := range k.Topics {
		p.assigned[t] = true
	}
	pos := -1
	if k.Position != nil {
		pos = *k.Position
	}
	return p, pos, nil
}

func (s *studyStore) recording(id string) string { return filepath.Join(s.opt.Dir, id+".jsonl") }
func (s *studyStore) keyFile(id string) string   { return filepath.Join(s.opt.Dir, id+".json") }

// errStudyFull is the answer to a consent past MaxParticipants.
var errStudyFull = errors.New("the study is full")

// newParticipant creates a participant with the next topics and returns
// it with its token.
func (s *studyStore) newParticipant() (*participant, string, error) {
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
	n := len(s.opt.Topics)
	for i := 0; i < s.opt.PerParticipant; i++ {
		t := s.opt.Topics[(s.next+i)%n].ID
		p.topics = append(p.topics, t)
		p.assigned[t] = true
	}
	if !s.consentSaved {
		// the text agreed to, on record beside the keys that name its hash
		name := consentCopy(s.opt.Consent)
		if b, err := os.ReadFile(filepath.Join(s.opt.Dir, name)); err != nil || !bytes.Equal(b, s.opt.Consent.Text) {
			if err := durable.WriteFile(s.opt.Dir, name, s.opt.Consent.Text); err != nil {
				return nil, "", fmt.Errorf("the consent text's copy: %w", err)
			}
		}
		s.consentSaved = true
	}
	// the counter first: a crash before the key skips a position, never
	// gives one twice
	pos := s.next
	next, _ := json.Marshal(rotation{Next: pos + 1})
	if err := durable.WriteFile(s.opt.Dir, rotationFile, append(next, '\n')); err != nil {
		return nil, "", err
	}
	s.next++
	key, _ := json.Marshal(participantKey{Participant: id, TokenSHA256: hex.EncodeToString(p.hash[:]), Topics: p.topics, Position: &pos,
		Consented: s.now().UTC().Format(time.RFC3339), ConsentSHA256: s.opt.Consent.SHA256, WithdrawalSHA256: p.code})
	if err := durable.WriteFile(s.opt.Dir, id+".json", append(key, '\n')); err != nil {
		return nil, "", err
	}
	s.parts[id] = p
	return p, token, nil
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

// withdraw appends the participant's tombstone, then deletes its
// recording, then its key (in that order: a crash between leaves a
// tombstone with files, which exports drop and a second withdrawal
// removes, or a key without a recording, never a recording no one can
// withdraw).
func (s *studyStore) withdraw(p *participant) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gone {
		return nil
	}
	if err := s.tombstone(p.id); err != nil {
		return err
	}
	if err := os.Remove(s.recording(p.id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.Remove(s.keyFile(p.id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	durable.SyncDir(s.opt.Dir)
	p.gone = true
	s.mu.Lock()
	delete(s.parts, p.id)
	s.mu.Unlock()
	return nil
}

// tombstone appends participant id's line to withdrawn.jsonl, durably.
func (s *studyStore) tombstone(id string) error {
	path := filepath.Join(s.opt.Dir, tombstoneFile)
	fresh := !exists(path)
	line, _ := json.Marshal(Tombstone{Participant: id, Withdrawn: s.now().UTC().Format(time.RFC3339)})
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if fresh {
		return durable.SyncDir(s.opt.Dir)
	}
	return nil
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
