package inex

import (
	"os"
	"path/filepath"
	"testing"
)

// A -Z file is read as trec_eval's get_zscores.c reads it: four fields
// separated by any C white space (tabs, runs of blanks, a CR before the
// newline), blanks before the first, no newline needed after the last.
func TestOpenTrecZscores(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       TrecZscores
	}{
		{"spaces", "1 map 0.5 0.1\n", TrecZscores{"1": {"map": {0.5, 0.1}}}},
		{"tabs, CR, blanks around", "  1\tmap\t0.5\t0.1  \r\n010 P_5 .25e0 0\r\n",
			TrecZscores{"1": {"map": {0.5, 0.1}}, "010": {"P_5": {0.25, 0}}}},
		{"no final newline, negative mean", "A7 yaap -1.5 2", TrecZscores{"A7": {"yaap": {-1.5, 2}}}},
		{"two measures of a topic", "2 map 0.1 0.2\n2 Rprec 0.3 0.4\n",
			TrecZscores{"2": {"map": {0.1, 0.2}, "Rprec": {0.3, 0.4}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "z")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := OpenTrecZscores(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d topics, want %d: %v", len(got), len(tc.want), got)
			}
			for topic, ms := range tc.want {
				if len(got[topic]) != len(ms) {
					t.Errorf("topic %s: %v, want %v", topic, got[topic], ms)
				}
				for m, z := range ms {
					if got[topic][m] != z {
						t.Errorf("topic %s %s: %v, want %v", topic, m, got[topic][m], z)
					}
				}
			}
		})
	}
}
