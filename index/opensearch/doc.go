// Package opensearch keeps readsim's articles in an index on an OpenSearch
// (2.x) cluster: it creates an index of readsim's layout, loads articles
// given as readsim's own tokens with an opaque payload each, searches them
// with BM25 over the statistics of the whole index, and returns payloads
// by id. It is the cluster counterpart of the embedded Bleve index
// (docs/cluster.md).
//
//   - An index is reached through an alias (the name a user gives); each
//     build is a concrete index behind it, named NAME.build-TIMESTAMP. A
//     build is created empty (Client.NewBuild), loaded (Build.Add) and
//     published (Build.Publish): its statistics are written into its
//     mapping's _meta and the alias is moved to it in one atomic request.
//     A Reader (Client.Open) is pinned to the build the alias named when
//     it opened, so a reader sees one build whole, never a mix; a
//     publication keeps the build it replaced until the next one.
//   - Every index readsim creates carries a marker in its _meta (layout
//     version, the length-norm scheme, its statistics). An index without
//     it, or of another layout, is refused (ErrForeign, ErrLayout); a
//     name that is a concrete index, not an alias, is never replaced.
//   - Documents are pre-analysed: the cluster splits the tokens readsim
//     sends at white space and changes nothing (CJK bigrams, folding and
//     stemming stay readsim's), so the cluster scores readsim's terms.
//   - Length norms per language (Norms): NormsScript, the default, scores
//     as readsim's fetch (Bleve's BM25: √tf, idf of the whole index, each
//     language's average length passed in the query, readsim's
//     coordination factor), title, text and auxiliary text; NormsFields
//     gives each language fields of its own scored by Lucene's stock BM25
//     (each language's average length, but also its own idf).
//   - A search of NormsScript is two requests: the first counts each
//     term's documents per field over the whole build (an aggregation, so
//     not a shard's statistics), from which readsim computes the idfs (a
//     word's variants summed: one idf per word) and the query norm; the
//     second scores with them, a Painless scripted similarity giving the
//     part of BM25 that depends on the document. A title search uses
//     dfs_query_then_fetch. Searches refuse partial results: a search
//     whose shards failed (a node died under it) is tried again.
//   - Every call is bounded by Config.Timeout; a cluster that does not
//     answer gives an error naming its URLs.
package opensearch
