package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckInputs(t *testing.T) {
	for _, tc := range []struct {
		paths []string
		ok    bool
	}{
		{[]string{"q", "a.run", "b.run"}, true},
		{[]string{"-", "a.run"}, true},
		{[]string{"q", "-"}, true},
		{[]string{"q", "-", "-"}, false},
		{[]string{"-", "a.run", "-"}, false},
	} {
		err := CheckInputs(tc.paths)
		if (err == nil) != tc.ok {
			t.Errorf("%v: %v, want ok %v", tc.paths, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "standard input (-) given twice") {
			t.Errorf("%v: %v", tc.paths, err)
		}
	}
}

// An output that is an input (by any name) is refused; a symbolic link at
// the output, which is replaced rather than followed, may point anywhere.
func TestCheckOutput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "run")
	os.WriteFile(in, []byte("x"), 0o644)
	hard := filepath.Join(dir, "hard")
	haveHard := os.Link(in, hard) == nil
	link := filepath.Join(dir, "link")
	haveLink := os.Symlink(in, link) == nil
	for _, tc := range []struct {
		name, out string
		inputs    []string
		ok        bool
		skip      bool
	}{
		{"another file", filepath.Join(dir, "out"), []string{in}, true, false},
		{"standard output", "-", []string{"-"}, true, false},
		{"no --out", "", []string{in}, true, false},
		{"the input", in, []string{"q", in}, false, false},
		{"the input written otherwise", dir + "/./run", []string{in}, false, false},
		{"a new file named as the input is", filepath.Join(dir, "new"), []string{dir + "/../" + filepath.Base(dir) + "/new"}, false, false},
		{"a hard link to the input", hard, []string{in}, false, !haveHard},
		{"an input that is a link to the output", in, []string{link}, false, !haveLink},
		{"an output that is a link to the input (replaced, not followed)", link, []string{in}, true, !haveLink},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.skip {
				t.Skip("no such links here")
			}
			err := CheckOutput(tc.out, tc.inputs...)
			if (err == nil) != tc.ok {
				t.Errorf("%v", err)
			}
			if err != nil && !strings.Contains(err.Error(), "the output is the input") {
				t.Errorf("%v", err)
			}
		})
	}
}

// Runs that share a run id are told apart by their file's name, their path
// when the names are alike, and a number when the files are.
func TestNameApart(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ids   []string
		files []string
		want  []string
		warns int
	}{
		{"distinct", []string{"a", "b"}, []string{"x/a.run", "x/b.run"}, []string{"a", "b"}, 0},
		{"one id", []string{"indri", "indri", "bm25"}, []string{"runs/int.trec", "runs/float.trec", "runs/b.trec"},
			[]string{"indri (int.trec)", "indri (float.trec)", "bm25"}, 1},
		{"one id, one file name", []string{"indri", "indri"}, []string{"a/r.trec", "b/r.trec"}, []string{"indri (a/r.trec)", "indri (b/r.trec)"}, 1},
		{"one file twice", []string{"indri", "indri"}, []string{"r.trec", "r.trec"}, []string{"indri (r.trec)", "indri (r.trec, 2)"}, 1},
		{"no run id", []string{"", ""}, []string{"a/r.xml", "b/r.xml"}, []string{"a/r.xml", "b/r.xml"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var evs []*Evaluation
			for i := range tc.ids {
				evs = append(evs, &Evaluation{RunID: tc.ids[i], File: tc.files[i]})
			}
			var warns []string
			NameApart(evs, func(s string) { warns = append(warns, s) })
			for i, e := range evs {
				if e.Name() != tc.want[i] {
					t.Errorf("run %d named %q, want %q", i, e.Name(), tc.want[i])
				}
			}
			if len(warns) != tc.warns {
				t.Errorf("warnings %q, want %d", warns, tc.warns)
			}
		})
	}
}

