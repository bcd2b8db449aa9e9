package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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

	"github.com/readsim/readsim/internal/app"
	"github.com/readsim/readsim/internal/cli"
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
	// the consent page first: its form's token and cookie
	resp, err := c.Get(u + "/study")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`name="ct" value="([^"]+)"`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("the consent page has no token:\n%s", page)
	}
	resp, err = c.PostForm(u+"/study/consent", url.Values{"consent": {"yes"}, "ct": {string(m[1])}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Request.URL.Path != "/study" {
		t.Fatalf("consent: %d at %s", resp.StatusCode, resp.Request.URL)
	}
	return c
}

// studyPageOf is the study page at u as client c gets it.
func studyPageOf(t *testing.T, c *http.Client, u string) string {
	t.Helper()
	resp, err := c.Get(u + "/study")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	return string(page)
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
	assets := len(app.CSS()) + len(fetchOK(t, c, u+"/static/study.js")) + len(fetchOK(t, c, u+"/static/study.css"))
	checkPageWeight(t, c, u, assets, func(id string, page []byte) {
		if !strings.Contains(string(page), `<script src="/static/study.js" defer="defer"></script>`) {
			t.Fatalf("%s: a participant's page without the recorder", id)
		}
	})
}

// TestStudyFolderIsReadings: the study's folder, as the README says to use
// it: eval --readings and calibrate read DIR/P-*.jsonl (the keys, the
// audit log and the tombstones beside them are not readings and are not
// globbed).
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
		page := []byte(studyPageOf(t, c, u))
		m := regexp.MustCompile(`data-topic="([^"]+)"`).FindSubmatch(page)
		if m == nil {
			t.Fatalf("participant %d: no topic on /study", i)
		}
		topics = append(topics, string(m[1]))
		batch = strings.ReplaceAll(batch, "TOPIC", string(m[1]))
		resp, err := c.Post(u+"/study/events", "application/json", strings.NewReader(batch))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("participant %d: %d %s", i, resp.StatusCode, b)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "P-*.jsonl"))
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
			serveLoopback(t, &cli.Env{Stdout: &syncBuffer{}, Stderr: stderr}, c, app.Listen{RatePerSecond: -1})
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
	if got := strings.Join(names, " "); got != "P-0000000000000001.jsonl consent-"+hash[:16]+".txt data-dictionary.md participants.csv" {
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

// studyFolder writes a study folder by hand into a new temporary folder:
// the files named, each with its text; "KEY n consented topics recruitment"
// lines stand for a key.
func studyFolder(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "study")
	os.Mkdir(dir, 0o700)
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// studyKey is the key of participant P-<16 digits of n>.
func studyKey(n int, consented, hash string, topics []string, recruitment string) string {
	id := fmt.Sprintf("P-%016d", n)
	rec := ""
	if recruitment != "" {
		rec = `,"recruitment":` + recruitment
	}
	tj, _ := json.Marshal(topics)
	return fmt.Sprintf(`{"participant":%q,"token_sha256":%q,"topics":%s,"position":%d,"consented":%q,"consent_sha256":%q%s}`+"\n",
		id, strings.Repeat("00", 32), tj, n, consented, hash, rec)
}

// The study's administration on a folder made by hand (issue 36): P-…1
// finished its two topics (it came from Prolific, its query typed); P-…2
// consented and never read; P-…4 withdrew (its consent on record in the
// audit log); P-…5 is a recording whose key is gone, its consent on
// record; P-…6 a recording without key or consent. list says which is
// which; export writes participants.csv as worked out by hand below, the
// data dictionary, P-…1's and P-…5's recordings (the query's words left
// out with --redact-queries) and not P-…6's, naming it; an export inside
// the study's folder is refused; repair names the two recordings without
// a key; every command but list is in the audit log.
func TestStudyExportAndRepair(t *testing.T) {
	hash := strings.Repeat("ab", 32)
	p1 := `{"ev":"topic","topic":"2026001","rank":0,"doc":"","seq":1,"run":"P-0000000000000001","t":0,"source":"recorded"}` + "\n" +
		`{"ev":"query","topic":"2026001","rank":0,"doc":"","seq":2,"q":"fresnel \u003clens\u003e","t":900,"source":"recorded"}` + "\n" +
		`{"ev":"done","topic":"2026001","rank":0,"doc":"","seq":3,"outcome":"found","t":950,"source":"recorded"}` + "\n" +
		`{"ev":"topic","topic":"2026002","rank":0,"doc":"","seq":4,"run":"P-0000000000000001","t":1000,"source":"recorded"}` + "\n" +
		`{"ev":"done","topic":"2026002","rank":0,"doc":"","seq":5,"outcome":"gave up","t":1200,"source":"recorded"}` + "\n"
	p5 := `{"ev":"topic","topic":"2026003","rank":0,"doc":"","seq":1,"run":"P-0000000000000005","t":0,"source":"recorded"}` + "\n"
	audit := `{"time":"2026-11-26T10:00:00Z","event":"start","consent_sha256":"` + hash + `"}` + "\n" +
		`{"time":"2026-11-26T10:01:00Z","event":"consent","participant":"P-0000000000000004","consent_sha256":"` + hash + `","topics":["2026001","2026002"]}` + "\n" +
		`{"time":"2026-11-26T10:02:00Z","event":"consent","participant":"P-0000000000000005","consent_sha256":"` + hash + `","topics":["2026003","2026004"]}` + "\n" +
		`{"time":"2026-11-26T10:03:00Z","event":"withdrawal","participant":"P-0000000000000004","by":"code"}` + "\n"
	dir := studyFolder(t, map[string]string{
		"P-0000000000000001.json":       studyKey(1, "2026-11-26T09:00:00Z", hash, []string{"2026001", "2026002"}, `{"PROLIFIC_PID":"5f1a","STUDY_ID":"60aa"}`),
		"P-0000000000000001.jsonl":      p1,
		"P-0000000000000002.json":       studyKey(2, "2026-11-26T09:30:00Z", hash, []string{"2026003", "2026004"}, `{"PROLIFIC_PID":"77bb"}`),
		"P-0000000000000005.jsonl":      p5,
		"P-0000000000000006.jsonl":      p5,
		"withdrawn.jsonl":               `{"participant":"P-0000000000000004","withdrawn":"2026-11-26T10:03:00Z"}` + "\n",
		"audit.jsonl":                   audit,
		"consent-" + hash[:16] + ".txt": "Title: t\n",
	})
	status, stdout, stderr := runCLI("study", "list", dir)
	for _, want := range []string{
		"P-0000000000000004  2026-11-26T10:01:00Z  abababababababab  2       0     0       withdrawn 2026-11-26T10:03:00Z",
		"P-0000000000000005  2026-11-26T10:02:00Z  abababababababab  2       0     1       a recording without a key (its consent on record in audit.jsonl)",
		"P-0000000000000006                                          0       0     1       a recording without a key or a consent on record: export leaves it out",
	} {
		if status != 0 || !strings.Contains(stdout, want) {
			t.Errorf("list lacks %q:\n%s%s", want, stdout, stderr)
		}
	}
	if status, _, stderr := runCLI("study", "export", "--out", filepath.Join(dir, "export"), dir); status != 2 || !strings.Contains(stderr, "inside the study folder") {
		t.Errorf("an export inside the study's folder: %d %s", status, stderr)
	}
	out := filepath.Join(t.TempDir(), "export")
	status, _, stderr = runCLI("study", "export", "--redact-queries", "--out", out, dir)
	if status != 0 || !strings.Contains(stderr, "P-0000000000000006.jsonl: left out: a recording without a key and without a consent on record") ||
		!strings.Contains(stderr, "P-0000000000000005.jsonl: a recording without a key, exported on its consent on record") ||
		!strings.Contains(stderr, "exported 2 reading(s) (queries redacted)") || !strings.Contains(stderr, "left out 1 withdrawn") {
		t.Errorf("export: %d\n%s", status, stderr)
	}
	// by hand: P-…1 has done both topics (completed), P-…2 none, P-…4
	// withdrew (its consent from the audit log), P-…5's consent too
	wantCSV := "participant,PROLIFIC_PID,STUDY_ID,consented,consent_sha256,topics_assigned,topics_done,completed,withdrawn,recording\n" +
		"P-0000000000000001,5f1a,60aa,2026-11-26T09:00:00Z," + hash + ",2,2,yes,,P-0000000000000001.jsonl\n" +
		"P-0000000000000002,77bb,,2026-11-26T09:30:00Z," + hash + ",2,0,no,,\n" +
		"P-0000000000000004,,,2026-11-26T10:01:00Z," + hash + ",2,,,2026-11-26T10:03:00Z,\n" +
		"P-0000000000000005,,,2026-11-26T10:02:00Z," + hash + ",2,0,no,,P-0000000000000005.jsonl\n"
	if b, _ := os.ReadFile(filepath.Join(out, "participants.csv")); string(b) != wantCSV {
		t.Errorf("participants.csv:\n%s\nwant:\n%s", b, wantCSV)
	}
	dict, _ := os.ReadFile(filepath.Join(out, "data-dictionary.md"))
	for _, want := range []string{"| PROLIFIC_PID | the recruitment platform's id PROLIFIC_PID", "| completed |", "| query | none: the words of the query were left out"} {
		if !strings.Contains(string(dict), want) {
			t.Errorf("the data dictionary lacks %q", want)
		}
	}
	want1 := strings.Replace(p1, `"q":"fresnel \u003clens\u003e",`, "", 1)
	if b, _ := os.ReadFile(filepath.Join(out, "P-0000000000000001.jsonl")); string(b) != want1 {
		t.Errorf("the redacted recording:\n%s\nwant:\n%s", b, want1)
	}
	if _, err := os.Stat(filepath.Join(out, "P-0000000000000006.jsonl")); err == nil {
		t.Error("a recording without a consent on record was exported")
	}
	// the recording redacted is still a reading
	if status, _, stderr := runCLI("eval", "--qrels", filepath.Join("..", "..", "corpus-sample", "judgments.qrels"), "--readings", filepath.Join(out, "P-0000000000000001.jsonl")); status != 0 {
		t.Errorf("eval on the redacted recording: %d %s", status, stderr)
	}
	status, _, stderr = runCLI("study", "repair", dir)
	if status != 0 || !strings.Contains(stderr, "P-0000000000000005.jsonl: a recording without a key") || !strings.Contains(stderr, "export keeps it") ||
		!strings.Contains(stderr, "P-0000000000000006.jsonl: a recording without a key and without a consent on record") || !strings.Contains(stderr, "0 recording(s) repaired, 2 without a key") {
		t.Errorf("repair: %d\n%s", status, stderr)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "audit.jsonl"))
	if n := strings.Count(string(b), `"event":"admin"`); n != 2 || !strings.Contains(string(b), `"command":"study export"`) || !strings.Contains(string(b), `"command":"study repair","participants":["P-0000000000000005","P-0000000000000006"]`) {
		t.Errorf("the audit log:\n%s", b)
	}
}

