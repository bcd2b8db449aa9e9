package effort

import (
	"slices"
	"strconv"
	"strings"
)

// The measures asked for without -m, and by -m all: every command, the web
// view and the help texts read these lists.

// DefaultNames are the measures of `readsim eval` without -m (cli.md), which
// compare and fidelity use too: the INEX 2008–09 and 2010 official measures,
// the reading measures on a phone and a laptop screen, and AP.
var DefaultNames = []string{
	`AgP\F(0.25)`, `gP[5]\F(0.25)`, `gP[10]\F(0.25)`, `gP[25]\F(0.25)`, `gP[50]\F(0.25)`,
	`AgP\T2Ip(300)`, `AgP\T2Ip(2000)`, `AgP\aveChP`, `ANCE[100]\LE(300,5)`, `ANCE[100]\LE(2000,5)`, `AP`,
}

// GenomicsNames are the TREC 2007 Genomics track's official measures, in
// the order of NIST's scorer: eval's default on span judgments.
var GenomicsNames = []string{"DOCUMENT", "PASSAGE", "ASPECT", "PASSAGE2"}

// mustParse parses names that are part of the registry.
func mustParse(names []string) []Measure {
	out := make([]Measure, len(names))
	for i, n := range names {
		m, err := ParseMeasure(n)
		if err != nil {
			panic("effort: a default measure does not parse: " + err.Error())
		}
		out[i] = m
	}
	return out
}

// AllNames is what -m all asks for on judgments of characters (INEX FOL,
// span judgments): eval's defaults, the other reading measures, the
// official INEX tool's focused measures and counts, and trec_eval's common
// document measures (a measure named twice, such as AP and map, once: by
// its first name here).
var AllNames = append(append([]string(nil), DefaultNames...),
	`AgP\T2Ir(300)`, `AgP\T2If(300,1)`, `AgP\ChP[600]`, `AgP'\F(0.25)`, `AgP''\F(0.25)`, `gR[25]`,
	"iP[0.00]", "iP[0.01]", "iP[0.05]", "iP[0.10]", "AiP", "charAP",
	"num_q", "num_ret", "num_rel", "num_rel_ret", "ret_size", "rel_size", "rel_ret_size",
	"art_prec", "art_rec", "art_f1", "char_prec", "char_rec", "char_f1",
	"P_5", "P_10", "P_20", "recip_rank", "Rprec", "ndcg_cut_10", "ndcg", "recall_100",
)

// DocumentNames are the measures of eval without -m on judgments of whole
// documents (plain TREC qrels), where no measure of characters can be
// computed: trec_eval's usual measures by its names (its default set but
// gm_map, bpref and iprec_at_recall, with ndcg and ndcg_cut_10). Those three
// and every other all_trec measure are computed when asked by name (-m), and
// readsim trec_eval prints trec_eval's own default set (docs/trec_eval.md);
// eval's defaults stay as they were so that its outputs do not change.
var DocumentNames = []string{
	"num_q", "num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "recip_rank",
	"P_5", "P_10", "P_15", "P_20", "P_30", "P_100", "P_200", "P_500", "P_1000",
	"ndcg", "ndcg_cut_10",
}

// DocumentAllNames is what -m all asks for on judgments of whole documents:
// DocumentNames and trec_eval's other cutoffs of recall and ndcg_cut.
var DocumentAllNames = append(append([]string(nil), DocumentNames...),
	"recall_5", "recall_10", "recall_15", "recall_20", "recall_30", "recall_100", "recall_200", "recall_500", "recall_1000",
	"ndcg_cut_5", "ndcg_cut_15", "ndcg_cut_20", "ndcg_cut_30", "ndcg_cut_100", "ndcg_cut_200", "ndcg_cut_500", "ndcg_cut_1000",
)

// ReadingNames are the measures of eval --readings without -m: the
// precision of what was read as a list score, the effort to relevant text
// on a phone and a laptop screen over the order the articles were opened,
// the binary document measures over that order, and the counts of articles
// opened and relevant articles opened.
var ReadingNames = append(append([]string(nil), ReadingListNames...), "num_ret", "num_rel_ret")

