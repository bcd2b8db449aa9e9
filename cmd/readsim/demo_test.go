package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/internal/app"
	"github.com/readsim/readsim/internal/cli"
)

// demoServer is the demo on the sample, served on loopback for a test.
type demoServer struct {
	url     string // http://127.0.0.1:PORT
	qrels   string
	runFile string // the live system's run written as a file (served as --run)
	runID   string
	// ric and doc are the sample's runs readsim-ric (passages) and
	// readsim-doc (documents).
	ric, doc string
	stdout   *syncBuffer
	stderr   *syncBuffer
}

// startDemo indexes the sample into a temporary folder, writes the live
// system's run to a file and serves everything on 127.0.0.1 until the test
// ends.
func startDemo(t *testing.T) *demoServer {
	t.Helper()
	return startDemoRate(t, 0)
}

// startDemoRate is startDemo with a request rate limit per address (0: the default).
func startDemoRate(t *testing.T, rate float64) *demoServer {
	t.Helper()
	d := &demoServer{stdout: &syncBuffer{}, stderr: &syncBuffer{}, runID: "e2e-ric"}
	cfg, e, tmp := demoSetup(t, d.stdout, d.stderr)
	if cfg.Qrels == "" || cfg.Topics == "" {
		t.Fatalf("the sample has no judgments or topics: %+v", cfg)
	}
	// the passage run first: the simulation view opens on it
	if len(cfg.Sample) != 2 || filepath.Base(cfg.Sample[0]) != "ric.fol" || filepath.Base(cfg.Sample[1]) != "doc.trec" {
		t.Errorf("sample runs %v, want ric.fol then doc.trec", cfg.Sample)
	}
	d.qrels = cfg.Qrels
	if len(cfg.Sample) == 2 {
		d.ric, d.doc = cfg.Sample[0], cfg.Sample[1]
	}
	d.runFile = filepath.Join(tmp, "live.fol")
	status, out, errs := runCLI("run", "--index", cfg.Index, "--topics", cfg.Topics, "--run-id", d.runID, "--k", "100")
	if status != 0 {
		t.Fatalf("readsim run: %d\n%s", status, errs)
	}
	if err := os.WriteFile(d.runFile, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Runs = []string{d.runFile}
	d.url = serveLoopback(t, e, cfg, app.Listen{RatePerSecond: rate})
	return d
}

// demoSetup is the demo's configuration of the sample (app.IndexDemo), its
// index built in a temporary folder (tmp), and the env writing to stdout
// and stderr that built it.
func demoSetup(t *testing.T, stdout, stderr *syncBuffer) (cfg app.ServeConfig, e *cli.Env, tmp string) {
	t.Helper()
	sample, err := app.SampleConfig("")
	if err != nil {
		t.Fatal(err)
	}
	tmp = t.TempDir()
	e = &cli.Env{Stdout: stdout, Stderr: stderr}
	// the index where READSIM_DEMO_INDEX would put it, given directly so
	// that tests calling this one can run in parallel
	if cfg, err = app.IndexDemo(sample, filepath.Join(tmp, "idx"), e.Stderr, false); err != nil {
		t.Fatalf("%v\n%s", err, e.Stderr)
	}
	return cfg, e, tmp
}

func TestDemoServesTheSample(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes the sample")
	}
	d := startDemo(t)
	if !strings.Contains(d.stdout.String(), "local: http://") {
		t.Errorf("no local URL printed: %q", d.stdout.String())
	}
	get := func(path string) (int, string, http.Header) {
		resp, err := http.Get(d.url + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	tests := []struct {
		path, ctype string
		status      int
		contains    []string
	}{
		// The sample's article 1001 is "Fresnel lens" (corpus-sample/articles/lighthouses/1001.xml).
		{"/search?q=fresnel+lens", "text/html", 200, []string{`href="/article/1001?q=fresnel&#43;lens"`, "Fresnel lens", "matching passage"}},
		{"/article/1001?q=fresnel+lens", "application/xhtml+xml", 200, []string{`href="/search?q=fresnel+lens#r-1001"`, `href="#p1"`, `/static/article.css`}},
		{"/article/..%2f..%2fetc%2fpasswd", "text/html", 404, nil},
		{"/api/runs", "application/json", 200, []string{`"id":"e2e-ric"`, `"source":"flag"`, `"id":"readsim-live"`, `"source":"live"`}},
		{"/api/topics", "application/json", 200, []string{`"id":"2026001"`}},
		{"/static/article.css", "text/css", 200, []string{".rs-doc"}},
		{"/simulate", "text/html", 200, []string{`<option value="e2e-ric"`}},
		{"/race?topic=2026001&a=readsim-ric", "text/html", 200, []string{`<option value="readsim-ric~doc"`, `/static/race.js`}},
		{"/api/replay?topic=2026001&run=readsim-ric~doc", "application/json", 200, []string{`"baseline":true`, `"name":"AgP\\F(0.25)","better":"higher"`, `{"id":"1001","text":true}`}},
		{"/", "text/html", 200, []string{`href="/race?topic=2026001&amp;a=readsim-ric"`, `href="/search?q=fresnel&#43;lens&#43;lighthouse"`}},
		{"/nope", "text/html", 404, []string{"There is no page at this address."}},
	}
	for _, tc := range tests {
		status, body, h := get(tc.path)
		if status != tc.status || !strings.HasPrefix(h.Get("Content-Type"), tc.ctype) {
			t.Errorf("%s: %d %q, want %d %s", tc.path, status, h.Get("Content-Type"), tc.status, tc.ctype)
		}
		checkText(t, tc.path, body, tc.contains, nil)
	}
}

// TestArticlePageWeight: every article page of the sample, with its
// stylesheet, weighs at most 50 KB beside the article's text.
func TestArticlePageWeight(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes the sample")
	}
	d := startDemo(t)
	checkPageWeight(t, http.DefaultClient, d.url, len(app.CSS()), nil)
}

// checkPageWeight fetches with c from the server at base the page of every
// article of the sample (searched for lighthouse lens coffee bridge) and
// fails the test when one weighs more than 50 KB beside its article's text,
// assets (the bytes of the stylesheets and scripts the page loads) included.
// check, when not nil, sees each page.
func checkPageWeight(t *testing.T, c *http.Client, base string, assets int, check func(id string, page []byte)) {
	t.Helper()
	sample, _ := app.FindSample()
	dir, err := article.OpenDir(filepath.Join(sample, "articles"))
	if err != nil {
		t.Fatal(err)
	}
	worst, worstID := 0, ""
	for _, id := range dir.IDs() {
		a, err := dir.Parse(id)
		if err != nil {
			t.Fatal(err)
		}
		b := fetchOK(t, c, base+"/article/"+id+"?q=lighthouse+lens+coffee+bridge")
		if check != nil {
			check(id, b)
		}
		if w := len(b) + assets - len(a.Text); w > worst {
			worst, worstID = w, id
		}
	}
	t.Logf("heaviest article page beside its text: %d bytes (%s, with %d bytes of stylesheets and scripts)", worst, worstID, assets)
	if worst > 50_000 {
		t.Errorf("article %s: %d bytes beside its text, more than 50 KB", worstID, worst)
	}
}

func TestFindSampleFromSubfolder(t *testing.T) {
	// The test runs in cmd/readsim: the sample is two folders up.
	got, err := app.FindSample()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.Abs("../../corpus-sample")
	if got != want {
		t.Errorf("FindSample = %q, want %q", got, want)
	}
}

func TestServeUsage(t *testing.T) {
	tests := []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"serve"}, 2, "--index is required"},
		{[]string{"serve", "--index", "x", "--run", "r"}, 2, "--run needs --qrels"},
		{[]string{"serve", "--index", "x", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"serve", "--index", filepath.Join(os.TempDir(), "no-such-readsim-index")}, 2, "no-such-readsim-index"},
		{[]string{"demo", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"demo", "--sample", filepath.Join(os.TempDir(), "no-such-sample")}, 2, "not the sample"},
	}
	for _, tc := range tests {
		status, _, stderr := runCLI(tc.args...)
		if status != tc.status || !strings.Contains(stderr, tc.want) {
			t.Errorf("readsim %v: exit %d, stderr %q; want %d with %q", tc.args, status, stderr, tc.status, tc.want)
		}
	}
}