// clear and repair refuse while a server uses the folder, with status 1
// (issue 36: clear deleted keys under a running server, leaving
// recordings without a key); list and export do not. A second server on
// the folder does not start.
func TestStudyCommandsLocked(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes the sample")
	}
	u, dir, _ := startStudyDemo(t)
	participantClient(t, u)
	for _, args := range [][]string{{"study", "clear", "--older", "0s", dir}, {"study", "clear", "--expired", dir}, {"study", "repair", dir}} {
		status, _, stderr := runCLI(args...)
		if status != 1 || !strings.Contains(stderr, "the study's folder is in use by readsim serve (process") {
			t.Errorf("%v: %d %s", args, status, stderr)
		}
	}
	if keys, _ := filepath.Glob(filepath.Join(dir, "P-*.json")); len(keys) != 1 {
		t.Errorf("keys %v, want the participant's", keys)
	}
	if status, _, stderr := runCLI("study", "list", dir); status != 0 {
		t.Errorf("list: %d %s", status, stderr)
	}
	if status, _, stderr := runCLI("study", "export", "--out", filepath.Join(t.TempDir(), "x"), dir); status != 0 {
		t.Errorf("export: %d %s", status, stderr)
	}
	cfg, _, _ := demoSetup(t, &syncBuffer{}, &syncBuffer{})
	status, _, stderr := runCLI("serve", "--index", cfg.Index, "--topics", cfg.Topics, "--qrels", cfg.Qrels, "--study", dir, "--addr", "127.0.0.1:0")
	if status != 1 || !strings.Contains(stderr, "the study's folder is in use by readsim serve") {
		t.Errorf("a second server on the folder: %d %s", status, stderr)
	}
}

