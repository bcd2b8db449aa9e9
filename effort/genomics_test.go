package effort

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// gp is a gold passage [s,e) with its ID and aspects.
func gp(s, e, id int, aspects ...int) GoldPassage {
	return GoldPassage{Span: Span{s, e}, ID: id, Aspects: aspects}
}

// doc is a judged document: its gold passages in line order.
type doc struct {
	gold []GoldPassage
}

// passages builds the ranked passages (doc id, rank, start, end) against
// the judged documents; the others are unjudged.
func passages(docs map[string]doc, ps ...any) []RankedPassage {
	var out []RankedPassage
	key := map[string]int{}
	for i := 0; i+3 < len(ps); i += 4 {
		id := ps[i].(string)
		k, ok := key[id]
		if !ok {
			k = len(key)
			key[id] = k
		}
		p := RankedPassage{ID: id, Key: k, Rank: ps[i+1].(int), Span: Span{ps[i+2].(int), ps[i+3].(int)}}
		if d, ok := docs[id]; ok {
			p.Relevant, p.Gold = true, d.gold
			var rel []Span
			for _, g := range d.gold {
				rel = append(rel, g.Span)
			}
			p.Rel = Normalize(rel)
		}
		out = append(out, p)
	}
	return out
}

func close12(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// NIST's order: rank, then the document id as bytes ("10" before "9"),
// then offset, then length.
func TestNISTOrder(t *testing.T) {
	ps := passages(nil,
		"9", 1, 0, 5, // 0
		"a", 2, 5, 15, // 1: offset 5, length 10
		"10", 1, 0, 5, // 2
		"a", 2, 5, 8, // 3: offset 5, length 3
		"a", 2, 2, 102, // 4: offset 2
		"b", 0, 7, 8, // 5: rank 0 first
	)
	got := NISTOrder(ps, nil)
	if want := []int{5, 2, 0, 4, 3, 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// DOCUMENT: the distinct documents in NIST's order. Rank ties put "10"
// before "9": documents 10 (not relevant), 9 and 7 (relevant), 3 relevant
// in all: (1/2 + 2/3)/3 = 7/18. In line order (9, 10, 7) it would be
// (1 + 2/3)/3.
func TestDocumentAP(t *testing.T) {
	docs := map[string]doc{"9": {[]GoldPassage{gp(0, 5, 0)}}, "7": {[]GoldPassage{gp(0, 5, 1)}}}
	ps := passages(docs, "9", 1, 0, 5, "10", 1, 0, 5, "9", 2, 10, 15, "7", 3, 0, 5)
	if got, want := DocumentAP(ps, NISTOrder(ps, nil), 3), 7.0/18; !close12(got, want) {
		t.Errorf("NIST's order: %v, want %v", got, want)
	}
	if got, want := DocumentAP(ps, nil, 3), (1+2.0/3)/3; !close12(got, want) {
		t.Errorf("line order: %v, want %v", got, want)
	}
	if got := DocumentAP(ps, nil, 0); got != 0 {
		t.Errorf("no relevant document: %v", got)
	}
}

// The first overlapping gold passage is the first in the judgments' line
// order, not in offset order: gold g0 = [50,60) {A} is listed before
// g1 = [20,55) {B,C}; the passage [40,70) shares 10 characters with g0 and
// 15 with g1, and is credited with g0 only.
//
//	PASSAGE  = (10/30) / (1 passage + 1 gold passage never credited) = 1/6
//	ASPECT   = (1 new aspect · 1/1) / 3 aspects = 1/3
//	PASSAGE2 = relevant text [20,60): 20 new relevant characters first,
//	           Σ i/i = 20, over 40 relevant characters = 1/2
func TestFirstOverlappingGoldPassage(t *testing.T) {
	docs := map[string]doc{"d": {[]GoldPassage{gp(50, 60, 0, 0), gp(20, 55, 1, 1, 2)}}}
	ps := passages(docs, "d", 1, 40, 70)
	if got, want := PassageAP(ps, nil, 2), 1.0/6; !close12(got, want) {
		t.Errorf("PASSAGE %v, want %v", got, want)
	}
	if got, want := AspectAP(ps, nil, 3), 1.0/3; !close12(got, want) {
		t.Errorf("ASPECT %v, want %v", got, want)
	}
	if got, want := CharAP(ps, nil, 40), 0.5; !close12(got, want) {
		t.Errorf("PASSAGE2 %v, want %v", got, want)
	}
}

// Repeated characters. Gold [10,20) and [30,40) of one document: 20
// relevant characters. The passages, in order:
//
//	[5,15):  5 non-relevant (5 read), then 10…14 new: 1/6 2/7 3/8 4/9 5/10
//	[12,22): 12…14 relevant but read before: in neither count;
//	         15…19 new: 6/11 7/12 8/13 9/14 10/15; 20, 21 non-relevant (17 read)
//	[5,8):   non-relevant again: counted again (20 read)
//	[30,32): new: 11/21 12/22
//
// PASSAGE2 sums those precisions over 20. PASSAGE counts every character
// in its denominator: [5,15) shares 5 with the first gold passage (5/10),
// [12,22) 8 with it (13/20), [5,8) none (23 read), [30,32) 2 with the second
// (15/25): (5/10 + 13/20 + 15/25)/3, both gold passages credited.
func TestRepeatedCharacters(t *testing.T) {
	docs := map[string]doc{"d": {[]GoldPassage{gp(10, 20, 0), gp(30, 40, 1)}}}
	ps := passages(docs, "d", 1, 5, 15, "d", 2, 12, 22, "d", 3, 5, 8, "d", 4, 30, 32)
	want := (1.0/6 + 2.0/7 + 3.0/8 + 4.0/9 + 5.0/10 +
		6.0/11 + 7.0/12 + 8.0/13 + 9.0/14 + 10.0/15 +
		11.0/21 + 12.0/22) / 20
	if got := CharAP(ps, NISTOrder(ps, nil), 20); !close12(got, want) {
		t.Errorf("PASSAGE2 %v, want %v", got, want)
	}
	if got, want := PassageAP(ps, nil, 2), (5.0/10+13.0/20+15.0/25)/3; !close12(got, want) {
		t.Errorf("PASSAGE %v, want %v", got, want)
	}
}

// ASPECT: document d1 has g0 [0,10) {A,B} and g1 [20,30) {B,C}, d2 has
// g2 [0,5) {D}; 4 aspects. The passages:
//
//	d3 [0,10)  not relevant:             m = 1
//	d1 [0,5)   g0, A and B new (k = 2):  n = 1, m = 2, adds 2·1/2
//	d1 [5,8)   g0, nothing new:          no change
//	d1 [25,26) g1, C new (k = 1):        n = 2, m = 3, adds 1·2/3
//	d2 [10,12) no overlap:               m = 4
//	d2 [4,6)   g2, D new:                n = 3, m = 5, adds 1·3/5
//
// (1 + 2/3 + 3/5)/4.
func TestAspectAP(t *testing.T) {
	const a, b, c, d = 0, 1, 2, 3
	docs := map[string]doc{
		"d1": {[]GoldPassage{gp(0, 10, 0, a, b), gp(20, 30, 1, b, c)}},
		"d2": {[]GoldPassage{gp(0, 5, 2, d)}},
	}
	ps := passages(docs, "d3", 1, 0, 10, "d1", 2, 0, 5, "d1", 3, 5, 8, "d1", 4, 25, 26, "d2", 5, 10, 12, "d2", 6, 4, 6)
	if got, want := AspectAP(ps, NISTOrder(ps, nil), 4), (1+2.0/3+3.0/5)/4; !close12(got, want) {
		t.Errorf("ASPECT %v, want %v", got, want)
	}
	if got := AspectAP(ps, nil, 0); got != 0 {
		t.Errorf("no aspect: %v", got)
	}
}

// A gold passage never overlapped counts 0 in PASSAGE; two lines with the
// same document, offset and length are one passage (one ID).
func TestPassageUncredited(t *testing.T) {
	docs := map[string]doc{"d": {[]GoldPassage{gp(0, 10, 0), gp(0, 10, 0), gp(100, 110, 1)}}}
	ps := passages(docs, "d", 1, 5, 15)
	// 5 relevant of 10 read: 1/2, over 1 passage + 1 gold passage never credited.
	if got, want := PassageAP(ps, nil, 2), 0.25; !close12(got, want) {
		t.Errorf("PASSAGE %v, want %v", got, want)
	}
}

// charWalk is PASSAGE2 walked one character at a time, as NIST's scorer
// does: the reference of CharAP's interval arithmetic.
func charWalk(ps []RankedPassage, relChars int) float64 {
	seen := map[[2]int]bool{}
	num, den := 0, 0
	sum := 0.0
	for _, p := range ps {
		for c := p.Start; c < p.End; c++ {
			rel := SpanIntersectLen(Span{c, c + 1}, p.Rel) == 1
			switch {
			case !rel:
				den++
			case !seen[[2]int{p.Key, c}]:
				seen[[2]int{p.Key, c}] = true
				num++
				den++
				sum += float64(num) / float64(den)
			}
		}
	}
	return sum / float64(relChars)
}

// CharAP's intervals (long stretches through harmonic numbers) give the
// character walk's value on random runs over a few documents.
func TestCharAPIntervals(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		docs := map[string]doc{}
		rel := 0
		for d := 0; d < 3; d++ {
			var gold []GoldPassage
			var spans []Span
			for k := rng.IntN(4); k > 0; k-- {
				s := rng.IntN(3000)
				g := gp(s, s+rng.IntN(1500), 0)
				gold = append(gold, g)
				spans = append(spans, g.Span)
			}
			if len(gold) > 0 {
				docs[string(rune('a'+d))] = doc{gold}
				rel += Normalize(spans).Len()
			}
		}
		var args []any
		for k := 1 + rng.IntN(30); k > 0; k-- {
			s := rng.IntN(4000)
			args = append(args, string(rune('a'+rng.IntN(4))), 1, s, s+rng.IntN(1200))
		}
		ps := passages(docs, args...)
		if rel == 0 {
			continue
		}
		got, want := CharAP(ps, nil, rel), charWalk(ps, rel)
		if math.Abs(got-want) > 1e-12*math.Max(1, want) {
			t.Fatalf("trial %d: intervals %.17g, character walk %.17g", trial, got, want)
		}
	}
}
