package opensearch

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/readsim/readsim/index/opensearch/clustertest"
)

// clusterURLs returns the nodes of the test cluster (clustertest.URLs).
func clusterURLs(tb testing.TB) []string {
	tb.Helper()
	return clustertest.URLs(tb)
}

// testClient returns a client of the test cluster and a fresh index name,
// whose builds are deleted when the test ends.
func testClient(tb testing.TB) (*Client, string) {
	tb.Helper()
	c, err := New(Config{URLs: clusterURLs(tb), Timeout: 60 * time.Second})
	if err != nil {
		tb.Fatal(err)
	}
	name := fmt.Sprintf("readsim-test-%d-%d", time.Now().UnixNano(), rand.Intn(1000))
	tb.Cleanup(func() {
		dropBuilds(tb, c, name)
		c.Close()
	})
	return c, name
}

// dropBuilds deletes the builds of name (the tests' own).
func dropBuilds(tb testing.TB, c *Client, name string) {
	err := c.call(context.Background(), "DELETE", "/"+name+buildPrefix+"*?expand_wildcards=all", nil, nil)
	if err != nil && !isType(err, "index_not_found_exception") {
		tb.Errorf("deleting the test's builds: %v", err)
	}
}

// tinyDocs is a collection of two languages whose scores are worked out by
// hand in TestScores.
func tinyDocs() []Doc {
	w99 := strings.Fields(strings.Repeat("w ", 99))
	return []Doc{
		{ID: "d1", Lang: "en", Title: []string{"a", "b"}, Text: []string{"a", "c", "c", "d"}, TitleKeys: []string{"a b"}, Payload: []byte("one")},
		{ID: "d2", Lang: "en", Title: []string{"b"}, Text: strings.Fields("c d e f g h"), Aux: []string{"h", "q"}, TitleKeys: []string{"b (film)", "b"}, Payload: []byte("two")},
		{ID: "d5", Lang: "en", Title: []string{"long"}, Text: append([]string{"a"}, w99...), Aux: []string{"q"}, TitleKeys: []string{"long"}, Payload: []byte{0, 1, 2, 255}},
		{ID: "d6", Lang: "en", Title: []string{"b"}, Text: strings.Fields("c d e f g h"), TitleKeys: []string{"b6"}, Payload: []byte("six")},
		{ID: "d3", Lang: "zh", Title: []string{"x"}, Text: []string{"a", "a", "a"}, TitleKeys: []string{"x"}, Payload: []byte("三")},
		{ID: "d4", Lang: "zh", Title: []string{"y"}, Text: []string{"z", "z"}, TitleKeys: []string{"b"}, Payload: nil},
	}
}