// clear --expired deletes the recordings and keys of the participants
// whose consent text's retention date is past (the whole day over),
// keeps those of a text with a date to come, and warns of a text without
// a date; the audit log keeps their consents.
func TestStudyClearExpired(t *testing.T) {
	past := "Title: t\nResearcher: r\nContact: c\nEthics: e\nRetention: kept until 2020-01-31, then deleted\n"
	future := strings.Replace(past, "2020-01-31", "2999-12-31", 1)
	none := strings.Replace(past, "kept until 2020-01-31, then deleted", "five years", 1)
	h := func(s string) string { b := sha256.Sum256([]byte(s)); return hex.EncodeToString(b[:]) }
	rec := `{"ev":"topic","topic":"2026001","seq":1,"t":0}` + "\n"
	dir := studyFolder(t, map[string]string{
		"P-0000000000000001.json":            studyKey(1, "2019-11-26T09:00:00Z", h(past), []string{"2026001"}, ""),
		"P-0000000000000001.jsonl":           rec,
		"P-0000000000000002.json":            studyKey(2, "2019-11-26T09:00:00Z", h(past), []string{"2026001"}, ""),
		"P-0000000000000003.json":            studyKey(3, "2026-11-26T09:00:00Z", h(future), []string{"2026001"}, ""),
		"P-0000000000000003.jsonl":           rec,
		"P-0000000000000004.json":            studyKey(4, "2026-11-26T09:00:00Z", h(none), []string{"2026001"}, ""),
		"P-0000000000000004.jsonl":           rec,
		"consent-" + h(past)[:16] + ".txt":   past,
		"consent-" + h(future)[:16] + ".txt": future,
		"consent-" + h(none)[:16] + ".txt":   none,
	})
	status, _, stderr := runCLI("study", "clear", "--expired", dir)
	if status != 0 || !strings.Contains(stderr, "cleared P-0000000000000001: past the retention date") || !strings.Contains(stderr, "cleared P-0000000000000002") ||
		!strings.Contains(stderr, "consent-"+h(none)[:16]+".txt gives no retention date") || !strings.Contains(stderr, "2 participant(s) past their retention date cleared") {
		t.Errorf("clear --expired: %d\n%s", status, stderr)
	}
	for name, want := range map[string]bool{"P-0000000000000001.json": false, "P-0000000000000001.jsonl": false, "P-0000000000000002.json": false,
		"P-0000000000000003.json": true, "P-0000000000000003.jsonl": true, "P-0000000000000004.jsonl": true} {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
			t.Errorf("after clear --expired, %s there: %v, want %v", name, err == nil, want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "audit.jsonl")); !strings.Contains(string(b), `"command":"study clear --expired","participants":["P-0000000000000001","P-0000000000000002"]`) {
		t.Errorf("the audit log: %s", b)
	}
	for _, args := range [][]string{{"study", "clear", "--expired", "--older", "1h", dir}, {"study", "list", "--expired", dir}, {"study", "list", "--redact-queries", dir}} {
		if status, _, stderr := runCLI(args...); status != 2 || stderr == "" {
			t.Errorf("%v: %d %s", args, status, stderr)
		}
	}
}

