package browse

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/analysis"
	"github.com/readsim/readsim/index/records"
)

// Passage is a best-matching passage of an article: one candidate element or
// several adjacent ones merged, with their XPaths and score.
type Passage struct {
	effort.Span
	XPaths []string // the merged elements, in document order
	Score  float64  // the best score among them
	// NoMatch marks the passage given to an article in which no candidate
	// element holds a query term (Lead): its lead, scored 0.
	NoMatch bool
}

// Stats are the collection statistics browse scores elements with: the
// number of candidate elements in the collection, their average length in
// tokens and each query term's element frequency.
type Stats struct {
	N      float64
	AvgLen float64
	DF     map[string]float64
}

// Options tune browse.
type Options struct {
	// Threshold keeps the elements scoring at least Threshold times the best
	// element's score (0 < Threshold ≤ 1; 0 means DefaultThreshold).
	Threshold float64
}

// DefaultThreshold is the default relative threshold of browse.
const DefaultThreshold = 0.5

// BM25 parameters of browse, Bleve's values.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Passages returns the best non-overlapping passages of an article whose text
// and candidate elements are given, in document order.
//
// Each candidate element is scored with BM25 (k1 = 1.2, b = 0.75, raw term
// frequency, idf log(1 + (N−df+0.5)/(df+0.5))) against the collection's
// element statistics; element length is its number of tokens after analysis
// (stop words removed), as Bleve counts field length. Elements scoring at
// least Threshold × the best score are the winners; winners are taken by
// decreasing score (ties: the shorter, then the earlier), each one kept
// unless it overlaps one already kept, so a section and a paragraph inside it
// are never both returned. The kept elements are put in document order and
// adjacent ones — nothing but white space between them — are merged into one
// passage. An article none of whose candidate elements contains a query term
// has no passages.
//
// Two rules keep the text a reader wants (docs/search.md, "Passage
// choice"): the article's lead (leadOf: its first candidate with analysed
// text, captions passed over, when it is the body's own text or a
// paragraph of the body) is a winner
// whenever it holds every query term (the first 64); and a caption scores at most as well as
// the best other candidate holding every query term it holds, so a short
// caption never outranks the paragraph that says the same.
//
// toks are the article's tokens in text order — all of them, or only those
// that hold a query term (the others count for nothing but the elements'
// lengths) — lens the elements' lengths in tokens, parallel to elems, and
// gap(k) the number of white space characters after element k.
func Passages(gap func(k int) int, toks []analysis.Token, lens []int, elems []records.Elem, terms []analysis.Term, st *Stats, opt Options) []Passage {
	th := opt.Threshold
	if th <= 0 || th > 1 {
		th = DefaultThreshold
	}
	if len(terms) == 0 || len(elems) == 0 {
		return nil
	}
	cands, best := scoreElems(toks, lens, elems, terms, st)
	if len(cands) == 0 {
		return nil
	}
	lead := -1
	all := uint64(1)<<min(len(terms), 64) - 1
	if k := leadOf(elems, lens, cands); k >= 0 && cands[k].terms == all {
		lead = cands[k].e
	}
	return choose(gap, elems, cands, th*best, lead)
}

// scoredElem is a candidate element (its index), its score and the query
// terms it holds (bit i: the i-th term; the first 64 terms).
type scoredElem struct {
	e     int
	score float64
	terms uint64
}

