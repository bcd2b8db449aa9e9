package scenario

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article/shareddata"
	"github.com/readsim/readsim/scenario/inex"
)

func genomicsMeasures(tb testing.TB) []effort.Measure {
	ms, err := effort.ParseMeasures(effort.GenomicsNames)
	if err != nil {
		tb.Fatal(err)
	}
	return ms
}

// readNIST reads a *.nist.tsv file: measure → topic (or MAP) → score as
// printed (8 decimals).
func readNIST(tb testing.TB, path string) map[string]map[string]string {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string]map[string]string{}
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			tb.Fatalf("%s:%d: %q", path, i+1, line)
		}
		if i == 0 {
			continue // RUN MEASURE TOPIC SCORE
		}
		if out[f[1]] == nil {
			out[f[1]] = map[string]string{}
		}
		out[f[1]][f[2]] = f[3]
	}
	return out
}

// The shared runs: every topic and MAP of every measure equal NIST's outputs
// to 8 decimals, and --compat trecgen's output is NIST's file byte for byte.
func TestGenomicsNIST(t *testing.T) {
	dir := shareddata.Genomics(t)
	q := openQrels(t, filepath.Join(dir, "gold-standard-07.txt"))
	if q.Format != inex.GenomicsQrels || q.Unit != inex.Bytes || len(q.IDs) != 36 {
		t.Fatalf("format %v, unit %v, %d topics", q.Format, q.Unit, len(q.IDs))
	}
	passages, chars := 0, 0
	for _, tj := range q.Topics {
		passages += tj.GoldPassages
		chars += tj.RelChars
	}
	if passages != 4492 || chars != 5643422 { // the README's counts
		t.Errorf("%d gold passages, %d relevant characters; want 4492 and 5643422", passages, chars)
	}
	ms := append(genomicsMeasures(t), mustMeasure(t, "charAP"))
	for _, name := range []string{"york07-ga-01", "york07-ga-02"} {
		t.Run(name, func(t *testing.T) {
			res, err := EvaluateFiles(q, []string{filepath.Join(dir, name+".txt")}, EvalOptions{Measures: ms})
			if err != nil {
				t.Fatal(err)
			}
			r := res[0]
			want := readNIST(t, filepath.Join(dir, name+".nist.tsv"))
			if len(r.Topics) != 36 {
				t.Fatalf("%d topics, want the 36 judged", len(r.Topics))
			}
			for m, meas := range ms[:4] {
				w := want[meas.String()]
				for i, topic := range r.Topics {
					if got := strconv.FormatFloat(r.Values[m][i], 'f', 8, 64); got != w[topic] {
						t.Errorf("%s topic %s: %s, NIST %s", meas, topic, got, w[topic])
					}
				}
				if got := strconv.FormatFloat(r.All[m], 'f', 8, 64); got != w["MAP"] {
					t.Errorf("%s MAP: %s, NIST %s", meas, got, w["MAP"])
				}
			}
			// The York runs list every topic's passages by rank: charAP (line
			// order) is PASSAGE2 (NIST's order).
			for i := range r.Topics {
				if a, b := r.Values[3][i], r.Values[4][i]; a != b {
					t.Errorf("topic %s: PASSAGE2 %v, charAP %v", r.Topics[i], a, b)
				}
			}
			var out bytes.Buffer
			if err := WriteTrecGen(&out, res, ms[:4]); err != nil {
				t.Fatal(err)
			}
			nist, _ := os.ReadFile(filepath.Join(dir, name+".nist.tsv"))
			if out.String() != string(nist) {
				t.Errorf("--compat trecgen output differs from %s.nist.tsv", name)
			}
		})
	}
}

