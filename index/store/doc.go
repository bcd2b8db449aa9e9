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
// It imports internal/ground/durable of readsim, and vellum and bbolt.
package store