// scoreElems scores the candidate elements with BM25 (see browse) and
// returns those scoring above zero, and the best score.
func scoreElems(toks []analysis.Token, lens []int, elems []records.Elem, terms []analysis.Term, st *Stats) ([]scoredElem, float64) {
	qpos := termPositions(toks, terms)
	idf := termIDFs(terms, st)
	avg := st.AvgLen
	if avg <= 0 {
		avg = 1
	}
	count := func(pos []int, s, e int) int {
		return sort.SearchInts(pos, e) - sort.SearchInts(pos, s)
	}
	var cands []scoredElem
	for k, el := range elems {
		var score float64
		var held uint64
		dl := float64(lens[k])
		for i, t := range terms {
			tf := float64(count(qpos[i], el.Start, el.End))
			if tf == 0 {
				continue
			}
			if i < 64 {
				held |= 1 << i
			}
			score += float64(t.N) * idf[i] * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*dl/avg))
		}
		if el.Aux() {
			score *= records.AuxWeight // docs/search.md, "Auxiliary text"
		}
		if score > 0 {
			cands = append(cands, scoredElem{k, score, held})
		}
	}
	return cands, capCaptions(elems, cands)
}

// termPositions returns the start of each occurrence of each query term
// among the article's tokens, in the tokens' order: a token equal to the
// term, or, for a character term (Term.Char), a token holding its
// character.
func termPositions(toks []analysis.Token, terms []analysis.Term) [][]int {
	qpos := make([][]int, len(terms))
	// a query has a few terms: a map would cost more than a look along
	// them, for every hit of every search
	var idx map[string]int
	if len(terms) > 8 {
		idx = make(map[string]int, len(terms))
		for i, t := range terms {
			idx[t.Text] = i
		}
	}
	termOf := func(s string) (int, bool) {
		if idx != nil {
			i, ok := idx[s]
			return i, ok
		}
		for i := range terms {
			if terms[i].Text == s {
				return i, true
			}
		}
		return 0, false
	}
	var chars []int // the character terms (Term.Char)
	for i, t := range terms {
		if t.Char {
			chars = append(chars, i)
		}
	}
	for _, tk := range toks {
		if i, ok := termOf(tk.Term); ok {
			qpos[i] = append(qpos[i], tk.Start)
		}
		// a token holding a character term's character is one of its
		// occurrences (the token equal to it is counted above)
		for _, i := range chars {
			if tk.Term != terms[i].Text && strings.Contains(tk.Term, terms[i].Text) {
				qpos[i] = append(qpos[i], tk.Start)
			}
		}
	}
	return qpos
}