// randomGenomics writes a random gold standard (Genomics format, with
// duplicate, overlapping and zero-length gold passages, repeated and
// Latin-1 aspects) and a random run (rank ties, shuffled lines, repeated,
// overlapping, touching and zero-length passages, a topic missing, a topic
// not judged).
func randomGenomics(rng *rand.Rand) (gold, run []byte) {
	var g, r bytes.Buffer
	aspects := []string{"A", "B", "KR\xfcPPEL", "C D", "E", ""}
	type passage struct {
		doc      string
		off, len int
	}
	for topic := 200; topic < 205; topic++ {
		var golds []passage
		for k := 1 + rng.IntN(12); k > 0; k-- {
			p := passage{strconv.Itoa(10 + rng.IntN(6)), rng.IntN(3000), rng.IntN(900)}
			if rng.IntN(8) == 0 {
				p.len = 0
			}
			if rng.IntN(6) == 0 && len(golds) > 0 {
				p = golds[rng.IntN(len(golds))] // the same passage again
			}
			golds = append(golds, p)
			var as []string
			for n := 1 + rng.IntN(3); n > 0; n-- {
				as = append(as, aspects[rng.IntN(len(aspects))])
			}
			fmt.Fprintf(&g, "%d\t%s\t%d\t%d\t%s\n", topic, p.doc, p.off, p.len, strings.Join(as, " | "))
		}
		if topic == 203 {
			continue // missing from the run
		}
		var lines []string
		for k := rng.IntN(80); k > 0; k-- {
			p := passage{strconv.Itoa(9 + rng.IntN(8)), rng.IntN(3500), rng.IntN(700)}
			if gp := golds[rng.IntN(len(golds))]; rng.IntN(2) == 0 {
				switch rng.IntN(4) {
				case 0:
					p = passage{gp.doc, gp.off + gp.len, 1 + rng.IntN(50)} // touches its end
				case 1:
					p = passage{gp.doc, max(0, gp.off-20), 20} // touches its start
				default:
					p = passage{gp.doc, max(0, gp.off-rng.IntN(100)), rng.IntN(gp.len + 300)}
				}
			}
			lines = append(lines, fmt.Sprintf("%d %s %d %.3f %d %d run", topic, p.doc, 1+rng.IntN(30), rng.Float64(), p.off, p.len))
			if rng.IntN(10) == 0 {
				lines = append(lines, lines[len(lines)-1]) // a repeated line
			}
		}
		rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
		for _, l := range lines {
			r.WriteString(l + "\n")
		}
	}
	r.WriteString("299 10 1 1.0 0 10 run\n") // not judged
	return g.Bytes(), r.Bytes()
}

// Random gold standards and runs with every convention's corner: readsim's
// readers and interval measures give the values of the transcription of
// NIST's scorer, which walks characters one by one.
func TestGenomicsRandomAgainstNIST(t *testing.T) {
	rng := rand.New(rand.NewPCG(2007, 36))
	ms := genomicsMeasures(t)
	for trial := 0; trial < 150; trial++ {
		gold, run := randomGenomics(rng)
		q, err := inex.ReadQrels("gold", bytes.NewReader(gold), nil)
		if err != nil {
			t.Fatalf("trial %d: %v\n%s", trial, err, gold)
		}
		rr, err := inex.ReadRun("run", bytes.NewReader(run), inex.RunOptions{})
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		res, err := Evaluate(q, rr, EvalOptions{Measures: ms}, 1)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		want := newNISTScorer(gold).score(run)
		for m, meas := range ms {
			for i, topic := range res.Topics {
				if got, w := res.Values[m][i], want[meas.String()][topic]; math.Abs(got-w) > 1e-12 {
					t.Fatalf("trial %d, %s, topic %s: %.17g, NIST's walk %.17g\ngold:\n%s\nrun:\n%s", trial, meas, topic, got, w, gold, run)
				}
			}
			if got, w := res.All[m], want[meas.String()]["MAP"]; math.Abs(got-w) > 1e-12 {
				t.Fatalf("trial %d, %s MAP: %.17g, NIST's walk %.17g", trial, meas, got, w)
			}
		}
	}
}

