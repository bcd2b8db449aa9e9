package store

// The fields of an article's Bleve document that are readsim's own
// (beside "title" and "text"): a build writes them, a search reads them.

// TitleKeyField is the field that holds each article's title keys
// (analysis.TitleKeys), each one term (indexed, not stored).
const TitleKeyField = "titlekey"

// LangField is the indexed, unstored field holding each article's
// language (one term), from which docLangsOf reads the languages of a
// shard's documents.
const LangField = "langkey"

// RecField is the field of an article's record place (recPlace), indexed
// as one term and stored.
const RecField = "rec"

// AuxField is the field of an article's auxiliary text (reference lists,
// bibliographies, links elsewhere: docs/search.md, "Auxiliary text"),
// analysed as the text and kept out of the "text" field, with a location
// per token as the text has; fetch weighs it less than the text.
const AuxField = "aux"
