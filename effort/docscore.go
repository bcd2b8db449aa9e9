package effort

import "math"

// Doc is what the document scores need to know about one retrieved document.
type Doc struct {
	// NRC is the number of relevant characters |Rel(d)|; 0 for a
	// non-relevant or unjudged document.
	NRC int
	// RetLen is |Ret(d)| and RetRel is |Ret(d) ∩ Rel(d)|.
	RetLen, RetRel int
	// Segs is the reading of the document in the chosen order (see Reader).
	Segs []Segment
}

// FScore returns the F(β) combination of precision p and recall r,
// (1+β²)pr/(β²p+r), or 0 when p or r is 0.
func FScore(p, r, beta float64) float64 {
	if p == 0 || r == 0 {
		return 0
	}
	b2 := beta * beta
	return (1 + b2) * p * r / (b2*p + r)
}

// F returns the INEX relevant-in-context score F(β) of d on its retrieved text.
func F(d *Doc, beta float64) float64 {
	if d.NRC == 0 || d.RetLen == 0 {
		return 0
	}
	return FScore(float64(d.RetRel)/float64(d.RetLen), float64(d.RetRel)/float64(d.NRC), beta)
}

// T2Ip returns kr/k under T2I(x): the precision of what a reader with
// tolerance x reads.
func T2Ip(d *Doc, x int) float64 {
	if d.NRC == 0 {
		return 0
	}
	t := T2I(d.Segs, x)
	if t.Read == 0 {
		return 0
	}
	return float64(t.RelRead) / float64(t.Read)
}

// T2Ir returns kr/NRC under T2I(x).
func T2Ir(d *Doc, x int) float64 {
	if d.NRC == 0 {
		return 0
	}
	return float64(T2I(d.Segs, x).RelRead) / float64(d.NRC)
}

// T2If returns F(β) of T2Ip(x) and T2Ir(x).
func T2If(d *Doc, x int, beta float64) float64 {
	if d.NRC == 0 {
		return 0
	}
	t := T2I(d.Segs, x)
	if t.Read == 0 {
		return 0
	}
	return FScore(float64(t.RelRead)/float64(t.Read), float64(t.RelRead)/float64(d.NRC), beta)
}

// ChP returns the character precision after n characters read: the relevant
// characters among the first n of the reading, divided by n (characters past
// the end of the reading count as non-relevant).
func ChP(d *Doc, n int) float64 {
	if d.NRC == 0 || n <= 0 {
		return 0
	}
	read, rel := 0, 0
	for _, s := range d.Segs {
		if read >= n {
			break
		}
		k := s.To - s.From
		if read+k > n {
			k = n - read
		}
		read += k
		if s.Rel {
			rel += k
		}
	}
	return float64(rel) / float64(n)
}

// AveChP returns (1/NRC)·Σ rel(c_i)·ChP[i] over the whole reading (no stop):
// the character precision at every relevant character, averaged. It costs
// O(segments), using harmonic numbers (measures.md §4).
func AveChP(d *Doc) float64 {
	if d.NRC == 0 {
		return 0
	}
	a, g := 0, 0 // characters read, relevant characters read
	sum := 0.0
	for _, s := range d.Segs {
		n := s.To - s.From
		if s.Rel {
			sum += float64(n) + float64(g-a)*HarmonicDiff(a, a+n)
			g += n
		}
		a += n
	}
	return sum / float64(d.NRC)
}

// LE returns the effort score ES(d) of measures.md §6 for screen size s and
// NR: min(⌊r/s⌋+1, NR) for a relevant document, r being the characters read
// before its first relevant character; NR for a non-relevant one. A screen
// size s < 1 is taken as 1 (LEOf).
func LE(d *Doc, s, nr int) float64 { return LEStop(d, s, nr, 0) }

// LEStop is LE for a reader who stops at T2I(x) (x = 0: no stop): a relevant
// document whose first relevant character lies past the stop gets NR
// (measures.md §6). Its name is LE(s,NR,x).
func LEStop(d *Doc, s, nr, x int) float64 {
	if d.NRC == 0 {
		return float64(nr)
	}
	t := T2I(d.Segs, x)
	return float64(LEOf(t.FirstRel, s, nr))
}

// LEOf returns min(⌊r/s⌋+1, NR), or NR when r < 0 (no relevant character read).
// A screen size s < 1 is taken as 1 (one character per screen).
func LEOf(r, s, nr int) int {
	if r < 0 {
		return nr
	}
	if s < 1 {
		s = 1
	}
	v := r/s + 1
	if v > nr {
		v = nr
	}
	return v
}

const harmonicDirect = 64

// HarmonicDiff returns H(b) − H(a) = Σ_{k=a+1..b} 1/k for 0 <= a <= b, accurate
// to a few ulps whatever the size of a and b.
func HarmonicDiff(a, b int) float64 {
	s := 0.0
	if b-a <= harmonicDirect {
		for k := b; k > a; k-- {
			s += 1 / float64(k)
		}
		return s
	}
	for a < harmonicDirect {
		a++
		s += 1 / float64(a)
	}
	// H(m) = ln m + γ + f(m) with the asymptotic tail f.
	fa, fb := float64(a), float64(b)
	return s + math.Log1p((fb-fa)/fa) + harmonicTail(fb) - harmonicTail(fa)
}

func harmonicTail(m float64) float64 {
	m2 := 1 / (m * m)
	return 1/(2*m) - m2*(1.0/12-m2*(1.0/120-m2*(1.0/252-m2/240)))
}