// A hand-worked example through the readers. The gold standard is Latin-1
// (KR\xfcPPEL and KRUPPEL are two aspects), tab-separated, aspects trimmed
// (" X " is X); three relevant documents (9, 7, 8), three gold passages of
// 5 bytes, 4 aspects, 15 relevant bytes. The run's lines are not in rank
// order and ranks tie: NIST's order is (1,"10"), (1,"9"), (3,"7"), "10"
// being before "9" as bytes.
//
//	DOCUMENT: 10 no, 9 yes (1/2), 7 yes (2/3): (1/2 + 2/3)/3 = 7/18
//	PASSAGE:  10 reads 5; 9 shares 5 of 10 read (5/10); 7 shares 5 more of
//	          15 read (10/15); the passage of 8 never found: (1/2 + 2/3)/3
//	ASPECT:   10 not relevant (m = 1); 9 brings KR\xfcPPEL and X (2·1/2);
//	          7 brings KRUPPEL (1·2/3): (1 + 2/3)/4 = 5/12
//	PASSAGE2: 10 reads 5 non-relevant bytes; 9 then 5 new relevant ones,
//	          Σ i/(5+i); 7 five more, Σ (5+i)/(10+i); over 15
func TestGenomicsHandWorked(t *testing.T) {
	gold := "200\t9\t0\t5\tKR\xfcPPEL|X\n200\t7\t0\t5\tKRUPPEL\n200\t8\t0\t5\t X |Y\n"
	run := "200 7 3 1.0 0 5 r\n200 10 1 1.0 0 5 r\n200 9 1 1.0 0 5 r\n"
	q := readQrels(t, "gold", gold)
	res := evaluate(t, q, mustRun(t, run), genomicsMeasures(t)...)
	p2 := 0.0
	for i := 1; i <= 5; i++ {
		p2 += float64(i)/float64(5+i) + float64(5+i)/float64(10+i)
	}
	want := []float64{7.0 / 18, 7.0 / 18, 5.0 / 12, p2 / 15}
	for m, w := range want {
		if got := res.All[m]; math.Abs(got-w) > 1e-15 {
			t.Errorf("%s: %v, want %v", genomicsMeasures(t)[m], got, w)
		}
	}
}

// charAP on INEX judgments and a focused run, worked by hand. Article a has
// relevant [10,30) and [40,50), article b [0,10): 40 relevant characters.
// The run, in line order (its rank):
//
//	a [0,20):  10 non-relevant, then 10 new relevant:  Σ i/(10+i), i = 1…10
//	b [5,15):  5 new relevant (10 and 20 before):      Σ (10+i)/(20+i), i = 1…5
//	           then 5 non-relevant (30 read)
//	a [40,45): 5 new relevant (15 and 30 before):      Σ (15+i)/(30+i), i = 1…5
//	a [10,30): 10 relevant read before (in neither count), then 10 new
//	           (20 and 35 before):                     Σ (20+i)/(35+i), i = 1…10
//
// charAP is the sum over 40. Article a reappears after b: charAP, which
// reads passages one by one, accepts it without --group.
func TestCharAPINEX(t *testing.T) {
	qrels := "1 Q0 a 30 100 0 10:20 40:10\n1 Q0 b 10 50 0 0:10\n"
	run := "1 Q0 a 1 1.0 r 0 20\n1 Q0 b 2 0.9 r 5 10\n1 Q0 a 3 0.8 r 40 5\n1 Q0 a 4 0.7 r 10 20\n"
	q := readQrels(t, "q", qrels)
	rr := mustRun(t, run)
	res := evaluate(t, q, rr, mustMeasure(t, "charAP"))
	sum := 0.0
	for i := 1; i <= 10; i++ {
		sum += float64(i)/float64(10+i) + float64(20+i)/float64(35+i)
	}
	for i := 1; i <= 5; i++ {
		sum += float64(10+i)/float64(20+i) + float64(15+i)/float64(30+i)
	}
	if got, want := res.All[0], sum/40; math.Abs(got-want) > 1e-15 {
		t.Errorf("charAP %v, want %v", got, want)
	}
	// Asked with a measure of ranked articles, the interleaving is refused
	// as before.
	_, err := Evaluate(q, rr, EvalOptions{Measures: mustMeasures(t, "charAP", "AgP")}, 1)
	if err == nil || !strings.Contains(err.Error(), "reappears") {
		t.Errorf("charAP with AgP on an interleaved run: %v", err)
	}
}

