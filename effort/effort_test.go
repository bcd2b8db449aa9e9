package effort

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

func sp(xs ...int) Spans {
	var s Spans
	for i := 0; i+1 < len(xs); i += 2 {
		s = append(s, Span{xs[i], xs[i+1]})
	}
	return s
}

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

func TestSpans(t *testing.T) {
	for _, tc := range []struct {
		name       string
		a, b       Spans
		union      Spans
		inter      int
		complement Spans // of a in [0,20)
		diff       Spans // a \ b
	}{
		{"disjoint", sp(0, 2, 5, 7), sp(3, 4), sp(0, 2, 3, 4, 5, 7), 0, sp(2, 5, 7, 20), sp(0, 2, 5, 7)},
		{"adjacent merge", sp(0, 2), sp(2, 4), sp(0, 4), 0, sp(2, 20), sp(0, 2)},
		{"overlap", sp(0, 10), sp(5, 15), sp(0, 15), 5, sp(10, 20), sp(0, 5)},
		{"inside", sp(0, 20), sp(3, 4, 8, 9), sp(0, 20), 2, nil, sp(0, 3, 4, 8, 9, 20)},
		{"empty b", sp(1, 3), nil, sp(1, 3), 0, sp(0, 1, 3, 20), sp(1, 3)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Union(tc.a, tc.b); !reflect.DeepEqual(got, tc.union) {
				t.Errorf("union %v", got)
			}
			if got := IntersectLen(tc.a, tc.b); got != tc.inter {
				t.Errorf("intersect len %d", got)
			}
			if got := Intersect(tc.a, tc.b).Len(); got != tc.inter {
				t.Errorf("intersect %d", got)
			}
			if got := tc.a.Complement(0, 20); !reflect.DeepEqual(got, tc.complement) {
				t.Errorf("complement %v", got)
			}
			if got := AppendDifference(nil, tc.a, tc.b); !reflect.DeepEqual(got, tc.diff) {
				t.Errorf("difference %v", got)
			}
			for _, p := range tc.a {
				want := IntersectLen(Spans{p}, tc.b)
				if got := SpanIntersectLen(p, tc.b); got != want {
					t.Errorf("SpanIntersectLen(%v) = %d, want %d", p, got, want)
				}
			}
		})
	}
	if got := Normalize([]Span{{5, 9}, {0, 3}, {2, 4}, {7, 7}, {9, 10}}); !reflect.DeepEqual(got, sp(0, 4, 5, 10)) {
		t.Errorf("Normalize = %v", got)
	}
	if got := sp(0, 5, 8, 30).Clip(2, 20); !reflect.DeepEqual(got, sp(2, 5, 8, 20)) {
		t.Errorf("Clip = %v", got)
	}
}

// chars expands segments into the reading order, character by character (test
// oracle only).
func chars(segs []Segment, rel Spans) (order []int, r []bool) {
	for _, s := range segs {
		for c := s.From; c < s.To; c++ {
			order = append(order, c)
			in := SpanIntersectLen(Span{c, c + 1}, rel) == 1
			if in != s.Rel {
				panic("segment relevance wrong")
			}
			r = append(r, in)
		}
	}
	return
}

func seq(a, b int) []int {
	var s []int
	for i := a; i < b; i++ {
		s = append(s, i)
	}
	return s
}

func cat(xs ...[]int) []int {
	var s []int
	for _, x := range xs {
		s = append(s, x...)
	}
	return s
}

func TestReadingOrders(t *testing.T) {
	// L = 20, relevant [2,5) and [12,15), retrieved [8,13).
	rel, ret := sp(2, 5, 12, 15), sp(8, 13)
	for _, tc := range []struct {
		order Order
		want  []int
	}{
		{Natural, cat(seq(8, 13), seq(0, 8), seq(13, 20))},
		{Best, cat(seq(8, 13), seq(2, 5), seq(13, 15), seq(0, 2), seq(5, 8), seq(15, 20))},
		{Worst, cat(seq(8, 13), seq(0, 2), seq(5, 8), seq(15, 20), seq(2, 5), seq(13, 15))},
	} {
		var r Orderer
		got, _ := chars(r.Read(tc.order, 20, ret, rel), rel)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v: %v, want %v", tc.order, got, tc.want)
		}
	}
	var r Orderer
	if got, _ := chars(r.Baseline(20, rel), rel); !reflect.DeepEqual(got, seq(0, 20)) {
		t.Errorf("baseline %v", got)
	}
	if got, _ := chars(r.EntryPoint(20, 7, rel), rel); !reflect.DeepEqual(got, cat(seq(7, 20), seq(0, 7))) {
		t.Errorf("entry point %v", got)
	}
}

