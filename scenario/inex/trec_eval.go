package inex

import (
	"bufio"
	"errors"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/readsim/readsim/effort"
)

// trec_eval's own reading of TREC qrels and TREC runs, for `readsim
// trec_eval` (docs/trec_eval.md): exactly the lines trec_eval 10.0 reads
// and the values it reads from them (C's atol and atof), with its
// refusals given as Errors naming the file, the line and the problem.
// readsim's other commands read these formats with ReadQrels and ReadRun.

// TrecEvalQrels are TREC qrels as trec_eval reads them.
type TrecEvalQrels struct {
	File string
	// IDs are the judged topics in byte order (trec_eval's order).
	IDs []string
	// Judged are each topic's judgments, sorted by document.
	Judged map[string][]effort.TrecJudgment
	// Groups, for judgment groups (-R qrels_jg), are each topic's groups
	// in byte order of their names, each sorted by document; Judged is
	// then empty.
	Groups map[string][][]effort.TrecJudgment
	// Prefs, for preferences (-R prefs, -R qrels_prefs), are each topic's
	// preference lines, sorted by document; Judged is then empty.
	Prefs map[string][]effort.TrecPref
}

// TrecEvalFormats are the judgment formats of trec_eval's -R.
var TrecEvalFormats = []string{"qrels", "qrels_jg", "prefs", "qrels_prefs"}

// OpenTrecEvalJudgments reads judgments in the format -R names (one of
// TrecEvalFormats): OpenTrecEvalQrels, OpenTrecEvalQrelsJG or
// OpenTrecEvalPrefs.
func OpenTrecEvalJudgments(path, format string) (*TrecEvalQrels, error) {
	switch format {
	case "qrels_jg":
		return OpenTrecEvalQrelsJG(path)
	case "prefs", "qrels_prefs":
		return OpenTrecEvalPrefs(path, format == "qrels_prefs")
	default:
		return OpenTrecEvalQrels(path)
	}
}

// OpenTrecEvalPrefs reads preferences as trec_eval does: with -R prefs
// (qrels false) a line is "topic group subgroup document level"; with -R
// qrels_prefs (qrels true) TREC qrels "topic group document level", every
// line in subgroup "0". The level is C's atof of its column. A line
// starting with # is a comment; no blank line (docs/trec_eval.md).
func OpenTrecEvalPrefs(path string, qrels bool) (*TrecEvalQrels, error) {
	r, closeFn, name, err := openNamed(path)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	want, form, cname := 5, "topic group subgroup document level", "get_prefs"
	if qrels {
		want, form, cname = 4, "topic group document level", "get_qrels_prefs"
	}
	q := &TrecEvalQrels{File: name, Judged: map[string][]effort.TrecJudgment{}, Prefs: map[string][]effort.TrecPref{}}
	var a arena
	var fs [][]byte
	var cm trecComments
	err = trecLines(name, r, func(n int, b []byte) error {
		if skip, err := cm.line(name, n, b); skip || err != nil {
			return err
		}
		fs = cFields(fs, b)
		if len(fs) != want {
			return errorf(name, n, "%d columns, want %d: %s (trec_eval.%s: Malformed line)", len(fs), want, form, cname)
		}
		topic := string(fs[0])
		ps, ok := q.Prefs[topic]
		if !ok {
			topic = a.str(fs[0])
			q.IDs = append(q.IDs, topic)
		}
		p := effort.TrecPref{JG: a.str(fs[1]), JSG: "0"}
		if !qrels {
			p.JSG = a.str(fs[2])
		}
		p.Docno, p.Level = a.str(fs[want-2]), cAtofBytes(fs[want-1])
		q.Prefs[topic] = append(ps, p)
		return nil
	})
	if err == nil {
		err = cm.end(name)
	}
	if err != nil {
		return nil, err
	}
	if len(q.IDs) == 0 {
		return nil, &Error{File: name, Err: errors.New("no preference (trec_eval: Cannot read prefs file)")}
	}
	slices.Sort(q.IDs)
	for _, ps := range q.Prefs {
		slices.SortStableFunc(ps, func(x, y effort.TrecPref) int { return strings.Compare(x.Docno, y.Docno) })
	}
	return q, nil
}