// PASSAGE on INEX judgments, worked by hand: the gold passages of FOL
// judgments are their highlighted passages, numbered per topic in line
// order (a [10,30) 0, a [40,50) 1, b [0,10) 2). In NIST's order (by rank):
//
//	a [0,20):  first overlapping gold a [10,30): 10 relevant of 20 read  10/20
//	b [5,15):  gold b [0,10): 5 more, 15 of 30                           15/30
//	a [40,44): gold a [40,50): 4 more, 19 of 34                          19/34
//
// Three passages with relevant text, every gold passage credited: the sum
// over 3. Without the passages numbered PASSAGE would be 0.
func TestPassageINEX(t *testing.T) {
	qrels := "1 Q0 a 30 100 0 10:20 40:10\n1 Q0 c 0 70 0\n1 Q0 b 10 50 0 0:10\n"
	run := "1 Q0 a 1 1.0 r 0 20\n1 Q0 b 2 0.9 r 5 10\n1 Q0 a 3 0.8 r 40 4\n"
	q := readQrels(t, "q", qrels)
	res := evaluate(t, q, mustRun(t, run), mustMeasure(t, "PASSAGE"))
	want := (10.0/20 + 15.0/30 + 19.0/34) / 3
	if got := res.All[0]; math.Abs(got-want) > 1e-15 {
		t.Errorf("PASSAGE %v, want %v", got, want)
	}
}

// Span judgments with lengths are INEX judgments in another form: the
// default measures (reading measures included) give the same values on
// the FOL judgments and on their span form with a lengths file.
func TestSpanJudgmentsWithLengths(t *testing.T) {
	fol := "1 Q0 a 30 100 0 10:20 40:10\n1 Q0 b 0 50 0\n1 Q0 c 10 80 0 70:10\n2 Q0 a 5 100 0 95:5\n"
	span := "1\ta\t10\t20\n1 a 40 10\n1 b 0 10 0\n1 c 70 10 2\n2 a 95 5\n"
	lengths := map[string]int{"a": 100, "b": 50, "c": 80}
	run := "1 Q0 a 1 1.0 r 0 20\n1 Q0 a 2 0.9 r 45 10\n1 Q0 c 3 0.8 r 60 30\n1 Q0 d 4 0.7 r 0 10\n2 Q0 a 1 1.0 r 90 20\n"
	ms := mustMeasures(t, append([]string{"charAP", "iP[0.01]", "AiP", "char_prec"}, benchMeasures...)...)
	qf := readQrels(t, "fol", fol)
	qs := readQrels(t, "span", span)
	if qs.Format != inex.SpanQrels || qs.Lengths() {
		t.Fatalf("span judgments: format %v, lengths %v", qs.Format, qs.Lengths())
	}
	if _, err := Evaluate(qs, mustRun(t, run), EvalOptions{Measures: ms}, 1); err == nil || !strings.Contains(err.Error(), "--lengths") {
		t.Errorf("reading measures without lengths: %v", err)
	}
	var warns []string
	if err := qs.SetLengths(lengths, "lengths", func(s string) { warns = append(warns, s) }); err != nil {
		t.Fatal(err)
	}
	a := evaluate(t, qf, mustRun(t, run), ms...)
	b := evaluate(t, qs, mustRun(t, run), ms...)
	for m, meas := range ms {
		for i := range a.Topics {
			if a.Values[m][i] != b.Values[m][i] {
				t.Errorf("%s topic %s: FOL %v, span %v", meas, a.Topics[i], a.Values[m][i], b.Values[m][i])
			}
		}
	}
	if len(warns) != 0 {
		t.Errorf("warnings %q", warns)
	}
	// A passage past its document's end is clipped, with a warning.
	qs = readQrels(t, "span", "1 a 90 20\n")
	if err := qs.SetLengths(lengths, "lengths", func(s string) { warns = append(warns, s) }); err != nil {
		t.Fatal(err)
	}
	if j := qs.Topics["1"].Docs["a"]; j.NRC != 10 || len(warns) != 1 || !strings.Contains(warns[0], "span:1: warning: passages past the document's length") {
		t.Errorf("clipped: NRC %d, warnings %q", j.NRC, warns)
	}
	// Every judged document needs a length.
	qs = readQrels(t, "span", "1 a 0 10\n1 zz 0 5\n")
	if err := qs.SetLengths(lengths, "lengths", nil); err == nil || !strings.Contains(err.Error(), "lengths: document zz, judged at span:2 (topic 1), has no length") {
		t.Errorf("missing length: %v", err)
	}
}

