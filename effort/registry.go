package effort

import "strconv"

// The registry: one table of every list score (with the focused and count
// measures) and one of every document score. Parsing, printing, aggregation,
// direction, the evaluator and the documentation (`readsim measures`) all
// read these tables; a new measure is one row.

// Direction says whether larger or smaller values of a measure are better.
type Direction int8

// The directions.
const (
	Neutral Direction = 0  // counts and sizes: neither
	Higher  Direction = 1  // larger is better (precision, gain, recall…)
	Lower   Direction = -1 // smaller is better (cumulated effort)
)

// String returns "higher", "lower" or "neutral".
func (d Direction) String() string {
	switch d {
	case Higher:
		return "higher"
	case Lower:
		return "lower"
	}
	return "neutral"
}

// Bounds on the parameters of measure names, so that a typo such as
// ANCE[1e11] is refused at once rather than run.
const (
	// MaxRank is the largest rank k of gP[k], CE[k], P[k]…: the measures
	// walk k ranks per topic.
	MaxRank = 1_000_000
	// MaxParam is the largest integer parameter of a document score
	// (tolerance x, screen s, NR, ChP's n).
	MaxParam = 1_000_000_000
)

type paramKind uint8

const (
	paramNone  paramKind = iota
	paramRank            // [k], a rank
	paramLevel           // [x], a recall level in [0,1]
)

// docRule says which document scores a list score takes.
type docRule uint8

const (
	docNone     docRule = iota // none
	docDefaultF                // any but LE; F(0.25) when omitted
	docOptional                // any but LE, or none
	docEffort                  // LE only; LE(300,5) when omitted
)

// valueArgs is what a list score is computed from.
type valueArgs struct {
	m      Measure
	t      *TopicInput
	v      *DocValues
	s      []float64 // the document scores at each rank (nil without one)
	w      *Workspace
	compat bool
	// trecCompat is Config.TrecCompat
	trecCompat int
	// byScore: the measure ranks by score (listFamily.byScore)
	byScore bool
}

// isrel and grades are the relevance of the ranked documents in the order
// the measure ranks them: trec_eval's for the measures that rank by score
// (when the documents have scores), the list order otherwise.
func (a *valueArgs) isrel() []bool {
	if a.byScore && a.v.TrecIsRel != nil {
		return a.v.TrecIsRel
	}
	return a.v.IsRel
}

func (a *valueArgs) grades() []int {
	if a.byScore && a.v.TrecGrade != nil {
		return a.v.TrecGrade
	}
	return a.v.Grade
}

// listFamily is one row of the list-score table.
type listFamily struct {
	list    ListKind
	head    string // as written: "AgP", "gP", "num_ret"
	param   paramKind
	doc     docRule
	sum     bool // `all` is the sum over topics (the official counts)
	focused bool // ranked passages (iP, AiP)
	count   bool // the official tool's counts and set measures
	better  Direction
	meaning string
	source  string
	value   func(a *valueArgs) float64
	// byScore: the measure ranks by score as trec_eval does
	// (Measure.RanksByScore); rankOptional: its rank may be omitted (nDCG:
	// no cutoff).
	byScore, rankOptional bool
	// chars: the measure needs the judgments' relevant passages (not
	// necessarily the documents' lengths).
	chars bool
	// span: the measure reads TopicInput.Ranked (IsSpan); aspects: it needs
	// the judgments' aspects; allTopics: its `all` is the mean over every
	// judged topic (AllTopics).
	span, aspects, allTopics bool
}

