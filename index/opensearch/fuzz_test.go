package opensearch

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// FuzzParseSearch feeds arbitrary answers to the readers of a search's
// answer and of the document frequencies: they never panic; what the
// first returns is finite hits with ids, what the second returns is one
// count per clause, each in [0, n].
func FuzzParseSearch(f *testing.F) {
	f.Add([]byte(`{"hits":{"hits":[{"_id":"d1","_score":1.5,"fields":{"lang":["en"]}}]},"aggregations":{"df":{"buckets":{"c0":{"doc_count":1},"c1":{"doc_count":2}}}}}`), 2)
	f.Add([]byte(`{"_shards":{"failed":1}}`), 0)
	f.Add([]byte(`{"hits":{"hits":[{"_id":"x","_score":1e308}]}}`), 0)
	f.Fuzz(func(t *testing.T, data []byte, clauses int) {
		if hits, err := parseSearch(data, 0.5); err == nil {
			for _, h := range hits {
				if h.ID == "" || math.IsNaN(h.Score) || math.IsInf(h.Score, 0) {
					t.Fatalf("hit %+v", h)
				}
			}
		}
		n := clauses & 7
		dfs, err := parseDocFreqs(data, n, 10)
		if err != nil {
			return
		}
		if len(dfs) != n {
			t.Fatalf("%d counts for %d clauses", len(dfs), n)
		}
		for _, df := range dfs {
			if !(df >= 0 && df <= 10) {
				t.Fatalf("count %g", df)
			}
		}
	})
}

// FuzzStatusError feeds arbitrary error bodies to statusError: it never
// panics, and its error always gives the status.
func FuzzStatusError(f *testing.F) {
	f.Add(404, []byte(`{"error":{"root_cause":[{"type":"index_not_found_exception","reason":"no such index"}],"type":"index_not_found_exception","reason":"no such index [x]"},"status":404}`))
	f.Add(500, []byte(`{"error":"plain text"}`))
	f.Add(502, []byte(`<html>bad gateway</html>`))
	c := &Client{urls: []string{"http://127.0.0.1:9200"}}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		err := c.statusError("GET", "/x", status, body)
		var e *apiError
		if !errors.As(err, &e) || e.Status != status || !strings.Contains(err.Error(), "http://127.0.0.1:9200") {
			t.Fatalf("%v", err)
		}
	})
}