// termIDFs returns each query term's BM25 idf among the candidate
// elements (Stats.N elements, Stats.DF holding the term).
func termIDFs(terms []analysis.Term, st *Stats) []float64 {
	idf := make([]float64, len(terms))
	for i, t := range terms {
		df := st.DF[t.Text]
		n := math.Max(st.N, df)
		idf[i] = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	return idf
}

// capCaptions applies the caption rule of browse to the scored candidates
// and returns the best score: a caption's score is at most the best score
// of the other candidates (not captions) that hold every query term it
// holds.
func capCaptions(elems []records.Elem, cands []scoredElem) float64 {
	for i := range cands {
		c := &cands[i]
		if !elems[c.e].Caption() {
			continue
		}
		cap := -1.0
		for _, o := range cands {
			if !elems[o.e].Caption() && o.terms&c.terms == c.terms {
				cap = math.Max(cap, o.score)
			}
		}
		if cap >= 0 && c.score > cap {
			c.score = cap
		}
	}
	best := 0.0
	for _, c := range cands {
		best = math.Max(best, c.score)
	}
	return best
}

// leadOf returns the index among cands of the article's lead when it holds
// a query term, or -1; with cands nil, the lead's index among elems, or
// -1 when the article has none. The lead is the article's first candidate element
// with text that is analysed (lens: at least one token; an infobox's
// remains are not analysed) when it is the body's own text or a paragraph
// of the body itself (the INEX converters leave the lead there); captions
// before it (an image at the top of the body) are passed over, any other
// element ends the search.
func leadOf(elems []records.Elem, lens []int, cands []scoredElem) int {
	lead := -1
	for e, el := range elems {
		if el.Caption() || lens[e] == 0 {
			continue
		}
		if el.BodyText() {
			lead = e
		}
		break
	}
	if lead < 0 || cands == nil {
		return lead
	}
	for k, c := range cands {
		if c.e == lead {
			return k
		}
	}
	return -1
}

// choose keeps the candidates scoring at least min, and the element lead
// (an index of elems, or -1) whatever its score, by decreasing score (ties:
// the shorter, then the earlier), each unless it overlaps one kept
// already, and returns them in document order, adjacent ones merged: those
// with nothing but white space between them (gap, as browse).
func choose(gap func(k int) int, elems []records.Elem, cands []scoredElem, min float64, lead int) []Passage {
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.score != b.score {
			return a.score > b.score
		}
		la, lb := elems[a.e].End-elems[a.e].Start, elems[b.e].End-elems[b.e].Start
		if la != lb {
			return la < lb
		}
		return elems[a.e].Start < elems[b.e].Start
	})
	// kept is in document order and its elements do not overlap, so their
	// ends increase too: an element overlaps a kept one if and only if the
	// first kept element ending after its start begins before its end (a
	// binary search, not a scan: an article may have thousands of winners)
	var kept []scoredElem
	for _, c := range cands {
		if c.score < min && c.e != lead {
			continue
		}
		el := elems[c.e]
		i := sort.Search(len(kept), func(i int) bool { return elems[kept[i].e].End > el.Start })
		if i < len(kept) && elems[kept[i].e].Start < el.End {
			continue
		}
		kept = slices.Insert(kept, i, c)
	}
	var out []Passage
	last := -1 // the element that ends the last passage
	for _, k := range kept {
		el := elems[k.e]
		if n := len(out); n > 0 && el.Start-out[n-1].End <= gap(last) {
			last = k.e
			p := &out[n-1]
			p.End = el.End
			if el.XPath != "" {
				p.XPaths = append(p.XPaths, el.XPath)
			}
			p.Score = math.Max(p.Score, k.score)
			continue
		}
		p := Passage{Span: el.Span, Score: k.score}
		if el.XPath != "" { // a hit's elements have none (ReadHit)
			p.XPaths = []string{el.XPath}
		}
		out = append(out, p)
		last = k.e
	}
	return out
}

// Article returns the best passages of the stored article d for the
// query terms (Passages), scored against the element statistics st. An
// article none of whose candidate elements holds a query term (it
// matched in its title or categories only, or the query has no terms: a
// title search) has one passage all the same, its lead (Lead).
func Article(d *records.StoredArticle, terms []analysis.Term, st *Stats, opt Options) []Passage {
	if len(terms) > 0 {
		if ps := Passages(d.SpaceAfter, d.QueryTokens(terms), d.Lens(), d.Elems, terms, st, opt); len(ps) > 0 {
			return ps
		}
	}
	return []Passage{Lead(d.Elems, d.Lens(), d.Len)}
}

// Lead returns the passage of an article in which no candidate element
// holds a query term (docs/search.md, "A passage for every hit"): the
// article's lead as leadOf finds it (its first candidate with analysed
// text, captions passed over, when it is the body's own text or a
// paragraph of the body), else its first candidate with analysed text
// that is not a caption, else its first candidate, else its whole text
// (n characters). It is marked NoMatch and scored 0.
func Lead(elems []records.Elem, lens []int, n int) Passage {
	pick := -1
	if k := leadOf(elems, lens, nil); k >= 0 {
		pick = k
	}
	for e := 0; e < len(elems) && pick < 0; e++ {
		if !elems[e].Caption() && e < len(lens) && lens[e] > 0 {
			pick = e
		}
	}
	if pick < 0 && len(elems) > 0 {
		pick = 0
	}
	if pick < 0 {
		return Passage{Span: effort.Span{Start: 0, End: n}, NoMatch: true}
	}
	p := Passage{Span: elems[pick].Span, NoMatch: true}
	if elems[pick].XPath != "" {
		p.XPaths = []string{elems[pick].XPath}
	}
	return p
}
