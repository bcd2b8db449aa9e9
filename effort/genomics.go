package effort

import "sort"

// The span measures: the TREC 2007 Genomics track's DOCUMENT, PASSAGE,
// ASPECT and PASSAGE2 (Hersh et al., the track overview), as NIST's scorer
// trecgen2007_score.py computes them, and charAP, PASSAGE2's character-level
// average precision taken in the run's line order (the INEX convention).
// They read a topic's retrieved passages (TopicInput.Ranked), each with its
// document's judged passages.
//
// The scorer's conventions, which these functions reproduce exactly:
//
//   - order: the official measures take a topic's passages sorted by
//     (rank, document id, offset, length), ids compared as byte strings
//     (NISTOrder); charAP takes them in the run's line order;
//   - the first overlapping gold passage: PASSAGE and ASPECT credit a
//     retrieved passage with the first gold passage of its document, in the
//     judgments' line order, that shares a character with it, and with that
//     one only (firstOverlap);
//   - repeated characters (PASSAGE2, charAP): a relevant character already
//     retrieved counts in neither the numerator nor the denominator; a
//     non-relevant character counts in the denominator every time it is
//     retrieved. PASSAGE counts every retrieved character in its
//     denominator, repeated or not;
//   - a topic's value divides by what the judgments hold (relevant documents,
//     distinct gold passages, distinct aspects, relevant characters), so
//     that what is never retrieved counts 0; its `all` is the mean over
//     every judged topic (Measure.AllTopics).
//
// NIST's scorer walks PASSAGE2 one character at a time; CharAP walks
// intervals: a stretch of k new relevant characters read after a relevant
// and d characters adds Σ_{i=1..k} (a+i)/(d+i) = k − (d−a)·(H(d+k) − H(d))
// (HarmonicDiff), so its cost grows with the number of passages, not with
// their length.

// GoldPassage is one relevant passage of a judged document.
type GoldPassage struct {
	Span
	// ID numbers the topic's distinct relevant passages from 0: two lines
	// giving the same document, offset and length share one ID (PASSAGE
	// counts each distinct passage once).
	ID int
	// Aspects are the passage's distinct aspects, numbered per topic from 0
	// (ASPECT). A passage without aspects brings none: ASPECT counts it as
	// NIST's scorer counts a non-relevant passage.
	Aspects []int
}

// RankedPassage is one retrieved passage of a topic, with the judgments of
// its document.
type RankedPassage struct {
	// ID is the document's id; Key numbers the distinct documents of the
	// topic's passages from 0 (Key < TopicInput.RunDocs).
	ID  string
	Key int
	// Rank is the run's rank column (or the line's position when the run
	// has none).
	Rank int
	// Span is the retrieved text.
	Span
	// Relevant tells whether the judgments hold the document relevant;
	// Gold are its relevant passages in the judgments' line order and Rel
	// their union (normalised). All are zero for an unjudged document.
	Relevant bool
	Gold     []GoldPassage
	Rel      Spans
}

// NISTOrder returns, in dst, the indices of ps in the order of NIST's
// scorer: by rank, then document id (byte-wise), offset and length (a
// Python sort of (rank, pmid, offset, length) tuples).
func NISTOrder(ps []RankedPassage, dst []int) []int {
	dst = dst[:0]
	for i := range ps {
		dst = append(dst, i)
	}
	sort.SliceStable(dst, func(a, b int) bool {
		x, y := &ps[dst[a]], &ps[dst[b]]
		switch {
		case x.Rank != y.Rank:
			return x.Rank < y.Rank
		case x.ID != y.ID:
			return x.ID < y.ID
		case x.Start != y.Start:
			return x.Start < y.Start
		}
		return x.Len() < y.Len()
	})
	return dst
}

// DocumentAP is DOCUMENT: the average precision of the distinct documents of
// ps taken in order (nil: line order), each at its first passage, a
// document being relevant when it holds relevant text, divided by relDocs
// (the topic's relevant documents). 0 when relDocs is 0.
func DocumentAP(ps []RankedPassage, order []int, relDocs int) float64 {
	var w spanWork
	return w.document(ps, order, relDocs)
}