const (
	srcINEX   = "INEX evaluation tool (Kamps et al. 2007)"
	srcArvola = "Arvola, Kekäläinen & Junkkari 2010"
	srcPT     = "Pehcevski & Thom 2007"
	srcTREC   = "trec_eval"
	srcGen    = "TREC 2007 Genomics (Hersh et al.)"
)

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// listFamilies is indexed by ListKind.
var listFamilies = [...]listFamily{
	ListAgP: {head: "AgP", doc: docDefaultF, better: Higher, source: srcINEX,
		meaning: "average generalized precision: mean of gP[r] over the ranks r of relevant articles, divided by Trel",
		value:   func(a *valueArgs) float64 { return AgP(a.s, a.v.IsRel, a.t.Trel) }},
	ListAgP1: {head: "AgP'", chars: true, doc: docDefaultF, better: Higher, source: srcPT + " (eq. 8)",
		meaning: "AgP with each relevant article weighted by its share of the topic's relevant characters",
		value:   func(a *valueArgs) float64 { return AgP1(a.s, a.v.RSize, a.t.TrelChars) }},
	ListAgP2: {head: "AgP''", chars: true, doc: docDefaultF, better: Higher, source: srcPT + " (eq. 11)",
		meaning: "AgP scaled by the relevant characters of the relevant articles retrieved",
		value:   func(a *valueArgs) float64 { return AgP2(a.s, a.v.RSize, a.t.TrelChars) }},
	ListGP: {head: "gP", param: paramRank, doc: docDefaultF, better: Higher, source: srcINEX,
		meaning: "generalized precision at rank k: the mean document score of the first k articles",
		value:   func(a *valueArgs) float64 { return GP(a.s, a.m.K, a.compat) }},
	ListGR: {head: "gR", param: paramRank, doc: docOptional, better: Higher, source: srcINEX,
		meaning: "generalized recall at rank k: relevant articles in the first k, divided by Trel",
		value:   func(a *valueArgs) float64 { return GR(a.v.IsRel, a.t.Trel, a.m.K) }},
	ListIGP: {head: "igP", param: paramLevel, doc: docDefaultF, better: Higher, source: srcINEX,
		meaning: "interpolated generalized precision at recall level x: the largest gP[r] over the ranks r where gR[r] ≥ x (the official tool's ircl_prn.x of -r and -i)",
		value:   func(a *valueArgs) float64 { return IGP(a.s, a.v.IsRel, a.t.Trel, a.m.X) }},
	ListCE: {head: "CE", param: paramRank, doc: docEffort, better: Lower, source: srcArvola,
		meaning: "cumulated effort at rank k: Σ (ES(d) − 1) over the first k articles",
		value:   func(a *valueArgs) float64 { return CE(a.s, a.m.K, a.m.Doc.NR) }},
	ListNCE: {head: "NCE", param: paramRank, doc: docEffort, better: Lower, source: srcArvola,
		meaning: "normalized cumulated effort at rank k: effort beyond an ideal ranking's (0 = ideal)",
		value:   func(a *valueArgs) float64 { return NCE(a.s, a.t.Trel, a.m.K, a.m.Doc.NR) }},
	ListANCE: {head: "ANCE", param: paramRank, doc: docEffort, better: Lower, source: srcArvola,
		meaning: "average NCE over ranks 1…k (ranks past the run's end cost NR)",
		value:   func(a *valueArgs) float64 { return ANCE(a.s, a.t.Trel, a.m.K, a.m.Doc.NR) }},
	ListP: {head: "P", param: paramRank, byScore: true, better: Higher, source: srcTREC,
		meaning: "precision at rank k: relevant articles in the first k, divided by k (ranked by score as trec_eval)",
		value:   func(a *valueArgs) float64 { return P(a.isrel(), a.m.K) }},
	ListAP: {head: "AP", byScore: true, better: Higher, source: srcTREC,
		meaning: "average precision of the articles ranked by score as trec_eval (relevant = holds relevant text)",
		value:   func(a *valueArgs) float64 { return AP(a.isrel(), a.t.Trel) }},
	ListIP: {head: "iP", param: paramLevel, focused: true, better: Higher, source: srcINEX,
		meaning: "interpolated character precision at recall level x of the ranked passages (focused task)",
		value:   func(a *valueArgs) float64 { return a.w.curve.IP(a.m.X) }},
	ListAiP: {head: "AiP", focused: true, better: Higher, source: srcINEX,
		meaning: "mean of iP over the 101 recall levels 0.00…1.00 (its mean over topics is MAiP)",
		value:   func(a *valueArgs) float64 { return a.w.curve.AiP() }},
	ListRR: {head: "RR", byScore: true, better: Higher, source: srcTREC,
		meaning: "reciprocal rank of the first relevant article (ranked by score as trec_eval)",
		value:   func(a *valueArgs) float64 { return RR(a.isrel()) }},
	ListRprec: {head: "Rprec", byScore: true, better: Higher, source: srcTREC,
		meaning: "precision after R articles, R the topic's relevant articles (ranked by score as trec_eval)",
		value:   func(a *valueArgs) float64 { return Rprec(a.isrel(), a.t.Trel) }},
	ListNDCG: {head: "nDCG", param: paramRank, rankOptional: true, byScore: true, better: Higher, source: srcTREC + " (Järvelin & Kekäläinen 2002)",
		meaning: "normalized discounted cumulative gain of the first k articles ranked by score as trec_eval (gain: the relevance grade; nDCG without k: every article)",
		value:   func(a *valueArgs) float64 { return NDCG(a.grades(), a.t.Ideal, a.m.K) }},
	ListR: {head: "R", param: paramRank, byScore: true, better: Higher, source: srcTREC,
		meaning: "recall at rank k: relevant articles in the first k ranked by score as trec_eval, divided by the topic's relevant articles (gR[k] counts them in line order)",
		value:   func(a *valueArgs) float64 { return GR(a.isrel(), a.t.Trel, a.m.K) }},
	CountNumQ: {head: "num_q", sum: true, count: true, source: srcTREC,
		meaning: "topics evaluated",
		value:   func(*valueArgs) float64 { return 1 }},
	CountNumRet: {head: "num_ret", sum: true, count: true, source: srcINEX,
		meaning: "articles retrieved",
		value:   func(a *valueArgs) float64 { return float64(len(a.t.Docs)) }},
	CountNumRel: {head: "num_rel", sum: true, count: true, source: srcINEX,
		meaning: "relevant articles (judged with relevant text)",
		value:   func(a *valueArgs) float64 { return float64(a.t.Trel) }},
	CountNumRelRet: {head: "num_rel_ret", sum: true, count: true, source: srcINEX,
		meaning: "relevant articles retrieved",
		value:   func(a *valueArgs) float64 { return float64(a.v.NumRelRet) }},
	CountRetSize: {head: "ret_size", chars: true, sum: true, count: true, source: srcINEX,
		meaning: "characters retrieved",
		value:   func(a *valueArgs) float64 { return float64(a.v.RetLen) }},
	CountRelSize: {head: "rel_size", chars: true, sum: true, count: true, source: srcINEX,
		meaning: "relevant characters of the topic",
		value:   func(a *valueArgs) float64 { return float64(a.t.TrelChars) }},
	CountRelRetSize: {head: "rel_ret_size", chars: true, sum: true, count: true, source: srcINEX,
		meaning: "relevant characters retrieved",
		value:   func(a *valueArgs) float64 { return float64(a.v.RetRel) }},
	CountArtPrec: {head: "art_prec", count: true, better: Higher, source: srcINEX,
		meaning: "article precision: relevant articles retrieved / articles retrieved",
		value:   func(a *valueArgs) float64 { return ratio(a.v.NumRelRet, len(a.t.Docs)) }},
	CountArtRec: {head: "art_rec", count: true, better: Higher, source: srcINEX,
		meaning: "article recall: relevant articles retrieved / relevant articles",
		value:   func(a *valueArgs) float64 { return ratio(a.v.NumRelRet, a.t.Trel) }},
	CountArtF1: {head: "art_f1", count: true, better: Higher, source: srcINEX,
		meaning: "harmonic mean of art_prec and art_rec",
		value: func(a *valueArgs) float64 {
			return FScore(ratio(a.v.NumRelRet, len(a.t.Docs)), ratio(a.v.NumRelRet, a.t.Trel), 1)
		}},
	CountCharPrec: {head: "char_prec", chars: true, count: true, better: Higher, source: srcINEX,
		meaning: "character precision: relevant characters retrieved / characters retrieved",
		value:   func(a *valueArgs) float64 { return ratio(a.v.RetRel, a.v.RetLen) }},
	CountCharRec: {head: "char_rec", chars: true, count: true, better: Higher, source: srcINEX,
		meaning: "character recall: relevant characters retrieved / relevant characters",
		value:   func(a *valueArgs) float64 { return ratio(a.v.RetRel, a.t.TrelChars) }},
	CountCharF1: {head: "char_f1", chars: true, count: true, better: Higher, source: srcINEX,
		meaning: "harmonic mean of char_prec and char_rec",
		value: func(a *valueArgs) float64 {
			return FScore(ratio(a.v.RetRel, a.v.RetLen), ratio(a.v.RetRel, a.t.TrelChars), 1)
		}},
	ListDocument: {head: "DOCUMENT", span: true, allTopics: true, better: Higher, source: srcGen,
		meaning: "document average precision: the distinct documents of the passages in NIST's order (rank, document, offset, length), relevant when judged relevant, divided by the topic's relevant documents",
		value: func(a *valueArgs) float64 {
			return a.w.span.document(a.t.Ranked, a.w.span.nistOrder(a.t), a.t.Trel)
		}},
	ListPassage: {head: "PASSAGE", span: true, chars: true, allTopics: true, better: Higher, source: srcGen + ", the 2006 measure",
		meaning: "passage average precision: a passage's relevant characters are those it shares with the first gold passage of its document it overlaps; precision (relevant over retrieved characters so far) at each such passage, divided by those passages plus the gold passages never overlapped",
		value: func(a *valueArgs) float64 {
			return a.w.span.passage(a.t.Ranked, a.w.span.nistOrder(a.t), a.t.GoldPassages)
		}},
	ListAspect: {head: "ASPECT", span: true, chars: true, aspects: true, allTopics: true, better: Higher, source: srcGen,
		meaning: "aspect average precision: a passage overlapping a gold passage (the first) brings its aspects; k new aspects add k·n/m (n passages bringing new aspects, m those plus the non-relevant ones), divided by the topic's aspects",
		value: func(a *valueArgs) float64 {
			return a.w.span.aspect(a.t.Ranked, a.w.span.nistOrder(a.t), a.t.Aspects)
		}},
	ListPassage2: {head: "PASSAGE2", span: true, chars: true, allTopics: true, better: Higher, source: srcGen,
		meaning: "character average precision of the passages in NIST's order: a relevant character read before counts in neither count, a non-relevant one in the denominator every time; divided by the topic's relevant characters",
		value: func(a *valueArgs) float64 {
			return a.w.span.charAP(a.t.Ranked, a.w.span.nistOrder(a.t), a.t.TrelChars)
		}},
	ListCharAP: {head: "charAP", span: true, chars: true, better: Higher, source: "PASSAGE2 of " + srcGen + ", in the run's line order",
		meaning: "character average precision of the ranked passages in the run's line order (as iP and AiP rank them), with PASSAGE2's conventions for characters retrieved again; divided by the topic's relevant characters",
		value:   func(a *valueArgs) float64 { return a.w.span.charAP(a.t.Ranked, nil, a.t.TrelChars) }},
	ListTrec: {head: "trec_eval", byScore: true, better: Higher, source: srcTREC,
		meaning: "a trec_eval measure (treceval_names.go)",
		value:   trecListValue},
}

