// Package records is what the index keeps of each article beside Bleve,
// and how a search reads it back (docs/performance.md, "The record
// store").
//
// A shard's records file holds each article's record (Encode, Decode):
// its title, language and path, its candidate elements (Elem: span,
// length in tokens, the white space after it, its kind), the spans a page
// does not show, the word breaks, the XPaths in a snappy block and the
// text in snappy blocks of about 2 KB. A build appends records (Writer);
// a search maps the file (File) and reads an article from its Place, as
// much of it as it needs (StoredArticle.ReadRecord, ReadHow): a hit of a
// result list reads none of its text but the blocks its snippet shows,
// into the search's Arena. The occurrences of a query's terms in an
// article are read from the locations a build kept in the text field's
// postings (LoadMatches), so that browse and snippets need not analyse
// the article again; StoredArticle.Snippet shows a span of it as a page
// does (Shows, ShownText).
//
// It imports effort (the span), index/analysis (tokens and terms),
// index/chars, index/store (the damage errors, the records' stamp) and
// index/article/wikimarkup (entities) of readsim, and Bleve's index API,
// scorch and snappy.
package records