// The warnings of an evaluation: the judged topics a run lacks are named
// (left out of all, or scoring 0 with -c); the topics whose articles'
// scores do not fall strictly down the lines are counted when a measure
// ranks by score, since AgP and AP then see different rankings.
func TestEvalWarnings(t *testing.T) {
	// topics 1, 2, 3 judged; a relevant in each
	q := readQrels(t, "q", "1 0 a 1\n2 0 a 1\n3 0 a 1\n")
	for _, tc := range []struct {
		name, run, measures string
		allTopics           bool
		want, not           []string
	}{
		{"topic 3 missing", "1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n2 Q0 a 1 1 r\n", "map", false,
			[]string{"r: warning: 1 judged topic(s) are not in the run and are left out of `all` (with -c they score 0): 3"}, []string{"tied"}},
		{"topic 3 missing, -c", "1 Q0 a 1 2 r\n2 Q0 a 1 1 r\n", "map", true,
			[]string{"r: warning: 1 judged topic(s) are not in the run and score 0 in `all` (-c): 3"}, nil},
		{"topics 2 and 3 missing", "1 Q0 a 1 2 r\n", "RR", false,
			[]string{"2 judged topic(s) are not in the run", ": 2, 3"}, nil},
		// tied scores: AP ranks by score, gR by line, and the two differ
		{"tied scores in topic 1", "1 Q0 a 1 1 r\n1 Q0 b 2 1 r\n2 Q0 a 1 1 r\n3 Q0 a 1 1 r\n", "map gR[5]", false,
			[]string{"r: warning: in 1 topic(s) the articles' scores do not fall strictly down the run's lines", "rankings differ there: 1"}, []string{"judged topic"}},
		// the same run asked TREC measures only: one ranking, nothing to say
		// (issue 28: no word of INEX line order unless an INEX measure is asked)
		{"tied scores, TREC measures only", "1 Q0 a 1 1 r\n1 Q0 b 2 1 r\n2 Q0 a 1 1 r\n3 Q0 a 1 1 r\n", "map P_10 ndcg recip_rank", false, nil, []string{"warning"}},
		// a tie that trec_eval breaks in line order (b before a): one ranking
		{"tie in id order", "1 Q0 b 1 1 r\n1 Q0 a 2 1 r\n2 Q0 a 1 1 r\n3 Q0 a 1 1 r\n", "map gR[5]", false, nil, []string{"warning"}},
		{"rising scores in topics 1 and 2", "1 Q0 a 1 1 r\n1 Q0 b 2 2 r\n2 Q0 a 1 1 r\n2 Q0 b 2 5 r\n3 Q0 a 1 1 r\n", "P_10 gR[5]", false,
			[]string{"in 2 topic(s)", "differ there: 1, 2"}, nil},
		// no measure ranks by score: nothing to say
		{"tied scores, counts only", "1 Q0 a 1 1 r\n1 Q0 b 2 1 r\n2 Q0 a 1 1 r\n3 Q0 a 1 1 r\n", "num_ret", false, nil, []string{"warning"}},
		// a TREC run whose rank column disagrees with its lines: the reader's
		// warning is given only when a measure ranks by line order
		{"rank disagrees, map", "1 Q0 a 2 2 r\n1 Q0 b 1 1 r\n2 Q0 a 1 1 r\n3 Q0 a 1 1 r\n", "map", false, nil, []string{"warning"}},
		{"rank disagrees, AgP", "1 Q0 a 2 2 r\n1 Q0 b 1 1 r\n2 Q0 a 1 1 r\n3 Q0 a 1 1 r\n", "map gR[5]", false,
			[]string{"r:2: warning: rank or rsv disagrees with the line order"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := mustRun(t, tc.run)
			var warns []string
			ms := mustMeasures(t, strings.Fields(tc.measures)...)
			if _, err := Evaluate(q, run, EvalOptions{Measures: ms, AllTopics: tc.allTopics, Warn: func(s string) { warns = append(warns, s) }}, 1); err != nil {
				t.Fatal(err)
			}
			all := strings.Join(warns, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("warnings %q lack %q", warns, w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(all, w) {
					t.Errorf("warnings %q hold %q", warns, w)
				}
			}
		})
	}
}