// bruteAveChP is measures.md's definition of aveChP, per character.
func bruteAveChP(r []bool, nrc int) float64 {
	g, s := 0, 0.0
	for i, x := range r {
		if x {
			g++
			s += float64(g) / float64(i+1)
		}
	}
	return s / float64(nrc)
}

// TestPaperExamples is measures.md §4's worked examples: a 55-character
// document, relevant [0,27).
func TestPaperExamples(t *testing.T) {
	rel := sp(0, 27)
	for _, tc := range []struct {
		ret         Spans
		order       []int
		aveChP, f1  float64 // the spec's rounded values
		f1Exact     float64 // derived by hand
		aveChPExact float64 // Σ by hand where closed
	}{
		{sp(32, 55), cat(seq(32, 55), seq(0, 32)), 0.3484, 0, 0, -1},
		{sp(0, 55), seq(0, 55), 1, 0.6585, 54.0 / 82, 1},
		{sp(23, 45), cat(seq(23, 45), seq(0, 23), seq(45, 55)), 0.5306, 0.1633, 8.0 / 49, -1},
	} {
		var r Orderer
		segs := r.Read(Natural, 55, tc.ret, rel)
		order, relv := chars(segs, rel)
		if !reflect.DeepEqual(order, tc.order) {
			t.Errorf("%v: order %v", tc.ret, order)
		}
		d := &Doc{NRC: 27, RetLen: tc.ret.Len(), RetRel: IntersectLen(tc.ret, rel), Segs: segs}
		a := AveChP(d)
		if !near(a, tc.aveChP, 5e-5) {
			t.Errorf("%v: aveChP %v, spec %v", tc.ret, a, tc.aveChP)
		}
		if b := bruteAveChP(relv, 27); !near(a, b, 1e-12) {
			t.Errorf("%v: aveChP %v, per character %v", tc.ret, a, b)
		}
		if tc.aveChPExact >= 0 && !near(a, tc.aveChPExact, 1e-12) {
			t.Errorf("%v: aveChP %v, want %v", tc.ret, a, tc.aveChPExact)
		}
		f := F(d, 1)
		if !near(f, tc.f1, 5e-5) || !near(f, tc.f1Exact, 1e-15) {
			t.Errorf("%v: F(1) %v, spec %v (exact %v)", tc.ret, f, tc.f1, tc.f1Exact)
		}
	}
}

// TestT2I is measures.md §3's verified example: L=1000, relevant [500,510),
// retrieved [0,100).
func TestT2I(t *testing.T) {
	rel := sp(500, 510)
	var r Orderer
	segs := r.Read(Natural, 1000, sp(0, 100), rel)
	for _, tc := range []struct {
		x, read, relRead, firstRel int
		stopped                    bool
	}{
		{501, 511, 10, 500, true},
		{500, 500, 0, -1, true},
		{100, 100, 0, -1, true},
		{990, 1000, 10, 500, false},
		{5000, 1000, 10, 500, false},
		{0, 1000, 10, 500, false},
	} {
		got := T2I(segs, tc.x)
		if got.Read != tc.read || got.RelRead != tc.relRead || got.FirstRel != tc.firstRel || got.Stopped != tc.stopped {
			t.Errorf("x=%d: %+v", tc.x, got)
		}
	}
	d := &Doc{NRC: 10, RetLen: 100, Segs: segs}
	if got := T2Ip(d, 501); got != 10.0/511 {
		t.Errorf("T2Ip(501) = %v", got)
	}
	if got := T2Ir(d, 501); got != 1 {
		t.Errorf("T2Ir(501) = %v", got)
	}
	if got, want := T2If(d, 501, 1), 2*(10.0/511)/(10.0/511+1); !near(got, want, 1e-15) {
		t.Errorf("T2If(501,1) = %v, want %v", got, want)
	}
	if got := T2Ip(d, 500); got != 0 {
		t.Errorf("T2Ip(500) = %v", got)
	}
	// ChP: after 505 characters read, 5 are relevant; past the end the rest
	// counts as non-relevant.
	if got := ChP(d, 505); got != 5.0/505 {
		t.Errorf("ChP[505] = %v", got)
	}
	if got := ChP(d, 2000); got != 10.0/2000 {
		t.Errorf("ChP[2000] = %v", got)
	}
	// LE: 500 characters before the first relevant one.
	for _, tc := range []struct{ s, nr, want int }{{300, 5, 2}, {2000, 5, 1}, {100, 5, 5}, {100, 9, 6}, {500, 5, 2}, {501, 5, 1}} {
		if got := LE(d, tc.s, tc.nr); got != float64(tc.want) {
			t.Errorf("LE(%d,%d) = %v, want %d", tc.s, tc.nr, got, tc.want)
		}
	}
	if got := LE(&Doc{}, 300, 5); got != 5 {
		t.Errorf("LE of a non-relevant document = %v", got)
	}
	// LE with a T2I stop (measures.md §6): T2I(501) reaches the relevant text
	// after 500 characters, T2I(500) stops right before it, so the document
	// gets NR whatever the screen size.
	for _, tc := range []struct{ s, nr, x, want int }{{300, 5, 501, 2}, {2000, 5, 501, 1}, {300, 5, 500, 5}, {2000, 5, 500, 5}, {2000, 7, 500, 7}, {2000, 5, 0, 1}} {
		if got := LEStop(d, tc.s, tc.nr, tc.x); got != float64(tc.want) {
			t.Errorf("LE(%d,%d,%d) = %v, want %d", tc.s, tc.nr, tc.x, got, tc.want)
		}
	}
}

