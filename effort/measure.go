package effort

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DocKind is a document score of measures.md §4.
type DocKind int

// The document scores.
const (
	DocNone   DocKind = iota // no document score (binary, focused and count measures)
	DocF                     // F(β)
	DocT2Ip                  // T2Ip(x)
	DocT2Ir                  // T2Ir(x)
	DocT2If                  // T2If(x,β)
	DocChP                   // ChP[n]
	DocAveChP                // aveChP
	DocLE                    // LE(s,NR), or LE(s,NR,x) with a T2I stop
	DocRead                  // Read: precision of a recorded reading
)

// DocScore is a document score with its parameters.
type DocScore struct {
	Kind DocKind
	// Beta is β of F and T2If.
	Beta float64
	// X is the tolerance to irrelevance of T2Ip, T2Ir, T2If and of LE (0 for
	// LE: no stop); N the characters of ChP; S the screen size and NR the
	// maximum effort of LE.
	X, N, S, NR int
}

// Default parameters of the document scores when a name omits them.
const (
	DefaultBeta    = 0.25 // F: the INEX 2008–09 official F(0.25)
	DefaultT2IBeta = 1.0  // T2If: the paper's T2If1
	DefaultX       = 300  // T2Ip, T2Ir, T2If: the INEX 2010 official T2I(300)
	DefaultChPN    = 600  // ChP
	DefaultScreen  = 300  // LE: a phone screen
	DefaultNR      = 5    // LE
)

// String returns the canonical name, e.g. "F(0.25)", "T2If(2000,1)", "LE(300,5)".
func (d DocScore) String() string {
	if f := d.family(); f != nil {
		return f.name(d)
	}
	return ""
}

// Of returns the score of document d. For LE it is the effort ES(d).
func (d DocScore) Of(doc *Doc) float64 {
	if f := d.family(); f != nil {
		return f.of(d, doc)
	}
	return 0
}

// ListKind is a list score (or a focused or count measure).
type ListKind int

// The list scores, focused scores and official counts.
const (
	ListAgP  ListKind = iota // AgP
	ListAgP1                 // AgP'
	ListAgP2                 // AgP''
	ListGP                   // gP[k]
	ListGR                   // gR[k]
	ListIGP                  // igP[x]: the INEX tool's ircl_prn of -r and -i
	ListCE                   // CE[k]
	ListNCE                  // NCE[k]
	ListANCE                 // ANCE[k]
	ListP                    // P[k]
	ListAP                   // AP
	ListIP                   // iP[x]
	ListAiP                  // AiP
	// The official tool's counts and set measures (their `all` is a sum for
	// the counts, a mean for the ratios).
	CountNumRet
	CountNumRel
	CountNumRelRet
	CountRetSize
	CountRelSize
	CountRelRetSize
	CountArtPrec
	CountArtRec
	CountArtF1
	CountCharPrec
	CountCharRec
	CountCharF1
	// Document measures as trec_eval computes them (like P and AP they rank
	// as trec_eval does: see Measure.RanksByScore).
	ListRR    // recip_rank
	ListRprec // Rprec
	ListNDCG  // ndcg_cut_k (K = 0: ndcg, no cutoff)
	ListR     // recall_k (R@k)
	CountNumQ // num_q: 1 per topic, summed
	// The span measures (genomics.go): they read a topic's retrieved
	// passages with their documents' judged passages.
	ListDocument // DOCUMENT (TREC Genomics)
	ListPassage  // PASSAGE (TREC Genomics)
	ListAspect   // ASPECT (TREC Genomics)
	ListPassage2 // PASSAGE2 (TREC Genomics)
	ListCharAP   // charAP: PASSAGE2 in the run's line order
	// ListTrec is one value of a trec_eval measure beyond those above
	// (bpref, infAP, iprec_at_recall_0.50, success_10, set_F…:
	// treceval_names.go), computed as trec_eval computes it.
	ListTrec
)

