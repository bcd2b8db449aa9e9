package effort

import (
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
)

// trec_eval's measures, computed as trec_eval 10.0 computes them
// (docs/trec_eval.md): one table, TrecMeasures, in trec_eval's order, which
// is the order it prints them in. A topic's ranking is a TrecRels (what
// trec_eval calls RES_RELS): the relevance of each retrieved document in
// rank order and the topic's counts. Each measure gives one value or
// several (one per cutoff) from it; the summary is the mean over topics
// (the counts: the sum; gm_map and gm_bpref: the geometric mean). Every
// computation repeats trec_eval's arithmetic in its order, so that the
// values are trec_eval's to the last bit and print the same four decimals.

// Relevance values of a retrieved document that are not judgments.
const (
	// TrecNonpool is the relevance of a document absent from the judgments.
	TrecNonpool = -1
	// TrecUnjudged is the relevance of a document judged with a negative
	// value (in the pool but not judged: infAP's sample).
	TrecUnjudged = -2
)

// TrecCompat9Measures are the measures whose values trec_eval 9 and 10
// compute differently, which TrecConfig.Compat 9 (--compat 9) computes as
// trec_eval 9: they turn a recall level x into (long)(x·R + 0.9) relevant
// documents where trec_eval 10 rounds, lround(x·R). ir_measures' IPrec@x
// is iprec_at_recall_x.
var TrecCompat9Measures = []string{"iprec_at_recall", "11pt_avg"}

// TrecCompat9Note says what --compat 9 changes (readsim measures).
func TrecCompat9Note() string {
	return "iprec_at_recall_x (IPrec@x) and 11pt_avg turn recall level x into lround(x·R) relevant documents, as trec_eval 10; " +
		"--compat 9 (eval, trec_eval) gives trec_eval 9's (long)(x·R + 0.9), as pytrec_eval and so ir_measures' default provider and PyTerrier do. " +
		"--compat 9 changes " + strings.Join(TrecCompat9Measures, " and ") + " only (Rprec_mult adds 0.9 in both versions)."
}

// MaxTrecRelevance is the highest relevance readsim trec_eval reads (1,024
// levels, 0 to 1,023): the measures count judgments level by level.
const MaxTrecRelevance = 1023

// TrecJudgment is one judged document of a topic.
type TrecJudgment struct {
	Docno string
	Rel   int
}

// TrecDoc is one retrieved document of a topic.
type TrecDoc struct {
	Docno string
	Sim   float64
}

// TrecConfig is what trec_eval's options change in the measures.
type TrecConfig struct {
	// RelevanceLevel is -l: the least judgment that is relevant (1).
	RelevanceLevel int
	// NumDocsInColl is -N: the documents of the collection (utility).
	NumDocsInColl int
	// MaxDocs is -M: the documents of a topic kept after ranking (0: all).
	MaxDocs int
	// JudgedOnly is -J: unjudged documents are dropped after ranking.
	JudgedOnly bool
	// Compat is the trec_eval version whose rules apply where versions
	// differ: 10 (or 0) for trec_eval 10, 9 for trec_eval 9 (--compat 9;
	// TrecCompat9Measures lists what it changes).
	Compat int
}

// TrecRels is a topic's ranking as trec_eval's measures see it.
type TrecRels struct {
	// Rel is the relevance of the document at each rank: its judgment,
	// TrecNonpool or TrecUnjudged.
	Rel []int
	// NumRet, NumRel, NumRelRet: documents ranked, relevant (judged at
	// least RelevanceLevel), relevant ranked.
	NumRet, NumRel, NumRelRet int
	// NumNonpool and NumUnjudged count the ranked documents that are
	// TrecNonpool and TrecUnjudged.
	NumNonpool, NumUnjudged int
	// RelLevels counts the topic's judgments at each level 0, 1…
	// (negative judgments are not counted); NumRelLevels is one more than
	// the highest level counted.
	RelLevels    []int
	NumRelLevels int

	// buffers reused from topic to topic
	judged         map[uint64]int32
	hashes, sorted []uint64
}

// TrecDuplicateError is trec_eval's refusal of a document ranked or judged
// twice for a topic.
type TrecDuplicateError struct {
	Docno  string
	Judged bool // in the judgments (else in the run)
}

// Error says which document is given twice, and where.
func (e *TrecDuplicateError) Error() string {
	if e.Judged {
		return fmt.Sprintf("document %s is judged twice for the topic (trec_eval refuses it: duplicate docs)", e.Docno)
	}
	return fmt.Sprintf("document %s is retrieved twice for the topic (trec_eval refuses it: duplicate docs)", e.Docno)
}

// TrecOrder compares two documents as trec_eval ranks them: by Sim,
// descending, then by Docno, descending in byte order.
func TrecOrder(a, b TrecDoc) int {
	switch {
	case a.Sim > b.Sim:
		return -1
	case a.Sim < b.Sim:
		return 1
	}
	return strings.Compare(b.Docno, a.Docno)
}

