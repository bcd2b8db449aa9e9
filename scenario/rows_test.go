package scenario

import (
	"bytes"
	"strings"
	"testing"

	"github.com/readsim/readsim/scenario/inex"
)

// TestWriteQrelsRows checks the rows of each judgments format against rows
// written by hand from formats.md: FOL passages united and cut to the
// article, a non-relevant article as one row without passage, a negative
// TREC grade as -1, span judgments one row a distinct passage.
func TestWriteQrelsRows(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"fol", "7 Q0 a 30 100 5 5:10 12:20 90:20\n7 Q0 b 0 50 0\n2 Q0 c 3 9 1 1:3\n",
			"2\tc\t1\t1\t3\t9\t1\t\n" +
				"7\ta\t1\t5\t27\t100\t5\t\n7\ta\t1\t90\t10\t100\t5\t\n" +
				"7\tb\t0\t\t\t50\t0\t\n"},
		{"trec", "q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 -2\n",
			"q1\td1\t2\t\t\t\t\t\nq1\td2\t0\t\t\t\t\t\nq1\td3\t-1\t\t\t\t\t\n"},
		{"span", "t1 d1 10 5 2\nt1 d1 40 3 1\nt1 d2 0 4 0\n",
			"t1\td1\t2\t10\t5\t\t\t\nt1\td1\t2\t40\t3\t\t\t\nt1\td2\t0\t\t\t\t\t\n"},
		{"aspects", "t1\td1\t10\t5\t1\tX|Y\nt1\td2\t0\t3\t1\tY\nt2\td1\t0\t3\t1\tY\n",
			"t1\td1\t1\t10\t5\t\t\t0|1\nt1\td2\t1\t0\t3\t\t\t1\nt2\td1\t1\t0\t3\t\t\t0\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := inex.ReadQrels(c.name, strings.NewReader(c.in), func(string) {})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := WriteQrelsRows(&b, q); err != nil {
				t.Fatal(err)
			}
			if want := QrelsRowsHeader + "\n" + c.want; b.String() != want {
				t.Errorf("rows:\n%s\nwant:\n%s", b.String(), want)
			}
		})
	}
}

// TestWriteRunRows checks the rows of each run format against rows written
// by hand: the line order kept within a topic (not the rank or score
// order), a TREC line as a whole document (no start, no length), an
// entry point's offset under bep, scores as the shortest decimal that
// reads back.
func TestWriteRunRows(t *testing.T) {
	xml := `<inex-submission participant-id="1" run-id="x1" task="BestInContext" query="automatic" result-type="element">
<topic topic-id="5"><result><file>d9</file><rank>1</rank><rsv>0.5</rsv><bep offset="17"/></result></topic>
</inex-submission>`
	cases := []struct {
		name, in, want string
	}{
		{"fol", "3 Q0 a 2 1.5 r1 10 5\n3 Q0 a 1 0.1 r1 0 4\n1 Q0 b 1 0.30000000000000004 r1 7 1\n",
			"3\ta\t2\t1.5\tr1\t10\t5\t\n3\ta\t1\t0.1\tr1\t0\t4\t\n1\tb\t1\t0.30000000000000004\tr1\t7\t1\t\n"},
		{"trec", "3 Q0 a 1 2 r2\n3 Q0 b 2 1e-3 r2\n",
			"3\ta\t1\t2\tr2\t\t\t\n3\tb\t2\t0.001\tr2\t\t\t\n"},
		{"xml", xml, "5\td9\t\t0.5\tx1\t\t\t17\n"}, // XML: no rank column (Run.Ranked)
		{"genomics", "200 12595615 1 48.63 28426 295 york\n", "200\t12595615\t1\t48.63\tyork\t28426\t295\t\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run, err := inex.ReadRun(c.name, strings.NewReader(c.in), inex.RunOptions{Warn: func(string) {}})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := WriteRunRows(&b, run); err != nil {
				t.Fatal(err)
			}
			if want := RunRowsHeader + "\n" + c.want; b.String() != want {
				t.Errorf("rows:\n%s\nwant:\n%s", b.String(), want)
			}
		})
	}
}

