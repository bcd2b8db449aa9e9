package effort

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The names researchers know. Besides measures.md's names (AgP\F(0.25),
// ANCE[100]\LE(300,5), …) readsim reads:
//
//   - the official INEX tool's: MAgP (AgP\F(0.25)), MAiP (AiP), gP[10]
//     (gP[10]\F(0.25)), iP[0.00]…iP[1.00], ircl_prn.0.50 (iP[0.50]), the
//     counts num_ret, num_rel, num_rel_ret, ret_size, rel_size,
//     rel_ret_size, art_prec, art_rec, art_f1, char_prec, char_rec, char_f1;
//   - trec_eval's: map, P_10 (and P.10), recip_rank, Rprec, ndcg,
//     ndcg_cut_10, recall_100, num_q (and num_ret, num_rel, num_rel_ret);
//   - ir_measures': P@10, RR, R@100, nDCG@10, nDCG, Rprec, NumQ, NumRet,
//     NumRel, NumRelRet.
//
// trec_eval's and ir_measures' document measures rank as trec_eval does
// (Measure.Trec); readsim's own AP and P[k] rank by the run's line order as
// formats.md says (the two agree whenever scores fall down a run's lines;
// ir_measures' AP is trec_eval's map: ask for map). Names are read without
// regard to case when that leaves one meaning (mAgP, MAP, p@10, NDCG@10).

// alias is a name pattern and the measure it stands for.
type alias struct {
	re *regexp.Regexp
	// build makes the measure from the submatches.
	build func(sub []string) (Measure, error)
	// form is the pattern as the catalogue shows it.
	form string
	// fam is the list score it names (for the catalogue).
	fam ListKind
	// fold is re without regard to case.
	fold *regexp.Regexp
}

func init() {
	for i := range aliases {
		aliases[i].fold = regexp.MustCompile("(?i)" + aliases[i].re.String())
	}
}

func atoiRank(s string) (int, error) {
	k, err := strconv.Atoi(s)
	if err != nil || k < 1 || k > MaxRank {
		return 0, fmt.Errorf("the cutoff must be an integer from 1 to %d", MaxRank)
	}
	return k, nil
}

func trecRank(l ListKind, name string) func([]string) (Measure, error) {
	return func(sub []string) (Measure, error) {
		k, err := atoiRank(sub[1])
		return Measure{List: l, K: k, Trec: true, Name: strings.ReplaceAll(name, "k", sub[1])}, err
	}
}

func trecFixed(l ListKind, name string) func([]string) (Measure, error) {
	return func([]string) (Measure, error) { return Measure{List: l, Trec: true, Name: name}, nil }
}

func named(canonical, name string) func([]string) (Measure, error) {
	return func([]string) (Measure, error) {
		m, err := parseCanonical(canonical)
		m.Name = name
		return m, err
	}
}

var aliases = []alias{
	// the official INEX tool
	{re: regexp.MustCompile(`^MAgP$`), build: named(`AgP\F(0.25)`, "MAgP"), form: "MAgP", fam: ListAgP},
	{re: regexp.MustCompile(`^MAiP$`), build: named("AiP", "MAiP"), form: "MAiP", fam: ListAiP},
	{re: regexp.MustCompile(`^ircl_prn\.([01]\.[0-9]+)$`), build: func(sub []string) (Measure, error) {
		m, err := parseCanonical("iP[" + sub[1] + "]")
		m.Name = "ircl_prn." + sub[1]
		return m, err
	}, form: "ircl_prn.x", fam: ListIP},
	// trec_eval
	{re: regexp.MustCompile(`^map$`), build: trecFixed(ListAP, "map"), form: "map", fam: ListAP},
	{re: regexp.MustCompile(`^P[_.]([0-9]+)$`), build: trecRank(ListP, "P_k"), form: "P_k", fam: ListP},
	{re: regexp.MustCompile(`^recall[_.]([0-9]+)$`), build: trecRank(ListGR, "recall_k"), form: "recall_k", fam: ListGR},
	{re: regexp.MustCompile(`^recip_rank$`), build: trecFixed(ListRR, "recip_rank"), form: "recip_rank", fam: ListRR},
	{re: regexp.MustCompile(`^Rprec$`), build: trecFixed(ListRprec, "Rprec"), form: "Rprec", fam: ListRprec},
	{re: regexp.MustCompile(`^ndcg$`), build: trecFixed(ListNDCG, "ndcg"), form: "ndcg", fam: ListNDCG},
	{re: regexp.MustCompile(`^ndcg_cut[_.]([0-9]+)$`), build: trecRank(ListNDCG, "ndcg_cut_k"), form: "ndcg_cut_k", fam: ListNDCG},
	{re: regexp.MustCompile(`^num_q$`), build: trecFixed(CountNumQ, "num_q"), form: "num_q", fam: CountNumQ},
	// ir_measures
	{re: regexp.MustCompile(`^P@([0-9]+)$`), build: trecRank(ListP, "P@k"), form: "P@k", fam: ListP},
	{re: regexp.MustCompile(`^R@([0-9]+)$`), build: trecRank(ListGR, "R@k"), form: "R@k", fam: ListGR},
	{re: regexp.MustCompile(`^RR$`), build: trecFixed(ListRR, "RR"), form: "RR", fam: ListRR},
	{re: regexp.MustCompile(`^nDCG$`), build: trecFixed(ListNDCG, "nDCG"), form: "nDCG", fam: ListNDCG},
	{re: regexp.MustCompile(`^nDCG@([0-9]+)$`), build: trecRank(ListNDCG, "nDCG@k"), form: "nDCG@k", fam: ListNDCG},
	{re: regexp.MustCompile(`^NumQ$`), build: trecFixed(CountNumQ, "NumQ"), form: "NumQ", fam: CountNumQ},
	{re: regexp.MustCompile(`^NumRet$`), build: named("num_ret", "NumRet"), form: "NumRet", fam: CountNumRet},
	{re: regexp.MustCompile(`^NumRel$`), build: named("num_rel", "NumRel"), form: "NumRel", fam: CountNumRel},
	{re: regexp.MustCompile(`^NumRelRet$`), build: named("num_rel_ret", "NumRelRet"), form: "NumRelRet", fam: CountNumRelRet},
}