// TrecRank ranks docs as trec_eval does (by Sim, descending, then by docno,
// descending in byte order), keeps the first cfg.MaxDocs, and gives each its
// relevance from judged (sorted by Docno, as ReadTrec's judgments are). docs
// is reordered. r's slices are reused.
func TrecRank(cfg *TrecConfig, judged []TrecJudgment, docs []TrecDoc, r *TrecRels) error {
	slices.SortFunc(docs, TrecOrder)
	n := len(docs)
	if cfg.MaxDocs > 0 && n > cfg.MaxDocs {
		n = cfg.MaxDocs
	}
	docs = docs[:n]
	maxRel := 0
	for i, j := range judged {
		if i == 0 || j.Rel > maxRel {
			maxRel = j.Rel
		}
		if i > 0 && judged[i-1].Docno == j.Docno {
			return &TrecDuplicateError{Docno: strings.Clone(j.Docno), Judged: true}
		}
	}
	// documents are found by a hash of their name, checked by the name
	if r.judged == nil {
		r.judged = map[uint64]int32{}
	}
	clear(r.judged)
	for i, j := range judged {
		h := maphash.String(trecSeed, j.Docno)
		if k, dup := r.judged[h]; !dup || judged[k].Docno > j.Docno {
			r.judged[h] = int32(i) // on a collision, the search below goes on
		}
	}
	r.hashes = slices.Grow(r.hashes[:0], n)[:n]
	for i, d := range docs {
		r.hashes[i] = maphash.String(trecSeed, d.Docno)
	}
	if err := trecDuplicates(docs, r.hashes, &r.sorted); err != nil {
		return err
	}
	if maxRel < 0 {
		maxRel = -1
	}
	r.RelLevels = slices.Grow(r.RelLevels[:0], maxRel+1)[:maxRel+1]
	clear(r.RelLevels)
	for _, j := range judged {
		if j.Rel >= 0 {
			r.RelLevels[j.Rel]++
		}
	}
	r.Rel = slices.Grow(r.Rel[:0], n)[:0]
	r.NumRelRet, r.NumNonpool, r.NumUnjudged = 0, 0, 0
	for i, d := range docs {
		rel := TrecNonpool
		if k, ok := r.judged[r.hashes[i]]; ok {
			if judged[k].Docno != d.Docno {
				k, ok = searchJudged(judged, d.Docno)
			}
			if ok {
				rel = judged[k].Rel
				if rel < 0 {
					rel = TrecUnjudged
				}
			}
		}
		if cfg.JudgedOnly && rel < 0 {
			continue
		}
		r.rank(rel, cfg.RelevanceLevel)
	}
	r.NumRet = len(r.Rel)
	r.NumRel, r.NumRelLevels = 0, 0
	for lvl, c := range r.RelLevels {
		if c > 0 {
			r.NumRelLevels = lvl + 1
			if lvl >= cfg.RelevanceLevel {
				r.NumRel += c
			}
		}
	}
	return nil
}

var trecSeed = maphash.MakeSeed()

// searchJudged finds docno among judged (sorted by Docno).
func searchJudged(judged []TrecJudgment, docno string) (int32, bool) {
	k, ok := slices.BinarySearchFunc(judged, docno, func(j TrecJudgment, s string) int { return strings.Compare(j.Docno, s) })
	return int32(k), ok
}

// rank appends a document of relevance rel to r's ranking and counts it
// (level: the least relevant judgment).
func (r *TrecRels) rank(rel, level int) {
	r.Rel = append(r.Rel, rel)
	switch {
	case rel == TrecNonpool:
		r.NumNonpool++
	case rel == TrecUnjudged:
		r.NumUnjudged++
	case rel >= level:
		r.NumRelRet++
	}
}

// trecDuplicates reports a document of docs ranked twice: two equal
// hashes (h[i] is docs[i]'s) are two equal names, or a collision.
func trecDuplicates(docs []TrecDoc, h []uint64, buf *[]uint64) error {
	s := append((*buf)[:0], h...)
	*buf = s
	slices.Sort(s)
	for i := 1; i < len(s); i++ {
		if s[i] != s[i-1] {
			continue
		}
		seen := map[string]bool{}
		for k, d := range docs {
			if h[k] == s[i] {
				if seen[d.Docno] {
					return &TrecDuplicateError{Docno: strings.Clone(d.Docno)}
				}
				seen[d.Docno] = true
			}
		}
	}
	return nil
}

// TrecRelString is trec_eval's relstring of r: one character per ranked
// document among the first n: its judgment 0–9, '>' above 9, '-' not in
// the pool, '.' in the pool but unjudged, '<' any other.
func TrecRelString(r *TrecRels, n int) string {
	n = min(n, r.NumRet)
	if n < 0 {
		n = 0
	}
	b := make([]byte, n)
	for i, rel := range r.Rel[:n] {
		switch {
		case rel > 9:
			b[i] = '>'
		case rel >= 0:
			b[i] = byte('0' + rel)
		case rel == TrecNonpool:
			b[i] = '-'
		case rel == TrecUnjudged:
			b[i] = '.'
		default:
			b[i] = '<'
		}
	}
	return string(b)
}