// TestServeWithoutIndex: judgments and runs alone serve the race and the
// simulation view; no article has text (start-up says so per run), and
// there is no search.
func TestServeWithoutIndex(t *testing.T) {
	sample, err := app.FindSample()
	if err != nil {
		t.Fatal(err)
	}
	base, stderr := startServe(t, app.ServeConfig{Qrels: filepath.Join(sample, "judgments.qrels"), Runs: []string{filepath.Join(sample, "runs", "ric.fol")}})
	// the sample's judged topics: 12, each with the run's articles
	if !regexp.MustCompile(`run readsim-ric: (\d+) of its (\d+) articles have no text`).MatchString(stderr.String()) ||
		!strings.Contains(stderr.String(), "(no index: no search)") {
		t.Errorf("start-up:\n%s", stderr)
	}
	for _, tc := range []struct {
		path   string
		status int
		want   string
	}{
		{"/api/replay?topic=2026001&run=readsim-ric", 200, `{"id":"1001","text":false}`},
		{"/race?topic=2026001&a=readsim-ric", 200, `readsim-ric~doc`},
		{"/search?q=lens", 404, "no search index"},
		{"/article/1001", 404, "There is no such article."},
	} {
		resp, err := http.Get(base + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.Contains(string(b), tc.want) {
			t.Errorf("%s: %d, want %d with %q:\n%.300s", tc.path, resp.StatusCode, tc.status, tc.want, b)
		}
	}
	if status, _, stderr := runCLI("serve", "--qrels", "q"); status != 2 || !strings.Contains(stderr, "--index is required") {
		t.Errorf("serve --qrels without --run or --index: %d %q", status, stderr)
	}
}