// The TREC Genomics measures average over every judged topic (a topic
// missing from the run scores 0), whatever -c says; measures asked with
// them are averaged the same way, with a warning.
func TestGenomicsEveryTopic(t *testing.T) {
	gold := "1\td\t0\t10\tA\n2\td\t0\t10\tA\n"
	run := "1 d 1 1.0 0 10 r\n"
	q := readQrels(t, "gold", gold)
	var warns []string
	res, err := Evaluate(q, mustRun(t, run), EvalOptions{Measures: mustMeasures(t, "PASSAGE2", "charAP"), Warn: func(s string) { warns = append(warns, s) }}, 1)
	if err != nil {
		t.Fatal(err)
	}
	// topic 1: PASSAGE2 = charAP = 1; topic 2: 0. Mean 1/2 for both.
	if len(res.Topics) != 2 || res.All[0] != 0.5 || res.All[1] != 0.5 {
		t.Errorf("topics %v, all %v", res.Topics, res.All)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "PASSAGE2 average over every judged topic") || !strings.Contains(warns[0], ": 2") {
		t.Errorf("warnings %q", warns)
	}
	// charAP alone: the topics of the run only, as every INEX measure.
	res, err = Evaluate(q, mustRun(t, run), EvalOptions{Measures: mustMeasures(t, "charAP")}, 1)
	if err != nil || len(res.Topics) != 1 || res.All[0] != 1 {
		t.Errorf("charAP alone: %v, %v", res, err)
	}
}