// publish builds name from docs and opens it.
func publish(tb testing.TB, c *Client, name string, s Settings, docs []Doc) *Reader {
	tb.Helper()
	ctx := context.Background()
	b, err := c.NewBuild(ctx, name, s)
	if err != nil {
		tb.Fatal(err)
	}
	if err := b.Add(ctx, docs); err != nil {
		tb.Fatal(err)
	}
	if _, err := b.Publish(ctx); err != nil {
		tb.Fatal(err)
	}
	r, err := c.Open(ctx, name)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// TestScores checks the scores of both norm schemes against scores worked
// out by hand from the definitions (not from this code).
//
// The collection (tinyDocs): en d1, d2, d5, d6 with title lengths 2, 1, 1,
// 1 and text lengths 4, 6, 100, 6, auxiliary text "h q" in d2 and "q" in
// d5; zh d3, d4 with titles of 1 and texts of 3 and 2 tokens. N = 6. Each
// language's average length, rounded up as readsim rounds it: en title
// ⌈5/4⌉ = 2, text ⌈116/4⌉ = 29, auxiliary text ⌈3/4⌉ = 1; zh title 1,
// text ⌈5/2⌉ = 3.
//
// NormsScript is readsim's fetch (Bleve's BM25): for each clause (term,
// field) with boost β (2 for the title, 1 for the text, times the term's
// occurrences) and document frequency df, idf = ln(1 + (N−df+½)/(df+½));
// a matching document scores idf · √tf·k1 / (√tf + k1·(1−b+b·dl/avg)) ·
// β·idf·norm, norm = 1/√Σ(β·idf)², summed and multiplied by
// matched/total clauses. For "a": title df 1, idf 1.5404; text df 3 (d1,
// d3, d5), idf 0.6931; norm = 1/√((2·1.5404)² + 0.6931²). d1 matches both
// clauses: 0.94795; d3 only the text (tf 3, dl 3, avg 3): 0.053925; d5 the
// text with dl 100, which Lucene stores in one byte as 96 (SmallFloat's
// 4-bit mantissa above 24): 0.021332 (with the exact 100, as Bleve,
// 0.020731 — the one place where the cluster's score differs).
//
// The auxiliary text (docs/search.md) is a third clause per term, boost
// 1 × 0.5, out of the norm, matched with the text in the coordination.
// "h": title df 0 (idf ln 14), text df 2 (d2, d6), aux df 1 (d2); norm =
// 1/√((2·ln 14)² + idf(2)²); d2 matches text (dl 6, avg 29) and aux (dl
// 2, avg 1), one clause of two: 0.122289; d6 the text only: 0.079586.
// "q" is only in auxiliary texts (df 2): d5 (dl 1) 0.024497, d2 (dl 2)
// 0.017385, each half matched, norm 1/√((2·ln 14)² + ln 14²).
//
// One word, one idf: "a" and "z" as variants of one word share their
// document frequencies per field: title 1 + 0, text 3 + 1 = 4. norm =
// 1/√(2·(2·idf(1))² + 2·idf(4)²), four clauses: d1 (a in title and
// text, 2 of 4) 0.312748, d4 (z, tf 2, dl 2, avg 3) 0.0081309, d3 (a,
// tf 3, dl 3, avg 3) 0.0078599, d5 (dl 96) 0.0031092.
//
// NormsFields is OpenSearch's BM25 (Lucene's legacy form, which keeps the
// (k1+1) of the numerator) per language field: β·idf_L · (k1+1)·tf / (tf +
// k1·(1−b+b·dl/avgdl_L)), idf_L and avgdl_L (not rounded) of the
// document's language only. For "c c z" it ranks d1 (en) first, where
// readsim's whole-collection idf ranks d4 (zh) first: z is rare in the
// collection but common in Chinese.
func TestScores(t *testing.T) {
	c, name := testClient(t)
	type hit struct {
		id    string
		score float64
	}
	cases := []struct {
		norms Norms
		q     Query
		want  []hit
	}{
		{NormsScript, Query{Terms: []Term{{Text: "a", N: 1}}}, []hit{{"d1", 0.9479501663443571}, {"d3", 0.053925333702386245}, {"d5", 0.021331918805042847}}},
		{NormsScript, Query{Terms: []Term{{Text: "a", N: 1}, {Text: "c", N: 1}}}, []hit{{"d1", 0.41647100363363077}, {"d2", 0.015668576787502005}, {"d6", 0.015668576787502005}, {"d3", 0.013756183431853058}, {"d5", 0.005441705556336314}}},
		{NormsScript, Query{Terms: []Term{{Text: "c", N: 2}, {Text: "z", N: 1}}}, []hit{{"d4", 0.03630507086773704}, {"d1", 0.018506771886620494}, {"d2", 0.016186947347296702}, {"d6", 0.016186947347296702}}},
		{NormsScript, Query{Terms: []Term{{Text: "w", N: 1}}}, []hit{{"d5", 0.19475947062448662}}},
		{NormsScript, Query{Terms: []Term{{Text: "h", N: 1}}}, []hit{{"d2", 0.12228948682991567}, {"d6", 0.07958600695259956}}},
		{NormsScript, Query{Terms: []Term{{Text: "q", N: 1}}}, []hit{{"d5", 0.02449729856831425}, {"d2", 0.017385179629126245}}},
		{NormsScript, Query{Terms: []Term{{Text: "a", N: 1, Word: 1}, {Text: "z", N: 1, Word: 1}}}, []hit{{"d1", 0.3127475589858783}, {"d4", 0.008130864880207872}, {"d3", 0.007859851056577376}, {"d5", 0.003109219601384116}}},
		// title keys: idf 1 + ln(6/(2+1)) over √(number of keys): d4 has
		// one key, d2 two
		{NormsScript, Query{TitleKey: "b"}, []hit{{"d4", 1 + math.Log(2)}, {"d2", (1 + math.Log(2)) / math.Sqrt(2)}}},
		{NormsScript, Query{Terms: []Term{{Text: "nothing", N: 1}}}, nil},
		{NormsFields, Query{Terms: []Term{{Text: "a", N: 1}}}, []hit{{"d1", 3.004156721604021}, {"d3", 1.0444683542684108}, {"d5", 0.356348026750399}}},
		{NormsFields, Query{Terms: []Term{{Text: "a", N: 1}, {Text: "c", N: 1}}}, []hit{{"d1", 3.651549649720412}, {"d3", 1.0444683542684108}, {"d2", 0.5279782232782164}, {"d6", 0.5279782232782164}, {"d5", 0.356348026750399}}},
		{NormsFields, Query{Terms: []Term{{Text: "c", N: 2}, {Text: "z", N: 1}}}, []hit{{"d1", 1.2947858562327812}, {"d2", 1.0559564465564328}, {"d6", 1.0559564465564328}, {"d4", 1.0098833094250859}}},
	}
	readers := map[Norms]*Reader{}
	for _, n := range []Norms{NormsScript, NormsFields} {
		readers[n] = publish(t, c, name+"-"+string(n), Settings{Shards: 3, Replicas: 1, Norms: n}, tinyDocs())
		t.Cleanup(func() { dropBuilds(t, c, name+"-"+string(n)) })
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s/%v%s", tc.norms, tc.q.Terms, tc.q.TitleKey), func(t *testing.T) {
			hits, err := readers[tc.norms].Search(context.Background(), tc.q, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) != len(tc.want) {
				t.Fatalf("got %d hits %v, want %v", len(hits), hits, tc.want)
			}
			for i, h := range hits {
				w := tc.want[i]
				// the cluster scores in float32
				if h.ID != w.id || math.Abs(h.Score-w.score) > 2e-6*w.score {
					t.Errorf("hit %d: %s %.9g, want %s %.9g", i, h.ID, h.Score, w.id, w.score)
				}
			}
		})
	}
}

