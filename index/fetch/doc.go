// Package fetch is the first step of the reading scenario's search
// (Arvola, Kekäläinen & Junkkari 2010, §2): the k best articles of an
// index for a query, by BM25 over their title and text, searched on
// every shard in parallel with the collection's statistics, so that an
// index of N shards scores and ranks as an index of one (fetch.go).
//
// Shards are what a fetch reads of an open index: each shard's Bleve
// index and records file, and the columns read once when it is opened,
// a document's record place (DocPlaces), the rank of its id (IDRanks:
// ties are broken by id) and its language (DocLangs: a field's length is
// normalised by the average of its language, LangAverages). Fetch walks
// the postings of the query's terms document by document, keeps each
// shard's best k, merges them, and reads the hits' records as much as the
// caller asks, with the occurrences of the query's terms in them.
//
// # Statistics
//
// Both scorings take the collection's size and average lengths from the
// manifest, and browse its element frequencies from elements.fst (fetch's
// document frequencies come from Bleve's postings, summed over the shards,
// which count no deleted article and do not depend on segments). Bleve's
// BM25 would take a field's average length to be its number of distinct
// terms per document, summed over the index's segments (terms of deleted
// articles included), and each shard's own document frequencies: scores
// would depend on how a build was batched, updated and sharded. Fetch
// scores with the fields' true total lengths and the global document
// frequencies instead (fetch.go, Shards.BM25), so it is BM25 with the average field
// length in tokens (rounded up, as Bleve rounds it), and a build scores the
// same however it is split into segments and shards.
//
// It imports index/analysis (the query's terms), index/records (the
// hits' records) and index/store (the fields, Parallel) of readsim, and
// Bleve's index API, scorch and BM25 constants.
package fetch
