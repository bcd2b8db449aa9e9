package inex

import (
	"errors"
	"io"
)

// ErrNotGrouped is the error of QrelsStream.Next when a topic's judgments
// are not together in the file (a topic comes back after another one):
// the file cannot be read a topic at a time, and has to be read whole
// (OpenQrels).
var ErrNotGrouped = errors.New("the judgments are not grouped by topic")

// QrelsStream reads judgments a topic at a time, so that evaluating a
// file of 20 million judgment lines holds one topic's judgments, not
// every topic's. It reads FOL judgments and TREC qrels (span judgments
// are numbered over the whole file, and are read whole). Each line is
// checked as ReadQrels checks it, when it is read.
type QrelsStream struct {
	qr      *qrelsReader
	lr      *lineReader
	closeFn func() error
	warn    func(string)
	lines   int
	cur     *TopicJudgments // the topic being read
	last    *TopicJudgments // the topic Next returned last
	pending *TopicJudgments // a complete topic not yet returned
	ended   bool
}

// OpenQrelsStream opens the judgments at path (gzip or not) and reads
// their first topic, which decides their format (Qrels().Format). warn, if
// not nil, receives the warnings at the end of the file, as ReadQrels
// gives them. It is an error (an *Error naming the file) when the file
// cannot be opened, is empty, or its first lines are wrong. Judgments
// that are not FOL or TREC qrels can be read with All.
func OpenQrelsStream(path string, warn func(string)) (*QrelsStream, error) {
	r, closeFn, err := open(path)
	if err != nil {
		return nil, err
	}
	br, err := maybeGunzip(path, r)
	if err != nil {
		closeFn()
		return nil, err
	}
	s := &QrelsStream{
		qr:      &qrelsReader{name: path, q: &Qrels{File: path, Topics: map[string]*TopicJudgments{}}, in: interner{}},
		lr:      newLineReader(path, br),
		closeFn: closeFn,
		warn:    warn,
	}
	if s.pending, err = s.read(); err != nil {
		closeFn()
		return nil, err
	}
	if s.lines == 0 {
		return nil, &Error{File: path, Err: errors.New("empty file: no judgments")}
	}
	return s, nil
}

// Qrels returns the judgments read so far: their file and format, and
// every topic read, those returned before the last call to Next without
// their judgments (Docs and Ideal nil; Trel and RelChars kept). Once Next
// has returned nil, IDs are sorted (SortTopics).
func (s *QrelsStream) Qrels() *Qrels { return s.qr.q }

// Streams tells whether the judgments can be read a topic at a time (FOL
// judgments and TREC qrels); the others have to be read with All.
func (s *QrelsStream) Streams() bool {
	f := s.qr.q.Format
	return f == FOLQrels || f == TRECQrels
}

// Next returns the next topic's judgments, complete, or nil at the end of
// the file. The judgments of the topic it returned before are dropped
// (Qrels). A topic that comes back after another one is an *Error naming
// its line and wrapping ErrNotGrouped; any other error is the one
// ReadQrels gives for the same line.
func (s *QrelsStream) Next() (*TopicJudgments, error) {
	if s.last != nil {
		s.last.Docs, s.last.Ideal = nil, nil
		s.last = nil
	}
	t := s.pending
	s.pending = nil
	if t == nil {
		var err error
		if t, err = s.read(); err != nil {
			return nil, err
		}
	}
	s.last = t
	return t, nil
}

// read reads lines until a topic is complete and returns it (nil at the
// end of the file, with the warnings given and the ids sorted).
func (s *QrelsStream) read() (*TopicJudgments, error) {
	if s.ended {
		return nil, nil
	}
	qr, q := s.qr, s.qr.q
	for {
		b, err := s.lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if isBlank(b) {
			continue
		}
		s.lines++
		qr.fs = fields(qr.fs, b)
		if s.lines == 1 {
			qr.detect(b)
		}
		prev := s.cur
		same := prev != nil && string(qr.fs[0]) == prev.ID
		if !same && q.Topics[string(qr.fs[0])] != nil && s.Streams() {
			return nil, &Error{File: qr.name, Line: s.lr.line, Err: fmtNotGrouped(string(qr.fs[0]))}
		}
		if err := qr.line(s.lr.line, b); err != nil {
			return nil, err
		}
		if same || !s.Streams() {
			continue
		}
		s.cur = q.Topics[string(qr.fs[0])]
		if prev != nil {
			prev.setIdeal()
			return prev, nil
		}
	}
	return s.end()
}

// end finishes the file: the last topic is complete.
func (s *QrelsStream) end() (*TopicJudgments, error) {
	s.ended = true
	s.closeFn()
	qr, q := s.qr, s.qr.q
	if s.lines == 0 {
		return nil, nil
	}
	if qr.sp != nil {
		qr.sp.finish()
	}
	SortTopics(q.IDs)
	qr.w.emit(qr.name, s.warn)
	if !s.Streams() {
		for _, t := range q.Topics {
			t.setIdeal()
		}
		return nil, nil
	}
	t := s.cur
	s.cur = nil
	if t != nil {
		t.setIdeal()
	}
	return t, nil
}

// All reads the rest of the file and returns every judgment, as
// ReadQrels would: the stream must not have been read past its first
// topic (Next called at most once).
func (s *QrelsStream) All() (*Qrels, error) {
	if s.last != nil && s.last.Docs == nil {
		return nil, errors.New("QrelsStream.All after the judgments of a topic were dropped")
	}
	q := s.qr.q
	s.last = nil
	for !s.ended {
		if _, err := s.read(); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// Close closes the file (the end of the file closes it too).
func (s *QrelsStream) Close() error {
	if s.ended {
		return nil
	}
	s.ended = true
	return s.closeFn()
}

// notGrouped is the error of a topic that comes back after another one.
type notGrouped struct{ topic string }

func fmtNotGrouped(topic string) error { return &notGrouped{topic} }

func (e *notGrouped) Error() string {
	return "topic " + e.topic + " comes back after other topics: " + ErrNotGrouped.Error()
}

func (e *notGrouped) Unwrap() error { return ErrNotGrouped }