// perTopicNames are the names the official INEX tool prints on per-topic
// lines for its mean measures (MAgP in `all`, AgP per topic).
var perTopicNames = map[string]string{"MAgP": "AgP", "MAiP": "AiP"}

// TopicString returns the measure's name on a per-topic line: String, except
// for the INEX tool's means, which it names per topic without the M (AgP,
// AiP), as the tool does.
func (m Measure) TopicString() string {
	if n, ok := perTopicNames[m.Name]; ok {
		return n
	}
	return m.String()
}

// SummaryOnly tells whether the measure is printed only in `all`, as
// trec_eval and the official INEX tool print it: num_q (1 for every topic)
// and the INEX tool's ircl_prn points.
func (m Measure) SummaryOnly() bool {
	return m.List == CountNumQ || strings.HasPrefix(m.Name, "ircl_prn.")
}

// ParseMeasure reads one measure name: measures.md's names (omitted
// parameters take their defaults, see KnownForms), or the official INEX
// tool's, trec_eval's and ir_measures' names; without regard to case when
// that leaves one meaning. An unknown name is an error that suggests the
// nearest known names and lists the known forms.
func ParseMeasure(name string) (Measure, error) {
	name = strings.TrimSpace(name)
	if m, ok, err := parseAlias(name); ok {
		return m, err
	}
	m, err := parseCanonical(name)
	if err == nil {
		return m, nil
	}
	// without regard to case, when every reading gives one measure
	if m, ok := parseFolded(name); ok {
		return m, nil
	}
	if knownHeads(name) {
		return Measure{}, err // a known measure with a bad parameter: say which
	}
	if s := suggest(name); s != "" {
		return Measure{}, fmt.Errorf("unknown measure %q: did you mean %s? (readsim measures lists them all)", name, s)
	}
	return Measure{}, err
}

// parseFolded reads name without regard to case: the aliases that match it
// so, and measures.md's grammar with every word in its known case. It
// succeeds when all the readings are one measure.
func parseFolded(name string) (Measure, bool) {
	var found []Measure
	for _, a := range aliases {
		if sub := a.fold.FindStringSubmatch(name); sub != nil {
			if m, err := a.build(sub); err == nil {
				found = append(found, m)
			}
		}
	}
	if fixed, ok := refold(name); ok {
		if m, err := parseCanonical(fixed); err == nil {
			found = append(found, m)
		}
	}
	if len(found) == 0 {
		return Measure{}, false
	}
	for _, m := range found[1:] {
		if m.Canonical() != found[0].Canonical() || m.Trec != found[0].Trec {
			return Measure{}, false
		}
	}
	return found[0], true
}