// TestEffortExample is the paper's example of measures.md §6.
func TestEffortExample(t *testing.T) {
	es := []float64{1, 2, 5, 1, 5}
	ce := []float64{0, 1, 5, 5, 9}
	nce := []float64{0, 1, 5, 4.2, 4.2}
	for k := 1; k <= 5; k++ {
		if got := CE(es, k, 5); !near(got, ce[k-1], 1e-12) {
			t.Errorf("CE[%d] = %v, want %v", k, got, ce[k-1])
		}
		if got := NCE(es, 3, k, 5); !near(got, nce[k-1], 1e-12) {
			t.Errorf("NCE[%d] = %v, want %v", k, got, nce[k-1])
		}
	}
	if got := ANCE(es, 3, 5, 5); !near(got, 2.88, 1e-12) {
		t.Errorf("ANCE[5] = %v, want 2.88", got)
	}
	// Past the end of the run every rank costs NR: NCE[6] = 4.2 + 0 (IE = 5).
	if got := NCE(es, 3, 6, 5); !near(got, 4.2, 1e-12) {
		t.Errorf("NCE[6] = %v", got)
	}
	// An empty run of a topic with 2 relevant documents: NCE = 4, 8, 8.
	if got := ANCE(nil, 2, 3, 5); !near(got, (4+8+8)/3.0, 1e-12) {
		t.Errorf("ANCE[3] of nothing = %v", got)
	}
}

func TestListScores(t *testing.T) {
	s := []float64{0.5, 0, 1, 0}
	isrel := []bool{true, false, true, true}
	rsize := []int{100, 0, 300, 100}
	// gP[1]=.5, gP[2]=.25, gP[3]=.5, gP[4]=.375; Trel = 5.
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"gP[3]", GP(s, 3, false), 0.5},
		{"gP[8]", GP(s, 8, false), 1.5 / 8},
		{"gP[8] inex", GP(s, 8, true), 1.5 / 4},
		{"gP[1] of nothing", GP(nil, 1, true), 0},
		{"gR[3]", GR(isrel, 5, 3), 2.0 / 5},
		{"AgP", AgP(s, isrel, 5), (0.5 + 0.5 + 0.375) / 5},
		{"AgP'", AgP1(s, rsize, 1000), 0.1*0.5 + 0.3*0.5 + 0.1*0.375},
		{"AgP''", AgP2(s, rsize, 1000), 0.5 * (0.5 + 0.5 + 0.375) / 3},
		{"P[2]", P(isrel, 2), 0.5},
		{"P[10]", P(isrel, 10), 0.3},
		{"AP", AP(isrel, 5), (1 + 2.0/3 + 3.0/4) / 5},
	} {
		if !near(tc.got, tc.want, 1e-15) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	pts := InterpolatedGP(s, isrel, 5, 11)
	// gR after ranks: .2 .2 .4 .6 ; max gP with gR ≥ x.
	want := []float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.375, 0.375, 0, 0, 0, 0}
	if !reflect.DeepEqual(pts, want) {
		t.Errorf("InterpolatedGP = %v, want %v", pts, want)
	}
}

