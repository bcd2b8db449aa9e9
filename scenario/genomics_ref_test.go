package scenario

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
)

// nistScorer is a line-by-line Go transcription of NIST's
// trecgen2007_score.py (TREC 2007 Genomics), the reference of the span
// measures: it reads the files as the script does and walks PASSAGE2 one
// character at a time with a set of relevant offsets per document, as the
// script does. It is independent of readsim's readers and measures.
type nistScorer struct {
	// gold[topic][pmid] are the gold passages in line order; topics in
	// numeric order.
	gold   map[int]map[string][]nistGold
	topics []int
}

type nistGold struct {
	offset, length int
	aspects        []string
}

type nistQuartet struct {
	rank         int
	pmid         string
	offset, leng int
}

// newNISTScorer reads a gold standard as buildGoldStd does: lines split at
// tabs, fields stripped, lines of five fields or more.
func newNISTScorer(gold []byte) *nistScorer {
	s := &nistScorer{gold: map[int]map[string][]nistGold{}}
	for _, line := range strings.Split(string(gold), "\n") {
		f := strings.Split(line, "\t")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		if len(f) <= 4 {
			continue
		}
		topic, _ := strconv.Atoi(f[0])
		off, _ := strconv.Atoi(f[2])
		n, _ := strconv.Atoi(f[3])
		var aspects []string
		for _, a := range strings.Split(f[4], "|") {
			aspects = append(aspects, strings.TrimSpace(a))
		}
		if s.gold[topic] == nil {
			s.gold[topic] = map[string][]nistGold{}
			s.topics = append(s.topics, topic)
		}
		s.gold[topic][f[1]] = append(s.gold[topic][f[1]], nistGold{off, n, aspects})
	}
	sort.Ints(s.topics)
	return s
}

// submissions reads a run as buildSubmissions does and sorts each topic's
// quartets (rank, pmid, offset, length).
func nistSubmissions(run []byte) map[int][]nistQuartet {
	out := map[int][]nistQuartet{}
	for _, line := range bytes.Split(run, []byte("\n")) {
		f := strings.Fields(string(line))
		if len(f) == 0 {
			continue
		}
		topic, _ := strconv.Atoi(f[0])
		rank, _ := strconv.Atoi(f[2])
		off, _ := strconv.Atoi(f[4])
		n, _ := strconv.Atoi(f[5])
		out[topic] = append(out[topic], nistQuartet{rank, f[1], off, n})
	}
	for _, qs := range out {
		sort.SliceStable(qs, func(i, j int) bool {
			a, b := qs[i], qs[j]
			switch {
			case a.rank != b.rank:
				return a.rank < b.rank
			case a.pmid != b.pmid:
				return a.pmid < b.pmid
			case a.offset != b.offset:
				return a.offset < b.offset
			}
			return a.leng < b.leng
		})
	}
	return out
}

// score returns the four measures per topic (and MAP, as "MAP") of run.
func (s *nistScorer) score(run []byte) map[string]map[string]float64 {
	sub := nistSubmissions(run)
	out := map[string]map[string]float64{"DOCUMENT": {}, "PASSAGE": {}, "ASPECT": {}, "PASSAGE2": {}}
	for _, topic := range s.topics {
		id := strconv.Itoa(topic)
		qs := sub[topic]
		out["DOCUMENT"][id] = s.document(topic, qs)
		out["PASSAGE"][id] = s.passage(topic, qs)
		out["ASPECT"][id] = s.aspect(topic, qs)
		out["PASSAGE2"][id] = s.passage2(topic, qs)
	}
	for _, vals := range out {
		sum := 0.0
		for _, topic := range s.topics {
			sum += vals[strconv.Itoa(topic)]
		}
		vals["MAP"] = sum / float64(len(s.topics))
	}
	return out
}

func (s *nistScorer) document(topic int, qs []nistQuartet) float64 {
	seen := map[string]bool{}
	num, den := 0, 0
	sum := 0.0
	for _, q := range qs {
		if seen[q.pmid] {
			continue
		}
		seen[q.pmid] = true
		den++
		if _, ok := s.gold[topic][q.pmid]; ok {
			num++
			sum += float64(num) / float64(den)
		}
	}
	return sum / float64(len(s.gold[topic]))
}

