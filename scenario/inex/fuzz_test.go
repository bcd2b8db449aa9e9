package inex

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzReadQrels: any input is read or refused with an *Error, never a
// panic; judgments read hold their invariants (relevant text normalised,
// passage and aspect numbers within the topic's counts).
func FuzzReadQrels(f *testing.F) {
	for _, s := range []string{folQrels, trecQrels, genomicsQrels, spanQrels, folRun, trecRun, genomicsRun,
		"q\td\t0\t5\t\n", "q d 0 5 -1 a||b\n", "1 0 12 1\n", "q 1 0 5 2 x\nq 1 9 9\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		q, err := ReadQrels("q", bytes.NewReader(b), nil)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		for _, tj := range q.Topics {
			chars, trel := 0, 0
			for _, j := range tj.Docs {
				for k, s := range j.Rel {
					if s.End <= s.Start || (k > 0 && s.Start <= j.Rel[k-1].End) {
						t.Fatalf("relevant text not normalised: %v", j.Rel)
					}
				}
				for _, g := range j.Passages {
					if g.ID < 0 || g.ID >= tj.GoldPassages {
						t.Fatalf("passage ID %d of %d", g.ID, tj.GoldPassages)
					}
					for _, a := range g.Aspects {
						if a < 0 || a >= tj.Aspects {
							t.Fatalf("aspect %d of %d", a, tj.Aspects)
						}
					}
				}
				if j.Relevant() {
					trel++
					chars += j.NRC
				}
			}
			if trel != tj.Trel || chars != tj.RelChars {
				t.Fatalf("topic %s: Trel %d (count %d), RelChars %d (sum %d)", tj.ID, tj.Trel, trel, tj.RelChars, chars)
			}
		}
	})
}

// FuzzReadRun: any text run is read or refused with an *Error, never a
// panic; a Genomics run's passages are well formed.
func FuzzReadRun(f *testing.F) {
	for _, s := range []string{folRun, trecRun, genomicsRun, genomicsQrels, spanQrels, folQrels, trecQrels,
		"200\t1\t1\t1.5\t0\t10\tr\n", "200 1 1 1 0 0 r\n200 1 1 1 0 0 r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ReadRun("r", bytes.NewReader(b), RunOptions{})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		for _, tp := range r.Topics {
			for _, p := range tp.Results {
				if r.Format == Genomics && (p.Full || p.Start < 0 || p.End < p.Start || p.End > MaxLength) {
					t.Fatalf("Genomics result %+v", p)
				}
			}
		}
	})
}

// FuzzReadLengths: lengths are read or refused with an *Error.
func FuzzReadLengths(f *testing.F) {
	for _, s := range []string{"a 100\nb 5\n", "a 1\na 2\n", "a\n", "a -1\n", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ls, err := ReadLengths("l", bytes.NewReader(b))
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		for d, n := range ls {
			if n < 0 || n > MaxLength || d == "" {
				t.Fatalf("length %q %d", d, n)
			}
		}
	})
}

var errEnough = errors.New("enough lines")

// FuzzTextLines: the one decoder reads any input as lines or refuses it
// with an *Error, never a panic; the same bytes gzip-compressed, or after
// a UTF-8 byte-order mark, give the same lines or the same refusal.
func FuzzTextLines(f *testing.F) {
	for _, s := range []string{folQrels, "a\r\nb\n\nc", "\xef\xbb\xbfx\n", "\xff\xfe1\x00", "\x00\x00\xfe\xff", "\x1f\x8b\x08", "\n\n\n"} {
		f.Add([]byte(s))
	}
	read := func(r io.Reader) ([]string, error) {
		var out []string
		err := TextLines("t", r, func(_ int, b []byte) error {
			if len(out) == 1000 {
				return errEnough // a small gzip input may hold a MiB of lines
			}
			out = append(out, string(b))
			return nil
		})
		if err == errEnough {
			err = nil
		}
		return out, err
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		plain, err := read(bytes.NewReader(b))
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
		}
		if len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b {
			return // gzip already: compressing it again reads it as text
		}
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(b)
		zw.Close()
		for name, in := range map[string][]byte{"gzip": z.Bytes(), "BOM": append([]byte("\xef\xbb\xbf"), b...)} {
			if name == "BOM" && bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
				continue // one BOM is dropped, a second one is text
			}
			got, gerr := read(bytes.NewReader(in))
			if (err == nil) != (gerr == nil) || !slices.Equal(got, plain) {
				t.Fatalf("%s: %q, %v; plain %q, %v", name, got, gerr, plain, err)
			}
		}
	})
}