// OpenTrecEvalQrelsJG reads judgment groups (trec_eval's -R qrels_jg) as
// trec_eval does: a line is "topic group document relevance", each group a
// set of judgments of the topic (one assessor's); a line starting with #
// is a comment; no blank line; a document judged twice in a group, or a
// relevance past effort.MaxTrecRelevance, is refused.
func OpenTrecEvalQrelsJG(path string) (*TrecEvalQrels, error) {
	r, closeFn, name, err := openNamed(path)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	type line struct {
		jg string
		j  effort.TrecJudgment
		n  int
	}
	byTopic := map[string][]line{}
	q := &TrecEvalQrels{File: name, Judged: map[string][]effort.TrecJudgment{}, Groups: map[string][][]effort.TrecJudgment{}}
	var a arena
	var fs [][]byte
	var cm trecComments
	err = trecLines(name, r, func(n int, b []byte) error {
		if skip, err := cm.line(name, n, b); skip || err != nil {
			return err
		}
		fs = cFields(fs, b)
		if len(fs) != 4 {
			return errorf(name, n, "%d columns, want 4: topic group document relevance (trec_eval: Malformed line)", len(fs))
		}
		rel, err := trecRelevance(name, n, fs[3])
		if err != nil {
			return err
		}
		topic := string(fs[0])
		if _, ok := byTopic[topic]; !ok {
			topic = a.str(fs[0])
			q.IDs = append(q.IDs, topic)
		}
		byTopic[topic] = append(byTopic[topic], line{a.str(fs[1]), effort.TrecJudgment{Docno: a.str(fs[2]), Rel: rel}, n})
		return nil
	})
	if err == nil {
		err = cm.end(name)
	}
	if err != nil {
		return nil, err
	}
	if len(q.IDs) == 0 {
		return nil, &Error{File: name, Err: errors.New("no judgment (trec_eval: Cannot read qrels file)")}
	}
	slices.Sort(q.IDs)
	for _, id := range q.IDs {
		ls := byTopic[id]
		slices.SortStableFunc(ls, func(x, y line) int {
			if c := strings.Compare(x.jg, y.jg); c != 0 {
				return c
			}
			return strings.Compare(x.j.Docno, y.j.Docno)
		})
		var groups [][]effort.TrecJudgment
		for i, l := range ls {
			switch {
			case i == 0 || l.jg != ls[i-1].jg:
				groups = append(groups, nil)
			case l.j.Docno == ls[i-1].j.Docno:
				return nil, errorf(name, l.n, "topic %s, group %s: document %s judged twice (trec_eval: duplicate docs)", id, l.jg, l.j.Docno)
			}
			groups[len(groups)-1] = append(groups[len(groups)-1], l.j)
		}
		q.Groups[id] = groups
	}
	return q, nil
}

// NumRelAbove0 counts the judgments above 0 of every topic and judgment
// group: num_rel's summary under -c (effort.TrecCompleteNumRel).
func (q *TrecEvalQrels) NumRelAbove0() int {
	n := 0
	count := func(js []effort.TrecJudgment) {
		for _, j := range js {
			if j.Rel > 0 {
				n++
			}
		}
	}
	for _, js := range q.Judged {
		count(js)
	}
	for _, gs := range q.Groups {
		for _, js := range gs {
			count(js)
		}
	}
	return n
}

// TrecEvalRun is a TREC run as trec_eval reads it.
type TrecEvalRun struct {
	File string
	// RunID is the last line's run id (trec_eval prints it).
	RunID string
	// Docs are each topic's documents with their scores, in line order.
	Docs map[string][]effort.TrecDoc
	// Lines is the number of results read.
	Lines int
}

// isCSpace is C's isspace.
func isCSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// cFields splits b at C white space into dst.
func cFields(dst [][]byte, b []byte) [][]byte {
	dst = dst[:0]
	i := 0
	for i < len(b) {
		for i < len(b) && isCSpace(b[i]) {
			i++
		}
		j := i
		for j < len(b) && !isCSpace(b[j]) {
			j++
		}
		if j > i {
			dst = append(dst, b[i:j])
		}
		i = j
	}
	return dst
}

// arena holds the text of many short strings in large blocks, so that a
// run of millions of lines costs its documents' bytes and no more.
type arena struct {
	block []byte
}