// relevant is findRelevantCharsByTopic, with its four cases.
func (s *nistScorer) relevant(topic int, q nistQuartet) (int, []string, [3]any) {
	runEnd := q.offset + q.leng
	for _, g := range s.gold[topic][q.pmid] {
		goldEnd := g.offset + g.length
		n := 0
		switch {
		case q.offset >= g.offset && runEnd <= goldEnd:
			n = q.leng
		case q.offset < g.offset && runEnd <= goldEnd && runEnd >= g.offset:
			n = runEnd - g.offset
		case q.offset >= g.offset && q.offset <= goldEnd && runEnd > goldEnd:
			n = goldEnd - q.offset
		case q.offset < g.offset && runEnd > goldEnd:
			n = g.length
		}
		if n != 0 {
			return n, g.aspects, [3]any{q.pmid, g.offset, g.length}
		}
	}
	return 0, nil, [3]any{}
}

func (s *nistScorer) passage(topic int, qs []nistQuartet) float64 {
	num, den, count := 0, 0, 0
	sum := 0.0
	found := map[[3]any]bool{}
	for _, q := range qs {
		n, _, g := s.relevant(topic, q)
		den += q.leng
		if n > 0 {
			count++
			num += n
			sum += float64(num) / float64(den)
			found[g] = true
		}
	}
	all := map[[3]any]bool{}
	for pmid, gs := range s.gold[topic] {
		for _, g := range gs {
			all[[3]any{pmid, g.offset, g.length}] = true
		}
	}
	zeros := 0
	for g := range all {
		if !found[g] {
			zeros++
		}
	}
	return sum / float64(count+zeros)
}

func (s *nistScorer) aspect(topic int, qs []nistQuartet) float64 {
	unique := map[string]bool{}
	for _, gs := range s.gold[topic] {
		for _, g := range gs {
			for _, a := range g.aspects {
				unique[a] = true
			}
		}
	}
	found := map[string]bool{}
	num, den := 0, 0
	sum := 0.0
	for _, q := range qs {
		_, aspects, _ := s.relevant(topic, q)
		if aspects == nil {
			den++
			continue
		}
		nw := map[string]bool{}
		for _, a := range aspects {
			if !found[a] {
				nw[a] = true
			}
		}
		if len(nw) > 0 {
			num++
			den++
			sum += float64(len(nw)) * float64(num) / float64(den)
		}
		for _, a := range aspects {
			found[a] = true
		}
	}
	return sum / float64(len(unique))
}

func (s *nistScorer) passage2(topic int, qs []nistQuartet) float64 {
	goldChars := map[string]map[int]bool{}
	tracking := map[string]map[int]bool{}
	for pmid, gs := range s.gold[topic] {
		goldChars[pmid], tracking[pmid] = map[int]bool{}, map[int]bool{}
		for _, g := range gs {
			for c := g.offset; c < g.offset+g.length; c++ {
				goldChars[pmid][c], tracking[pmid][c] = true, true
			}
		}
	}
	num, den := 0, 0
	sum := 0.0
	for _, q := range qs {
		if n, _, _ := s.relevant(topic, q); n == 0 && !s.touches(topic, q) {
			den += q.leng
			continue
		}
		for c := q.offset; c < q.offset+q.leng; c++ {
			switch {
			case !goldChars[q.pmid][c]:
				den++
			case tracking[q.pmid][c]:
				delete(tracking[q.pmid], c)
				num++
				den++
				sum += float64(num) / float64(den)
			}
		}
	}
	count := 0
	for _, cs := range goldChars {
		count += len(cs)
	}
	return sum / float64(count)
}

// touches is checkForAnyRelevantChars: its conditions also hold for a run
// passage that only touches a gold passage (then walked, to no effect).
func (s *nistScorer) touches(topic int, q nistQuartet) bool {
	runEnd := q.offset + q.leng
	for _, g := range s.gold[topic][q.pmid] {
		end := g.offset + g.length
		if (q.offset >= g.offset && runEnd <= end) || (q.offset < g.offset && runEnd <= end && runEnd >= g.offset) ||
			(q.offset >= g.offset && q.offset <= end && runEnd > end) || (q.offset < g.offset && runEnd > end) {
			return true
		}
	}
	return false
}
