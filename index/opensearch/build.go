package opensearch

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
)

// Settings shape a new build.
type Settings struct {
	Shards   int   // primary shards (1 when 0)
	Replicas int   // copies of each shard, set when the build is published
	Norms    Norms // NormsScript when empty
}

// Doc is one article to load: its id, language, readsim's tokens of its
// title, text and auxiliary text (in order, repeats kept), its title keys
// (each one term) and an opaque payload returned by Reader.Payloads.
type Doc struct {
	ID        string
	Lang      string
	Title     []string
	Text      []string
	Aux       []string
	TitleKeys []string
	Payload   []byte
}

// Build is a build being loaded. Add may be called from several
// goroutines; Publish and Abort end it.
type Build struct {
	c     *Client
	name  string // the alias
	index string // the concrete index
	m     meta
	mu    sync.Mutex
	langs map[string]bool // languages with fields (NormsFields)
}

// buildPrefix is what precedes a build's time stamp in its index name.
const buildPrefix = ".build-"

// NewBuild creates an empty build for the index name (an alias). It
// refuses a name that is a concrete index, or an alias naming an index
// readsim did not create (ErrForeign): readsim never replaces those.
func (c *Client) NewBuild(ctx context.Context, name string, s Settings) (*Build, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if s.Norms == "" {
		s.Norms = NormsScript
	}
	if s.Norms != NormsScript && s.Norms != NormsFields {
		return nil, fmt.Errorf("opensearch: unknown norms %q (script or fields)", s.Norms)
	}
	if s.Shards <= 0 {
		s.Shards = 1
	}
	if s.Replicas < 0 {
		return nil, fmt.Errorf("opensearch: %d replicas", s.Replicas)
	}
	if _, err := c.builds(ctx, name); err != nil {
		return nil, err
	}
	b := &Build{c: c, name: name, langs: map[string]bool{},
		index: name + buildPrefix + time.Now().UTC().Format("20060102-150405.000000000"),
		m: meta{Layout: Layout, Norms: s.Norms, Alias: name,
			Extra: map[string]string{"replicas": fmt.Sprint(s.Replicas)}}}
	// an attempt that timed out may have created it: the name is this
	// build's alone (its time stamp), so it exists because of this call
	if err := c.call(ctx, "PUT", "/"+b.index, settingsBody(s.Shards, &b.m), nil); err != nil && !isType(err, "resource_already_exists_exception") {
		return nil, fmt.Errorf("creating %s: %w", b.index, err)
	}
	return b, nil
}

// Index returns the build's concrete index name.
func (b *Build) Index() string { return b.index }

