package opensearch

import (
	"errors"
	"fmt"
	"regexp"
)

// Layout is the version of the index layout this package writes and
// reads: the fields, their analysis and similarities, the _meta marker.
// An index of another layout is refused (ErrLayout). Layout 2 added the
// auxiliary text (a field "aux" and its length) and moved the idf out of
// the similarity into the query (one idf per word of the query).
const Layout = 2

// Norms is how a build normalises field lengths by language.
type Norms string

const (
	// NormsScript keeps one title and one text field for every language,
	// scored by a Painless scripted similarity shaped as readsim's fetch
	// (Bleve's BM25: √tf, idf of the whole index squared, as Bleve weights
	// a term query), with the average length of the document's language
	// passed as the boost of a clause per language.
	NormsScript Norms = "script"
	// NormsFields gives each language a title and a text field of its
	// own (title_en, text_en, …), scored by Lucene's stock BM25: each
	// language's average length, but also its own document count and
	// document frequencies (idf).
	NormsFields Norms = "fields"
)

// Bounds (docs/limits.md).
const (
	// MaxTokenBytes bounds a token: the cluster's tokenizer would split a
	// longer one silently.
	MaxTokenBytes = 1024
	// MaxLangs bounds the languages of a build, as the embedded index does.
	MaxLangs = 255
	// MaxK bounds the hits of one search (the cluster's result window).
	MaxK = 10000
	// MaxIDs bounds the payloads read in one call.
	MaxIDs = 10000
	// MaxTerms bounds the terms of a query.
	MaxTerms = 256
)

// BM25 parameters, readsim's (Bleve's) and Lucene's defaults alike.
const (
	k1 = 1.2
	b  = 0.75
)

var (
	// ErrForeign is wrapped by the errors about an index or alias readsim
	// did not create: readsim never writes into or replaces it.
	ErrForeign = errors.New("not an index readsim created")
	// ErrLayout is wrapped by the errors about an index of another layout.
	ErrLayout = errors.New("an index of another layout")
	// ErrGone is wrapped by the errors of a Reader whose build was
	// deleted (two publications later): open the index again.
	ErrGone = errors.New("the build was replaced and deleted")
)

// meta is the marker readsim keeps in each build's mapping _meta
// ("readsim" key).
type meta struct {
	Layout   int               `json:"layout"`
	Norms    Norms             `json:"norms"`
	Alias    string            `json:"alias"`
	Complete bool              `json:"complete"`
	Docs     int64             `json:"docs"`
	Langs    map[string]*Lang  `json:"langs,omitempty"`
	Extra    map[string]string `json:"extra,omitempty"`
	// Replaced is when the alias left the build (Unix seconds), 0 while
	// it names it or never did
	Replaced int64 `json:"replaced,omitempty"`
}

// Lang is what a build holds of one language: its documents and the
// total lengths in tokens of their titles, texts and auxiliary texts.
type Lang struct {
	Docs     int64 `json:"docs"`
	TitleLen int64 `json:"title_len"`
	TextLen  int64 `json:"text_len"`
	AuxLen   int64 `json:"aux_len"`
}

// langRe is what a language name may be: it becomes part of field names.
var langRe = regexp.MustCompile(`^[a-z]{1,8}(-[a-z0-9]{1,8}){0,2}$`)

// nameRe is what an index name readsim creates may be (OpenSearch's rules,
// narrowed: lower case, no leading '.', '_', '-' or '+').
var nameRe = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,99}$`)

// checkName checks an index name given by a user.
func checkName(name string) error {
	if !nameRe.MatchString(name) {
		return fmt.Errorf("opensearch: index name %q: use 1 to 100 of a-z 0-9 _ -, starting with a letter or digit", name)
	}
	return nil
}

// Painless sources of the similarities. bm25Score is the part of a
// term's score in readsim's fetch (Bleve's BM25) that depends on the
// document: √tf over the length norm, query.boost carrying the average
// length of the clause's language; the idf² and the boosts are the
// query's (scriptQuery), so that the variants of a word share one idf.
// There is no weight script: the weight is 1.
const (
	bm25Score = `double tf = Math.sqrt(doc.freq);
return tf * 1.2 / (tf + 1.2 * (0.25 + 0.75 * doc.length / query.boost));`
	// title keys: TF-IDF idf 1 + ln(N/(df+1)) times 1/√(number of keys)
	keyWeight = `double n = field.docCount; return 1.0 + Math.log(n / (term.docFreq + 1.0));`
	keyScore  = `return weight / Math.sqrt(doc.length);`
)

// settingsBody is the body that creates a build: analysis, similarities,
// the mapping of the fields every layout has, the marker. Replicas and
// refreshes are off while it loads (Publish sets them).
func settingsBody(shards int, m *meta) map[string]any {
	script := func(src string) map[string]any { return map[string]any{"source": src} }
	props := map[string]any{
		"id":        map[string]any{"type": "keyword"},
		"lang":      map[string]any{"type": "keyword"},
		"title_len": map[string]any{"type": "integer", "index": false},
		"text_len":  map[string]any{"type": "integer", "index": false},
		"aux_len":   map[string]any{"type": "integer", "index": false},
		"payload":   map[string]any{"type": "binary", "store": true},
		"titlekey": map[string]any{"type": "text", "analyzer": "readsim_key",
			"similarity": "readsim_key", "index_options": "freqs"},
	}
	if m.Norms == NormsScript {
		props["title"] = tokenField("readsim_bm25")
		props["text"] = tokenField("readsim_bm25")
		props["aux"] = tokenField("readsim_bm25")
	}
	return map[string]any{
		"settings": map[string]any{"index": map[string]any{
			"number_of_shards":   shards,
			"number_of_replicas": 0,
			"refresh_interval":   "-1",
			"analysis": map[string]any{
				"tokenizer": map[string]any{"readsim_ws": map[string]any{
					"type": "whitespace", "max_token_length": MaxTokenBytes}},
				"analyzer": map[string]any{
					"readsim_tokens": map[string]any{"type": "custom", "tokenizer": "readsim_ws"},
					"readsim_key":    map[string]any{"type": "custom", "tokenizer": "keyword"},
				},
			},
			"similarity": map[string]any{
				"readsim_bm25": map[string]any{"type": "scripted", "script": script(bm25Score)},
				"readsim_key": map[string]any{"type": "scripted",
					"weight_script": script(keyWeight), "script": script(keyScore)},
			},
		}},
		"mappings": map[string]any{
			"dynamic":    "strict",
			"_source":    map[string]any{"enabled": false},
			"_meta":      map[string]any{"readsim": m},
			"properties": props,
		},
	}
}

// tokenField is the mapping of a field of pre-analysed tokens.
func tokenField(similarity string) map[string]any {
	return map[string]any{"type": "text", "analyzer": "readsim_tokens",
		"similarity": similarity, "index_options": "freqs"}
}

// langFields are the mapping of a language's own fields (NormsFields).
func langFields(lang string) map[string]any {
	return map[string]any{
		"title_" + lang: tokenField("BM25"),
		"text_" + lang:  tokenField("BM25"),
		"aux_" + lang:   tokenField("BM25"),
	}
}
