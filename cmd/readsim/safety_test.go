package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/readsim/readsim/internal/app"
	"github.com/readsim/readsim/internal/cli"
)

// A collection holding a FIFO named like an article and a file named .xml
// alone: index builds the rest and names both (a .xml aborted the build
// with "document ID cannot be empty", naming no file; the FIFO went
// unsaid), render, eval and assess warn of them, and an article whose
// DOCTYPE names /etc/passwd is read without opening it, with a warning.
func TestCollectionSpecialEntries(t *testing.T) {
	dir := t.TempDir()
	arts := filepath.Join(dir, "articles")
	mustMkdir(t, filepath.Join(arts, "en"))
	mustWriteFile(t, filepath.Join(arts, "en", "1.xml"), `<!DOCTYPE article SYSTEM "/etc/passwd"><article><header><title>One</title></header><bdy><p>lens &eacute;</p></bdy></article>`)
	mustWriteFile(t, filepath.Join(arts, ".xml"), `<article><p>no name</p></article>`)
	fifo := filepath.Join(arts, "en", "2.xml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	hl := filepath.Join(dir, "hl")
	mustWriteFile(t, hl, "topic 1\narticle 1\n> lens\n")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"index", []string{"index", "--articles", arts, "--index", filepath.Join(dir, "idx")}},
		{"render", []string{"render", "--articles", arts, "1"}},
		{"assess", []string{"assess", "--articles", arts, hl}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, stderr := runCLI(tc.args...)
			if status != 0 {
				t.Fatalf("exit %d: %s", status, stderr)
			}
			checkText(t, "stderr", stderr, []string{
				fifo + ": named like an article but a FIFO, not a regular file",
				filepath.Join(arts, ".xml") + ": an article file needs a name before .xml",
				`its DTD "/etc/passwd" is not read: /etc/passwd is an absolute path`,
			}, []string{"root:"})
		})
	}
}

func mustMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// An --out that is a FIFO is written into as a stream and stays a FIFO
// (replay, run and assess renamed a regular file over it, as they did
// over /dev/null run as root); each command's output reaches its reader.
func TestOutIntoFIFO(t *testing.T) {
	qrels, run := simFiles(t)
	dir := t.TempDir()
	hl := filepath.Join(dir, "hl")
	mustWriteFile(t, hl, "topic 2026001\narticle 1101\n> is a brewed drink prepared from the roasted seeds\n")
	for _, tc := range []struct {
		name string
		args []string
		want string // in what the reader gets
	}{
		{"replay", []string{"replay", "--qrels", qrels, "--run", run}, `"ev":"topic"`},
		{"assess", []string{"assess", "--articles", "../../corpus-sample/articles", hl}, "2026001"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fifo := filepath.Join(dir, tc.name+".fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skip("no FIFO here:", err)
			}
			got := make(chan string, 1)
			go func() { b, _ := os.ReadFile(fifo); got <- string(b) }()
			status, _, stderr := runCLI(append(tc.args, "--out", fifo)...)
			if status != 0 {
				t.Fatalf("exit %d: %s", status, stderr)
			}
			select {
			case s := <-got:
				if !strings.Contains(s, tc.want) {
					t.Errorf("the FIFO's reader got %.200q, want %q in it", s, tc.want)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the FIFO's reader got nothing")
			}
			if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
				t.Errorf("%s is no longer a FIFO: %v", fifo, err)
			}
		})
	}
}

// An output inside a folder the command reads is refused by name, with
// exit status 2, before anything is read or written (assess --out naming
// an article replaced the user's article).
func TestOutInsideInputFolder(t *testing.T) {
	dir := t.TempDir()
	arts := filepath.Join(dir, "articles")
	mustMkdir(t, filepath.Join(arts, "en"))
	art := filepath.Join(arts, "en", "1.xml")
	const text = `<article><bdy><p>lens</p></bdy></article>`
	mustWriteFile(t, art, text)
	link := filepath.Join(dir, "via")
	if err := os.Symlink(arts, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	hl := filepath.Join(dir, "hl")
	mustWriteFile(t, hl, "topic 1\narticle 1\n> lens\n")
	idx, study := filepath.Join(dir, "idx"), filepath.Join(dir, "study")
	mustMkdir(t, idx)
	mustMkdir(t, study)
	topics := filepath.Join(dir, "topics")
	mustWriteFile(t, topics, "1 lens\n")
	qrels, _ := simFiles(t)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"assess over an article", []string{"assess", "--articles", arts, "--out", art, hl}, art + ": inside the articles folder " + arts},
		{"assess through a link", []string{"assess", "--articles", arts, "--out", filepath.Join(link, "en", "1.xml"), hl}, "inside the articles folder"},
		{"assess into the folder itself", []string{"assess", "--articles", link, "--out", filepath.Join(arts, "new.qrels"), hl}, "inside the articles folder " + link},
		{"run into the index", []string{"run", "--index", idx, "--topics", topics, "--out", filepath.Join(idx, "run.fol")}, "inside the index folder " + idx},
		{"study export into the study", []string{"study", "export", "--out", filepath.Join(study, "export"), study}, "inside the study folder " + study},
		{"serve recording into the index", []string{"serve", "--index", idx, "--topics", topics, "--study", filepath.Join(idx, "s")}, "inside the index folder " + idx},
		{"fidelity charts into the articles", []string{"fidelity", "--qrels", qrels, "--articles", arts, "--plot", filepath.Join(arts, "charts")}, "inside the articles folder " + arts},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, stderr := runCLI(tc.args...)
			if status != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", status, stderr, tc.want)
			}
			if b, _ := os.ReadFile(art); string(b) != text {
				t.Errorf("the article was overwritten: %q", b)
			}
		})
	}
}

