package effort

import (
	"math"
	"strings"
	"testing"
)

// trecPrefsOf parses "group/subgroup/document:level" fields.
func trecPrefsOf(s string) []TrecPref {
	var ps []TrecPref
	for _, f := range strings.Fields(s) {
		parts := strings.SplitN(f, "/", 3)
		doc, lvl, _ := strings.Cut(parts[2], ":")
		ps = append(ps, TrecPref{JG: parts[0], JSG: parts[1], Docno: doc, Level: cAtof(lvl)})
	}
	return ps
}

// Values worked out by hand from trec_eval's definitions (its
// form_prefs_counts.c and m_prefs_*.c): a preference A > B of a group is
// fulfilled among the retrieved documents when both are retrieved and A
// first, fulfilled by implication when only A is retrieved, failed when
// only B is; "notoccur" when neither is. Retrieved documents are ranked by
// score, equal scores by name increasing.
func TestTrecPrefsByHand(t *testing.T) {
	for _, tc := range []struct {
		name  string
		prefs string
		docs  string
		max   int
		want  map[string]float64
	}{
		{
			// a > b (both retrieved, b first: failed), a > c and b > c
			// (c not retrieved: fulfilled by implication).
			name: "one group of levels", prefs: "g/s/a:2 g/s/b:1 g/s/c:0", docs: "b:3 x:2 a:1",
			want: map[string]float64{
				"num_q": 1, "prefs_num_prefs_poss": 3, "prefs_num_prefs_ful": 2, "prefs_num_prefs_ful_ret": 0,
				"prefs_simp": 2.0 / 3, "prefs_simp_ret": 0, "prefs_simp_imp": 2.0 / 3,
				"prefs_avgjg": 2.0 / 3, "prefs_avgjg_ret": 0, "prefs_avgjg_imp": 2.0 / 3,
				// pairs (b,a): 0 of 1; (b,c), (a,c): 1 of 1
				"prefs_pair": 2.0 / 3, "prefs_pair_ret": 0, "prefs_pair_imp": 2.0 / 3,
				// R=2 relevant, N=1 non-relevant: R-N=1 more non-relevant
				// document, preferred to by the 2 relevant retrieved
				// ((2+2)/(3+2)); _ret: R=2 retrieved, N=0 ((0+4)/(1+4))
				"prefs_avgjg_Rnonrel": 0.8, "prefs_avgjg_Rnonrel_ret": 0.8,
			},
		},
		{
			// -M 1 keeps b: a > b failed by implication, b > c fulfilled
			// by implication, a > c not occurring.
			name: "cut to one document", prefs: "g/s/a:2 g/s/b:1 g/s/c:0", docs: "b:3 x:2 a:1", max: 1,
			want: map[string]float64{
				"prefs_num_prefs_poss": 3, "prefs_num_prefs_ful": 1, "prefs_num_prefs_ful_ret": 0,
				"prefs_simp": 1.0 / 3, "prefs_simp_ret": 0, "prefs_simp_imp": 0.5,
				"prefs_pair": 1.0 / 3, "prefs_pair_imp": 0.5,
			},
		},
		{
			// two groups in conflict, tied scores: a before b (names
			// increasing), g1's a > b fulfilled, g2's b > a failed
			name: "groups in conflict", prefs: "g1/s/a:1 g1/s/b:0 g2/s/b:1 g2/s/a:0", docs: "b:1 a:1",
			want: map[string]float64{
				"prefs_num_prefs_poss": 2, "prefs_num_prefs_ful": 1, "prefs_num_prefs_ful_ret": 1,
				"prefs_simp": 0.5, "prefs_pair": 0.5, "prefs_avgjg": 0.5, "prefs_simp_ret": 0.5,
				// g1: 1/1, g2: 0/1
				"prefs_avgjg_Rnonrel": 0.5, "prefs_avgjg_Rnonrel_ret": 0.5,
			},
		},
		{
			// subgroups a > b and b > c: closed by transitivity (a > c).
			// Ranking c, a (b not retrieved): a > b fulfilled by
			// implication, b > c failed by implication, a > c failed.
			name: "partial order closed", prefs: "g/s1/a:2 g/s1/b:1 g/s2/b:5 g/s2/c:4", docs: "c:2 a:1",
			want: map[string]float64{
				"prefs_num_prefs_poss": 3, "prefs_num_prefs_ful": 1, "prefs_num_prefs_ful_ret": 0,
				"prefs_simp": 1.0 / 3, "prefs_simp_ret": 0, "prefs_simp_imp": 1.0 / 3,
				// R=3, N=0: (1+2·3)/(3+3·3); _ret: R=2: (0+2·2)/(1+3·2)
				"prefs_avgjg_Rnonrel": 7.0 / 12, "prefs_avgjg_Rnonrel_ret": 4.0 / 7,
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms, err := TrecSelect([]string{"all_prefs"})
			if err != nil {
				t.Fatal(err)
			}
			if err := TrecCheckFormat(ms, "prefs"); err != nil {
				t.Fatal(err)
			}
			var docs []TrecDoc
			for _, f := range strings.Fields(tc.docs) {
				n, s, _ := strings.Cut(f, ":")
				docs = append(docs, TrecDoc{Docno: n, Sim: cAtof(s)})
			}
			n, at := TrecValues(ms)
			v := make([]float64, n)
			if err := TrecTopicPrefs(&TrecConfig{RelevanceLevel: 1, MaxDocs: tc.max}, trecPrefsOf(tc.prefs), docs, ms, v); err != nil {
				t.Fatal(err)
			}
			got := map[string]float64{}
			for i, m := range ms {
				for k, name := range m.Names {
					got[name] = v[at[i]+k]
				}
			}
			for name, want := range tc.want {
				g, ok := got[name]
				if !ok {
					t.Errorf("%s: not computed", name)
				} else if math.Abs(g-want) > 1e-12 {
					t.Errorf("%s = %v, want %v", name, g, want)
				}
			}
		})
	}
}

// trec_eval refuses a document at level 0 and above 0 in one group, and
// one at two levels of a subgroup; on a cycle of preferences it aborts.
func TestTrecPrefsRefused(t *testing.T) {
	for _, tc := range []struct{ name, prefs, want string }{
		{"level 0 and above", "g/s1/a:2 g/s1/b:0 g/s2/b:1 g/s2/c:0", "document b at level 0 and above 0"},
		{"two levels of a subgroup", "g/s/a:2 g/s/a:1 g/s/b:0", "document a at two levels of one subgroup"},
		{"cycle", "g/s1/a:2 g/s1/b:1 g/s2/b:2 g/s2/c:1 g/s3/c:2 g/s3/a:1", "each preferred to the other"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms, _ := TrecSelect([]string{"prefs_simp"})
			err := TrecTopicPrefs(&TrecConfig{}, trecPrefsOf(tc.prefs), []TrecDoc{{Docno: "a", Sim: 1}}, ms, make([]float64, 1))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
	ms, _ := TrecSelect([]string{"prefs_simp"})
	err := TrecTopicPrefs(&TrecConfig{}, trecPrefsOf("g/s/a:1 g/s/b:0"), []TrecDoc{{"a", 1}, {"a", 2}}, ms, make([]float64, 1))
	if _, dup := err.(*TrecDuplicateError); !dup {
		t.Errorf("a document retrieved twice: error %v, want a TrecDuplicateError", err)
	}
}