// Measure is a parsed measure name: a list score, its rank or recall level,
// and the document score it aggregates.
type Measure struct {
	List ListKind
	// K is the rank of gP, gR, CE, NCE, ANCE and P.
	K int
	// X is the recall level of iP.
	X float64
	// Doc is the document score (Kind DocNone for binary, focused and count
	// measures).
	Doc DocScore
	// Name, when not empty, is the name the measure was asked by (an alias
	// such as MAgP or nDCG@10): reports print it.
	Name string
	// trec is the trec_eval measure value of ListTrec.
	trec *trecValue
}

// RanksByScore reports whether the measure ranks a topic's documents as
// trec_eval does, by the run's score, descending, ties broken by document
// id, descending (trec_eval's strcmp), whatever the run's line order: the
// document measures P[k], AP, RR, Rprec, nDCG and R[k] (under every name:
// map, P_10, P@10, recip_rank, ndcg_cut_10, recall_100, R@100…), so that
// each equals trec_eval's. The INEX list scores (AgP, gP, gR, igP, CE,
// NCE, ANCE…) and the focused and span measures rank by the run's line
// order, as the official INEX tool does. A ranked list without scores (a
// recorded reading, a simulated run: TopicInput.Scored false) is ranked in
// its order by every measure.
func (m Measure) RanksByScore() bool { return m.family().byScore }

// RanksByLine reports whether the measure ranks a topic's documents or
// passages in the run's line order, as the official INEX tool does: the
// INEX list scores (AgP, gP, gR, igP, CE, NCE, ANCE…), the focused measures
// (iP, AiP) and charAP. The measures that rank by score (RanksByScore), the
// counts and the Genomics span measures (ranked by their rank column) do
// not: a run whose scores do not fall down its lines is worth a warning
// only when such a measure is asked.
func (m Measure) RanksByLine() bool {
	f := m.family()
	return !f.byScore && !f.count && (!f.span || m.List == ListCharAP)
}

// IsSum reports whether the measure's `all` value is the sum over topics (the
// official tool's counts) rather than the mean.
func (m Measure) IsSum() bool { return m.family().sum }

// IsFocused reports whether the measure evaluates ranked passages (iP, AiP),
// which accept interleaved articles.
func (m Measure) IsFocused() bool { return m.family().focused }

// IsCount reports whether the measure is one of the official counts or set measures.
func (m Measure) IsCount() bool { return m.family().count }

// IsSpan reports whether the measure is a span measure (DOCUMENT, PASSAGE,
// ASPECT, PASSAGE2, charAP): it reads the topic's retrieved passages one by
// one (TopicInput.Ranked), so it accepts interleaved documents and
// overlapping passages, whose conventions it defines.
func (m Measure) IsSpan() bool { return m.family().span }

// AllTopics reports whether the measure's `all` is the mean over every
// judged topic, a topic missing from the run scoring 0, whatever -c says:
// the TREC Genomics measures' MAP, as NIST's scorer computes it.
func (m Measure) AllTopics() bool { return m.family().allTopics }

// Better says whether larger or smaller values of the measure are better.
func (m Measure) Better() Direction { return m.family().better }

// String returns the name the measure was asked by, or its canonical full
// name, e.g. `AgP\F(0.25)`, `iP[0.01]`, `map`, `ndcg_cut_10`.
func (m Measure) String() string {
	if m.Name != "" {
		return m.Name
	}
	return m.Canonical()
}