// FuzzReadTopics: any topic file is read or refused with an *Error, never
// a panic; the topics read have distinct non-empty ids without white space
// or NUL, in UTF-8, and a UTF-8 byte-order mark before the file changes
// none of them.
func FuzzReadTopics(f *testing.F) {
	for _, s := range []string{"1 a\n2 b c\n", "# c\n\n3 x\n", "\xef\xbb\xbf4 y\n",
		`<inex-topic-file><topic id="2009001" ct_no="1"><title>a b</title><castitle>//article[about(., a)]</castitle></topic></inex-topic-file>`,
		`<?xml version="1.0" encoding="iso-8859-1"?><inex-topic-file><topic id="3"><title>caf` + "\xe9" + `</title></topic></inex-topic-file>`,
		`<!DOCTYPE inex-topic-file [<!ENTITY a "&b;"><!ENTITY b "x">]><inex-topic-file><topic id="1"><title>&a;</title></topic></inex-topic-file>`,
		`<x><inex_topic topic_id="2"><title>t</title></inex_topic></x>`, "<parameters><query/></parameters>"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ts, err := ReadTopics(b, "t")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
		}
		seen := map[string]bool{}
		for _, tp := range ts {
			if tp.ID == "" || seen[tp.ID] || strings.ContainsAny(tp.ID, " \t\r\n\x00") || !utf8.ValidString(tp.ID) {
				t.Fatalf("topic id %q", tp.ID)
			}
			seen[tp.ID] = true
		}
		if bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
			return
		}
		got, gerr := ReadTopics(append([]byte("\xef\xbb\xbf"), b...), "t")
		if (err == nil) != (gerr == nil) || len(got) != len(ts) {
			t.Fatalf("with a BOM: %d topics, %v; without: %d, %v", len(got), gerr, len(ts), err)
		}
		for i := range got {
			if got[i].ID != ts[i].ID {
				t.Fatalf("with a BOM: topic %q, without %q", got[i].ID, ts[i].ID)
			}
		}
	})
}

// FuzzQrelsStream: judgments read a topic at a time are those ReadQrels
// reads, topic by topic, or the same error (ErrNotGrouped aside, when
// ReadQrels reads topics that are not together); never a panic.
func FuzzQrelsStream(f *testing.F) {
	for _, s := range []string{folQrels, trecQrels, "1 0 a 1\n2 0 a 1\n1 0 b 1\n", "1 0 a 1\n\n1 0 b x\n", "q 0 d -3\nq 0 e 2\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		path := t.TempDir() + "/q"
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		whole, werr := ReadQrels(path, bytes.NewReader(b), nil)
		st, err := OpenQrelsStream(path, nil)
		var differs []string // topics streamed unlike those read whole
		for err == nil && st.Streams() {
			var j *TopicJudgments
			if j, err = st.Next(); j == nil {
				break
			}
			if werr != nil {
				continue // whole reading failed: the errors are compared below
			}
			w := whole.Topics[j.ID]
			if w == nil || len(w.Docs) != len(j.Docs) || w.Trel != j.Trel || w.RelChars != j.RelChars || !slices.Equal(w.Ideal, j.Ideal) {
				differs = append(differs, j.ID)
			}
		}
		switch {
		case errors.Is(err, ErrNotGrouped):
		case len(differs) > 0:
			t.Fatalf("topics %q streamed differ from those read whole", differs)
		case (err == nil) != (werr == nil):
			t.Fatalf("streamed error %v, whole %v", err, werr)
		case err != nil && err.Error() != werr.Error():
			t.Fatalf("streamed error %v, whole %v", err, werr)
		}
		if st != nil {
			st.Close()
		}
	})
}