// A study assigns only the topics with a judged article in the index and
// says so at start (issue 36: 120 topics were assigned when 1 had one):
// judgments by hand judge 2026001 on article 999999 only, which the
// sample does not have, and 2026002 on 1001, which it has; every
// participant gets 2026002 alone. Start-up warns of the built-in consent
// text, and of a consent text past its retention date or without one,
// and of a folder holding consents past theirs.
func TestServeStudyStartUp(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes the sample")
	}
	cfg, _, tmp := demoSetup(t, &syncBuffer{}, &syncBuffer{})
	cfg.Study = filepath.Join(tmp, "study")
	cfg.Qrels = filepath.Join(tmp, "q.qrels")
	os.WriteFile(cfg.Qrels, []byte("2026001 Q0 999999 10 100 0 0:10\n2026002 Q0 1001 10 4621 0 0:10\n"), 0o644)
	stderr := &syncBuffer{}
	u := serveLoopback(t, &cli.Env{Stdout: &syncBuffer{}, Stderr: stderr}, cfg, app.Listen{RatePerSecond: -1})
	for _, want := range []string{"reading study: 1 of 2 topics have a judged article in the index, and only those are assigned",
		"reading study at /study: 1 topics, 1 per participant", "warning: the study runs on the built-in consent text"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("start-up lacks %q:\n%s", want, stderr)
		}
	}
	for range 2 {
		page := studyPageOf(t, participantClient(t, u), u)
		if !strings.Contains(page, `data-topic="2026002"`) {
			t.Errorf("a participant's topic is not 2026002:\n%s", page)
		}
	}
	// consent texts: one past its date, one without a date; a folder
	// whose participant agreed to a text past its date
	text := "Title: t\nResearcher: r\nContact: c\nEthics: e\nRetention: until 2020-01-31\n"
	for _, tc := range []struct{ text, want string }{
		{text, "the retention date 2020-01-31 is past"},
		{strings.Replace(text, "until 2020-01-31", "five years", 1), "the Retention field gives no date (YYYY-MM-DD)"},
		{strings.Replace(text, "2020-01-31", "2020-02-30", 1), "retention date 2020-02-30 is not a day of the calendar"},
	} {
		c := cfg
		c.Study = filepath.Join(t.TempDir(), "study")
		c.Consent = filepath.Join(t.TempDir(), "consent.md")
		os.WriteFile(c.Consent, []byte(tc.text), 0o644)
		if strings.Contains(tc.want, "calendar") {
			status, _, stderr := runCLI("serve", "--index", c.Index, "--topics", c.Topics, "--study", c.Study, "--consent", c.Consent, "--addr", "127.0.0.1:0")
			if status != 2 || !strings.Contains(stderr, "consent.md:5: retention date 2020-02-30") {
				t.Errorf("a date that is no day: %d %s", status, stderr)
			}
			continue
		}
		stderr := &syncBuffer{}
		serveLoopback(t, &cli.Env{Stdout: &syncBuffer{}, Stderr: stderr}, c, app.Listen{RatePerSecond: -1})
		if !strings.Contains(stderr.String(), tc.want) || strings.Contains(stderr.String(), "built-in consent") {
			t.Errorf("start-up lacks %q:\n%s", tc.want, stderr)
		}
	}
	sum := sha256.Sum256([]byte(text))
	h := hex.EncodeToString(sum[:])
	dir := studyFolder(t, map[string]string{"P-0000000000000001.json": studyKey(1, "2019-01-01T00:00:00Z", h, []string{"2026002"}, ""), "consent-" + h[:16] + ".txt": text})
	c := cfg
	c.Study = dir
	stderr = &syncBuffer{}
	serveLoopback(t, &cli.Env{Stdout: &syncBuffer{}, Stderr: stderr}, c, app.Listen{RatePerSecond: -1})
	if want := filepath.Join(dir, "consent-"+h[:16]+".txt") + ": 1 participant(s) agreed to keep their recordings until 2020-01-31, now past: readsim study clear --expired"; !strings.Contains(stderr.String(), want) {
		t.Errorf("start-up lacks %q:\n%s", want, stderr)
	}
}