// compare works on Genomics runs as on INEX runs: three runs, per-topic
// values of every measure (MAP is their mean, NIST's), LaTeX.
func TestCompareGenomics(t *testing.T) {
	dir := shareddata.Genomics(t)
	q := openQrels(t, filepath.Join(dir, "gold-standard-07.txt"))
	var runs []*inex.Run
	for _, n := range []string{"york07-ga-01.txt", "york07-ga-02.txt"} {
		r := openRun(t, filepath.Join(dir, n))
		runs = append(runs, r)
	}
	// A third run: run 02 with topic 200 left out (it scores 0 there).
	third := *runs[1]
	third.ID, third.File = "york-no200", "york-no200.txt"
	third.Topics = nil
	for _, tp := range runs[1].Topics {
		if tp.ID != "200" {
			third.Topics = append(third.Topics, tp)
		}
	}
	runs = append(runs, &third)
	ms := genomicsMeasures(t)
	c, err := Compare(q, runs, CompareOptions{Eval: EvalOptions{Measures: ms}, Permutations: 2000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Topics) != 36 || len(c.Dropped) != 0 {
		t.Fatalf("%d topics, dropped %v", len(c.Topics), c.Dropped)
	}
	nist := []map[string]map[string]string{readNIST(t, filepath.Join(dir, "york07-ga-01.nist.tsv")), readNIST(t, filepath.Join(dir, "york07-ga-02.nist.tsv"))}
	for m, meas := range ms {
		for r := 0; r < 2; r++ {
			if got := strconv.FormatFloat(c.Runs[r].All[m], 'f', 8, 64); got != nist[r][meas.String()]["MAP"] {
				t.Errorf("run %d %s MAP %s, NIST %s", r, meas, got, nist[r][meas.String()]["MAP"])
			}
		}
		// run 3 = run 2 but topic 200 (0): its mean is (36·MAP₂ − v₂₀₀)/36.
		v200, _ := strconv.ParseFloat(nist[1][meas.String()]["200"], 64)
		if got := c.Runs[2].All[m]; math.Abs(got-(c.Runs[1].All[m]-v200/36)) > 1e-8 {
			t.Errorf("%s: third run %v", meas, got)
		}
	}
	var out bytes.Buffer
	if err := c.Write(&out, FormatLaTeX, 4); err != nil {
		t.Fatal(err)
	}
	tex := out.String()
	for _, want := range []string{`\begin{tabular}`, "PASSAGE2", "york-no200", fmt.Sprintf("%.4f", c.Runs[0].All[0])} {
		if !strings.Contains(tex, want) {
			t.Errorf("LaTeX lacks %q:\n%s", want, tex)
		}
	}
}

// SelectMeasures: without names the defaults of the judgments and the use
// (measures.md: the eleven on INEX judgments; trec_eval's usual measures
// on TREC qrels, compare leaving out the four num_ counts; the reading
// measures for readings, those the judgments can give); names as asked;
// an unknown name or an empty list is an error.
func TestSelectMeasures(t *testing.T) {
	inexQ := readQrels(t, "q.fol", "1 Q0 a 5 40 0 0:5\n")
	trecQ := readQrels(t, "q.trec", "1 0 a 1\n1 0 b 0\n")
	trecCounts := "num_q num_ret num_rel num_rel_ret "
	trecScores := "map Rprec recip_rank P_5 P_10 P_15 P_20 P_30 P_100 P_200 P_500 P_1000 ndcg ndcg_cut_10"
	for _, tc := range []struct {
		name  string
		q     *inex.Qrels
		use   Use
		names []string
		want  string // the measures, space-separated
		err   string
	}{
		{"INEX eval", inexQ, UseAll, nil, `AgP\F(0.25) gP[5]\F(0.25) gP[10]\F(0.25) gP[25]\F(0.25) gP[50]\F(0.25) AgP\T2Ip(300) AgP\T2Ip(2000) AgP\aveChP ANCE[100]\LE(300,5) ANCE[100]\LE(2000,5) AP`, ""},
		{"INEX asked", inexQ, UsePerTopic, []string{"AP,AgP", "AP"}, `AP AgP\F(0.25)`, ""},
		{"TREC eval", trecQ, UseAll, nil, trecCounts + trecScores, ""},
		{"TREC compare", trecQ, UsePerTopic, nil, trecScores, ""},
		{"readings", inexQ, UseRecorded, nil, `AgP\Read gP[5]\Read ANCE[10]\LE(300,5) ANCE[10]\LE(2000,5) AP num_ret num_rel_ret`, ""},
		{"readings compared", inexQ, UseRecordedPerTopic, nil, `AgP\Read gP[5]\Read ANCE[10]\LE(300,5) ANCE[10]\LE(2000,5) AP`, ""},
		// on judgments of whole documents, of those the ones that need no
		// passage and no length
		{"readings, TREC", trecQ, UseRecorded, nil, "AP num_ret num_rel_ret", ""},
		{"readings compared, TREC", trecQ, UseRecordedPerTopic, nil, "AP", ""},
		{"unknown", inexQ, UseAll, []string{"AP", "nope"}, "", `unknown measure "nope"`},
		{"none", inexQ, UseAll, []string{","}, "", "no measure"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms, err := SelectMeasures(tc.names, tc.use, tc.q)
			if wantError(t, err, tc.err) {
				return
			}
			var got []string
			for _, m := range ms {
				got = append(got, m.String())
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("measures\n%s\nwant\n%s", strings.Join(got, " "), tc.want)
			}
		})
	}
}