func (a *arena) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(a.block)+len(b) > cap(a.block) {
		a.block = make([]byte, 0, max(1<<20, len(b)))
	}
	n := len(a.block)
	a.block = append(a.block, b...)
	s := a.block[n:]
	return unsafe.String(&s[0], len(s))
}

// trecLines calls line with each line of the file r (without its end of
// line) and its number, stopping at the first error.
func trecLines(name string, r io.Reader, line func(n int, b []byte) error) error {
	br := bufio.NewReaderSize(r, 1<<20)
	n := 0
	for {
		b, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long := append([]byte(nil), b...)
			for errors.Is(err, bufio.ErrBufferFull) {
				if len(long) > MaxLineBytes {
					return errorf(name, n+1, "line longer than %d bytes", MaxLineBytes)
				}
				b, err = br.ReadSlice('\n')
				long = append(long, b...)
			}
			b = long
		}
		if len(b) > 0 {
			n++
			if b[len(b)-1] == '\n' {
				b = b[:len(b)-1]
			}
			if lerr := line(n, b); lerr != nil {
				return lerr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return &Error{File: name, Err: err}
		}
	}
}

// openNamed opens path as open does, with the name its errors give it
// ("standard input" for "-").
func openNamed(path string) (io.Reader, func() error, string, error) {
	r, closeFn, err := openDecoded(path)
	if path == Stdin {
		path = "standard input"
	}
	return r, closeFn, path, err
}

// openDecoded opens path as open does and decodes it as every text input is
// (Decode: gzip, a UTF-8 byte-order mark dropped, UTF-16/32 refused).
func openDecoded(path string) (io.Reader, func() error, error) {
	r, closeFn, err := open(path)
	if err != nil {
		return nil, nil, err
	}
	br, err := Decode(displayName(path), r, 0)
	if err != nil {
		closeFn()
		return nil, nil, err
	}
	return br, closeFn, nil
}

// OpenTrecEvalQrels reads TREC qrels ("-": standard input) as trec_eval
// does: a line is "topic iteration document relevance", the relevance an
// integer (C's atol: "2.7" is 2, "x" is 0; negative: in the pool but not
// judged); a line starting with # is a comment. Unlike trec_eval, which
// gives only the count of lines before, every refusal names the line: a
// blank line, a line of other than 4 columns, an empty file.
func OpenTrecEvalQrels(path string) (*TrecEvalQrels, error) {
	var parts []qrelsPart
	name := path
	if f, size, ok := plainFile(path); ok {
		defer f.Close()
		if bounds := chunkBounds(f, size, runtime.GOMAXPROCS(0)); len(bounds) > 2 {
			parts = make([]qrelsPart, len(bounds)-1)
			var wg sync.WaitGroup
			for i := range parts {
				wg.Add(1)
				go func() {
					defer wg.Done()
					parts[i] = readQrelsPart(path, io.NewSectionReader(f, bounds[i], bounds[i+1]-bounds[i]))
				}()
			}
			wg.Wait()
		}
	}
	if parts == nil {
		r, closeFn, n, err := openNamed(path)
		if err != nil {
			return nil, err
		}
		defer closeFn()
		name = n
		parts = []qrelsPart{readQrelsPart(name, r)}
	}
	q := &TrecEvalQrels{File: name, Judged: map[string][]effort.TrecJudgment{}}
	lines := 0
	for i, p := range parts {
		if p.err == nil && i > 0 && p.firstComment && parts[i-1].comments.last {
			p.err, p.errLine = errorf(name, 1, "%s", errCommentAfterComment), 1
		}
		if p.err == nil && i == len(parts)-1 {
			p.err = p.comments.end(name)
			p.errLine = p.comments.n
		}
		if p.err != nil {
			if ie, ok := p.err.(*Error); ok && p.errLine > 0 {
				ie.Line = lines + p.errLine
			}
			return nil, p.err
		}
		lines += p.lines
		for _, id := range p.ids {
			if _, ok := q.Judged[id]; !ok {
				q.IDs = append(q.IDs, id)
			}
			q.Judged[id] = append(q.Judged[id], p.judged[id]...)
		}
	}
	if len(q.IDs) == 0 {
		return nil, &Error{File: name, Err: errors.New("no judgment (trec_eval: Cannot read qrels file)")}
	}
	slices.Sort(q.IDs)
	for _, js := range q.Judged {
		slices.SortStableFunc(js, func(x, y effort.TrecJudgment) int { return strings.Compare(x.Docno, y.Docno) })
	}
	return q, nil
}

