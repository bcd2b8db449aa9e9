package opensearch

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// FuzzParseSearch feeds arbitrary answers to the search answer's reader:
// it never panics, and what it returns is finite hits with ids.
func FuzzParseSearch(f *testing.F) {
	f.Add([]byte(`{"hits":{"hits":[{"_id":"d1","_score":1.5,"fields":{"lang":["en"]}}]},"aggregations":{"df":{"buckets":{"c0":{"doc_count":1},"c1":{"doc_count":2}}}}}`), 2)
	f.Add([]byte(`{"_shards":{"failed":1}}`), 0)
	f.Add([]byte(`{"hits":{"hits":[{"_id":"x","_score":1e308}]}}`), 0)
	f.Fuzz(func(t *testing.T, data []byte, clauses int) {
		sc := scaling{total: 1, n: 10}
		if clauses > 0 {
			sc.total = float64(clauses % 8)
			sc.boosts = make([]float64, clauses%8)
			for i := range sc.boosts {
				sc.boosts[i] = 1
			}
		}
		hits, err := parseSearch(data, sc)
		if err != nil {
			return
		}
		for _, h := range hits {
			if h.ID == "" || math.IsNaN(h.Score) || math.IsInf(h.Score, 0) {
				t.Fatalf("hit %+v", h)
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
