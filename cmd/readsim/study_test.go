package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/web/backend"
)

// The study's flags: --study needs an index and topics; --study-topics is
// at least 1.
func TestServeStudyFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--index", "x", "--study", "d"}, "--study needs --index"},
		{[]string{"serve", "--qrels", "q", "--run", "r", "--topics", "t", "--study", "d"}, "--study needs --index"},
		{[]string{"serve", "--index", "x", "--topics", "t", "--study", "d", "--study-topics", "0"}, "--study-topics must be at least 1"},
		{[]string{"serve", "--index", "x", "--topics", "t", "--consent", "c.md"}, "--consent needs --study"},
		{[]string{"serve", "--index", "x", "--topics", "t", "--trusted-proxy", "proxy.example"}, `--trusted-proxy: "proxy.example" is not an address or a CIDR`},
	} {
		status, _, stderr := runCLI(tc.args...)
		if status != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: %d %q, want 2 and %q", tc.args, status, stderr, tc.want)
		}
	}
}

// participantClient consents on the study at u and returns a client that
// carries the participant's cookie.
func participantClient(t *testing.T, u string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err := c.PostForm(u+"/study/consent", url.Values{"consent": {"yes"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Request.URL.Path != "/study" {
		t.Fatalf("consent: %d at %s", resp.StatusCode, resp.Request.URL)
	}
	return c
}

// TestStudyArticlePageWeight: a participant's article pages, with the
// article stylesheet, the recorder and its stylesheet, weigh at most 50 KB
// beside the article's text (as TestArticlePageWeight for everyone).
func TestStudyArticlePageWeight(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes the sample")
	}
	u, _, _ := startStudyDemo(t)
	c := participantClient(t, u)
	assets := len(backend.CSS()) + len(fetchOK(t, c, u+"/static/study.js")) + len(fetchOK(t, c, u+"/static/study.css"))
	checkPageWeight(t, c, u, assets, func(id string, page []byte) {
		if !strings.Contains(string(page), `<script src="/static/study.js" defer="defer"></script>`) {
			t.Fatalf("%s: a participant's page without the recorder", id)
		}
	})
}

// TestStudyFolderIsReadings: the study's folder, as the README says to use
// it: eval --readings and calibrate read DIR/*.jsonl (the keys beside them
// are not readings and are not globbed).
func TestStudyFolderIsReadings(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes the sample")
	}
	u, dir, qrels := startStudyDemo(t)
	var topics []string
	for i, batch := range []string{
		`{"events":[{"ev":"topic","topic":"TOPIC","seq":1,"t":0},{"ev":"query","topic":"TOPIC","seq":2,"t":900,"q":"fresnel lens"},
{"ev":"open","topic":"TOPIC","doc":"1001","rank":1,"seq":3,"t":1500,"passages":[[76,620]]},{"ev":"read","topic":"TOPIC","doc":"1001","seq":4,"t":1600,"from":2,"to":14},
{"ev":"read","topic":"TOPIC","doc":"1001","seq":5,"t":1600,"from":76,"to":600},{"ev":"stop","topic":"TOPIC","doc":"1001","seq":6,"t":9000},
{"ev":"done","topic":"TOPIC","seq":7,"t":9500,"outcome":"found"}]}`,
		`{"events":[{"ev":"topic","topic":"TOPIC","seq":1,"t":0},{"ev":"query","topic":"TOPIC","seq":2,"t":900,"q":"keepers"},
{"ev":"open","topic":"TOPIC","doc":"1004","rank":1,"seq":3,"t":1500},{"ev":"read","topic":"TOPIC","doc":"1004","seq":4,"t":1600,"from":0,"to":700},
{"ev":"done","topic":"TOPIC","seq":5,"t":30000,"outcome":"gave up"}]}`,
	} {
		c := participantClient(t, u)
		// the participant's first topic (round robin: it depends on the
		// participants before, in a kept folder)
		resp, err := c.Get(u + "/study")
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		m := regexp.MustCompile(`data-topic="([^"]+)"`).FindSubmatch(page)
		if m == nil {
			t.Fatalf("participant %d: no topic on /study", i)
		}
		topics = append(topics, string(m[1]))
		batch = strings.ReplaceAll(batch, "TOPIC", string(m[1]))
		resp, err = c.Post(u+"/study/events", "application/json", strings.NewReader(batch))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("participant %d: %d %s", i, resp.StatusCode, b)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	keys, _ := filepath.Glob(filepath.Join(dir, "P-*.json"))
	if os.Getenv("READSIM_STUDY_DIR") == "" && (len(files) != 2 || len(keys) != 2 || !fileExists(filepath.Join(dir, "rotation.json"))) {
		t.Fatalf("recordings %v, keys %v (and rotation.json)", files, keys)
	}
	for _, f := range append(files, dir) {
		if st, _ := os.Stat(f); st.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s is readable by others: %v", f, st.Mode())
		}
	}
	status, out, errs := runCLI(append([]string{"eval", "--qrels", qrels, "--readings", "-q"}, files...)...)
	// each participant's topic once (more in a kept folder of more readings)
	once := func(topic string) bool {
		n := strings.Count(out, "AgP\\Read\t"+topic+"\t")
		return n == 1 || n > 1 && os.Getenv("READSIM_STUDY_DIR") != ""
	}
	if status != 0 || !once(topics[0]) || !once(topics[1]) || topics[0] == topics[1] {
		t.Errorf("eval --readings: %d\n%s\n%s", status, out, errs)
	}
	status, out, errs = runCLI(append([]string{"calibrate", "--qrels", qrels, "--format", "json"}, files...)...)
	if status != 0 || !strings.Contains(out, "{") {
		t.Errorf("calibrate: %d\n%s\n%s", status, out, errs)
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// A study whose topics have no judged article in the index (the INEX
// topics over the sample's articles, as it were) is refused at start-up,
// saying why, with exit status 2; one whose judgments meet the index says
// how many of its topics can be scored. Judgments by hand: topic 2026001
// judges only article 999999, which the sample does not have; then also
// 1001, which it has.
func TestServeStudyNeedsJudgedArticles(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes the sample")
	}
	cfg, _, tmp := demoSetup(t, &syncBuffer{}, &syncBuffer{})
	cfg.Study = filepath.Join(tmp, "study")
	for _, tc := range []struct {
		qrels  string
		status int
		want   string
	}{
		{"2026001 Q0 999999 10 100 0 0:10\n", 2, "none of the study's 1 topics has a judged article in the index"},
		{"2026001 Q0 999999 10 100 0 0:10\n2026002 Q0 1001 10 4621 0 0:10\n", 0, "reading study: 1 of 2 topics have a judged article in the index"},
	} {
		q := filepath.Join(tmp, "q.qrels")
		if err := os.WriteFile(q, []byte(tc.qrels), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"serve", "--index", cfg.Index, "--topics", cfg.Topics, "--qrels", q, "--study", cfg.Study, "--addr", "127.0.0.1:0"}
		if tc.status == 0 {
			c := cfg
			c.Qrels = q
			stderr := &syncBuffer{}
			serveLoopback(t, &cli.Env{Stdout: &syncBuffer{}, Stderr: stderr}, c, backend.Listen{RatePerSecond: -1})
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("start-up:\n%s\nwant %q", stderr, tc.want)
			}
			continue
		}
		status, _, stderr := runCLI(args...)
		if status != tc.status || !strings.Contains(stderr, tc.want) {
			t.Errorf("%d %q, want %d and %q", status, stderr, tc.status, tc.want)
		}
	}
}

// readsim study on a folder made by hand: P-…1 read one topic of two and
// its last batch was cut short by a crash (a torn line); P-…2 consented
// two days ago and never read; P-…3 consented a minute ago and has not
// read yet; P-…4 withdrew, but a crash left its recording. list says so;
// export writes P-…1's whole lines only, with the consent text agreed to;
// repair cuts the torn line; clear deletes P-…2's key only.
func TestStudyCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "study")
	out := filepath.Join(t.TempDir(), "export")
	os.Mkdir(dir, 0o700)
	now := time.Now().UTC()
	hash := strings.Repeat("ab", 32)
	key := func(n int, consented time.Time) {
		id := fmt.Sprintf("P-%016d", n)
		b := fmt.Sprintf(`{"participant":%q,"token_sha256":%q,"topics":["2026001","2026002"],"position":%d,"consented":%q,"consent_sha256":%q}`+"\n",
			id, strings.Repeat("00", 32), n, consented.Format(time.RFC3339), hash)
		if err := os.WriteFile(filepath.Join(dir, id+".json"), []byte(b), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	whole := `{"ev":"topic","topic":"2026001","seq":1,"t":0}` + "\n" + `{"ev":"done","topic":"2026001","seq":2,"t":5,"outcome":"gave up"}` + "\n"
	torn := `{"ev":"topic","topic":"2026002","se`
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	key(1, now.Add(-time.Hour))
	write("P-0000000000000001.jsonl", whole+torn)
	key(2, now.Add(-48*time.Hour))
	key(3, now.Add(-time.Minute))
	key(4, now.Add(-time.Hour))
	write("P-0000000000000004.jsonl", whole)
	write("withdrawn.jsonl", `{"participant":"P-0000000000000004","withdrawn":"2026-11-26T17:00:00Z"}`+"\n")
	write("consent-"+hash[:16]+".txt", "Title: t\n")

	status, stdout, stderr := runCLI("study", "list", dir)
	if status != 0 {
		t.Fatalf("list: %d %s", status, stderr)
	}
	for _, want := range []string{
		"P-0000000000000001  " + now.Add(-time.Hour).Format(time.RFC3339) + "  abababababababab  2       1     2       reading; torn last line (35 bytes",
		"P-0000000000000002", "2       0     0       no recording",
		"P-0000000000000004", "withdrawn 2026-11-26T17:00:00Z",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("list lacks %q:\n%s", want, stdout)
		}
	}
	if status, _, stderr := runCLI("study", "export", "--out", out, dir); status != 0 || !strings.Contains(stderr, "exported 1 reading(s)") || !strings.Contains(stderr, "left out 1 withdrawn") {
		t.Errorf("export: %d %s", status, stderr)
	}
	ents, _ := os.ReadDir(out)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "P-0000000000000001.jsonl consent-"+hash[:16]+".txt" {
		t.Errorf("export holds %s", got)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "P-0000000000000001.jsonl")); string(b) != whole {
		t.Errorf("exported %q, want the whole lines", b)
	}
	if status, _, stderr := runCLI("study", "export", "--out", out, dir); status != 2 || !strings.Contains(stderr, "not empty") {
		t.Errorf("export into a folder not empty: %d %s", status, stderr)
	}
	if status, _, stderr := runCLI("study", "repair", dir); status != 0 || !strings.Contains(stderr, "P-0000000000000001.jsonl: cut its torn last line (35 bytes)") {
		t.Errorf("repair: %d %s", status, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "P-0000000000000001.jsonl")); string(b) != whole {
		t.Errorf("repaired %q", b)
	}
	if status, _, stderr := runCLI("study", "clear", dir); status != 0 || !strings.Contains(stderr, "cleared P-0000000000000002") || strings.Contains(stderr, "P-0000000000000003") {
		t.Errorf("clear: %d %s", status, stderr)
	}
	for n, want := range map[int]bool{1: true, 2: false, 3: true} {
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("P-%016d.json", n))); (err == nil) != want {
			t.Errorf("after clear, key %d there: %v, want %v", n, err == nil, want)
		}
	}
	for _, args := range [][]string{{"study", "list"}, {"study", "dance", dir}, {"study", "export", dir}, {"study", "list", filepath.Join(dir, "nope")}} {
		if status, _, stderr := runCLI(args...); status != 2 || stderr == "" {
			t.Errorf("%v: %d %s", args, status, stderr)
		}
	}
}