// PassageAP is PASSAGE, the 2006 passage measure: each passage's relevant
// characters are those it shares with the first gold passage of its
// document it overlaps; the precision (relevant characters so far over
// characters retrieved so far) is summed at every passage with relevant
// characters and divided by the number of such passages plus the distinct
// gold passages (goldPassages in all) never credited. 0 when that is 0.
func PassageAP(ps []RankedPassage, order []int, goldPassages int) float64 {
	var w spanWork
	return w.passage(ps, order, goldPassages)
}

// AspectAP is ASPECT: a passage that overlaps a gold passage (the first, as
// PassageAP) brings that gold passage's aspects; one bringing k new aspects
// adds k·(n/m), n counting the passages that brought new aspects and m those
// plus the non-relevant passages (a relevant passage bringing nothing new
// changes neither); divided by the topic's aspects (0 when it has none).
func AspectAP(ps []RankedPassage, order []int, aspects int) float64 {
	var w spanWork
	return w.aspect(ps, order, aspects)
}

// CharAP is PASSAGE2's character-level average precision of the passages
// taken in order (nil: line order): the retrieved characters in order, a
// relevant character not retrieved before adding 1 to both counts and its
// precision to the sum, one retrieved before counting in neither, a
// non-relevant character adding 1 to the characters read each time;
// divided by relChars, the topic's relevant characters (0 when 0).
func CharAP(ps []RankedPassage, order []int, relChars int) float64 {
	var w spanWork
	return w.charAP(ps, order, relChars)
}

// spanWork holds the reusable buffers of the span measures.
type spanWork struct {
	order   []int  // NIST's order of the topic's passages
	ordered bool   // order is computed for the current topic
	docSeen []bool // per Key: the document was ranked (DOCUMENT)
	found   []bool // per gold passage ID: credited (PASSAGE)
	brought []bool // per aspect: brought (ASPECT)
	seen    []Spans
	one     [1]Span
	tmp     Spans
	tmp2    Spans
}

// nistOrder returns NIST's order of t's passages, sorting them once per topic.
func (w *spanWork) nistOrder(t *TopicInput) []int {
	if !w.ordered {
		w.order = NISTOrder(t.Ranked, w.order)
		w.ordered = true
	}
	return w.order
}

// each calls f on the passages of ps in order (nil: line order).
func each(ps []RankedPassage, order []int, f func(p *RankedPassage)) {
	if order == nil {
		for i := range ps {
			f(&ps[i])
		}
		return
	}
	for _, i := range order {
		f(&ps[i])
	}
}

