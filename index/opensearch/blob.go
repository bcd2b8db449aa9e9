package opensearch

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// A build keeps, beside its documents, a few named blobs that readsim reads
// whole when it opens the index (the element frequencies browse scores
// with) and a few strings (SetExtra: the articles folder, the statistics
// of the candidate elements). A blob is stored in documents of its own,
// chunks of at most blobChunk bytes in the payload field, whose ids begin
// with "/": an article id never does (a path step is never empty). They
// hold no title, text nor language, so no search finds them and no
// statistic counts them.

// blobChunk is the size of a blob's chunks.
const blobChunk = 4 << 20

// MaxBlob bounds a blob (docs/limits.md).
const MaxBlob = 1 << 30

// ErrNoDoc is wrapped by the error of Payloads for an id the build does
// not hold.
var ErrNoDoc = errors.New("no such document")

// blobID is the id of chunk i of the blob key.
func blobID(key string, i int) string { return fmt.Sprintf("/readsim/%s/%d", key, i) }

// checkKey checks a blob's or an extra string's key: a short name.
func checkKey(key string) error {
	if key == "" || len(key) > 64 || strings.ContainsAny(key, "/ \t\n") {
		return fmt.Errorf("opensearch: key %q: 1 to 64 characters, no '/' nor white space", key)
	}
	return nil
}

// SetExtra keeps value under key in the build's marker (Reader.Extra).
func (b *Build) SetExtra(key, value string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.m.Extra["x."+key] = value
	return nil
}

// PutBlob stores data under key in the build (Reader.Blob reads it back).
func (b *Build) PutBlob(ctx context.Context, key string, data []byte) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if len(data) > MaxBlob {
		return fmt.Errorf("opensearch: blob %s: %d bytes, at most %d", key, len(data), MaxBlob)
	}
	n := 0
	for off := 0; off == 0 || off < len(data); off += blobChunk {
		chunk := data[off:min(off+blobChunk, len(data))]
		if err := b.bulk(ctx, blobLines(blobID(key, n), chunk), []string{blobID(key, n)}); err != nil {
			return err
		}
		n++
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.m.Extra["blob."+key] = fmt.Sprintf("%d,%d", n, len(data))
	return nil
}

// blobLines are the bulk lines of one chunk.
func blobLines(id string, chunk []byte) []byte {
	head := fmt.Sprintf(`{"index":{"_id":%q}}`, id)
	doc := fmt.Sprintf(`{"id":%q,"payload":"%s"}`, id, base64.StdEncoding.EncodeToString(chunk))
	return []byte(head + "\n" + doc + "\n")
}

// Extra returns the string SetExtra kept under key ("" when none).
func (r *Reader) Extra(key string) string { return r.m.Extra["x."+key] }

// Blob returns the blob PutBlob stored under key; a build without it is
// an error naming it.
func (r *Reader) Blob(ctx context.Context, key string) ([]byte, error) {
	var n, size int
	v := r.m.Extra["blob."+key]
	if _, err := fmt.Sscanf(v, "%d,%d", &n, &size); err != nil || n < 1 || size < 0 || size > MaxBlob || n > size/blobChunk+1 {
		return nil, fmt.Errorf("opensearch %s: %s has no blob %s (%q): rebuild with readsim index", r.c.where(), r.index, key, v)
	}
	out := make([]byte, 0, size)
	for i := range n {
		p, err := r.Payloads(ctx, []string{blobID(key, i)})
		if err != nil {
			return nil, err
		}
		out = append(out, p[0]...)
	}
	if len(out) != size {
		return nil, fmt.Errorf("opensearch %s: %s: blob %s has %d bytes, its marker says %d", r.c.where(), r.index, key, len(out), size)
	}
	return out, nil
}