// TestDescribeMeasures checks how names are described against the
// catalogue of measures.md: canonical names, kinds, directions, the
// aggregation and the ranking each follows.
func TestDescribeMeasures(t *testing.T) {
	cases := []struct {
		name string
		want MeasureInfo
	}{
		{`AgP\T2Ip(300)`, MeasureInfo{Canonical: `AgP\T2Ip(300)`, TopicName: `AgP\T2Ip(300)`, AllName: `AgP\T2Ip(300)`, Kind: "list score", Better: "higher", All: "mean", Ranks: "line", Passages: true, Lengths: true}},
		{"map", MeasureInfo{Canonical: "AP", TopicName: "map", AllName: "map", Kind: "document", Better: "higher", All: "mean", Ranks: "score"}},
		{"P@10", MeasureInfo{Canonical: "P[10]", TopicName: "P@10", AllName: "P@10", Kind: "document", Better: "higher", All: "mean", Ranks: "score"}},
		{"ANCE[20]", MeasureInfo{Canonical: `ANCE[20]\LE(300,5)`, TopicName: `ANCE[20]\LE(300,5)`, AllName: `ANCE[20]\LE(300,5)`, Kind: "list score", Better: "lower", All: "mean", Ranks: "line", Passages: true, Lengths: true}},
		{`MAgP`, MeasureInfo{Canonical: `AgP\F(0.25)`, TopicName: "AgP", AllName: "MAgP", Kind: "list score", Better: "higher", All: "mean", Ranks: "line", Passages: true}},
		{"ircl_prn.0.50", MeasureInfo{Canonical: `igP[0.50]\F(0.25)`, TopicName: "ircl_prn.0.50", AllName: "ircl_prn.0.50", SummaryOnly: true, Kind: "list score", Better: "higher", All: "mean", Ranks: "line", Passages: true}},
		{"num_q", MeasureInfo{Canonical: "num_q", TopicName: "num_q", AllName: "num_q", SummaryOnly: true, Kind: "count", Better: "neutral", All: "sum"}},
		{"num_ret", MeasureInfo{Canonical: "num_ret", TopicName: "num_ret", AllName: "num_ret", Kind: "count", Better: "neutral", All: "sum"}},
		{"DOCUMENT", MeasureInfo{Canonical: "DOCUMENT", TopicName: "DOCUMENT", AllName: "DOCUMENT", Kind: "passages", Better: "higher", All: "mean, every judged topic"}},
		{"num_nonrel_judged_ret", MeasureInfo{Canonical: "num_nonrel_judged_ret", TopicName: "num_nonrel_judged_ret", AllName: "num_nonrel_judged_ret", Kind: "trec_eval", Better: "higher", All: "sum", Ranks: "score"}},
		{"gm_map", MeasureInfo{Canonical: "gm_map", TopicName: "gm_map", AllName: "gm_map", Kind: "trec_eval", Better: "higher", All: "geometric mean", Ranks: "score"}},
		// --compat 9 computes the family by trec_eval 9's rule: at
		// recall 0.6 and R = 4, (long)(2.4 + 0.9) = 3 relevant documents
		// against lround(2.4) = 2 (docs/trec_eval.md)
		{"IPrec@0.6", MeasureInfo{Canonical: "iprec_at_recall_0.60", TopicName: "IPrec@0.6", AllName: "IPrec@0.6", Kind: "trec_eval", Better: "higher", All: "mean", Ranks: "score", Compat9: true}},
	}
	for _, c := range cases {
		got, err := DescribeMeasures([]string{c.name})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		c.want.Name = c.name
		if got[0] != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got[0], c.want)
		}
	}
	if _, err := DescribeMeasures([]string{"AgP", "Agp\\T2Ip(30"}); err == nil {
		t.Error("a bad name: no error")
	} else if _, ok := err.(*RequestError); !ok {
		t.Errorf("a bad name: %T, want *RequestError", err)
	}
}