func TestFocused(t *testing.T) {
	// Topic with 100 relevant characters; passages (len, rel): (50,25), (50,0), (100,75).
	c := NewFocusedCurve([]FocusedPassage{{50, 25}, {50, 0}, {100, 75}}, 100)
	// P = .5, .25, .5 ; R = .25, .25, 1
	for _, tc := range []struct{ x, want float64 }{{0, 0.5}, {0.01, 0.5}, {0.25, 0.5}, {0.26, 0.5}, {1, 0.5}} {
		if got := c.IP(tc.x); got != tc.want {
			t.Errorf("iP[%v] = %v, want %v", tc.x, got, tc.want)
		}
	}
	if got := c.AiP(); got != 0.5 {
		t.Errorf("AiP = %v", got)
	}
	c = NewFocusedCurve([]FocusedPassage{{10, 10}, {90, 0}}, 40)
	// P = 1, .1 ; R = .25, .25: iP = 1 up to 0.25, 0 after; AiP = 26/101.
	if got := c.AiP(); !near(got, 26.0/101, 1e-15) {
		t.Errorf("AiP = %v", got)
	}
	pts := c.Interpolated(101)
	for i, v := range pts {
		if want := c.IP(float64(i) / 100); v != want {
			t.Errorf("Interpolated[%d] = %v, IP = %v", i, v, want)
		}
	}
}

func TestHarmonicDiff(t *testing.T) {
	for _, tc := range [][2]int{{0, 1}, {0, 10}, {3, 200}, {63, 65}, {64, 1000}, {1000, 100000}, {99999, 100000}, {0, 1000000}} {
		want := 0.0
		for k := tc[1]; k > tc[0]; k-- {
			want += 1 / float64(k)
		}
		if got := HarmonicDiff(tc[0], tc[1]); !near(got, want, 1e-13*math.Max(1, want)) {
			t.Errorf("H(%d)-H(%d) = %.17g, want %.17g", tc[1], tc[0], got, want)
		}
	}
}

// TestAveChPLong checks the O(runs) aveChP against the per-character
// definition on a long document with many runs.
func TestAveChPLong(t *testing.T) {
	rel := sp(100, 3000, 5000, 5001, 7000, 90000)
	for _, o := range []Order{Natural, Best, Worst} {
		var r Orderer
		segs := r.Read(o, 100000, sp(4000, 8000, 95000, 99000), rel)
		_, relv := chars(segs, rel)
		d := &Doc{NRC: rel.Len(), Segs: segs}
		if got, want := AveChP(d), bruteAveChP(relv, rel.Len()); !near(got, want, 1e-12) {
			t.Errorf("%v: aveChP %.17g, per character %.17g", o, got, want)
		}
	}
}

