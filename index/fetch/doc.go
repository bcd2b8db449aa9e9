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
// It imports index/analysis (the query's terms), index/records (the
// hits' records) and index/store (the fields, Parallel) of readsim, and
// Bleve's index API, scorch and BM25 constants.
package fetch
