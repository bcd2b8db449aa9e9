package fetch

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"sort"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"
	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/readsim/readsim/index/analysis"
	"github.com/readsim/readsim/index/records"
	"github.com/readsim/readsim/index/store"
)

// Fetch over shards.
//
// Fetch scores as Bleve's BM25 disjunction of term queries does (title and
// text, each term boosted by its field's boost times its number of
// occurrences in the query), but with the collection's statistics: the
// number of articles and the fields' average lengths from the manifest
// (see Index.loadStats), and each term's document frequency summed over the
// shards. So an index of N shards scores and ranks exactly as an index of
// one: Bleve's own search (a query per shard, or an IndexAlias) would give
// each shard its own document frequencies, and its presearch carries the
// document count and field lengths only.
//
// For each query term and field, a Bleve term field reader is opened on
// every shard (the context goes with it); their counts make the global
// document frequencies, from which each term's idf and query weight are
// computed once, as Bleve computes them (TermQueryScorer: BM25 idf, query
// norm 1/√Σ(boost·idf)², the disjunction's coordination factor
// matched/total). Then every shard walks its postings document by
// document on its own goroutine, keeping its best k, and the shards' best
// are merged. Ties are broken by article id: within a shard by the rank of
// the id (IDRanks, read when the index is opened), so that only the ids of
// the documents kept are read (Bleve's sort by _id reads the id of every
// matching document).

// Shards are an open index's shards, what a fetch reads of them.
type Shards struct {
	Bleve  []bleve.Index
	Recs   []*records.File   // per shard, its records file (index/records)
	Places [][]records.Place // per shard, each document's record place (DocPlaces)
	Ranks  [][]uint32        // per shard, the rank of each document's id (IDRanks)
	// DocLangs are, per shard, each document's language as an index of
	// LangAvg (DocLangs); nil when the index has one language
	DocLangs [][]uint8
	// LangAvg are the title's, the text's and the auxiliary text's
	// average lengths in tokens (rounded up, as Bleve rounds them) of
	// each language's articles
	LangAvg [][3]float64
	// bm25 are the collection's statistics: its number of articles and
	// the fields' lengths summed over them (the manifest's)
	BM25 *bsearch.BM25Stats
}

// Query is what a fetch needs of a query: its terms, or the title
// of a title search, and the boosts of the title, text and auxiliary
// text fields.
type Query struct {
	Terms                           []analysis.Term
	Title                           string
	TitleBoost, TextBoost, AuxBoost float64
}

// FieldTerm is one term of one field of a fetch query, with its global
// statistics and weights.
type FieldTerm struct {
	Term  []byte
	char  bool // a character term (Term.Char): its postings are charPostings'
	Field string
	// word is the query word the term is a variant of (Term.Word), whose
	// variants' document frequencies in a field add up
	word int
	// clause is the clause the term counts for in the coordination
	// factor: its own (its place in FieldTerms' order), but for an
	// auxiliary text term, which counts for its word's text term (aux)
	clause int
	aux    bool // a term of the auxiliary text: outside the query norm
	boost  float64
	df     uint64  // documents holding the term in the field, over all shards
	idf    float64 // Bleve's BM25 idf (TF-IDF idf when avgLen is 0)
	weight float64 // boost·idf·query norm (Bleve's queryWeight)
	avgLen float64 // the field's average length in tokens, rounded up
}

// FieldTerms returns the terms of q, for the title, the text and the
// auxiliary text, with their boosts, in Bleve's order (term by term,
// title, text, then auxiliary text).
//
// The auxiliary text's terms (docs/search.md, "Auxiliary text") add to
// the text's: each scores as a term of its own field (BM25 with that
// field's statistics, boosted by AuxBoost) but stays out of the query
// norm and counts, in the coordination factor, for the text term of
// its word. So an index without auxiliary text scores exactly as Bleve's
// disjunction of title and text terms, and an article whose term is in
// both its text and its auxiliary text is not counted as matching twice.
//
// A title search (Query.Title, no terms) is one term, the title key, of
// the title key field: an article with that title scores its TF-IDF idf,
// 1 + ln(N/(df+1)), since the field has no length statistics, times the
// field's norm, 1/√(its number of keys): 1 for an exact title, 1/√2 for a
// title matched without its qualifier (titleKeys). Articles that tie rank
// by id.
func FieldTerms(q Query) []FieldTerm {
	if len(q.Terms) == 0 && q.Title != "" {
		return []FieldTerm{{Term: []byte(q.Title), Field: store.TitleKeyField, boost: 1}}
	}
	var out []FieldTerm
	for _, t := range q.Terms {
		for _, f := range [3]struct {
			field string
			boost float64
		}{{"title", q.TitleBoost}, {"text", q.TextBoost}, {store.AuxField, q.AuxBoost}} {
			ft := FieldTerm{Term: []byte(t.Text), char: t.Char, Field: f.field, word: t.Word, clause: len(out), boost: f.boost * float64(t.N)}
			if f.field == store.AuxField {
				ft.aux, ft.clause = true, len(out)-1 // the text term, just before
			}
			out = append(out, ft)
		}
	}
	return out
}

