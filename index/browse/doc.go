// Package browse is the second step of the reading scenario's search
// (Arvola, Kekäläinen & Junkkari 2010, §2): within one fetched article, it
// scores each candidate element with BM25 against the collection of all
// candidate elements (Stats), keeps those within a threshold of the best
// (Options), and returns them as Passages: non-overlapping, merged when
// adjacent, in document order, with the lead and caption rules of
// docs/search.md ("Passage choice").
//
// Article browses a stored article (its tokens holding a query term, its
// elements' lengths and the white space after each, from its record);
// Passages is the same on the parts given.
//
// It imports effort (the span), index/analysis (terms and tokens)
// and index/records (the stored article) of readsim.
package browse