// Canonical returns the measure's canonical name, whatever it was asked by.
func (m Measure) Canonical() string {
	if m.List == ListTrec && m.trec != nil {
		return m.trec.name
	}
	f := m.family()
	l := f.head
	switch f.param {
	case paramRank:
		if m.K == 0 && f.rankOptional {
			break
		}
		l += "[" + strconv.Itoa(m.K) + "]"
	case paramLevel:
		l += "[" + fmtLevel(m.X) + "]"
	}
	if m.Doc.Kind != DocNone {
		return l + `\` + m.Doc.String()
	}
	return l
}

// KnownForms lists the measure names ParseMeasure accepts, for error messages.
const KnownForms = `list scores with a document score: AgP\D, AgP'\D, AgP''\D, gP[k]\D, igP[x]\D, gR[k] (D optional);
effort: CE[k]\LE(s,NR), NCE[k]\LE(s,NR), ANCE[k]\LE(s,NR);
document measures, ranked by score as trec_eval: P[k], AP, RR, Rprec, nDCG, nDCG[k], R[k]; focused: iP[x] (0 ≤ x ≤ 1), AiP, charAP;
TREC Genomics 2007 (passages in rank order, "all" over every judged topic): DOCUMENT, PASSAGE, ASPECT, PASSAGE2;
official counts: num_ret, num_rel, num_rel_ret, ret_size, rel_size, rel_ret_size, art_prec, art_rec, art_f1, char_prec, char_rec, char_f1;
document scores D: F(β), T2Ip(x), T2Ir(x), T2If(x,β), ChP[n], aveChP (LE(s,NR) only with CE, NCE, ANCE);
omitted parameters: F → F(0.25), T2Ip/T2Ir/T2If → x=300, T2If β=1, ChP → ChP[600], LE → LE(300,5), LE(s) → LE(s,5); LE(s,NR,x) stops at T2I(x);
a list score without D: AgP, AgP', AgP'', gP[k], igP[x] → \F(0.25); CE, NCE, ANCE → \LE(300,5)
other tools' names: MAgP, MAiP, ircl_prn.0.50 (INEX -r; ircl_prn.0.50\T2Ip(300): -i); map, P_10, recip_rank, Rprec, ndcg, ndcg_cut_10, recall_100, num_q (trec_eval); P@10, RR, R@100, nDCG@10 (ir_measures);
lists: -m map,P_10,nDCG@10 or trec_eval's -m P.5,10,20; -m all; readsim measures lists every measure
examples: AgP\F(0.25) gP[10]\F(0.25) AgP\T2Ip(300) AgP\T2If(2000,1) AgP\ChP[600] AgP\aveChP ANCE[100]\LE(300,5) P[10] AP iP[0.01] AiP`

// nameError is why a name is not a measure: an unknown name (unknown) or
// a known measure with a bad parameter. ParseMeasure words it with the name
// as typed.
type nameError struct {
	unknown bool
	why     string
}

func (e *nameError) Error() string { return e.why }

// message words err (from parseCanonical, or any error) for the name as
// typed: "unknown measure NAME: why; known forms: …" or "measure NAME: why".
func message(name string, err error) error {
	if ne, ok := err.(*nameError); ok && ne.unknown {
		return fmt.Errorf("unknown measure %s: %s; known forms:\n%s", quoteName(name), ne.why, KnownForms)
	}
	return fmt.Errorf("measure %s: %v", quoteName(name), err)
}

// quoteName quotes a measure name for a message as it was typed: in double
// quotes, with its backslashes single (AgP\T2Ip(NaN)); a name with a
// control character, a quote or invalid UTF-8 is quoted as Go quotes it.
func quoteName(s string) string {
	if strings.ContainsRune(s, '"') || !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(s)
	}
	return `"` + s + `"`
}

// parseCanonical parses a measure name in readsim's own grammar. Omitted
// parameters take their defaults (see KnownForms); String gives the full
// canonical name back. Its errors are *nameError.
func parseCanonical(name string) (Measure, error) {
	unknown := func(why string) (Measure, error) { return Measure{}, &nameError{unknown: true, why: why} }
	bad := func(why string) (Measure, error) { return Measure{}, &nameError{why: why} }
	list, doc, hasDoc := strings.Cut(strings.TrimSpace(name), `\`)
	var m Measure
	head, arg, hasArg, ok := splitCall(list, '[', ']')
	if !ok {
		return unknown("malformed brackets")
	}
	f, ok := familyNamed(head)
	if !ok {
		return unknown("unknown list score " + quoteName(head))
	}
	m.List = f.list
	switch f.param {
	case paramRank:
		if !hasArg && f.rankOptional {
			break
		}
		if !hasArg {
			return bad(head + " needs a rank, e.g. " + head + "[10]")
		}
		k, err := strconv.Atoi(arg)
		if err != nil || k < 1 || k > MaxRank {
			return bad(fmt.Sprintf("the rank of %s must be an integer from 1 to %d, not %s", head, MaxRank, quoteName(arg)))
		}
		m.K = k
	case paramLevel:
		if !hasArg {
			return bad(head + " needs a recall level, e.g. " + head + "[0.01]")
		}
		x, err := strconv.ParseFloat(arg, 64)
		if err != nil || !(x >= 0 && x <= 1) {
			return bad("the recall level of " + head + " must be a number in [0,1], not " + quoteName(arg))
		}
		m.X = x
	default:
		if hasArg {
			return bad(head + " takes no [parameter]")
		}
	}
	if hasDoc {
		d, err := parseDoc(doc)
		if err != nil {
			return Measure{}, err
		}
		m.Doc = d
	}
	switch f.doc {
	case docDefaultF, docOptional:
		if !hasDoc && f.doc == docDefaultF {
			m.Doc = DocScore{Kind: DocF, Beta: DefaultBeta}
		}
		if m.Doc.Kind == DocLE {
			return bad(m.Doc.String() + " is an effort; use it with CE, NCE or ANCE")
		}
	case docEffort:
		if !hasDoc {
			m.Doc = DocScore{Kind: DocLE, S: DefaultScreen, NR: DefaultNR}
		}
		if m.Doc.Kind != DocLE {
			return bad(head + " needs the effort score LE(s,NR)")
		}
	default:
		if hasDoc {
			return bad(head + " takes no document score")
		}
	}
	return m, nil
}

func parseDoc(s string) (DocScore, error) {
	head, arg, hasArg, ok := splitCall(s, '(', ')')
	if !ok || (!hasArg && strings.ContainsAny(s, "[]")) {
		if h, a, has, ok2 := splitCall(s, '[', ']'); ok2 {
			head, arg, hasArg, ok = h, a, has, true
		}
	}
	if !ok {
		return DocScore{}, &nameError{unknown: true, why: "malformed document score " + quoteName(s)}
	}
	f := docFamilyNamed(head)
	if f == nil || (hasArg && f.bracket != (strings.HasSuffix(s, "]"))) {
		return DocScore{}, &nameError{unknown: true, why: "unknown document score " + quoteName(s)}
	}
	var args []string
	if hasArg {
		args = strings.Split(arg, ",")
	}
	if len(args) > len(f.params) {
		return DocScore{}, &nameError{why: fmt.Sprintf("%s takes at most %d parameters", head, len(f.params))}
	}
	d := DocScore{Kind: f.kind}
	for i, p := range f.params {
		v := p.def
		if i < len(args) {
			a := strings.TrimSpace(args[i])
			if p.real {
				x, err := strconv.ParseFloat(a, 64)
				if err != nil || !(x > 0) || math.IsInf(x, 0) {
					return d, &nameError{why: fmt.Sprintf("%s of %s must be a positive finite number, not %s", p.what, head, quoteName(a))}
				}
				v = x
			} else {
				n, err := strconv.Atoi(a)
				if err != nil || n < 1 || n > MaxParam {
					return d, &nameError{why: fmt.Sprintf("%s of %s must be an integer from 1 to %d, not %s", p.what, head, MaxParam, quoteName(a))}
				}
				v = float64(n)
			}
		}
		p.set(&d, v)
	}
	return d, nil
}

// splitCall splits "name(arg)" (with open/close the brackets) into name and
// arg; a bare "name" has hasArg false. ok is false when brackets are malformed.
func splitCall(s string, open, close byte) (head, arg string, hasArg, ok bool) {
	i := strings.IndexByte(s, open)
	if i < 0 {
		return s, "", false, strings.IndexByte(s, close) < 0
	}
	if !strings.HasSuffix(s, string(close)) || i == 0 {
		return "", "", false, false
	}
	arg = s[i+1 : len(s)-1]
	if strings.ContainsAny(arg, string([]byte{open, close})) {
		return "", "", false, false
	}
	return s[:i], arg, true, true
}

// fmtNum formats a parameter with the fewest digits that read back exactly.
func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// fmtLevel formats a recall level with at least two decimals, as the official
// tool does (iP[0.10]).
func fmtLevel(x float64) string {
	s := strconv.FormatFloat(x, 'f', 2, 64)
	if v, _ := strconv.ParseFloat(s, 64); v == x {
		return s
	}
	return fmtNum(x)
}