// blendDF gives each term the document frequency of its word in its
// field: the sum of those of the word's variants (Term.Word: the terms
// two analysis kinds make of one word, held by articles of different
// kinds, so the sum counts each article once). One variant alone would
// count only the articles of its own kind: in a collection of English,
// Chinese and Korean articles, "history" in a Korean article (history,
// unstemmed) had an idf far above "history" in an English one
// (histori), and an English word met once in a Korean reference list
// outranked the English articles about it (docs/search.md, "One word,
// one idf").
func blendDF(ts []FieldTerm) {
	type key struct {
		word  int
		field string
	}
	sum := map[key]uint64{}
	for _, t := range ts {
		sum[key{t.word, t.Field}] += t.df
	}
	for i := range ts {
		ts[i].df = sum[key{ts[i].word, ts[i].Field}]
	}
}

// weigh computes the terms' idf and query weights from their document
// frequencies and the collection's statistics, as Bleve's term scorers and
// disjunction searcher do, summing in the terms' order.
func weigh(ts []FieldTerm, st *bsearch.BM25Stats) {
	n := st.DocCount
	var sumSq float64
	for i := range ts {
		t := &ts[i]
		card := st.FieldCardinality[t.Field]
		if n > 0 || card > 0 {
			t.avgLen = math.Ceil(float64(card) / n)
		}
		if t.avgLen > 0 {
			t.idf = math.Log(1 + (n-math.Min(float64(t.df), n)+0.5)/(math.Min(float64(t.df), n)+0.5))
		} else {
			t.idf = 1.0 + math.Log(n/float64(t.df+1.0))
		}
		if !t.aux {
			w := t.boost * t.idf
			sumSq += w * w
		}
	}
	norm := 1.0 / math.Sqrt(sumSq)
	for i := range ts {
		ts[i].weight = ts[i].boost * ts[i].idf * norm
	}
}

// byDF sorts terms by document frequency, as Bleve's disjunction sorts its
// term searchers (sort.Sort by Count: the same permutation), in which
// order it sums weights and scores; perm follows the terms (perm[i] is
// the i-th term's position before sorting).
type byDF struct {
	ts   []FieldTerm
	perm []int
}

func (b byDF) Len() int           { return len(b.ts) }
func (b byDF) Less(i, j int) bool { return b.ts[i].df < b.ts[j].df }
func (b byDF) Swap(i, j int) {
	b.ts[i], b.ts[j] = b.ts[j], b.ts[i]
	b.perm[i], b.perm[j] = b.perm[j], b.perm[i]
}

// scoreAvg is a term's score in a document with the given term frequency
// and field norm (1/√length), as Bleve's TermQueryScorer computes it, with
// the field's average length avg (the average of the document's language,
// langnorm.go).
func (t *FieldTerm) scoreAvg(freq uint64, norm, avg float64) float64 {
	tf := math.Sqrt(float64(freq))
	var s float64
	if t.avgLen > 0 {
		fieldLength := 1 / (norm * norm)
		s = t.idf * (tf * bsearch.BM25_k1) /
			(tf + bsearch.BM25_k1*(1-bsearch.BM25_b+(bsearch.BM25_b*fieldLength/avg)))
	} else {
		s = tf * norm * t.idf
	}
	if t.weight != 1.0 {
		s = s * t.weight
	}
	return s
}

// shardSearch is one shard's part of a fetch: its reader and a term field
// reader per term.
type shardSearch struct {
	shard  int
	ranks  []uint32     // IDRanks
	langs  []uint8      // each document's language (DocLangs), or nil
	avg    [][3]float64 // snapshot.LangAvg
	r      bindex.IndexReader
	tfrs   []bindex.TermFieldReader
	stored records.StoredReader
	recs   *records.File
	places []records.Place // DocPlaces
}

func (s *shardSearch) close() {
	for _, t := range s.tfrs {
		if t != nil {
			t.Close()
		}
	}
	if s.r != nil {
		s.r.Close()
	}
}