// qrelsPart is what reading a part of a qrels file found.
type qrelsPart struct {
	ids     []string // in order of first appearance
	judged  map[string][]effort.TrecJudgment
	lines   int
	err     error
	errLine int // the line of err within the part
	// comments: whether the part's last line read is a comment; whether
	// its first is
	comments     trecComments
	firstComment bool
}

// readQrelsPart reads the judgment lines of r (OpenTrecEvalQrels).
func readQrelsPart(name string, r io.Reader) qrelsPart {
	p := qrelsPart{judged: map[string][]effort.TrecJudgment{}}
	var a arena
	var cur string
	var js []effort.TrecJudgment
	p.err = trecLines(name, r, func(n int, b []byte) error {
		p.lines = n
		skip, err := p.comments.line(name, n, b)
		if n == 1 {
			p.firstComment = skip
		}
		if err != nil {
			p.errLine = n
			return err
		}
		if skip {
			return nil
		}
		fs, k := fourColumns(b)
		if k != 4 {
			p.errLine = n
			if k == 0 {
				return errorf(name, n, "a blank line: trec_eval refuses it (Malformed line); want topic iteration document relevance")
			}
			return errorf(name, n, "%d columns, want 4: topic iteration document relevance (trec_eval: Malformed line)", k)
		}
		if js == nil || string(fs[0]) != cur {
			if js != nil {
				p.judged[cur] = js
			}
			var ok bool
			if js, ok = p.judged[string(fs[0])]; ok {
				cur = string(fs[0])
			} else {
				cur = a.str(fs[0])
				p.ids = append(p.ids, cur)
				js = make([]effort.TrecJudgment, 0, 64)
			}
		}
		rel, err := trecRelevance(name, n, fs[3])
		if err != nil {
			p.errLine = n
			return err
		}
		js = append(js, effort.TrecJudgment{Docno: a.str(fs[2]), Rel: rel})
		return nil
	})
	if js != nil {
		p.judged[cur] = js
	}
	return p
}

// errCommentAfterComment is the refusal of a comment line right after
// another (trecComments).
const errCommentAfterComment = "a comment right after a comment: trec_eval 10.0 skips one # line at a time and reads the next as a judgment (Malformed line, or a topic named #); keep one # line, or put a judgment between them"

// trecComments follows the comment lines of judgments as trec_eval 10.0
// reads them: a line starting with # is skipped, but only one at a time
// (trec_eval then reads the next line as a judgment, whatever it holds),
// and not as the file's last line (trec_eval then reads past the end of
// its buffer and crashes). readsim refuses those two rather than guess.
type trecComments struct {
	last bool // the last line read is a comment
	n    int  // its line
}

// line tells whether line n, b, is a comment to skip, refusing one that
// comes right after another.
func (c *trecComments) line(name string, n int, b []byte) (skip bool, err error) {
	isComment := len(b) > 0 && b[0] == '#'
	if isComment && c.last {
		return true, errorf(name, n, "%s", errCommentAfterComment)
	}
	c.last, c.n = isComment, n
	return isComment, nil
}

// end refuses a file whose last line is a comment.
func (c *trecComments) end(name string) error {
	if c.last {
		return errorf(name, c.n, "the file ends with a comment: trec_eval 10.0 then reads past the end of the file (it crashes); end it with a judgment")
	}
	return nil
}

// fourColumns finds the columns of a judgment line by their offsets: the
// first four, and how many there are (5 for more than 4).
func fourColumns(b []byte) (cols [4][]byte, k int) {
	i := 0
	for k < 5 {
		for i < len(b) && cSpace[b[i]] {
			i++
		}
		if i == len(b) {
			break
		}
		j := i
		for j < len(b) && !cSpace[b[j]] {
			j++
		}
		if k < 4 {
			cols[k] = b[i:j]
		}
		k++
		i = j
	}
	return cols, k
}