// serve --topics F without --qrels read nothing of F and started whatever
// F was: now F is read and refused as with judgments, or, when good,
// said to be unused.
func TestServeTopicsWithoutQrels(t *testing.T) {
	_, idx := cmdIndex(t)
	dir := t.TempDir()
	utf16 := filepath.Join(dir, "u16.xml")
	mustWriteFile(t, utf16, "\xff\xfe<\x00t\x00")
	good := filepath.Join(dir, "good.txt")
	mustWriteFile(t, good, "1 coffee\n")
	for _, tc := range []struct {
		name, topics, want string
	}{
		{"missing", filepath.Join(dir, "nope.xml"), filepath.Join(dir, "nope.xml")},
		{"a folder", dir, dir + ": a folder"},
		{"UTF-16", utf16, "UTF-16"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := startServeErr(t, app.ServeConfig{Index: idx, Topics: tc.topics})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want one naming %q", err, tc.want)
			}
			if cli.InputStatus(err) != 2 {
				t.Errorf("exit status %d, want 2", cli.InputStatus(err))
			}
		})
	}
	var warned []string
	a, err := app.Assemble(app.ServeConfig{Index: idx, Topics: good, Warn: func(s string) { warned = append(warned, s) }})
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	if !strings.Contains(strings.Join(warned, "\n"), "--topics "+good+" is not used without --qrels") {
		t.Errorf("warnings %q, want one saying the topics are not used", warned)
	}
}

// Messages name the files they are about: calibrate on readings that
// share no topic with the judgments, or hold only a topic event, said
// neither the readings nor the judgments.
func TestMessagesNameTheirFiles(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.qrels")
	mustWriteFile(t, other, "9 Q0 zz 10 100 0 0:10\n")
	only := filepath.Join(dir, "only.jsonl")
	mustWriteFile(t, only, `{"ev":"topic","topic":"2026001","seq":1,"t":0,"source":"recorded"}`+"\n")
	sample := "../../corpus-sample/judgments.qrels"
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"calibrate, no shared topic", []string{"calibrate", "--qrels", other, only}, []string{only + ": the readings share no topic with the judgments " + other}},
		{"calibrate, only a topic event", []string{"calibrate", "--qrels", sample, only}, []string{only + ": no judged article", "judgments " + sample}},
		{"eval --offsets bytes on INEX judgments", []string{"eval", "--qrels", sample, "--offsets", "bytes", "../../corpus-sample/runs/ric.fol"}, []string{sample + ": INEX judgments count characters: --offsets bytes is for span judgments"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, stderr := runCLI(tc.args...)
			if status != 2 {
				t.Errorf("exit %d, want 2", status)
			}
			checkText(t, "stderr", stderr, tc.want, nil)
		})
	}
}

// An error in a topic is found when the topic has been read, not after
// the whole run: a run repeating its first result on line 2, with a broken
// line 5,000 lines on, is refused for line 2 (it was refused for the broken
// line, after reading everything: a 20-million-line gzip run took 115 s
// and 4.3 GB to say so). With --merge-overlaps the repeat is no error and
// the broken line is.
func TestRunErrorsFoundWhenRead(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "dup.run")
	var b strings.Builder
	b.WriteString("1 Q0 a 1 1.0 r 0 10\n1 Q0 a 2 0.9 r 0 10\n")
	for i := 2; i < 5000; i++ {
		b.WriteString("2 Q0 d" + strings.Repeat("x", i%7) + " 1 1.0 r 0 10\n")
	}
	b.WriteString("broken\n")
	mustWriteFile(t, run, b.String())
	qrels := filepath.Join(dir, "q")
	mustWriteFile(t, qrels, "1 Q0 a 10 100 0 0:10\n2 Q0 d 10 100 0 0:10\n")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"eval", []string{"eval", "--qrels", qrels, run}, run + ":2: topic 1, article a: this result repeats the one at line 1"},
		{"compare", []string{"compare", "--qrels", qrels, run, run}, run + ":2: topic 1, article a: this result repeats"},
		{"eval --merge-overlaps", []string{"eval", "--qrels", qrels, "--merge-overlaps", run}, run + ":5001:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, stderr := runCLI(tc.args...)
			if status != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", status, stderr, tc.want)
			}
		})
	}
}
