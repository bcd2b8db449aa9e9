package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A simulated reader's trace, read back as a reading: eval --readings gives
// the replay's own AgP\T2Ip(300) as AgP\Read; calibrate recovers the reader
// (tolerance 300, screen 300, natural order) in its JSON; compare takes
// readings as it takes runs.
func TestReadingsCommands(t *testing.T) {
	qrels, run := "../../corpus-sample/judgments.qrels", "../../corpus-sample/runs/ric.fol"
	dir := t.TempDir()
	trace := filepath.Join(dir, "p1.jsonl")
	if status, _, stderr := runCLI("replay", "--qrels", qrels, "--run", run, "--t2i", "300", "--out", trace); status != 0 {
		t.Fatal(stderr)
	}
	value := func(args ...string) float64 {
		status, stdout, stderr := runCLI(args...)
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		f := strings.Split(lines[len(lines)-1], "\t")
		if status != 0 || len(f) != 3 {
			t.Fatalf("%v: exit %d, %q, %s", args, status, stdout, stderr)
		}
		v, _ := strconv.ParseFloat(f[2], 64)
		return v
	}
	want := value("eval", "--qrels", qrels, "-m", `AgP\T2Ip(300)`, run)
	if got := value("eval", "--qrels", qrels, "--readings", "-m", `AgP\Read`, trace); got != want || want == 0 {
		t.Errorf("AgP\\Read of the trace %v, want the run's AgP\\T2Ip(300) %v", got, want)
	}
	status, stdout, stderr := runCLI("calibrate", "--qrels", qrels, "--format", "json", "--bootstrap", "100", trace)
	if status != 0 {
		t.Fatal(stderr)
	}
	var c struct {
		T2I    float64 `json:"t2i"`
		Screen int     `json:"screen"`
		Order  string  `json:"order"`
	}
	if err := json.Unmarshal([]byte(stdout), &c); err != nil || c.T2I != 300 || c.Screen != 300 || c.Order != "natural" {
		t.Errorf("calibrate: %+v %v\n%s", c, err, stdout)
	}
	// a second reader with a larger tolerance reads more: compare them
	trace2 := filepath.Join(dir, "p2.jsonl")
	if status, _, stderr := runCLI("replay", "--qrels", qrels, "--run", run, "--t2i", "2000", "--out", trace2); status != 0 {
		t.Fatal(stderr)
	}
	status, stdout, stderr = runCLI("compare", "--qrels", qrels, "--readings", "-m", `AgP\Read`, "--format", "tsv", trace, trace2)
	if status != 0 || !strings.Contains(stdout, "AgP\\Read\treadsim-ric (") {
		t.Errorf("compare --readings: exit %d\n%s%s", status, stdout, stderr)
	}
	// Read is for readings only
	if status, _, stderr := runCLI("eval", "--qrels", qrels, "-m", `AgP\Read`, run); status != 2 || !strings.Contains(stderr, "eval --readings") {
		t.Errorf("AgP\\Read of a run: exit %d, %s", status, stderr)
	}
}

// Bad readings are refused by every command that reads them, with exit
// status 2, the file, the line and the problem, and nothing on standard
// output.
func TestBadReadings(t *testing.T) {
	dir := t.TempDir()
	qrels := filepath.Join(dir, "q")
	good := `{"ev":"topic","topic":"1","seq":1,"t":0}` + "\n" + `{"ev":"open","topic":"1","doc":"a","seq":2,"len":100,"t":10}` + "\n"
	files := map[string]string{
		"q":          "1 Q0 a 10 100 0 0:10\n",
		"good.jsonl": good + `{"ev":"read","topic":"1","doc":"a","seq":3,"from":0,"to":60,"t":20}` + "\n" + `{"ev":"done","topic":"1","seq":4,"outcome":"found","t":30}` + "\n",
		"past.jsonl": good + `{"ev":"read","topic":"1","doc":"a","seq":3,"from":5000,"to":99999999,"t":20}` + "\n",
		"jump.jsonl": good + `{"ev":"jump","topic":"1","doc":"a","seq":3,"to":101,"t":20}` + "\n",
		"dup.jsonl":  good + `{"ev":"read","topic":"1","doc":"a","seq":2,"from":0,"to":60,"t":20}` + "\n",
		"back.jsonl": good + `{"ev":"read","topic":"1","doc":"a","seq":3,"from":0,"to":60,"t":5}` + "\n",
		"nolen.jsonl": `{"ev":"topic","topic":"1","seq":1}` + "\n" + `{"ev":"open","topic":"1","doc":"a","seq":2}` + "\n" +
			`{"ev":"read","topic":"1","doc":"a","seq":3,"from":0,"to":60}` + "\n" + `{"ev":"read","topic":"1","doc":"a","seq":4,"from":60,"to":120}` + "\n",
	}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ file, want string }{
		{"past.jsonl", ":3: read [5000,99999999) of article a goes past its end: the open (line 2) gives len 100"},
		{"jump.jsonl", ":3: a jump to 101 of article a goes past its end"},
		{"dup.jsonl", ":3: seq 2 does not follow seq 2"},
		{"back.jsonl", ":3: time t 5 goes back (the previous event's is 10)"},
		{"nolen.jsonl", ":4: offset 120 is past the end of article a: 100 characters in the judgments " + qrels},
	} {
		bad := filepath.Join(dir, tc.file)
		for _, args := range [][]string{
			{"eval", "--qrels", qrels, "--readings", bad},
			{"eval", "--qrels", qrels, "--readings", "--figures", "--format", "json", bad},
			{"calibrate", "--qrels", qrels, bad},
			{"compare", "--qrels", qrels, "--readings", filepath.Join(dir, "good.jsonl"), bad},
		} {
			status, stdout, stderr := runCLI(args...)
			if status != 2 || stdout != "" || !strings.Contains(stderr, bad+tc.want) {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", args[:len(args)-1], status, stdout, stderr, bad+tc.want)
			}
		}
	}
}