// clearBools returns b resized to n, all false.
func clearBools(b []bool, n int) []bool {
	if cap(b) < n {
		return make([]bool, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// keys returns one more than the largest Key of ps.
func keys(ps []RankedPassage) int {
	n := 0
	for i := range ps {
		n = max(n, ps[i].Key+1)
	}
	return n
}

func (w *spanWork) document(ps []RankedPassage, order []int, relDocs int) float64 {
	if relDocs <= 0 {
		return 0
	}
	w.docSeen = clearBools(w.docSeen, keys(ps))
	n, rel := 0, 0
	sum := 0.0
	each(ps, order, func(p *RankedPassage) {
		if w.docSeen[p.Key] {
			return
		}
		w.docSeen[p.Key] = true
		n++
		if p.Relevant {
			rel++
			sum += float64(rel) / float64(n)
		}
	})
	return sum / float64(relDocs)
}

// firstOverlap returns the index in gold of the first passage sharing a
// character with s and the number of characters they share, or -1 and 0.
func firstOverlap(gold []GoldPassage, s Span) (int, int) {
	for i := range gold {
		lo, hi := max(s.Start, gold[i].Start), min(s.End, gold[i].End)
		if hi > lo {
			return i, hi - lo
		}
	}
	return -1, 0
}

// goldIDs returns one more than the largest gold passage ID of ps, at least n.
func goldIDs(ps []RankedPassage, n int) int {
	for i := range ps {
		for _, g := range ps[i].Gold {
			n = max(n, g.ID+1)
		}
	}
	return n
}

func (w *spanWork) passage(ps []RankedPassage, order []int, goldPassages int) float64 {
	w.found = clearBools(w.found, goldIDs(ps, goldPassages))
	rel, read, count, found := 0, 0, 0, 0
	sum := 0.0
	each(ps, order, func(p *RankedPassage) {
		read += p.Len()
		g, n := firstOverlap(p.Gold, p.Span)
		if n == 0 {
			return
		}
		count++
		rel += n
		sum += float64(rel) / float64(read)
		if id := p.Gold[g].ID; !w.found[id] {
			w.found[id] = true
			found++
		}
	})
	d := count + goldPassages - found
	if d <= 0 {
		return 0
	}
	return sum / float64(d)
}

func (w *spanWork) aspect(ps []RankedPassage, order []int, aspects int) float64 {
	if aspects <= 0 {
		return 0
	}
	n := aspects
	for i := range ps {
		for _, g := range ps[i].Gold {
			for _, a := range g.Aspects {
				n = max(n, a+1)
			}
		}
	}
	w.brought = clearBools(w.brought, n)
	num, den := 0, 0
	sum := 0.0
	each(ps, order, func(p *RankedPassage) {
		g, _ := firstOverlap(p.Gold, p.Span)
		if g < 0 || len(p.Gold[g].Aspects) == 0 {
			den++
			return
		}
		k := 0
		for _, a := range p.Gold[g].Aspects {
			if !w.brought[a] {
				k++
				w.brought[a] = true
			}
		}
		if k > 0 {
			num++
			den++
			// (k·num)/den, in the scorer's order of operations.
			sum += float64(k) * float64(num) / float64(den)
		}
	})
	return sum / float64(aspects)
}

// directRun is the longest stretch of new relevant characters whose
// precisions are summed one by one (as the scorer does); longer ones use
// harmonic numbers.
const directRun = 256

func (w *spanWork) charAP(ps []RankedPassage, order []int, relChars int) float64 {
	if relChars <= 0 {
		return 0
	}
	nk := keys(ps)
	if cap(w.seen) < nk {
		w.seen = append(w.seen[:cap(w.seen)], make([]Spans, nk-cap(w.seen))...)
	}
	w.seen = w.seen[:nk]
	for i := range w.seen {
		w.seen[i] = w.seen[i][:0]
	}
	a, d := 0, 0 // relevant characters read (first time), characters counted
	sum := 0.0
	add := func(k int) {
		if k <= directRun {
			for i := 1; i <= k; i++ {
				sum += float64(a+i) / float64(d+i)
			}
		} else {
			sum += float64(k) - float64(d-a)*HarmonicDiff(d, d+k)
		}
		a += k
		d += k
	}
	each(ps, order, func(p *RankedPassage) {
		s := p.Span
		if s.Len() == 0 {
			return
		}
		rel := p.Rel
		k := sort.Search(len(rel), func(i int) bool { return rel[i].End > s.Start })
		if k == len(rel) || rel[k].Start >= s.End {
			d += s.Len() // no relevant character
			return
		}
		seen := w.seen[p.Key]
		j := sort.Search(len(seen), func(i int) bool { return seen[i].End > s.Start })
		pos := s.Start
		for ; k < len(rel) && rel[k].Start < s.End; k++ {
			lo, hi := max(rel[k].Start, s.Start), min(rel[k].End, s.End)
			d += lo - pos // non-relevant characters before
			for x := lo; x < hi; {
				for j < len(seen) && seen[j].End <= x {
					j++
				}
				if j == len(seen) || seen[j].Start >= hi {
					add(hi - x)
					break
				}
				if seen[j].Start > x {
					add(seen[j].Start - x)
				}
				x = min(seen[j].End, hi) // retrieved before: counts in neither
			}
			pos = hi
		}
		d += s.End - pos
		w.one[0] = s
		w.tmp = AppendIntersect(w.tmp[:0], rel, w.one[:])
		w.tmp2 = AppendUnion(w.tmp2[:0], seen, w.tmp)
		w.seen[p.Key] = append(seen[:0], w.tmp2...)
	})
	return sum / float64(relChars)
}