// calibrate --by participant on two recordings made by hand: the
// participant who left after three screens of 100 non-relevant
// characters, in three articles, has the tolerance 250 (201–300, as
// scenario's TestCalibrateByParticipant works out), the one who read to
// the end more than 200; the table and the JSON say so; --by takes
// participant only.
func TestCalibrateByParticipantCommand(t *testing.T) {
	dir := t.TempDir()
	q := filepath.Join(dir, "q.qrels")
	os.WriteFile(q, []byte("T Q0 a1 1 1000 0 999:1\nT Q0 a2 1 1000 0 999:1\nT Q0 a3 1 1000 0 999:1\nT Q0 b1 1 300 0 299:1\nT Q0 b2 1 300 0 299:1\nT Q0 b3 1 300 0 299:1\n"), 0o644)
	write := func(pid string, docs []string, end string) string {
		var b strings.Builder
		seq := 0
		ev := func(s string) {
			seq++
			fmt.Fprintf(&b, `{%s,"topic":"T","seq":%d,"t":%d,"source":"recorded"}`+"\n", s, seq, 100*seq)
		}
		ev(`"ev":"topic","run":"` + pid + `"`)
		for _, d := range docs {
			ev(`"ev":"open","doc":"` + d + `","rank":1`)
			for from := 0; from < 300; from += 100 {
				ev(fmt.Sprintf(`"ev":"read","doc":%q,"from":%d,"to":%d`, d, from, from+100))
			}
			ev(`"ev":"stop","doc":"` + d + `"` + end)
		}
		ev(`"ev":"done","outcome":"gave up"`)
		path := filepath.Join(dir, pid+".jsonl")
		os.WriteFile(path, []byte(b.String()), 0o644)
		return path
	}
	a := write("P-000000000000000a", []string{"a1", "a2", "a3"}, "")
	c := write("P-000000000000000c", []string{"b1", "b2", "b3"}, `,"reason":"end"`)
	status, out, errs := runCLI("calibrate", "--qrels", q, "--by", "participant", a, c)
	if status != 0 || !regexp.MustCompile(`P-000000000000000a\s+3\s+0\s+250\s+201–300`).MatchString(out) ||
		!regexp.MustCompile(`P-000000000000000c\s+3\s+3\s+more than 200\s+more than 200, no upper bound`).MatchString(out) {
		t.Errorf("calibrate --by participant: %d\n%s%s", status, out, errs)
	}
	status, out, _ = runCLI("calibrate", "--qrels", q, "--by", "participant", "--format", "json", a, c)
	if status != 0 || !strings.Contains(out, `"participant": "P-000000000000000a"`) || !strings.Contains(out, `"t2i_more_than": 200`) {
		t.Errorf("calibrate --by participant --format json: %d\n%s", status, out)
	}
	if status, _, errs := runCLI("calibrate", "--qrels", q, "--by", "topic", a); status != 2 || !strings.Contains(errs, `--by "topic"`) {
		t.Errorf("--by topic: %d %s", status, errs)
	}
}