// builds returns the indexes readsim made for name, oldest first, with
// their marker; a concrete index of that name, or one behind the alias
// without readsim's marker, is ErrForeign. A name that does not exist
// has none.
func (c *Client) builds(ctx context.Context, name string) ([]builtIndex, error) {
	var got map[string]struct {
		Aliases  map[string]any `json:"aliases"`
		Mappings struct {
			Meta struct {
				Readsim *meta `json:"readsim"`
			} `json:"_meta"`
		} `json:"mappings"`
	}
	path := "/" + name + "," + name + buildPrefix + "*?expand_wildcards=all&ignore_unavailable=true"
	if err := c.call(ctx, "GET", path, nil, &got); err != nil {
		if isType(err, "index_not_found_exception") {
			return nil, nil
		}
		return nil, err
	}
	var out []builtIndex
	for idx, v := range got {
		if idx == name {
			return nil, fmt.Errorf("opensearch %s: %s is an index, not an alias of readsim's builds: %w", c.where(), name, ErrForeign)
		}
		_, aliased := v.Aliases[name]
		r := v.Mappings.Meta.Readsim
		if r == nil || r.Alias != name {
			if aliased {
				return nil, fmt.Errorf("opensearch %s: alias %s names %s: %w", c.where(), name, idx, ErrForeign)
			}
			continue // a look-alike name readsim did not write: left alone
		}
		out = append(out, builtIndex{name: idx, aliased: aliased, meta: r})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

// builtIndex is one of readsim's builds of a name.
type builtIndex struct {
	name    string
	aliased bool
	meta    *meta
}

// bulkBytes is the size of one bulk request's body.
const bulkBytes = 4 << 20

// Add loads docs into the build, in bulk requests of about 4 MB. A
// document the cluster refuses fails the call, naming it; a request the
// cluster rejects for load (429) is sent again.
func (b *Build) Add(ctx context.Context, docs []Doc) error {
	if err := b.addLangs(ctx, docs); err != nil {
		return err
	}
	var body []byte
	var ids []string
	for i := range docs {
		line, err := b.docLines(&docs[i])
		if err != nil {
			return err
		}
		body = append(body, line...)
		ids = append(ids, docs[i].ID)
		if len(body) >= bulkBytes || i == len(docs)-1 {
			if err := b.bulk(ctx, body, ids); err != nil {
				return err
			}
			body, ids = body[:0], ids[:0]
		}
	}
	return nil
}

// docLines returns a document's two bulk lines.
func (b *Build) docLines(d *Doc) ([]byte, error) {
	if d.ID == "" {
		return nil, fmt.Errorf("opensearch: a document without an id")
	}
	if len(d.ID) > 512 {
		return nil, fmt.Errorf("opensearch: document id %.40q…: longer than 512 bytes", d.ID)
	}
	title, err := joinTokens(d.ID, d.Title)
	if err != nil {
		return nil, err
	}
	text, err := joinTokens(d.ID, d.Text)
	if err != nil {
		return nil, err
	}
	aux, err := joinTokens(d.ID, d.Aux)
	if err != nil {
		return nil, err
	}
	lang := docLang(d.Lang)
	src := map[string]any{
		"id": d.ID, "lang": lang, "titlekey": d.TitleKeys,
		"title_len": len(d.Title), "text_len": len(d.Text), "aux_len": len(d.Aux),
		"payload": base64.StdEncoding.EncodeToString(d.Payload),
	}
	if b.m.Norms == NormsFields {
		src["title_"+lang], src["text_"+lang] = title, text
		if aux != "" {
			src["aux_"+lang] = aux
		}
	} else {
		src["title"], src["text"] = title, text
		if aux != "" {
			src["aux"] = aux
		}
	}
	head, err := json.Marshal(map[string]any{"index": map[string]any{"_id": d.ID}})
	if err != nil {
		return nil, err
	}
	doc, err := json.Marshal(src)
	if err != nil {
		return nil, err
	}
	return append(append(append(head, '\n'), doc...), '\n'), nil
}

// docLang is a document's language as indexed ("und" when unknown).
func docLang(l string) string {
	if l == "" {
		return "und"
	}
	return l
}

// joinTokens joins tokens with spaces, which the cluster's tokenizer
// splits on: a token may hold no white space and be at most MaxTokenBytes.
func joinTokens(id string, toks []string) (string, error) {
	for _, t := range toks {
		if t == "" || len(t) > MaxTokenBytes || strings.IndexFunc(t, splits) >= 0 {
			return "", fmt.Errorf("opensearch: document %s: token %.40q is empty, longer than %d bytes or holds white space", id, t, MaxTokenBytes)
		}
	}
	return strings.Join(toks, " "), nil
}

// splits reports whether the cluster's whitespace tokenizer (Java's
// Character.isWhitespace) or Go's unicode.IsSpace takes r for white space:
// U+001C–U+001F are Java's and not Go's.
func splits(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

// addLangs checks the documents' languages and, for NormsFields, maps the
// fields of languages the build has not seen.
func (b *Build) addLangs(ctx context.Context, docs []Doc) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	props := map[string]any{}
	for i := range docs {
		l := docLang(docs[i].Lang)
		if b.langs[l] {
			continue
		}
		if !langRe.MatchString(l) {
			return fmt.Errorf("opensearch: document %s: language %q is not a language tag (a-z, then -subtags)", docs[i].ID, l)
		}
		if len(b.langs) >= MaxLangs {
			return fmt.Errorf("opensearch: document %s: more than %d languages", docs[i].ID, MaxLangs)
		}
		b.langs[l] = true
		if b.m.Norms == NormsFields {
			for k, v := range langFields(l) {
				props[k] = v
			}
		}
	}
	if len(props) == 0 {
		return nil
	}
	return b.c.call(ctx, "PUT", "/"+b.index+"/_mapping", map[string]any{"properties": props}, nil)
}

// bulk sends one bulk request, again for the documents rejected for load.
func (b *Build) bulk(ctx context.Context, body []byte, ids []string) error {
	for attempt := 0; ; attempt++ {
		var res struct {
			Errors bool `json:"errors"`
			Items  []map[string]struct {
				ID     string          `json:"_id"`
				Status int             `json:"status"`
				Error  json.RawMessage `json:"error"`
			} `json:"items"`
		}
		err := b.c.call(ctx, "POST", "/"+b.index+"/_bulk", body, &res)
		if err != nil && !isStatus(err, 429) {
			return fmt.Errorf("loading %s: %w", b.index, err)
		}
		if err == nil && !res.Errors {
			return nil
		}
		rejected := err != nil
		for _, it := range res.Items {
			for _, r := range it {
				if r.Status == 429 {
					rejected = true
				} else if r.Status >= 300 {
					return fmt.Errorf("opensearch %s: loading %s: document %s: status %d: %s", b.c.where(), b.index, r.ID, r.Status, r.Error)
				}
			}
		}
		if !rejected || attempt == 10 {
			return fmt.Errorf("opensearch %s: loading %s: the cluster rejected %d documents for load 10 times", b.c.where(), b.index, len(ids))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(attempt+1) * 200 * time.Millisecond):
		}
	}
}
