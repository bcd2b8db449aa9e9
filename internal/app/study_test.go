package app

import (
	"bytes"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/scenario/inex"
	"github.com/readsim/readsim/web"
)

// samplePages are the pages of the sample's articles.
func samplePages(t testing.TB) *Pages {
	t.Helper()
	dir, err := article.OpenDir(filepath.Join("..", "..", "corpus-sample", "articles"))
	if err != nil {
		t.Fatal(err)
	}
	return NewPages(dir)
}

// studyServer serves the sample's articles with a study in dir on the
// sample's topic 2026001, and returns a participant's cookie.
func studyServer(t testing.TB, pages *Pages, dir string) (*web.Server, *http.Cookie) {
	t.Helper()
	s, err := web.New(web.Options{Pages: pages, RatePerSecond: -1, Study: &web.StudyOptions{
		Dir: dir, Topics: []web.StudyTopic{{ID: "2026001", Title: "fresnel lens lighthouse"}}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	// the consent page, then its form with its token and cookie
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/study", nil))
	m := regexp.MustCompile(`name="ct" value="([^"]+)"`).FindStringSubmatch(w.Body.String())
	if m == nil {
		t.Fatalf("the consent page has no token")
	}
	r := httptest.NewRequest("POST", "/study/consent", strings.NewReader("consent=yes&ct="+m[1]))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for _, c := range w.Result().Cookies() {
		r.AddCookie(c)
	}
	w = httptest.NewRecorder()
	s.ServeHTTP(w, r)
	for _, c := range w.Result().Cookies() {
		if c.Name == "readsim_study" && w.Code == http.StatusSeeOther {
			return s, c
		}
	}
	t.Fatalf("consent: %d %v", w.Code, w.Result().Cookies())
	return nil, nil
}

func postBatch(s http.Handler, c *http.Cookie, body string) int {
	r := httptest.NewRequest("POST", "/study/events", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.AddCookie(c)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w.Code
}

// TestStudyRecordingScores: a participant's recording, as the server writes
// it, is a reading that eval --readings scores, worked by hand on the
// sample's topic 2026001 (Trel 3; 1001 relevant from 76 to 620 among
// others, 1004 not relevant, 1006 relevant from 1923 to 2833):
//
//	1001 (rank 1) read [0,400): 324 relevant of 400, Read 0.81
//	1004 (rank 2) read [0,300): Read 0
//	1006 (rank 3) read [1900,2100): 177 relevant of 200, Read 0.885
//
// gP[1] = 0.81, gP[3] = (0.81 + 0 + 0.885)/3 = 0.565; AgP\Read =
// (0.81 + 0.565)/3; AP over the order opened = (1 + 2/3)/3.
func TestStudyRecordingScores(t *testing.T) {
	dir := t.TempDir()
	s, c := studyServer(t, samplePages(t), dir)
	for _, b := range []string{
		`{"events":[{"ev":"topic","topic":"2026001","seq":1,"t":0},{"ev":"query","topic":"2026001","seq":2,"t":800,"q":"fresnel lens"},
{"ev":"open","topic":"2026001","doc":"1001","rank":1,"seq":3,"t":1000,"passages":[[76,620]]},
{"ev":"read","topic":"2026001","doc":"1001","seq":4,"t":1100,"from":0,"to":250},{"ev":"read","topic":"2026001","doc":"1001","seq":5,"t":2000,"from":150,"to":400}]}`,
		`{"events":[{"ev":"stop","topic":"2026001","doc":"1001","seq":6,"t":3000},
{"ev":"open","topic":"2026001","doc":"1004","rank":2,"seq":7,"t":3500},{"ev":"read","topic":"2026001","doc":"1004","seq":8,"t":3600,"from":0,"to":300},
{"ev":"open","topic":"2026001","doc":"1006","rank":3,"seq":9,"t":5000},{"ev":"jump","topic":"2026001","doc":"1006","seq":10,"t":5100,"to":1900},
{"ev":"read","topic":"2026001","doc":"1006","seq":11,"t":5200,"from":1900,"to":2100},{"ev":"done","topic":"2026001","seq":12,"t":7000,"outcome":"found"}]}`,
	} {
		if code := postBatch(s, c, b); code != 200 {
			t.Fatalf("batch: %d", code)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "P-*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("recordings %v", files)
	}
	rd, err := scenario.OpenReading(files[0])
	if err != nil {
		t.Fatal(err)
	}
	id, _, _ := strings.Cut(c.Value, ".")
	if rd.ID != id || len(rd.Topics) != 1 || rd.Topics[0].Outcome != "found" || rd.Topics[0].Start != 0 || rd.Topics[0].End != 7000 {
		t.Fatalf("reading %+v", rd)
	}
	q, err := inex.OpenQrels(filepath.Join("..", "..", "corpus-sample", "judgments.qrels"), nil)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := effort.ParseMeasures([]string{`AgP\Read`, "AP", "num_ret"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := scenario.EvaluateReading(q, rd, scenario.EvalOptions{Measures: ms})
	if err != nil {
		t.Fatal(err)
	}
	for m, want := range []float64{(0.81 + 0.565) / 3, (1 + 2.0/3) / 3, 3} {
		if got := res.All[m]; math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %v, want %v", ms[m], got, want)
		}
	}
}

// FuzzStudyBatches: whatever batches a page sends, a recording stays a
// reading scenario.ReadReading reads, with one event per line, and a
// refused batch leaves it as it was. The input is up to four batches, one
// a line, after a topic event and an open of 1001.
func FuzzStudyBatches(f *testing.F) {
	for _, seed := range []string{
		`{"events":[{"ev":"read","topic":"2026001","doc":"1001","seq":3,"t":5,"from":0,"to":10}]}`,
		`{"events":[{"ev":"stop","topic":"2026001","doc":"1001","seq":3,"t":5},{"ev":"read","topic":"2026001","doc":"1001","seq":4,"t":5,"from":0,"to":10}]}`,
		`{"events":[{"ev":"done","topic":"2026001","seq":3,"t":5,"outcome":"gave up"}]}` + "\n" + `{"events":[{"ev":"topic","topic":"2026001","seq":4,"t":9}]}`,
		`{"events":[{"ev":"open","topic":"2026001","doc":"1002","seq":3,"t":5,"passages":[[1,2]]},{"ev":"jump","topic":"2026001","doc":"1002","seq":4,"t":5,"to":9}]}`,
		`{"events":[{"ev":"query","topic":"2026001","seq":3,"t":5,"q":"\u2028\"<x>"}]}` + "\n" + `{"events":[{"ev":"read","topic":"2026001","doc":"1001","seq":3,"t":5,"from":0,"to":10}]}`,
	} {
		f.Add(seed)
	}
	pages := samplePages(f)
	f.Fuzz(func(t *testing.T, in string) {
		dir := t.TempDir()
		s, c := studyServer(t, pages, dir)
		if code := postBatch(s, c, `{"events":[{"ev":"topic","topic":"2026001","seq":1,"t":0},{"ev":"open","topic":"2026001","doc":"1001","seq":2,"t":1}]}`); code != 200 {
			t.Fatalf("the first batch: %d", code)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "P-*.jsonl"))
		if len(files) != 1 {
			t.Fatalf("recordings %v", files)
		}
		for i, b := range strings.SplitN(in, "\n", 4) {
			before, _ := os.ReadFile(files[0])
			code := postBatch(s, c, b)
			after, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			if code != 200 && !bytes.Equal(before, after) {
				t.Fatalf("batch %d refused (%d) but the recording changed", i, code)
			}
			rd, err := scenario.ReadReading(files[0], bytes.NewReader(after))
			if err != nil {
				t.Fatalf("batch %d (%d): the recording is not a reading: %v\n%s", i, code, err, after)
			}
			if n := bytes.Count(after, []byte{'\n'}); n < 2 || rd.Topics[0].ID != "2026001" {
				t.Fatalf("batch %d: %d lines", i, n)
			}
		}
	})
}
