package effort

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// TrecSelect returns the measures that trec_eval's -m arguments args ask
// for (none: official), in trec_eval's order: a measure name, a nickname
// (official, all_trec, set…), or either with parameters after a period
// (P.5,10; ndcg.1=3,2=9; utility.2,-1,0,0). As in trec_eval, the first
// parameters given for a measure are its parameters, even when given with
// a nickname.
func TrecSelect(args []string) ([]*TrecMeasure, error) {
	if len(args) == 0 {
		args = []string{"official"}
	}
	marked := map[string]bool{}
	params := map[string]string{}
	for _, a := range args {
		name, p, hasP := strings.Cut(a, ".")
		if hasP {
			if p == "" {
				return nil, &TrecError{fmt.Sprintf("-m %s: no parameter after the period (trec_eval: improper measure in parameter)", a)}
			}
			if _, seen := params[name]; !seen {
				params[name] = p
			}
		}
		names := []string{name}
		for _, nn := range TrecNicknames {
			if nn.Name == name {
				names = nn.Measures
			}
		}
		for _, n := range names {
			if trecDefNamed(n) == nil {
				return nil, &TrecError{fmt.Sprintf("-m %s: no such measure or nickname of trec_eval (trec_eval: illegal measure); readsim trec_eval -h lists them", a)}
			}
			marked[n] = true
		}
	}
	var out []*TrecMeasure
	shared := map[string]string{} // a group's parameters set so far
	for i := range trecDefs {
		d := &trecDefs[i]
		if !marked[d.name] {
			continue
		}
		p, own := params[d.name]
		g := trecShared[d.name]
		if g != "" && !own {
			p = shared[g]
		}
		m, err := newTrecMeasure(d, p)
		if err != nil {
			return nil, err
		}
		if g != "" && own {
			shared[g] = p
		}
		out = append(out, m)
	}
	// the measures of a group compute with the parameters set last
	for _, m := range out {
		if g := trecShared[m.def.name]; g != "" && shared[g] != "" {
			last, _ := newTrecMeasure(m.def, shared[g])
			m.pairs = last.pairs
		}
	}
	return out, nil
}

// trecShared are the measures whose parameters trec_eval keeps in one
// variable: a measure given none prints and computes with those of one
// before it in the group, and every measure of the group computes with the
// parameters given last: dcg, ideal_dcg and ndcg, of one file of trec_eval
// (m_ndcg.c). rbp and rbp_resid each keep their own (m_rbp.c,
// m_rbp_resid.c).
var trecShared = map[string]string{
	"dcg": "ndcg", "ideal_dcg": "ndcg", "ndcg": "ndcg",
}

// TrecCheckFormat refuses the measures that trec_eval cannot compute from
// the judgments' format (-R: "qrels", "qrels_jg", "prefs" or
// "qrels_prefs"): runid and num_q with any; the *_avgjg measures with
// judgment groups only; the prefs_* measures with preferences only; the
// others with qrels only.
func TrecCheckFormat(ms []*TrecMeasure, format string) error {
	prefs := format == "prefs" || format == "qrels_prefs"
	for _, m := range ms {
		switch {
		case m.def.name == "runid" || m.def.name == "num_q":
		case format == "qrels_jg" && m.def.jg == nil:
			return &TrecError{fmt.Sprintf("-m %s: trec_eval computes it from qrels, not from judgment groups (-R qrels_jg: runid, num_q, map_avgjg, P_avgjg, Rprec_mult_avgjg)", m.def.name)}
		case prefs && m.def.prefs == nil:
			return &TrecError{fmt.Sprintf("-m %s: trec_eval computes it from qrels, not from preferences (-R %s: runid, num_q and the prefs_* measures, as -m prefs or -m all_prefs)", m.def.name, format)}
		case m.def.jg != nil && format != "qrels_jg":
			return &TrecError{fmt.Sprintf("-m %s: a measure of judgment groups: give them with -R qrels_jg", m.def.name)}
		case m.def.prefs != nil && !prefs:
			return &TrecError{fmt.Sprintf("-m %s: a measure of preferences: give them with -R prefs or -R qrels_prefs", m.def.name)}
		}
	}
	return nil
}

// TrecMeasureNames lists the measures of trec_eval that readsim computes,
// in trec_eval's order.
func TrecMeasureNames() []string {
	out := make([]string, len(trecDefs))
	for i, d := range trecDefs {
		out[i] = d.name
	}
	return out
}

func trecDefNamed(name string) *trecDef {
	for i := range trecDefs {
		if trecDefs[i].name == name {
			return &trecDefs[i]
		}
	}
	return nil
}