// knownHeads tells whether the list score and document score a name starts
// with are known ones (its parameters may still be wrong).
func knownHeads(name string) bool {
	list, doc, hasDoc := strings.Cut(name, `\`)
	head := func(s string) string {
		if i := strings.IndexAny(s, "[("); i >= 0 {
			return s[:i]
		}
		return s
	}
	if _, ok := familyNamed(head(list)); !ok {
		return false
	}
	return !hasDoc || docFamilyNamed(head(doc)) != nil
}

func parseAlias(name string) (Measure, bool, error) {
	for _, a := range aliases {
		if sub := a.re.FindStringSubmatch(name); sub != nil {
			m, err := a.build(sub)
			if err != nil {
				return Measure{}, true, fmt.Errorf("measure %q: %v", name, err)
			}
			return m, true, nil
		}
	}
	return Measure{}, false, nil
}

// words are the names whose case readsim restores in measures.md's
// grammar: every list and document score head (no two differ only in case).
var words = func() map[string][]string {
	w := map[string][]string{}
	add := func(s string) {
		k := strings.ToLower(s)
		for _, x := range w[k] {
			if x == s {
				return
			}
		}
		w[k] = append(w[k], s)
	}
	for _, f := range listFamilies {
		add(f.head)
	}
	for k := range docFam {
		if docFam[k].head != "" {
			add(docFam[k].head)
		}
	}
	add("LE")
	return w
}()

// refold rewrites the words of a name in their known case: "mAgP" → "MAgP",
// "p@10" → "P@10", "agp\t2ip(300)" → "AgP\T2Ip(300)". It fails when a word
// has two known spellings that differ only in case.
func refold(name string) (string, bool) {
	var b strings.Builder
	ok := true
	changed := false
	for _, tok := range tokenize(name) {
		if tok.word {
			cands := words[strings.ToLower(tok.s)]
			switch {
			case len(cands) == 1:
				if cands[0] != tok.s {
					changed = true
				}
				b.WriteString(cands[0])
				continue
			case len(cands) > 1:
				ok = false
			}
		}
		b.WriteString(tok.s)
	}
	return b.String(), ok && changed
}

type token struct {
	s    string
	word bool
}

// tokenize splits a name into words (letters, digits after a letter,
// underscores and apostrophes) and the rest.
func tokenize(s string) []token {
	var out []token
	i := 0
	for i < len(s) {
		j := i
		isWord := func(c byte) bool {
			return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '\'' || (j > i && c >= '0' && c <= '9')
		}
		for j < len(s) && isWord(s[j]) {
			j++
		}
		if j > i {
			w := s[i:j]
			// a trailing _digits (P_10, recall_100) is not part of the word
			if k := strings.LastIndexByte(w, '_'); k > 0 && k < len(w)-1 && strings.Trim(w[k+1:], "0123456789") == "" {
				out = append(out, token{w[:k], true}, token{w[k:], false})
			} else {
				out = append(out, token{w, true})
			}
			i = j
			continue
		}
		out = append(out, token{s[i : i+1], false})
		i++
	}
	return out
}

// suggest returns the known names nearest to name (edit distance at most a
// third of its length, at least 1), as a list for a "did you mean".
func suggest(name string) string {
	cands := exampleNames()
	best := 1 + len(name)/3
	var out []string
	for _, c := range cands {
		d := editDistance(strings.ToLower(name), strings.ToLower(c))
		switch {
		case d < best:
			best, out = d, []string{c}
		case d == best:
			out = append(out, c)
		}
	}
	if len(out) > 4 {
		out = out[:4]
	}
	for i := range out {
		out[i] = strconv.Quote(out[i])
	}
	return strings.Join(out, " or ")
}

// exampleNames are concrete names to suggest from.
func exampleNames() []string {
	out := append([]string(nil), DefaultNames...)
	out = append(out, "MAgP", "MAiP", "AiP", "iP[0.01]", "gP[10]", "AgP", `AgP\aveChP`, `AgP\T2Ip(300)`, `AgP\T2Ir(300)`, `AgP\T2If(300,1)`, `AgP\ChP[600]`,
		"CE[10]", "NCE[10]", "ANCE[100]", "P[10]", "gR[10]", "map", "P_10", "P@10", "recip_rank", "RR", "Rprec", "ndcg", "ndcg_cut_10", "nDCG@10",
		"recall_100", "R@100", "num_q", "ircl_prn.0.50", "DOCUMENT", "PASSAGE", "ASPECT", "PASSAGE2", "charAP")
	for k := range listFamilies {
		if listFamilies[k].count {
			out = append(out, listFamilies[k].head)
		}
	}
	return out
}

// editDistance is the Levenshtein distance of a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// AllNames is what -m all asks for: eval's defaults, the other reading
// measures, the official INEX tool's focused measures and counts, and
// trec_eval's common document measures.
var AllNames = append(append([]string(nil), DefaultNames...),
	`AgP\T2Ir(300)`, `AgP\T2If(300,1)`, `AgP\ChP[600]`, `AgP'\F(0.25)`, `AgP''\F(0.25)`, `gR[25]`,
	"iP[0.00]", "iP[0.01]", "iP[0.05]", "iP[0.10]", "AiP", "charAP",
	"num_q", "num_ret", "num_rel", "num_rel_ret", "ret_size", "rel_size", "rel_ret_size",
	"art_prec", "art_rec", "art_f1", "char_prec", "char_rec", "char_f1",
	"map", "P_5", "P_10", "P_20", "recip_rank", "Rprec", "ndcg_cut_10", "ndcg", "recall_100",
)

// ParseMeasures reads a list of measure names: each of names may hold several
// separated by commas (outside parentheses and brackets: T2If(2000,1) is one
// name), trec_eval's "P.5,10,20" gives P_5, P_10 and P_20, and "all" stands
// for AllNames. Repeats of one measure are dropped (the first name asked
// for it is kept).
func ParseMeasures(names []string) ([]Measure, error) {
	var out []Measure
	seen := map[string]bool{}
	add := func(m Measure) {
		key := m.Canonical()
		if m.Trec {
			key = "trec:" + key
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, m)
		}
	}
	for _, spec := range names {
		var prevCut string // the base of the last "X.n" name, for "P.5,10"
		for _, n := range splitList(spec) {
			if n == "" {
				continue
			}
			if strings.EqualFold(n, "all") {
				for _, a := range AllNames {
					m, err := ParseMeasure(a)
					if err != nil {
						return nil, err
					}
					add(m)
				}
				continue
			}
			if prevCut != "" && strings.Trim(n, "0123456789") == "" {
				n = prevCut + "." + n
			}
			prevCut = ""
			if i := strings.LastIndexByte(n, '.'); i > 0 && strings.Trim(n[i+1:], "0123456789") == "" && !strings.HasPrefix(n, "ircl_prn") {
				prevCut = n[:i]
			}
			m, err := ParseMeasure(n)
			if err != nil {
				return nil, err
			}
			add(m)
		}
	}
	return out, nil
}