func TestParseMeasure(t *testing.T) {
	for _, tc := range []struct{ in, canonical string }{
		{`AgP\F(0.25)`, `AgP\F(0.25)`},
		{`AgP`, `AgP\F(0.25)`},
		{`gP[10]\F(0.25)`, `gP[10]\F(0.25)`},
		{`gP[10]`, `gP[10]\F(0.25)`},
		{`gR[10]`, `gR[10]`},
		{`AgP\T2Ip(300)`, `AgP\T2Ip(300)`},
		{`AgP\T2Ip`, `AgP\T2Ip(300)`},
		{`AgP\T2Ir(300)`, `AgP\T2Ir(300)`},
		{`AgP\T2If(2000,1)`, `AgP\T2If(2000,1)`},
		{`AgP\T2If(2000)`, `AgP\T2If(2000,1)`},
		{`AgP\T2If(300,0.5)`, `AgP\T2If(300,0.5)`},
		{`AgP\ChP[600]`, `AgP\ChP[600]`},
		{`AgP\ChP`, `AgP\ChP[600]`},
		{`AgP\aveChP`, `AgP\aveChP`},
		{`AgP\F(1)`, `AgP\F(1)`},
		{`AgP\F(1.0)`, `AgP\F(1)`},
		{`AgP\F`, `AgP\F(0.25)`},
		{`AgP'\F(0.25)`, `AgP'\F(0.25)`},
		{`AgP''\aveChP`, `AgP''\aveChP`},
		{`ANCE[100]\LE(300,5)`, `ANCE[100]\LE(300,5)`},
		{`ANCE[100]\LE(2000)`, `ANCE[100]\LE(2000,5)`},
		{`ANCE[100]`, `ANCE[100]\LE(300,5)`},
		{`CE[10]\LE`, `CE[10]\LE(300,5)`},
		{`NCE[10]\LE(300,7)`, `NCE[10]\LE(300,7)`},
		{`ANCE[10]\LE(2000,5,300)`, `ANCE[10]\LE(2000,5,300)`},
		{`P[10]`, `P[10]`},
		{`AP`, `AP`},
		{`iP[0.01]`, `iP[0.01]`},
		{`iP[0.1]`, `iP[0.10]`},
		{`iP[0.005]`, `iP[0.005]`},
		{`AiP`, `AiP`},
		{`num_rel_ret`, `num_rel_ret`},
		{`char_f1`, `char_f1`},
	} {
		m, err := ParseMeasure(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if m.String() != tc.canonical {
			t.Errorf("%s: canonical %s, want %s", tc.in, m.String(), tc.canonical)
		}
		if m2, err := ParseMeasure(m.String()); err != nil || m2 != m {
			t.Errorf("%s: canonical name does not parse back: %v %v", tc.in, m2, err)
		}
	}
	for _, bad := range []string{``, `MAPP`, `gP`, `gP[0]`, `gP[x]`, `AgP[3]`, `AgP\LE(300,5)`, `ANCE[5]\LE(300,5,0)`, `ANCE[5]\LE(300,5,1,2)`, `ANCE[10]\F(1)`, `AP\F(1)`,
		`iP`, `iP[2]`, `AgP\F(0)`, `AgP\F(-1)`, `AgP\T2Ip(0)`, `AgP\T2Ip(3,4)`, `AgP\Foo`, `AgP\F(1`, `gP[10`, `AgP\ChP[0]`, `AiP\aveChP`} {
		if _, err := ParseMeasure(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// Other tools' names: the measure each stands for (its canonical name and
// whether it ranks by score as trec_eval does) and the name reports print.
func TestMeasureAliases(t *testing.T) {
	for _, tc := range []struct {
		in, canonical, printed string
		byScore                bool
	}{
		{"MAgP", `AgP\F(0.25)`, "MAgP", false},
		{`MAgP\T2Ip(300)`, `AgP\T2Ip(300)`, `MAgP\T2Ip(300)`, false},
		{`MAgP\T2Ip`, `AgP\T2Ip(300)`, `MAgP\T2Ip(300)`, false},
		{"MAiP", "AiP", "MAiP", false},
		{"ircl_prn.0.50", `igP[0.50]\F(0.25)`, "ircl_prn.0.50", false},
		{`ircl_prn.0.50\T2Ip(300)`, `igP[0.50]\T2Ip(300)`, `ircl_prn.0.50\T2Ip(300)`, false},
		{"map", "AP", "map", true},
		{"AP", "AP", "AP", true},
		{"P_10", "P[10]", "P_10", true},
		{"P.10", "P[10]", "P_10", true},
		{"P@10", "P[10]", "P@10", true},
		{"P[10]", "P[10]", "P[10]", true},
		{"recip_rank", "RR", "recip_rank", true},
		{"RR", "RR", "RR", true},
		{"Rprec", "Rprec", "Rprec", true},
		{"ndcg", "nDCG", "ndcg", true},
		{"nDCG", "nDCG", "nDCG", true},
		{"ndcg_cut_10", "nDCG[10]", "ndcg_cut_10", true},
		{"nDCG@10", "nDCG[10]", "nDCG@10", true},
		{"recall_100", "R[100]", "recall_100", true},
		{"R@100", "R[100]", "R@100", true},
		{"R[100]", "R[100]", "R[100]", true},
		{"gR[100]", "gR[100]", "gR[100]", false},
		{"num_q", "num_q", "num_q", false},
		{"NumRelRet", "num_rel_ret", "NumRelRet", false},
		// case restored where one spelling folds to the text
		{"magp", `AgP\F(0.25)`, "MAgP", false},
		{`magp\t2ip(300)`, `AgP\T2Ip(300)`, `MAgP\T2Ip(300)`, false},
		{"MAP", "AP", "map", true},
		{"p@10", "P[10]", "P@10", true},
		{"NDCG@10", "nDCG[10]", "nDCG@10", true},
		{`agp\t2ip(300)`, `AgP\T2Ip(300)`, `AgP\T2Ip(300)`, false},
		{`ance[100]\le(2000,5)`, `ANCE[100]\LE(2000,5)`, `ANCE[100]\LE(2000,5)`, false},
		{"ap", "AP", "AP", true},
		// two spellings of one measure are not ambiguous
		{"rr", "RR", "RR", true},
		{"Rr", "RR", "RR", true},
		{"rprec", "Rprec", "Rprec", true},
		{"RPREC", "Rprec", "Rprec", true},
		{"Num_Q", "num_q", "num_q", false},
		{"r@100", "R[100]", "R@100", true},
	} {
		m, err := ParseMeasure(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if m.Canonical() != tc.canonical || m.String() != tc.printed || m.RanksByScore() != tc.byScore {
			t.Errorf("%s: canonical %s, printed %s, by score %v; want %s, %s, %v", tc.in, m.Canonical(), m.String(), m.RanksByScore(), tc.canonical, tc.printed, tc.byScore)
		}
	}
	for _, tc := range []struct{ in, suggestion string }{
		{"mapps", `"map"`},
		{`AgP\T2lp(300)`, `"AgP\T2Ip(300)"`},
		{"recip_rnk", `"recip_rank"`},
	} {
		_, err := ParseMeasure(tc.in)
		if err == nil || !strings.Contains(err.Error(), "did you mean ") || !strings.Contains(err.Error(), tc.suggestion) {
			t.Errorf("%s: %v, want a suggestion of %s", tc.in, err, tc.suggestion)
		}
	}
}

func TestParseMeasures(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{[]string{"map,P_10", "nDCG@10"}, "map P_10 nDCG@10"},
		{[]string{"P.5,10,20"}, "P_5 P_10 P_20"},
		{[]string{`AgP\T2If(2000,1),AP`}, `AgP\T2If(2000,1) AP`},
		// one measure under two names: printed under each; AgP is AgP\F(0.25)
		{[]string{"MAgP", `AgP\F(0.25)`, "AgP"}, `MAgP AgP\F(0.25)`},
		{[]string{"map", "AP"}, "map AP"},
		{[]string{"P@10,P_10"}, "P@10 P_10"},
		// one name asked twice, or in two cases: once
		{[]string{"map", "MAP", "map"}, "map"},
		{[]string{"P_10", "p_10", "P.10"}, "P_10"},
		{[]string{" , map,,"}, "map"},
	} {
		ms, err := ParseMeasures(tc.in)
		if err != nil {
			t.Errorf("%v: %v", tc.in, err)
			continue
		}
		var got []string
		for _, m := range ms {
			got = append(got, m.String())
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%v: %v, want %s", tc.in, got, tc.want)
		}
	}
	all, err := ParseMeasures([]string{"all"})
	if err != nil || len(all) != len(AllNames) {
		t.Errorf("all: %d measures (%v), want %d", len(all), err, len(AllNames))
	}
	// all holds each measure once, even when named twice in the list
	all, err = ParseMeasureList([]string{"all"}, []string{"AP", "map", "P_10", "P@10", "gR[10]"})
	if got := fmt.Sprint(names(all)); err != nil || got != "[AP P_10 gR[10]]" {
		t.Errorf("all of AP map P_10 P@10 gR[10]: %v (%v), want [AP P_10 gR[10]]", got, err)
	}
	// a list that names no measure is an error
	for _, in := range [][]string{{""}, {","}, {" , ,"}, {}} {
		if ms, err := ParseMeasures(in); err == nil {
			t.Errorf("%q: %v, want an error", in, names(ms))
		}
	}
}

func names(ms []Measure) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.String())
	}
	return out
}

func TestEvaluatorDefaults(t *testing.T) {
	// One topic, Trel 2; ranked: a relevant document read in part, an
	// unjudged one. Checks the wiring of Evaluator against the functions.
	ms := []Measure{}
	for _, n := range []string{`AgP\F(1)`, `gP[1]\F(1)`, `AP`, `num_ret`, `ret_size`, `rel_ret_size`, `char_prec`, `ANCE[2]\LE(300,5)`} {
		m, err := ParseMeasure(n)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	ev := NewEvaluator(ms, Config{})
	in := &TopicInput{Trel: 2, TrelChars: 30, Docs: []RankedDoc{
		{Judged: true, L: 100, Rel: sp(10, 30), Ret: sp(0, 20), Entry: -1},
		{Ret: sp(0, 50), Entry: -1},
	}}
	var w Workspace
	got := ev.Topic(in, &w, nil)
	// F(1): P = 10/20, R = 10/20 → .5. AgP = .5/2. AP = 1/2.
	// ES: 10 chars before the first relevant one → 1; unjudged → 5.
	// NCE: 0, (5-1)/1 = 4 → ANCE[2] = 2.
	want := []float64{0.25, 0.5, 0.5, 2, 70, 10, 10.0 / 70, 2}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// noPanic runs f as subtest name, turning a panic into a test error.
func noPanic(t *testing.T, name string, f func(t *testing.T)) {
	t.Run(name, func(t *testing.T) {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("panic: %v", r)
			}
		}()
		f(t)
	})
}

// TestEdgeInputs checks that the exported functions take degenerate
// arguments as their doc comments say instead of panicking or computing 0/0.
func TestEdgeInputs(t *testing.T) {
	for _, tc := range []struct{ r, s, nr, want int }{
		{600, 300, 5, 3}, // ⌊600/300⌋+1
		{0, 0, 5, 1},     // s < 1 is 1: ⌊0/1⌋+1
		{3, 0, 5, 4},     // ⌊3/1⌋+1
		{3, -2, 5, 4},    // likewise
		{10, 0, 5, 5},    // capped at NR
		{-1, 0, 5, 5},    // nothing relevant read
	} {
		noPanic(t, fmt.Sprintf("LEOf(%d,%d,%d)", tc.r, tc.s, tc.nr), func(t *testing.T) {
			if got := LEOf(tc.r, tc.s, tc.nr); got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}

	// gP: rank 1 relevant with score 1 (gP 1, gR 1/2); rank 2 non-relevant
	// with score 0 (gP 1/2, gR 1/2). Focused: rank 1 10 relevant characters
	// of 10 (P 1, R 10/20); rank 2 none of 10 (P 1/2, R 1/2).
	curve := NewFocusedCurve([]FocusedPassage{{Len: 10, RelLen: 10}, {Len: 10}}, 20)
	for _, tc := range []struct {
		points int
		want   []float64
	}{
		{3, []float64{1, 1, 0}}, // x = 0, 1/2, 1: recall 1 is never reached
		{1, []float64{1}},       // the single level x = 0
		{0, []float64{}},
		{-1, []float64{}},
	} {
		noPanic(t, fmt.Sprintf("InterpolatedGP(%d)", tc.points), func(t *testing.T) {
			if got := InterpolatedGP([]float64{1, 0}, []bool{true, false}, 2, tc.points); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
		noPanic(t, fmt.Sprintf("Interpolated(%d)", tc.points), func(t *testing.T) {
			if got := curve.Interpolated(tc.points); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}

	// An unknown order reads as Natural: the retrieved [2,4), then [0,2)
	// and [4,6) of a 6-character document whose [0,1) is relevant.
	noPanic(t, "Read(Order(7))", func(t *testing.T) {
		var r Orderer
		got := append([]Segment(nil), r.Read(Order(7), 6, Spans{{2, 4}}, Spans{{0, 1}})...)
		want := []Segment{{2, 4, false, true}, {0, 1, true, false}, {1, 2, false, false}, {4, 6, false, false}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %+v, want %+v", got, want)
		}
	})
}

// trec_eval's document measures, by hand. Ranked relevance F T F T, three
// relevant documents: RR = 1/2, Rprec = (1 in the first 3)/3. Grades 0 2 1
// against the ideal 2 2 1, rank r discounted by log₂(r+1) as trec_eval's ndcg
// and ndcg_cut: DCG = 2/log₂3 + 1/log₂4, IDCG = 2/log₂2 + 2/log₂3 + 1/log₂4;
// at k = 2: (2/log₂3) / (2 + 2/log₂3).
func TestTrecMeasures(t *testing.T) {
	isrel := []bool{false, true, false, true}
	if got := RR(isrel); got != 0.5 {
		t.Errorf("RR = %v, want 0.5", got)
	}
	if got := Rprec(isrel, 3); got != 1.0/3 {
		t.Errorf("Rprec = %v, want 1/3", got)
	}
	l3 := math.Log2(3)
	if got, want := NDCG([]int{0, 2, 1}, []int{2, 2, 1}, 0), (2/l3+0.5)/(2+2/l3+0.5); math.Abs(got-want) > 1e-15 {
		t.Errorf("NDCG = %v, want %v", got, want)
	}
	if got, want := NDCG([]int{0, 2, 1}, []int{2, 2, 1}, 2), (2/l3)/(2+2/l3); math.Abs(got-want) > 1e-15 {
		t.Errorf("NDCG@2 = %v, want %v", got, want)
	}
	if got := NDCG([]int{1}, nil, 10); got != 0 {
		t.Errorf("NDCG without relevant documents = %v, want 0", got)
	}
	// trec_eval's order: score descending, ties by id descending. Lines b
	// (2, relevant), c (2), a (1): trec_eval ranks c, b, a (c > b), so the
	// measures that rank by score (AP, map, RR, P[1], P_1) see the relevant
	// b at rank 2: AP = 1/2, RR = 1/2, P[1] = 0; gR[1], in line order, sees
	// it at rank 1: 1/1. Without scores (Scored false: a reading, a
	// simulated run) every measure ranks in line order: AP = RR = P[1] = 1.
	var ms []Measure
	for _, n := range []string{"AP", "map", "recip_rank", "P[1]", "P_1", "gR[1]", "R[1]"} {
		m, err := ParseMeasure(n)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	for _, scored := range []bool{true, false} {
		in := &TopicInput{Trel: 1, Ideal: []int{1}, Scored: scored, Docs: []RankedDoc{
			{ID: "b", Score: 2, Judged: true, Grade: 1, Entry: -1},
			{ID: "c", Score: 2, Judged: true, Entry: -1},
			{ID: "a", Score: 1, Entry: -1},
		}}
		var w Workspace
		got := NewEvaluator(ms, Config{}).Topic(in, &w, nil)
		want := []float64{0.5, 0.5, 0.5, 0, 0, 1, 0}
		if !scored {
			want = []float64{1, 1, 1, 1, 1, 1, 1}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("scored %v: AP, map, recip_rank, P[1], P_1, gR[1], R[1] = %v, want %v", scored, got, want)
		}
	}
}

// registeredNames are a concrete name of every list score, document score
// and alias of the registry (ranks 10, recall level 0.50, default document
// scores; an alias that takes a document score with and without one).
func registeredNames() []string {
	var out []string
	for k := range listFamilies {
		f := &listFamilies[k]
		n := f.head
		switch f.param {
		case paramRank:
			n += "[10]"
		case paramLevel:
			n += "[0.50]"
		}
		switch f.doc {
		case docDefaultF:
			n += `\F(0.25)`
		case docEffort:
			n += `\LE(300,5)`
		}
		out = append(out, n)
		if f.rankOptional {
			out = append(out, f.head)
		}
	}
	for k := range docFam {
		d := &docFam[k]
		switch {
		case d.name == nil:
		case d.kind == DocLE:
			out = append(out, `ANCE[10]\`+d.name(DocScore{S: 300, NR: 5}), `ANCE[10]\LE(300,5,300)`)
		default:
			out = append(out, `AgP\`+d.head)
		}
	}
	for _, a := range aliases {
		n, withDoc := strings.CutSuffix(a.form, `[\D]`)
		switch {
		case strings.HasSuffix(n, "_k") || strings.HasSuffix(n, "@k"):
			n = n[:len(n)-1] + "10"
		case strings.HasSuffix(n, ".x"):
			n = n[:len(n)-1] + "0.50"
		}
		out = append(out, n)
		if withDoc {
			out = append(out, n+`\T2Ip(300)`)
		}
	}
	return out
}

// Every registered name and alias reads in lower, upper and mixed case as
// the measure it names: two spellings of one measure are not ambiguous.
func TestEveryNameInAnyCase(t *testing.T) {
	mixed := func(s string) string {
		b := []byte(s)
		up := true
		for i, c := range b {
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				if up {
					b[i] = strings.ToUpper(string(c))[0]
				} else {
					b[i] = strings.ToLower(string(c))[0]
				}
				up = !up
			}
		}
		return string(b)
	}
	names := registeredNames()
	if len(names) < len(listFamilies)+len(aliases) {
		t.Fatalf("%d names", len(names))
	}
	for _, n := range names {
		want, err := ParseMeasure(n)
		if err != nil {
			t.Errorf("%s: %v", n, err)
			continue
		}
		for _, v := range []string{strings.ToLower(n), strings.ToUpper(n), mixed(n)} {
			m, err := ParseMeasure(v)
			switch {
			case err != nil:
				t.Errorf("%s (as %s): %v", v, n, err)
			case m.Canonical() != want.Canonical():
				t.Errorf("%s is %s, want %s (%s)", v, m.Canonical(), want.Canonical(), n)
			}
		}
	}
}