// newTrecMeasure sets up d with the parameters p ("" for its defaults) as
// trec_eval's meas_init.c does.
func newTrecMeasure(d *trecDef, p string) (*TrecMeasure, error) {
	m := &TrecMeasure{def: d, longs: d.longs, doubles: d.doubles}
	bad := func(why string) error {
		return &TrecError{fmt.Sprintf("-m %s.%s: %s", d.name, p, why)}
	}
	switch d.kind {
	case tkCutLong:
		if p != "" {
			m.longs = nil
			for _, s := range strings.Split(p, ",") {
				m.longs = append(m.longs, cAtol(s))
			}
			slices.Sort(m.longs)
			if m.longs[0] <= 0 {
				return nil, bad("a cutoff is not positive (trec_eval: Negative cutoff detected)")
			}
			for i := 1; i < len(m.longs); i++ {
				if m.longs[i] == m.longs[i-1] {
					return nil, bad("a cutoff is given twice (trec_eval: duplicate cutoffs detected)")
				}
			}
		}
		for _, k := range m.longs {
			m.Names = append(m.Names, d.name+"_"+strconv.Itoa(k))
		}
	case tkCutDouble:
		if p != "" {
			m.doubles = nil
			for _, s := range strings.Split(p, ",") {
				m.doubles = append(m.doubles, cAtof(s))
			}
			slices.Sort(m.doubles)
			for i := 1; i < len(m.doubles); i++ {
				if m.doubles[i] == m.doubles[i-1] {
					return nil, bad("a cutoff is given twice (trec_eval: duplicate cutoffs detected)")
				}
			}
		}
		for _, x := range m.doubles {
			// snprintf into strlen(name)+10 bytes: at most 9 after the name
			s := fmt.Sprintf("_%3.2f", x)
			if len(s) > 9 {
				s = s[:9]
			}
			m.Names = append(m.Names, d.name+s)
		}
	case tkParams, tkRelString:
		m.Names = []string{d.name}
		if p != "" {
			m.doubles = nil
			for _, s := range strings.Split(p, ",") {
				m.doubles = append(m.doubles, cAtof(s))
			}
			m.Names[0] = d.name + "_" + p
		}
		if d.name == "utility" && len(m.doubles) != 4 {
			return nil, bad("utility takes 4 coefficients (trec_eval: improper number of coefficients)")
		}
	case tkPairs:
		m.Names = []string{d.name}
		if p != "" {
			if !validPairs(p) {
				return nil, bad("parameters must be level=gain pairs, comma-separated (trec_eval: malformed pair parameters)")
			}
			for _, s := range strings.Split(p, ",") {
				n, v, _ := strings.Cut(s, "=")
				m.pairs = append(m.pairs, trecPair{n, cAtof(v)})
			}
			m.Names[0] = d.name + "_" + p
		}
	default:
		m.Names = []string{d.name}
	}
	return m, nil
}

// validPairs is get_param_pairs' check: every comma-separated item holds
// an '=', none two.
func validPairs(p string) bool {
	last := byte(',')
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case ',':
			if last == ',' {
				return false
			}
			last = ','
		case '=':
			if last == '=' {
				return false
			}
			last = '='
		}
	}
	return last == '='
}

// cAtol is C's atol: leading white space, a sign, digits; 0 without.
func cAtol(s string) int {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	i, neg := 0, false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	n := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		n = n*10 + int(s[i]-'0')
		if n > math.MaxInt32*1024 {
			break
		}
	}
	if neg {
		return -n
	}
	return n
}

// cAtof is C's atof: the longest prefix of s (after white space) that is
// a number; 0 without.
func cAtof(s string) float64 {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	if v, err := strconv.ParseFloat(s, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		if !strings.ContainsAny(s, "_xXpP") {
			return v
		}
	}
	return CAtofPrefix(s)
}

// CAtofPrefix is C's strtod on the decimal prefix of s: an optional sign,
// digits with an optional point, an optional exponent; inf and nan in any
// case. 0 when s starts with no number.
func CAtofPrefix(s string) float64 {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	rest := strings.ToLower(s[i:])
	for _, w := range []string{"infinity", "inf", "nan"} {
		if strings.HasPrefix(rest, w) {
			v, _ := strconv.ParseFloat(s[:i+len(w)], 64)
			return v
		}
	}
	if len(rest) > 2 && rest[0] == '0' && rest[1] == 'x' && isHex(rest[2]) {
		return hexPrefix(s[:i], s[i+2:])
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0
	}
	i = cExponent(s, i, 'e')
	v, _ := strconv.ParseFloat(s[:i], 64)
	return v
}

// cExponent returns the end of the exponent that starts at s[i] as strtod
// reads it — the letter mark (either case), an optional sign, at least one
// digit — or i when none does.
func cExponent(s string, i int, mark byte) int {
	if i >= len(s) || s[i]|0x20 != mark {
		return i
	}
	j := i + 1
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	if j >= len(s) || s[j] < '0' || s[j] > '9' {
		return i
	}
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	return j
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// hexPrefix is strtod of a hexadecimal number: sign, then the digits after
// 0x (hex digits, a point, more, an optional p exponent).
func hexPrefix(sign, s string) float64 {
	i := 0
	for i < len(s) && isHex(s[i]) {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isHex(s[i]) {
			i++
		}
	}
	exp := "p0" // Go's ParseFloat needs the exponent of a hex number
	if j := cExponent(s, i, 'p'); j > i {
		exp = s[i:j]
	}
	v, _ := strconv.ParseFloat(sign+"0x"+s[:i]+exp, 64)
	return v
}