// cSpace is C's isspace as a table.
var cSpace = [256]bool{' ': true, '\t': true, '\n': true, '\v': true, '\f': true, '\r': true}

// runFields are the columns of a run line that trec_eval reads: topic,
// document, score and run id.
type runFields struct{ topic, doc, score, id []byte }

// trecRunLine reads line n, b, of a run into f; skip for a blank line or
// a comment. It finds the columns by their offsets, without a slice of
// fields: it is the inner loop of reading a run.
func trecRunLine(name string, n int, b []byte, f *runFields) (skip bool, err error) {
	i := 0
	for i < len(b) && cSpace[b[i]] {
		i++
	}
	if i == len(b) || b[i] == '#' {
		return true, nil
	}
	var cols [6][]byte
	k := 0
	for k < 6 && i < len(b) {
		j := i
		for j < len(b) && !cSpace[b[j]] {
			j++
		}
		cols[k] = b[i:j]
		k++
		for j < len(b) && cSpace[b[j]] {
			j++
		}
		i = j
	}
	if k < 6 {
		return false, errorf(name, n, "%d columns, want 6: topic iteration document rank score run-id (trec_eval: Malformed line)", k)
	}
	f.topic, f.doc, f.score, f.id = cols[0], cols[2], cols[4], cols[5]
	return false, nil
}

// OpenTrecEvalRun reads a TREC run ("-": standard input) as trec_eval does:
// a line is "topic iteration document rank score run-id", more columns
// ignored; the rank is not read (trec_eval ranks by score), the score is
// C's atof of its column ("12abc" is 12, "x" is 0); blank lines and lines
// whose first non-blank character is # are skipped. The run id is the last
// line's.
func OpenTrecEvalRun(path string) (*TrecEvalRun, error) {
	r, closeFn, name, err := openNamed(path)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	run := &TrecEvalRun{File: name, Docs: map[string][]effort.TrecDoc{}}
	var a arena
	var fs runFields
	var lastID []byte
	var cur string
	var docs []effort.TrecDoc
	flush := func() {
		if docs != nil {
			run.Docs[cur] = docs
		}
	}
	err = trecLines(name, r, func(n int, b []byte) error {
		if skip, err := trecRunLine(name, n, b, &fs); skip || err != nil {
			return err
		}
		if docs == nil || string(fs.topic) != cur {
			flush()
			if prev, ok := run.Docs[string(fs.topic)]; ok {
				cur, docs = string(fs.topic), prev
			} else {
				cur, docs = a.str(fs.topic), make([]effort.TrecDoc, 0, max(16, len(docs)))
			}
		}
		docs = append(docs, effort.TrecDoc{Docno: a.str(fs.doc), Sim: cAtofBytes(fs.score)})
		lastID = append(lastID[:0], fs.id...)
		run.Lines++
		return nil
	})
	if err != nil {
		return nil, err
	}
	flush()
	if run.Lines == 0 {
		return nil, &Error{File: name, Err: errors.New("no result (trec_eval: Cannot read results file)")}
	}
	run.RunID = string(lastID)
	return run, nil
}

// cAtol is C's atol of b.
func cAtol(b []byte) int {
	i, neg := 0, false
	for i < len(b) && isCSpace(b[i]) {
		i++
	}
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	n := 0
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		if n < 1<<40 {
			n = n*10 + int(b[i]-'0')
		}
	}
	if neg {
		return -n
	}
	return n
}

// trecRelevance is the relevance of line n, b, read as trec_eval reads it
// (C's atol), refused past effort.MaxTrecRelevance: the measures keep a
// count per level, and a level of millions would cost megabytes a topic.
func trecRelevance(name string, n int, b []byte) (int, error) {
	rel := cAtol(b)
	if rel > effort.MaxTrecRelevance {
		return 0, errorf(name, n, "relevance %s is past %d, the highest level readsim reads", b, effort.MaxTrecRelevance)
	}
	return rel, nil
}

// cAtofBytes is C's atof of b: a plain decimal number fast, anything else
// through effort.CAtofPrefix.
func cAtofBytes(b []byte) float64 {
	if v, ok := parseFloat(b); ok {
		return v
	}
	return effort.CAtofPrefix(string(b))
}