// ReadingListNames are ReadingNames without the counts: what compare
// --readings compares by default.
var ReadingListNames = []string{`AgP\Read`, `gP[5]\Read`, `ANCE[10]\LE(300,5)`, `ANCE[10]\LE(2000,5)`, "AP"}

// ReplayNames are the list scores of the simulated reader's `done` events
// without -m (readsim replay, the simulation view), as its help writes
// them: s and NR stand for the reader's screen and NR. A reader with a
// tolerance to irrelevance x also gets ReplayT2INames, after gP[10], with x
// for X, and its effort becomes LE(s,NR,x) (ReplayDefaults).
var ReplayNames = []string{`AgP\F(0.25)`, `gP[5]`, `gP[10]`, `AgP\aveChP`, `ANCE[100]\LE(s,NR)`, "AP"}

// ReplayT2INames are the list scores a reader with a tolerance X adds to
// ReplayNames.
var ReplayT2INames = []string{`AgP\T2Ip(X)`, `AgP\T2Ir(X)`, `AgP\T2If(X,1)`}

// ReplayDefaults returns the measures of ReplayNames (with ReplayT2INames
// when x > 0) for a reader with tolerance x (0: none), screen s and effort
// NR nr, each printed by its canonical name (gP[5]\F(0.25)).
func ReplayDefaults(x, s, nr int) []Measure {
	names := ReplayNames
	le := strconv.Itoa(s) + "," + strconv.Itoa(nr)
	if x > 0 {
		at := slices.Index(names, `gP[10]`) + 1
		names = slices.Insert(slices.Clone(names), at, ReplayT2INames...)
		le += "," + strconv.Itoa(x)
	}
	r := strings.NewReplacer("s,NR", le, "X", strconv.Itoa(x))
	concrete := make([]string, len(names))
	for i, n := range names {
		concrete[i] = r.Replace(n)
	}
	ms := mustParse(concrete)
	for i := range ms {
		ms[i].Name = ""
	}
	return ms
}

// Judged is what judgments mark relevant, which decides the measures asked
// for without -m and by -m all.
type Judged uint8

// The kinds of judgments.
const (
	// JudgedText: the relevant characters of articles (INEX FOL).
	JudgedText Judged = iota
	// JudgedDocuments: whole documents (plain TREC qrels).
	JudgedDocuments
	// JudgedSpans: spans of documents (TREC Genomics, span judgments).
	JudgedSpans
)

// DefaultNamesFor returns the measures asked for without -m on judgments
// of kind j: DefaultNames, DocumentNames or GenomicsNames (ASPECT only
// when the span judgments have aspects).
func DefaultNamesFor(j Judged, aspects bool) []string {
	switch j {
	case JudgedDocuments:
		return DocumentNames
	case JudgedSpans:
		var out []string
		for _, n := range GenomicsNames {
			if n != "ASPECT" || aspects {
				out = append(out, n)
			}
		}
		return out
	}
	return DefaultNames
}

// AllNamesFor returns what -m all names on judgments of kind j, before the
// measures the judgments cannot give are left out: AllNames,
// DocumentAllNames, or GenomicsNames and AllNames.
func AllNamesFor(j Judged) []string {
	switch j {
	case JudgedDocuments:
		return DocumentAllNames
	case JudgedSpans:
		return append(append([]string(nil), GenomicsNames...), AllNames...)
	}
	return AllNames
}

// DefaultsUsage says what -m defaults to on each kind of judgments, for a
// command's help; counts tells whether the command's defaults keep
// trec_eval's counts (eval does, compare does not).
func DefaultsUsage(counts bool) string {
	doc := DocumentNames
	if !counts {
		doc = nil
		for _, n := range DocumentNames {
			if m, err := ParseMeasure(n); err == nil && !m.IsCount() {
				doc = append(doc, n)
			}
		}
	}
	return "default: " + strings.Join(DefaultNames, " ") +
		"; on TREC qrels (whole documents) " + strings.Join(doc, " ") +
		"; on span judgments " + strings.Join(GenomicsNames, " ")
}

// ReplayUsage says what the replay's -m defaults to, for its help.
func ReplayUsage() string {
	return "default: " + strings.Join(ReplayNames, ", ") + ", and with --t2i X " + strings.Join(ReplayT2INames, ", ")
}
