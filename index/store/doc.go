// Package store is the index folder on disk: what is in it, and its life.
//
//   - The manifest (manifest.json, Manifest) and its articles
//     (articles.json): what a build knows of the collection, and the
//     collection statistics a search reads (Totals). Version is the
//     layout's number: an index of another is built again.
//   - The element frequencies (elements.fst, WriteElemDF, LoadElemDF).
//   - The shards' folders and which shard holds an article (ShardOf,
//     ShardDir), and the fields of an article's Bleve document that are
//     readsim's own.
//   - The folder's life: a build writes beside the index and swaps it
//     in (SwapIn); a build killed between the two renames is recovered
//     (RecoverSwap, CompleteLeftover), its leftovers removed; the write
//     lock (Lock).
//   - Damage (docs/safety.md): the checks of the shards' files before
//     Bleve opens them (CheckShards), the boundary that turns a panic of
//     the libraries reading them into a DamagedError (Guard, Parallel),
//     and the bad-input errors (InputError, ErrLocked).
//
// # The folder
//
// An index is a folder holding Bleve (scorch) indexes of the articles (its
// shards), the statistics of their candidate elements, and a manifest:
//
//   - articles-0 … articles-(N−1): the N shards, each article in exactly
//     one (FNV-1a of its id modulo N, ShardOf). A shard is a Bleve index of
//     one document per article, id = article id, with its title and text
//     analysed in its language (indexed, not stored; the text with a
//     location per token, which browse and snippets read: index/records),
//     its title keys (TitleKeyField), its language as one term (LangField)
//     and the place of its record (RecField); and a records file, each
//     article's record: its title, language, path and text, and its
//     candidate elements (sections, paragraphs, list items, table rows,
//     captions and the body's own text by default: each one's character
//     span, XPath and length in tokens; index/records);
//   - elements.fst: for each term, the number of candidate elements of the
//     collection that contain it (WriteElemDF);
//   - articles.json: the files indexed (path, size, modification time),
//     each article's language, number of candidate elements and field
//     lengths in tokens (what a build needs to update the index);
//   - manifest.json: the collection statistics summed over the articles
//     (what a search needs), the articles folder (an absolute path), the
//     number of shards, the candidate element names, the DTD files the
//     articles were read with, the forced language if any, and the build
//     time. It is written last: a folder without it is not a complete
//     index.
//
// Browse reads only statistics of the element collection (the number of
// elements, their average length, each term's element frequency), so the
// elements are not Bleve documents of their own: at 10k articles their 166k
// documents cost as much to build as the articles.
//
// It imports internal/ground/durable of readsim, and vellum and bbolt.
package store