func init() {
	for k := range listFamilies {
		listFamilies[k].list = ListKind(k)
		if listFamilies[k].head == "" || listFamilies[k].value == nil {
			panic("effort: list score " + strconv.Itoa(k) + " has no row in the registry")
		}
	}
}

// NeedsPassages tells whether the measure needs the judgments' relevant
// passages: every document score, the focused measures, the character
// counts and the span measures but DOCUMENT do; the binary document
// measures (AP, P[k], map, nDCG, DOCUMENT…) and the article counts do not.
func (m Measure) NeedsPassages() bool {
	f := m.family()
	return m.Doc.Kind != DocNone || f.focused || f.chars
}

// NeedsLengths tells whether the measure needs the documents' lengths: the
// document scores that simulate reading (T2Ip, T2Ir, T2If, ChP, aveChP and
// the effort LE of CE, NCE and ANCE) read on past the retrieved passages,
// to the document's end. F(β) and the measures without a document score do
// not.
func (m Measure) NeedsLengths() bool { return m.Doc.Kind != DocNone && m.Doc.Kind != DocF }

// NeedsAspects tells whether the measure needs the judgments' aspects (ASPECT).
func (m Measure) NeedsAspects() bool { return m.family().aspects }

// family returns m's row of the table.
func (m Measure) family() *listFamily {
	if int(m.List) < 0 || int(m.List) >= len(listFamilies) {
		return &listFamily{head: "?", value: func(*valueArgs) float64 { return 0 }}
	}
	return &listFamilies[m.List]
}