// splitList splits s at the commas outside (), [].
func splitList(s string) []string {
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[from:i]))
				from = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[from:]))
}

// Entry is one row of the measure catalogue (readsim measures).
type Entry struct {
	// Form is the name as measures.md writes it, with its parameters
	// (gP[k]\D, ANCE[k]\LE(s,NR,x), F(β)…).
	Form string
	// Aliases are other names for it (MAgP, map, P@k…).
	Aliases []string
	// Kind is "list score", "document score", "focused", "count",
	// "passages" (the span measures) or "document".
	Kind    string
	Meaning string
	Better  Direction
	Source  string
	// Sum: its `all` is the sum over topics, not the mean.
	Sum bool
	// AllTopics: its `all` is the mean over every judged topic, a topic
	// missing from the run scoring 0 (Measure.AllTopics).
	AllTopics bool
}

// Catalogue lists every measure family and document score of the registry
// with its aliases, meaning, direction and source.
func Catalogue() []Entry {
	var out []Entry
	for k := range listFamilies {
		f := &listFamilies[k]
		e := Entry{Form: f.head, Meaning: f.meaning, Better: f.better, Source: f.source, Sum: f.sum, AllTopics: f.allTopics}
		switch f.param {
		case paramRank:
			e.Form += "[k]"
		case paramLevel:
			e.Form += "[x]"
		}
		switch f.doc {
		case docDefaultF:
			e.Form += `\D`
		case docOptional:
			e.Form += `[\D]`
		case docEffort:
			e.Form += `\LE(s,NR[,x])`
		}
		switch {
		case f.count:
			e.Kind = "count"
		case f.span:
			e.Kind = "passages"
		case f.focused:
			e.Kind = "focused"
		case f.doc != docNone:
			e.Kind = "list score"
		default:
			e.Kind = "document"
		}
		for _, a := range aliases {
			if a.fam == f.list && (a.form != f.head || f.param != paramNone) {
				e.Aliases = append(e.Aliases, a.form)
			}
		}
		if f.list == ListGP {
			e.Aliases = append(e.Aliases, "gP[k] (= gP[k]\\F(0.25))")
		}
		sort.Strings(e.Aliases)
		out = append(out, e)
	}
	for k := range docFam {
		d := &docFam[k]
		if d.name == nil {
			continue
		}
		form := d.head
		var ps []string
		for _, p := range d.params {
			ps = append(ps, strings.TrimPrefix(strings.TrimPrefix(p.what, "the tolerance "), "the screen size "))
		}
		if len(ps) > 0 {
			if d.bracket {
				form += "[" + strings.Join(ps, ",") + "]"
			} else {
				form += "(" + strings.Join(ps, ",") + ")"
			}
		}
		better := Higher
		if d.kind == DocLE {
			better = Lower
		}
		out = append(out, Entry{Form: form, Kind: "document score", Meaning: d.meaning, Better: better, Source: d.source})
	}
	return out
}
