package app

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/internal/ground/testfs"
	"github.com/readsim/readsim/scenario/inex"
	"github.com/readsim/readsim/web"
)

// Two topics judged; the run answers T1 and an unjudged T9.
const qrelsText = `T1 Q0 a1 10 100 5 5:10
T1 Q0 a2 0 50 0
T2 Q0 a3 20 200 0 0:10 50:10
`

const runText = `T1 Q0 a1 1 2.0 myrun 0 20
T1 Q0 a2 2 1.0 myrun 0 50
T9 Q0 a1 1 1.0 myrun 0 10
`

func newReplays(t *testing.T) *Replays {
	t.Helper()
	q, r := readInputs(t, qrelsText, runText)
	ts := []inex.Topic{{ID: "T1", Title: "first topic"}}
	return NewReplays(q, ts, []Run{{Run: r, Source: "flag"}})
}

// readInputs reads judgments (named q) and a run (named r) given as text.
func readInputs(t *testing.T, qrels, run string) (*inex.Qrels, *inex.Run) {
	t.Helper()
	q, err := inex.ReadQrels("q", strings.NewReader(qrels), nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := inex.ReadRun("r", strings.NewReader(run), inex.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return q, r
}

func TestReplaysLists(t *testing.T) {
	rp := newReplays(t)
	topics := rp.Topics()
	if len(topics) != 2 || topics[0] != (web.Topic{ID: "T1", Title: "first topic"}) || topics[1] != (web.Topic{ID: "T2"}) {
		t.Errorf("Topics = %+v", topics)
	}
	runs := rp.Runs()
	if len(runs) != 1 || runs[0].ID != "myrun" || runs[0].Source != "flag" || strings.Join(runs[0].Topics, ",") != "T1" {
		t.Errorf("Runs = %+v (T9 is not judged, T2 not answered)", runs)
	}
}

func TestReplaysRelevant(t *testing.T) {
	rp := newReplays(t)
	tests := []struct {
		topic, doc string
		want       []effort.Span
	}{
		{"T1", "a1", []effort.Span{{Start: 5, End: 15}}},
		{"T1", "a2", []effort.Span{}},
		{"T2", "a3", []effort.Span{{Start: 0, End: 10}, {Start: 50, End: 60}}},
		{"T1", "zz", nil},
		{"T7", "a1", nil},
	}
	for _, tc := range tests {
		got := rp.Relevant(tc.topic, tc.doc)
		if len(got) != len(tc.want) {
			t.Errorf("Relevant(%s,%s) = %v, want %v", tc.topic, tc.doc, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("Relevant(%s,%s) = %v, want %v", tc.topic, tc.doc, got, tc.want)
			}
		}
	}
}

// TestReplayTrace checks the trace of T1 by hand: a1 (length 100, relevant
// [5,15)) retrieved [0,20) is read 0…19 first, then, in natural order, from
// 20 on; with T2I 10 the reader stops at the 10th non-relevant character,
// i.e. after reading [0,20): 5 + 5 non-relevant around the 10 relevant ones.
func TestReplayTrace(t *testing.T) {
	rp := newReplays(t)
	var evs []map[string]any
	err := rp.Replay(context.Background(), web.ReplayRequest{Topic: "T1", Run: "myrun", Order: "natural", T2I: 10, Screen: 300},
		func(b []byte) error {
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			evs = append(evs, m)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if evs[0]["ev"] != "topic" || evs[0]["trel"] != 1.0 || evs[len(evs)-1]["ev"] != "done" {
		t.Fatalf("trace %v", evs)
	}
	for _, e := range evs {
		if e["ev"] == "stop" && e["doc"] == "a1" {
			if e["read"] != 20.0 || e["relread"] != 10.0 || e["reason"] != "t2i" {
				t.Errorf("a1 stop %v, want read 20, relread 10, reason t2i", e)
			}
		}
	}
	// An unknown run or order is an error, not a panic.
	for _, req := range []web.ReplayRequest{{Topic: "T1", Run: "nope", Order: "natural"}, {Topic: "T1", Run: "myrun", Order: "sideways"}} {
		if err := rp.Replay(context.Background(), req, func([]byte) error { return nil }); err == nil {
			t.Errorf("%+v: no error", req)
		}
	}
	// A cancelled context stops the replay.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := rp.Replay(ctx, web.ReplayRequest{Topic: "T1", Run: "myrun", Order: "natural", Screen: 300}, func([]byte) error { return nil }); err == nil {
		t.Error("cancelled replay: no error")
	}
}

// The prototype's article page over a real folder: links lead to the
// articles the folder has and stay text for the others, and the page and
// its Content-Language are in the article's language.
func TestArticlePageLinksAndLang(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		// 1 links to 2 (in the folder) and 3 (not)
		"a/1.xml": `<article xmlns:xlink="http://www.w3.org/1999/xlink"><header><title>조선 장조</title><id>1</id></header><bdy><p>사도세자는 <link xlink:type="simple" xlink:href="../002/2.xml">영조</link>의 아들이다. <link xlink:type="simple" xlink:href="../003/3.xml">정조</link>의 아버지.</p></bdy></article>`,
		"b/2.xml": `<article><header><title>영조</title></header><bdy><p>조선의 왕.</p></bdy></article>`,
	}
	testfs.Write(t, dir, files)
	d, err := article.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	pages := NewPages(d)
	if !pages.Has("2") || pages.Has("3") || pages.Has("../b/2") {
		t.Errorf("Has: 2 %v, 3 %v, ../b/2 %v; want true, false, false", pages.Has("2"), pages.Has("3"), pages.Has("../b/2"))
	}
	s, err := web.New(web.Options{Pages: pages, RatePerSecond: -1})
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/article/1", nil))
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	page := w.Body.String()
	// text: "조선 장조" 0-4, "1" 5, "사도세자는 " 6-11, "영조" 12-13, "의 아들이다. " 14-21, "정조" 22-23
	for _, want := range []string{`lang="ko" xml:lang="ko"`, `<a data-o="12" href="/article/2">영조</a>`, `<span class="rs-link" data-o="22">정조</span>`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s\n%s", want, page)
		}
	}
	if strings.Contains(page, "/article/3") {
		t.Errorf("a link to an article the prototype does not have")
	}
	if cl := w.Header().Get("Content-Language"); cl != "ko" {
		t.Errorf("Content-Language %q, want ko", cl)
	}
}

// TestNoTextLine: start-up's line about articles without text agrees with
// its numbers (the sentences written by hand).
func TestNoTextLine(t *testing.T) {
	for _, tc := range []struct {
		c    TextCount
		want string
	}{
		{TextCount{"r", 4, 1}, "run r: 1 of its 4 articles has no text on this server: the race and the simulation view draw it as a schematic"},
		{TextCount{"r", 4, 2}, "run r: 2 of its 4 articles have no text on this server: the race and the simulation view draw them as a schematic"},
		{TextCount{"r", 1, 1}, "run r: 1 of its 1 article has no text on this server: the race and the simulation view draw it as a schematic"},
		{TextCount{"bertric", 11582, 11582}, "run bertric: 11582 of its 11582 articles have no text on this server: the race and the simulation view draw them as a schematic"},
	} {
		if got := noTextLine(tc.c); got != tc.want {
			t.Errorf("%+v:\n got %s\nwant %s", tc.c, got, tc.want)
		}
	}
}

// TestQualifiedIDsRoundTrip serves the collection of two Wikipedias of
// index/article's tests (en/3951 and ja/3951, en/7001 and ja/7001 share
// file names) with its index: a qualified id goes from the hits (with
// their language) to the article page and the API and back, escaped in
// every URL (/article/ja%2F7001), and the page links within its language.
func TestQualifiedIDsRoundTrip(t *testing.T) {
	multilang := filepath.Join("..", "..", "index", "article", "testdata", "multilang")
	idx := filepath.Join(t.TempDir(), "idx")
	if _, err := index.Build(index.BuildOptions{Articles: multilang, Index: idx}); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	a, err := Assemble(ServeConfig{Index: idx, Articles: multilang, Warn: func(m string) { warnings = append(warnings, m) }})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if len(warnings) != 1 || !strings.Contains(warnings[0], "3951 is en/3951 and ja/3951") {
		t.Errorf("warnings %q, want one naming the clashes", warnings)
	}
	a.Options.RatePerSecond = -1
	s, err := web.New(a.Options)
	if err != nil {
		t.Fatal(err)
	}
	get := func(target string) (int, string) {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
		return w.Code, w.Body.String()
	}
	q := url.QueryEscape("霧笛")
	code, body := get("/search?q=" + q)
	if code != 200 || !strings.Contains(body, `href="/article/ja%2F7001?q=`+q+`"`) || !strings.Contains(body, `id="r-ja/7001"`) {
		t.Errorf("results: %d\n%s", code, body)
	}
	code, body = get("/api/search?q=" + q)
	var res struct {
		Hits []web.Hit `json:"hits"`
	}
	if err := json.Unmarshal([]byte(body), &res); code != 200 || err != nil || len(res.Hits) != 2 {
		t.Fatalf("api search: %d %v %s", code, err, body)
	}
	if h := res.Hits[0]; h.ID != "ja/7001" || h.Lang != "ja" || h.Title != "霧笛" || !strings.Contains(body, `"lang":"ja"`) {
		t.Errorf("first hit %+v, want ja/7001 in ja", h)
	}
	code, body = get("/article/ja%2F7001?q=" + q)
	if code != 200 || !strings.Contains(body, `lang="ja"`) || !strings.Contains(body, `href="/search?q=`+q+`#r-ja/7001"`) {
		t.Errorf("article ja/7001: %d\n%s", code, body)
	}
	code, body = get("/article/ja%2F3951")
	for _, want := range []string{`href="/article/ja%2F7001">霧笛</a>`, `href="/article/2121">観音埼灯台</a>`} {
		if code != 200 || !strings.Contains(body, want) {
			t.Errorf("article ja/3951: %d, lacks %s", code, want)
		}
	}
	code, body = get("/api/article/ja%2F3951")
	if code != 200 || !strings.Contains(body, `"id":"ja/3951"`) || !strings.Contains(body, `"page":"/article/ja%2F3951"`) || !strings.Contains(body, `"lang":"ja"`) {
		t.Errorf("api article: %d %s", code, body)
	}
	// the plain id of a clash, a path naming a unique article, an
	// unescaped slash: no such article
	for _, target := range []string{"/article/3951", "/article/ja%2F2121", "/article/ja/3951", "/api/article/3951", "/article/ja%2F..%2F3951"} {
		if code, _ := get(target); code != 404 {
			t.Errorf("%s: %d, want 404", target, code)
		}
	}
}

// TestRateLimit checks Listen.RatePerSecond (serve --rate-limit) reaches
// the server's limiter: 250 requests from one address in a row, more than
// the burst of 200 (web's default), are all served with no limit (-1,
// --rate-limit 0); at one request per 1,000 seconds exactly the burst is
// served and the other 50 are refused with 429 (the bucket would need
// 1,000 s to earn one more).
func TestRateLimit(t *testing.T) {
	idx := filepath.Join(t.TempDir(), "idx")
	articles := filepath.Join("..", "..", "corpus-sample", "articles")
	if _, err := index.Build(index.BuildOptions{Articles: articles, Index: idx}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rate          float64
		served, limit int
	}{
		{-1, 250, 0},
		{0.001, 200, 50},
	} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			done <- Serve(ctx, ServeConfig{Index: idx, Say: func(string) {}}, Listen{Listener: ln, RatePerSecond: tc.rate})
		}()
		base := "http://" + ln.Addr().String()
		served, limited := 0, 0
		for range 250 {
			resp, err := http.Get(base + "/api/search?q=bridge")
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			switch resp.StatusCode {
			case 200:
				served++
			case 429:
				limited++
			default:
				t.Fatalf("rate %g: status %d", tc.rate, resp.StatusCode)
			}
		}
		if served != tc.served || limited != tc.limit {
			t.Errorf("rate %g: %d served and %d refused, want %d and %d", tc.rate, served, limited, tc.served, tc.limit)
		}
		stop()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