// eval --readings --figures --format json writes JSON Lines only: the
// scores, then one object per article and per topic read. The reading is
// scenario's TestReadingByHand: a (60 characters read, 20 relevant, 20
// before the first relevant one, 500 ms from opening to it), b (50, none
// relevant), c (5, all relevant, 1000 ms); the topic: 115 read, 25
// relevant, 9 s, the first relevant character at 1 s, 25 / 0.15 relevant
// characters a minute.
func TestEvalFiguresJSON(t *testing.T) {
	byhand := filepath.Join("..", "..", "scenario", "testdata", "readings")
	qrels, reading := filepath.Join(byhand, "byhand.qrels"), filepath.Join(byhand, "byhand.jsonl")
	status, stdout, stderr := runCLI("eval", "--qrels", qrels, "--readings", "--figures", "--format", "json", "-m", "num_ret", reading)
	if status != 0 {
		t.Fatalf("exit %d: %s", status, stderr)
	}
	type line struct {
		Run, Measure  string
		Value         *float64
		Figures       string
		Reading       string
		Topic         string
		Rank          int
		Doc           string
		Read          int
		RelevantRead  int      `json:"relevant_read"`
		ReadPrecision float64  `json:"read_precision"`
		Before        *int     `json:"before_relevant"`
		LE            *int     `json:"LE"`
		MsToRel       *int64   `json:"ms_to_relevant"`
		Ms            *int64   `json:"ms"`
		PerMin        *float64 `json:"relevant_per_minute"`
		Outcome       string
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	var got []line
	for dec.More() {
		var l line
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("not JSON Lines: %v\n%s", err, stdout)
		}
		got = append(got, l)
	}
	if strings.Count(stdout, "\n") != len(got) || len(got) != 5 {
		t.Fatalf("%d objects on %d lines, want 5 (a score, 3 articles, 1 topic):\n%s", len(got), strings.Count(stdout, "\n"), stdout)
	}
	if l := got[0]; l.Run != "p17" || l.Measure != "num_ret" || l.Value == nil || *l.Value != 3 {
		t.Errorf("score line %+v", l)
	}
	type art struct {
		doc            string
		rank           int
		read, rel      int
		prec           float64
		before, le, ms int // -1: null
	}
	for i, w := range []art{{"a", 1, 60, 20, 1.0 / 3, 20, 1, 500}, {"b", 2, 50, 0, 0, -1, 5, -1}, {"c", 3, 5, 5, 1, 0, 1, 1000}} {
		l := got[1+i]
		opt := func(p *int) int {
			if p == nil {
				return -1
			}
			return *p
		}
		ms := -1
		if l.MsToRel != nil {
			ms = int(*l.MsToRel)
		}
		if l.Figures != "article" || l.Reading != "p17" || l.Doc != w.doc || l.Rank != w.rank || l.Read != w.read || l.RelevantRead != w.rel ||
			math.Abs(l.ReadPrecision-w.prec) > 1e-12 || opt(l.Before) != w.before || opt(l.LE) != w.le || ms != w.ms {
			t.Errorf("article %d: %+v, want %+v", i, l, w)
		}
	}
	if l := got[4]; l.Figures != "topic" || l.Topic != "1" || l.Read != 115 || l.RelevantRead != 25 || l.Ms == nil || *l.Ms != 9000 ||
		l.MsToRel == nil || *l.MsToRel != 1000 || l.PerMin == nil || math.Abs(*l.PerMin-25/0.15) > 1e-9 || l.Outcome != "found" {
		t.Errorf("topic line %+v", l)
	}
}