// TestPayloads checks that payloads come back byte for byte, in the order
// asked, and that a missing id is an error naming it.
func TestPayloads(t *testing.T) {
	c, name := testClient(t)
	r := publish(t, c, name, Settings{Shards: 2, Replicas: 1}, tinyDocs())
	ctx := context.Background()
	cases := []struct {
		ids     []string
		want    []string
		wantErr string
	}{
		{[]string{"d3", "d1", "d5", "d4"}, []string{"三", "one", "\x00\x01\x02\xff", ""}, ""},
		{[]string{"d1", "nope"}, nil, "holds no document nope"},
		{nil, nil, ""},
	}
	for _, tc := range cases {
		got, err := r.Payloads(ctx, tc.ids)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%v: error %v, want one saying %q", tc.ids, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", tc.ids, err)
		}
		if len(got) != len(tc.want) {
			t.Fatalf("%v: %d payloads", tc.ids, len(got))
		}
		for i := range got {
			if string(got[i]) != tc.want[i] {
				t.Errorf("%s: payload %q, want %q", tc.ids[i], got[i], tc.want[i])
			}
		}
	}
	if r.Docs() != 6 || r.Langs()["en"] != (Lang{Docs: 4, TitleLen: 5, TextLen: 116, AuxLen: 3}) || r.Langs()["zh"] != (Lang{Docs: 2, TitleLen: 2, TextLen: 5}) {
		t.Errorf("statistics: %d documents, %+v", r.Docs(), r.Langs())
	}
}