// familyNamed finds the list score written head.
func familyNamed(head string) (*listFamily, bool) {
	for k := range listFamilies {
		if listFamilies[k].head == head {
			return &listFamilies[k], true
		}
	}
	return nil, false
}

// docParam is a parameter of a document score.
type docParam struct {
	what string  // for messages: "the tolerance x"
	def  float64 // when omitted
	real bool    // a positive real (β) rather than a positive integer
	set  func(d *DocScore, v float64)
}

// docFamily is one row of the document-score table.
type docFamily struct {
	kind    DocKind
	head    string
	bracket bool // ChP[n] rather than F(β)
	params  []docParam
	meaning string
	source  string
	name    func(d DocScore) string
	of      func(d DocScore, doc *Doc) float64
}

var (
	pBeta = func(def float64) docParam {
		return docParam{"β", def, true, func(d *DocScore, v float64) { d.Beta = v }}
	}
	pX     = docParam{"the tolerance x", DefaultX, false, func(d *DocScore, v float64) { d.X = int(v) }}
	itoa   = strconv.Itoa
	docFam = [...]docFamily{
		DocF: {head: "F", params: []docParam{pBeta(DefaultBeta)}, source: srcINEX,
			meaning: "F(β) of the retrieved text's character precision and recall (INEX 2008–09 relevant in context)",
			name:    func(d DocScore) string { return "F(" + fmtNum(d.Beta) + ")" },
			of:      func(d DocScore, doc *Doc) float64 { return F(doc, d.Beta) }},
		DocT2Ip: {head: "T2Ip", params: []docParam{pX}, source: srcArvola,
			meaning: "precision of what a reader reads until x non-relevant characters (INEX 2010: T2I(300))",
			name:    func(d DocScore) string { return "T2Ip(" + itoa(d.X) + ")" },
			of:      func(d DocScore, doc *Doc) float64 { return T2Ip(doc, d.X) }},
		DocT2Ir: {head: "T2Ir", params: []docParam{pX}, source: srcArvola,
			meaning: "recall of what a reader reads until x non-relevant characters",
			name:    func(d DocScore) string { return "T2Ir(" + itoa(d.X) + ")" },
			of:      func(d DocScore, doc *Doc) float64 { return T2Ir(doc, d.X) }},
		DocT2If: {head: "T2If", params: []docParam{pX, pBeta(DefaultT2IBeta)}, source: srcArvola,
			meaning: "F(β) of T2Ip(x) and T2Ir(x)",
			name:    func(d DocScore) string { return "T2If(" + itoa(d.X) + "," + fmtNum(d.Beta) + ")" },
			of:      func(d DocScore, doc *Doc) float64 { return T2If(doc, d.X, d.Beta) }},
		DocChP: {head: "ChP", bracket: true, source: srcArvola,
			params:  []docParam{{"n", DefaultChPN, false, func(d *DocScore, v float64) { d.N = int(v) }}},
			meaning: "character precision after the first n characters read",
			name:    func(d DocScore) string { return "ChP[" + itoa(d.N) + "]" },
			of:      func(d DocScore, doc *Doc) float64 { return ChP(doc, d.N) }},
		DocAveChP: {head: "aveChP", source: srcArvola,
			meaning: "character precision at every relevant character read, averaged (whole article, no stop)",
			name:    func(DocScore) string { return "aveChP" },
			of:      func(_ DocScore, doc *Doc) float64 { return AveChP(doc) }},
		DocRead: {head: "Read", source: "readsim (recorded readings)",
			meaning: "precision of what a person read: relevant characters read / characters read (recorded readings only)",
			name:    func(DocScore) string { return "Read" },
			of:      func(_ DocScore, doc *Doc) float64 { return T2Ip(doc, 0) }},
		DocLE: {head: "LE", source: srcArvola,
			params: []docParam{
				{"the screen size s", DefaultScreen, false, func(d *DocScore, v float64) { d.S = int(v) }},
				{"NR", DefaultNR, false, func(d *DocScore, v float64) { d.NR = int(v) }},
				{"the tolerance x", 0, false, func(d *DocScore, v float64) { d.X = int(v) }},
			},
			meaning: "effort: screens of s characters read before the first relevant one, at most NR (with x: a reader who stops at T2I(x))",
			name: func(d DocScore) string {
				if d.X > 0 {
					return "LE(" + itoa(d.S) + "," + itoa(d.NR) + "," + itoa(d.X) + ")"
				}
				return "LE(" + itoa(d.S) + "," + itoa(d.NR) + ")"
			},
			of: func(d DocScore, doc *Doc) float64 { return LEStop(doc, d.S, d.NR, d.X) }},
	}
)

func init() {
	for k := range docFam {
		if k != int(DocNone) && docFam[k].name == nil {
			panic("effort: document score " + strconv.Itoa(k) + " has no row in the registry")
		}
		docFam[k].kind = DocKind(k)
	}
}

// family returns d's row of the table, nil for DocNone.
func (d DocScore) family() *docFamily {
	if d.Kind <= DocNone || int(d.Kind) >= len(docFam) {
		return nil
	}
	return &docFam[d.Kind]
}

func docFamilyNamed(head string) *docFamily {
	for k := range docFam {
		if k != int(DocNone) && docFam[k].head == head {
			return &docFam[k]
		}
	}
	return nil
}
