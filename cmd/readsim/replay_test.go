package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readsim/readsim/internal/cli"
)

// simFiles writes the tiny judgments and run of the hand-derived trace (see
// scenario's TestTraceByHand) plus a second topic, and returns their paths.
// Topic 1: a (1,000 characters, relevant [500,510), retrieved [200,300)), c
// (unjudged) and b (judged non-relevant). Topic 2: d (100 characters,
// relevant [0,50), retrieved [0,50)).
func simFiles(t *testing.T) (qrels, run string) {
	dir := t.TempDir()
	qrels, run = filepath.Join(dir, "t.qrels"), filepath.Join(dir, "t.fol")
	mustWriteFile(t, qrels, "1 Q0 a 10 1000 100 500:10\n1 Q0 b 0 400 100\n2 Q0 d 50 100 0 0:50\n")
	mustWriteFile(t, run, "1 Q0 a 1 1.0 r 200 100\n1 Q0 c 2 0.5 r 50 100\n1 Q0 b 3 0.3 r 100 100\n2 Q0 d 1 1.0 r 0 50\n")
	return qrels, run
}

func TestReplayCommand(t *testing.T) {
	qrels, run := simFiles(t)
	out := filepath.Join(t.TempDir(), "trace.jsonl")
	// a's results apart (b between them), and two results of a that overlap
	interleaved, overlapping := filepath.Join(t.TempDir(), "il.fol"), filepath.Join(t.TempDir(), "ov.fol")
	mustWriteFile(t, interleaved, "1 Q0 a 1 1.0 r 200 100\n1 Q0 b 2 0.5 r 50 100\n1 Q0 a 3 0.3 r 600 100\n")
	mustWriteFile(t, overlapping, "1 Q0 a 1 1.0 r 200 100\n1 Q0 a 2 0.5 r 250 100\n")
	cases := []struct {
		name   string
		args   []string
		status int
		lines  int    // JSON lines on stdout (or in --out)
		first  string // first line
		errHas string
	}{
		// 26 events for topic 1 (hand-derived in scenario); topic 2: topic,
		// open, read [0,100) (50 relevant then 50 not, contiguous and within
		// one screen: one event), stop, score, done.
		{"all", []string{"--qrels", qrels, "--run", run, "--t2i", "501"}, 0, 26 + 6, `{"ev":"topic","topic":"1","rank":0,"doc":"","seq":1,"trel":1,"run":"r"}`, ""},
		{"one topic, flags after", []string{"--qrels", qrels, "--topic", "2", "--run", run}, 0, 6, `{"ev":"topic","topic":"2","rank":0,"doc":"","seq":1,"trel":1,"run":"r"}`, ""},
		{"out file", []string{"--qrels", qrels, "--run", run, "--t2i", "501", "--out", out}, 0, 32, "", ""},
		{"unknown topic", []string{"--qrels", qrels, "--run", run, "--topic", "9"}, 2, 0, "", "topic 9"},
		{"no run", []string{"--qrels", qrels}, 2, 0, "", "--run is required"},
		{"bad order", []string{"--qrels", qrels, "--run", run, "--order", "sideways"}, 2, 0, "", "sideways"},
		{"missing file", []string{"--qrels", qrels, "--run", run + ".missing"}, 2, 0, "", ".missing"},
		{"focused measure", []string{"--qrels", qrels, "--run", run, "-m", "iP[0.01]"}, 2, 0, "", "focused"},
		{"interleaved", []string{"--qrels", qrels, "--run", interleaved}, 2, 0, "", "reappears at line 3"},
		{"overlapping", []string{"--qrels", qrels, "--run", overlapping}, 2, 0, "", "overlaps the one at line 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, stdout, stderr := runCLI(append([]string{"replay"}, c.args...)...)
			if status != c.status {
				t.Fatalf("status %d, want %d; stderr: %s", status, c.status, stderr)
			}
			if c.errHas != "" && !strings.Contains(stderr, c.errHas) {
				t.Errorf("stderr %q lacks %q", stderr, c.errHas)
			}
			if c.status != 0 {
				return
			}
			text := stdout
			if strings.Contains(strings.Join(c.args, " "), "--out") {
				if stdout != "" {
					t.Errorf("stdout not empty with --out: %q", stdout)
				}
				b, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				text = string(b)
			}
			lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
			if len(lines) != c.lines {
				t.Errorf("%d lines, want %d", len(lines), c.lines)
			}
			if c.first != "" && lines[0] != c.first {
				t.Errorf("first line %s, want %s", lines[0], c.first)
			}
			for _, l := range lines {
				var m map[string]any
				if err := json.Unmarshal([]byte(l), &m); err != nil {
					t.Fatalf("not JSON: %s", l)
				}
			}
			if stderr != "" {
				t.Errorf("stderr not empty (no terminal, no bar): %q", stderr)
			}
		})
	}
	// --group opens a once with both its passages (in document order), at
	// its first appearance; --merge-overlaps reads [200,300) ∪ [250,350) as
	// one passage.
	for _, c := range []struct{ run, flag, open string }{
		{interleaved, "--group", `"doc":"a","seq":2,"len":1000,"nrc":10,"passages":[[200,300],[600,700]]}`},
		{overlapping, "--merge-overlaps", `"doc":"a","seq":2,"len":1000,"nrc":10,"passages":[[200,350]]}`},
	} {
		status, stdout, stderr := runCLI("replay", "--qrels", qrels, "--run", c.run, c.flag)
		if status != 0 || !strings.Contains(stdout, c.open) {
			t.Errorf("%s: status %d, stderr %q; trace lacks %s:\n%s", c.flag, status, stderr, c.open, stdout)
		}
	}
	// Topic 2 under the document baseline with the default reader (no T2I):
	// d is read from 0 in one screen: [0,50) relevant then [50,100).
	_, stdout, _ := runCLI("replay", "--qrels", qrels, "--run", run, "--topic", "2", "--doc-baseline")
	if !strings.Contains(stdout, `"ev":"read","topic":"2","rank":1,"doc":"d","seq":3,"from":0,"to":100,"rel":50,"nonrel":50,"screen":1}`) {
		t.Errorf("baseline trace of topic 2:\n%s", stdout)
	}
	// A result past its article's end (d has 100 characters; line 2 reads
	// [90,110)) is clipped with eval's warning.
	// A missing file is named once, with the cause.
	status, _, stderr := runCLI("replay", "--qrels", qrels, "--run", run+".missing")
	if status != 2 || strings.Count(stderr, run+".missing") != 1 || !strings.Contains(stderr, "no such file") {
		t.Errorf("missing run: status %d, stderr %q", status, stderr)
	}
	clip := filepath.Join(t.TempDir(), "clip.fol")
	mustWriteFile(t, clip, "2 Q0 d 1 1.0 r 0 10\n2 Q0 d 2 0.5 r 90 20\n")
	status, _, stderr = runCLI("replay", "--qrels", qrels, "--run", clip)
	if want := clip + ":2: warning: 1 result(s) run past their article's end"; status != 0 || !strings.Contains(stderr, want) {
		t.Errorf("status %d, stderr %q, want 0 and %q", status, stderr, want)
	}
}

// TestReplayProgressBar: with a terminal on stderr a bar is drawn there,
// never on stdout.
func TestReplayProgressBar(t *testing.T) {
	qrels, run := simFiles(t)
	var o, e strings.Builder
	if s := program.Run(&cli.Env{Stdout: &o, Stderr: &e, StderrIsTerminal: true}, []string{"replay", "--qrels", qrels, "--run", run}); s != 0 {
		t.Fatalf("status %d: %s", s, e.String())
	}
	if e.Len() == 0 || !strings.HasPrefix(o.String(), `{"ev":"topic"`) {
		t.Errorf("stderr %q, stdout starts %q", e.String(), o.String()[:min(40, o.Len())])
	}
}