// open opens the shard's reader and a term field reader per term.
func (s *shardSearch) open(ctx context.Context, x *Shards, ts []FieldTerm) error {
	adv, err := x.Bleve[s.shard].Advanced()
	if err != nil {
		return err
	}
	if s.r, err = adv.Reader(); err != nil {
		return err
	}
	s.stored = records.NewStoredReader(s.r)
	s.tfrs = make([]bindex.TermFieldReader, len(ts))
	for i, t := range ts {
		if t.char {
			s.tfrs[i], err = openCharPostings(ctx, s.r, t.Field, string(t.Term))
		} else {
			s.tfrs[i], err = s.r.TermFieldReader(ctx, t.Term, t.Field, true, true, false)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// charPostings are the postings of a character term (Term.Char) in one
// field of one shard: the union of the postings of the shard's terms of
// that field that hold the character (charTermRegexp), found through the
// shard's term dictionary; a document's frequency is the sum of theirs
// (an occurrence inside a run of CJK characters is in two bigrams, and
// counts twice). So the character scores as one BM25 term: its document
// frequency is the number of articles holding it, however many of its
// bigrams they hold. They are read whole when a fetch opens (memory: the
// documents holding the character).
type charPostings struct {
	docs []bindex.TermFieldDoc // in document order
	next int
}

// openCharPostings reads the postings of the character c in field.
func openCharPostings(ctx context.Context, r bindex.IndexReader, field, c string) (*charPostings, error) {
	rr, ok := r.(bindex.IndexReaderRegexp)
	if !ok {
		return nil, fmt.Errorf("index: a shard has no term dictionary search (%T)", r)
	}
	dict, err := rr.FieldDictRegexp(field, analysis.CharTermRegexp(c))
	if err != nil {
		return nil, err
	}
	defer dict.Close()
	byDoc := map[uint64]int{}
	p := &charPostings{}
	for {
		e, err := dict.Next()
		if err != nil {
			return nil, err
		}
		if e == nil {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		tfr, err := r.TermFieldReader(ctx, []byte(e.Term), field, true, true, false)
		if err != nil {
			return nil, err
		}
		for {
			d, err := tfr.Next(nil)
			if err != nil {
				tfr.Close()
				return nil, err
			}
			if d == nil {
				break
			}
			doc := binary.BigEndian.Uint64(d.ID)
			if i, seen := byDoc[doc]; seen {
				p.docs[i].Freq += d.Freq
				continue
			}
			byDoc[doc] = len(p.docs)
			p.docs = append(p.docs, bindex.TermFieldDoc{Term: c, ID: d.ID, Freq: d.Freq, Norm: d.Norm})
		}
		tfr.Close()
	}
	sort.Slice(p.docs, func(i, j int) bool { return bytes.Compare(p.docs[i].ID, p.docs[j].ID) < 0 })
	return p, nil
}

// Next returns the next document.
func (p *charPostings) Next(pre *bindex.TermFieldDoc) (*bindex.TermFieldDoc, error) {
	if p.next >= len(p.docs) {
		return nil, nil
	}
	if pre == nil {
		pre = &bindex.TermFieldDoc{}
	}
	d := &p.docs[p.next]
	p.next++
	pre.Term, pre.ID, pre.Freq, pre.Norm = d.Term, d.ID, d.Freq, d.Norm
	return pre, nil
}

// Advance moves to the document id or the first after it.
func (p *charPostings) Advance(id bindex.IndexInternalID, pre *bindex.TermFieldDoc) (*bindex.TermFieldDoc, error) {
	p.next = sort.Search(len(p.docs), func(i int) bool { return bytes.Compare(p.docs[i].ID, id) >= 0 })
	return p.Next(pre)
}

// Count is the number of documents holding the character.
func (p *charPostings) Count() uint64 { return uint64(len(p.docs)) }

// Close does nothing: the postings are in memory.
func (p *charPostings) Close() error { return nil }

// Size estimates the postings' memory.
func (p *charPostings) Size() int { return 64 + len(p.docs)*64 }

// Fetched is the result of a fetch: the hits, and the shards' readers
// open on the documents found until close.
type Fetched struct {
	Hits []Hit
	c    []candidate              // parallel to hits
	docs []*records.StoredArticle // parallel to hits, when fetched full
	ss   []*shardSearch
	// arenas hold, per shard, the blocks its hits' snippets read
	// (ReadHit), until close
	arenas []*records.Arena
}

// Close closes the shards' readers and gives the arenas back: no hit's
// blocks may be read after.
func (f *Fetched) Close() {
	for _, s := range f.ss {
		s.close()
	}
	for i, a := range f.arenas {
		a.Release()
		f.arenas[i] = nil
	}
}

// article reads the i-th hit's article, as how says, from its record:
// its place is the shard's (DocPlaces), no stored field is read.
func (f *Fetched) article(i int, how records.ReadHow) (*records.StoredArticle, error) {
	c := f.c[i]
	s := f.ss[c.shard]
	out := &records.StoredArticle{ID: c.id}
	if c.doc >= uint64(len(s.places)) {
		return nil, &store.DamagedError{Index: s.recs.Index, File: s.recs.Path, Err: fmt.Errorf("article %s has no record", c.id)}
	}
	var arena *records.Arena
	if f.arenas != nil {
		arena = f.arenas[c.shard]
	}
	if err := out.ReadRecord(s.recs, s.places[c.doc], how, arena); err != nil {
		return nil, err
	}
	return out, nil
}

// Fetch returns the k best articles for q (see the comment above), with
// their titles and languages (how: ReadTitle), or with their articles as
// how says and the occurrences of q's terms in them (fetched.docs, each
// shard's read on its goroutine); close the result. each, when not nil,
// is called with every hit (its rank and article) on its shard's
// goroutine once the article is read: a search browses its hits on every
// core.
func (x *Shards) Fetch(ctx context.Context, q Query, k int, how records.ReadHow, each func(i int, d *records.StoredArticle) error) (*Fetched, error) {
	f := x.newFetched(how)
	ok := false
	defer func() {
		if !ok {
			f.Close()
		}
	}()
	if err := f.rank(ctx, x, FieldTerms(q), k); err != nil {
		return nil, err
	}
	if err := f.read(ctx, q, how, each); err != nil {
		return nil, err
	}
	ok = true
	return f, nil
}

// newFetched returns the fetch of the shards x, a search of each, with
// an arena per shard when the hits are read as how says by blocks.
func (x *Shards) newFetched(how records.ReadHow) *Fetched {
	f := &Fetched{ss: make([]*shardSearch, len(x.Bleve))}
	for i := range f.ss {
		f.ss[i] = &shardSearch{shard: i, ranks: x.Ranks[i], avg: x.LangAvg, recs: x.Recs[i], places: x.Places[i]}
		if x.DocLangs != nil {
			f.ss[i].langs = x.DocLangs[i]
		}
	}
	if how == records.ReadHit {
		f.arenas = make([]*records.Arena, len(x.Bleve))
		for i := range f.arenas {
			f.arenas[i] = records.GetArena()
		}
	}
	return f
}

// rank opens the terms ts on every shard, weighs them with the global
// document frequencies, and keeps the k best documents of all shards
// (f.c), their ids read.
func (f *Fetched) rank(ctx context.Context, x *Shards, ts []FieldTerm, k int) error {
	ss := f.ss
	if err := store.Parallel(len(ss), func(i int) error { return ss[i].open(ctx, x, ts) }); err != nil {
		return err
	}
	for i := range ts {
		for _, s := range ss {
			ts[i].df += s.tfrs[i].Count()
		}
	}
	perm := make([]int, len(ts))
	for i := range perm {
		perm[i] = i
	}
	blendDF(ts)
	sort.Sort(byDF{ts, perm})
	weigh(ts, x.BM25)
	for _, s := range ss {
		sorted := make([]bindex.TermFieldReader, len(perm))
		for i, p := range perm {
			sorted[i] = s.tfrs[p]
		}
		s.tfrs = sorted
	}
	best := make([][]candidate, len(ss))
	if err := store.Parallel(len(ss), func(i int) error {
		var err error
		best[i], err = ss[i].topK(ctx, ts, k)
		return err
	}); err != nil {
		return err
	}
	for _, b := range best {
		f.c = append(f.c, b...)
	}
	c, err := topOf(f.c, k, ss)
	if err != nil {
		return err
	}
	f.c = c
	return nil
}

// read makes the hits of the ranked documents: each shard reads its
// hits' titles and languages, or their articles as how says and the
// occurrences of q's terms in them, then calls each with every one of
// its hits (when each is not nil).
func (f *Fetched) read(ctx context.Context, q Query, how records.ReadHow, each func(i int, d *records.StoredArticle) error) error {
	full := how != records.ReadTitle
	f.Hits = make([]Hit, len(f.c))
	if full {
		f.docs = make([]*records.StoredArticle, len(f.c))
	}
	return store.Parallel(len(f.ss), func(s int) error {
		var docs []*records.StoredArticle
		var nums []uint64
		for i, c := range f.c {
			if c.shard != s {
				continue
			}
			h := &f.Hits[i]
			h.ID, h.Score = c.id, c.score
			d, err := f.article(i, how)
			if err != nil {
				return err
			}
			h.Title, h.Lang = d.Title, d.Lang
			if full {
				f.docs[i] = d
				docs, nums = append(docs, d), append(nums, c.doc)
			}
		}
		if full && len(q.Terms) > 0 {
			if err := records.LoadMatches(ctx, f.ss[s].stored, docs, nums, q.Terms); err != nil {
				return err
			}
		}
		if each == nil {
			return nil
		}
		for i, c := range f.c {
			if c.shard == s {
				if err := each(i, f.docs[i]); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// Hit is a fetched article.
type Hit struct {
	ID    string
	Title string
	Lang  string // the article's language: "en", "zh", "ja", "ko"…
	Score float64
}
