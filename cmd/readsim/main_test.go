package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/internal/cli"
)

// runCLI runs a readsim command line in-process and returns its exit status and
// what it printed.
func runCLI(args ...string) (status int, stdout, stderr string) {
	var o, e bytes.Buffer
	status = program.Run(&cli.Env{Stdout: &o, Stderr: &e}, args)
	return status, o.String(), e.String()
}

// The commands of ../shared/spec/cli.md, plus assess (the judgments tool),
// measures (the catalogue of measures) and calibrate (fitting the reader to
// recorded readings).
var cliCommands = []string{"demo", "index", "search", "run", "eval", "compare", "replay", "fidelity", "inspect", "render", "serve", "assess", "measures", "calibrate", "study", "trec_eval", "rows"}

// checkText reports each of want that text (named what) lacks and each of
// not that it holds.
func checkText(t *testing.T, what, text string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s %q lacks %q", what, text, w)
		}
	}
	for _, w := range not {
		if strings.Contains(text, w) {
			t.Errorf("%s %q holds %q", what, text, w)
		}
	}
}

func TestEveryCommandAnswersHelp(t *testing.T) {
	for _, name := range cliCommands {
		for _, h := range []string{"-h", "--help"} {
			t.Run(name+h, func(t *testing.T) {
				status, stdout, stderr := runCLI(name, h)
				if status != 0 {
					t.Errorf("exit %d, want 0; stderr:\n%s", status, stderr)
				}
				if !strings.HasPrefix(stdout, "usage: readsim "+name) {
					t.Errorf("stdout has no usage line:\n%s", stdout)
				}
				if stderr != "" {
					t.Errorf("help went to stderr: %q", stderr)
				}
			})
		}
	}
	if len(program.Commands) != len(cliCommands) {
		t.Errorf("%d commands registered, want the %d of cli.md, assess, measures, calibrate, study, trec_eval and rows", len(program.Commands), len(cliCommands))
	}
}

// A command's usage line and its list of flags spell each flag the same
// way (cli.FlagName: -m, --qrels), and the usage line names only flags the
// command has. trec_eval, which parses trec_eval's options itself, is
// checked by its own tests.
func TestUsageSpellsFlagsAsTheList(t *testing.T) {
	flagWord := regexp.MustCompile(`(?:^|[\s\[(|])(--?[A-Za-z][\w-]*)`)
	for _, name := range cliCommands {
		if name == "trec_eval" {
			continue
		}
		_, stdout, _ := runCLI("help", name)
		usage, list, _ := strings.Cut(stdout, "\nflags:\n")
		usage, _, _ = strings.Cut(usage, "\n")
		listed := map[string]bool{}
		for _, line := range strings.Split(list, "\n") {
			if f, ok := strings.CutPrefix(line, "  -"); ok {
				listed["-"+strings.FieldsFunc(f, func(r rune) bool { return r == ' ' || r == '\t' })[0]] = true
			}
		}
		if len(listed) == 0 {
			t.Errorf("help %s lists no flags:\n%s", name, stdout)
		}
		for _, m := range flagWord.FindAllStringSubmatch(usage, -1) {
			if !listed[m[1]] {
				t.Errorf("%s: the usage line's %s is not in the list of flags %v", name, m[1], listed)
			}
		}
	}
}

// commands.txt gives every command its synopsis and summary.
func TestCommandsText(t *testing.T) {
	for name, c := range program.Commands {
		if c.Name != name || c.Synopsis == "" || c.Summary == "" || c.Run == nil {
			t.Errorf("command %s: name %q, synopsis %q, summary %q", name, c.Name, c.Synopsis, c.Summary)
		}
	}
}

// A command's help says what a user needs and names no document outside
// the repository (the specification's files are not in it).
func TestHelpContents(t *testing.T) {
	for _, tc := range []struct {
		cmd       string
		want, not []string
	}{
		// eval's defaults are listed, from the registry
		{"eval", append(append(append([]string{"\n  -q\tprint every topic's value", "\n  --digits N", "--doc-baseline\n", "N from 0 to 17"}, effort.DefaultNames...), effort.DocumentNames...), effort.GenomicsNames...),
			[]string{"-q all", "the eleven"}},
		{"compare", append([]string{"\n  --digits N"}, effort.DefaultNames...), []string{"the eleven", "num_rel_ret"}},
		// assess describes the highlights format
		{"assess", []string{"topic 2026001", "article 1001", "> an exact quote", `"A ... B"`, "judged non-relevant", "offset:length"}, nil},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			_, stdout, _ := runCLI("help", tc.cmd)
			checkText(t, "help "+tc.cmd, stdout, tc.want, tc.not)
		})
	}
	for _, name := range cliCommands {
		_, stdout, _ := runCLI("help", name)
		for _, doc := range []string{"cli.md", "measures.md", "formats.md", "scenario.md"} {
			if strings.Contains(stdout, doc) {
				t.Errorf("help %s refers to %s, which is not in the repository", name, doc)
			}
		}
	}
}

func TestTopLevelUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"help"}, "usage: readsim COMMAND"},
		{[]string{"-h"}, "usage: readsim COMMAND"},
		{[]string{"help", "compare"}, "usage: readsim compare"},
		{[]string{"trec_eval", "-h"}, "usage: readsim trec_eval"},
		{[]string{"help", "trec_eval"}, "usage: readsim trec_eval"},
	} {
		status, stdout, stderr := runCLI(tc.args...)
		if status != 0 || !strings.HasPrefix(stdout, tc.want) || stderr != "" {
			t.Errorf("readsim %v: exit %d, stdout %.40q, stderr %q; want exit 0, stdout starting %q", tc.args, status, stdout, stderr, tc.want)
		}
	}
	tests := []struct {
		args   []string
		status int
		want   string
	}{
		{nil, 2, "usage: readsim COMMAND"},
		{[]string{"help", "nosuch"}, 2, `unknown command "nosuch"`},
		{[]string{"nosuch"}, 2, `unknown command "nosuch"`},
		{[]string{"inspect"}, 2, "want exactly one article file"},
		{[]string{"inspect", "--nosuchflag", "x.xml"}, 2, "flag provided but not defined"},
		{[]string{"inspect", "no/such/file.xml"}, 2, "no/such/file.xml"},
		{[]string{"assess", "h.txt"}, 2, "want --articles DIR"},
	}
	for _, tc := range tests {
		status, stdout, stderr := runCLI(tc.args...)
		if status != tc.status || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("readsim %v: exit %d, stdout %.40q, stderr %q; want exit %d, nothing on stdout, stderr containing %q", tc.args, status, stdout, stderr, tc.status, tc.want)
		}
	}
}

func TestVersion(t *testing.T) {
	status, stdout, _ := runCLI("version")
	if status != 0 || !strings.HasPrefix(stdout, "readsim ") || !strings.Contains(stdout, "go1.") {
		t.Errorf("version: exit %d, %q", status, stdout)
	}
}

func TestInspect(t *testing.T) {
	// "Fresnel" 0-7 in title; p: "A " 7-9, b "lens" 9-13, "." 13-14
	dir := t.TempDir()
	path := dir + "/odd name é (1).xml"
	mustWriteFile(t, path, `<article><header><title>Fresnel</title></header><bdy><p>A <b>lens</b>.</p></bdy></article>`)
	status, stdout, stderr := runCLI("inspect", path)
	want := "14\n/article[1]\t0\t14\n/article[1]/header[1]\t0\t7\n/article[1]/header[1]/title[1]\t0\t7\n" +
		"/article[1]/bdy[1]\t7\t14\n/article[1]/bdy[1]/p[1]\t7\t14\n/article[1]/bdy[1]/p[1]/b[1]\t9\t13\n"
	if status != 0 || stdout != want {
		t.Errorf("exit %d, stdout\n%s\nwant\n%s\nstderr: %s", status, stdout, want, stderr)
	}
	bad := dir + "/bad.xml"
	mustWriteFile(t, bad, "<article>\n<p>unclosed\n</article>")
	status, _, stderr = runCLI("inspect", bad)
	if status != 2 || !strings.Contains(stderr, bad+":3") {
		t.Errorf("bad article: exit %d, stderr %q; want 2 naming %s:3", status, stderr, bad)
	}
}

func mustWriteFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A request the library cannot take (scenario.RequestError) and a measure
// the use cannot give (scenario.MeasureError) are bad usage: exit status
// 2, the problem and the command's usage line, nothing on stdout.
func TestLibraryUsageErrors(t *testing.T) {
	q := "../../corpus-sample/judgments.qrels"
	r := "../../corpus-sample/runs/ric.fol"
	trec := filepath.Join(t.TempDir(), "trec.qrels")
	mustWriteFile(t, trec, "2026001 0 1001 1\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "--qrels", q, "--order", "sideways", r}, `readsim eval: unknown reading order "sideways"`},
		{[]string{"compare", "--qrels", q, "-m", "num_rel_ret", "--doc-baseline", r}, "readsim compare: num_rel_ret: an official count; compare compares per-topic scores"},
		{[]string{"replay", "--qrels", q, "--run", r, "--topic", "nosuch"}, "readsim replay: topic nosuch is not in both the run"},
		{[]string{"serve", "--qrels", q}, "readsim serve: --index is required (or --qrels with --run"},
		// found while evaluating: a measure of characters on judgments of
		// whole documents; a simulated reader on judgments without lengths
		{[]string{"eval", "--qrels", trec, "-m", "AgP", "../../corpus-sample/runs/doc.trec"}, `readsim eval: AgP\F(0.25): needs judgments of characters`},
		{[]string{"fidelity", "--qrels", "../../corpus-sample/spans/judgments.txt"}, "readsim fidelity: ../../corpus-sample/spans/judgments.txt: span judgments give no document lengths"},
	} {
		status, stdout, stderr := runCLI(tc.args...)
		if status != 2 || stdout != "" || !strings.HasPrefix(stderr, tc.want) || !strings.Contains(stderr, "\nusage: readsim "+tc.args[0]+" ") {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want 2 and %q with the usage line", tc.args, status, stdout, stderr, tc.want)
		}
	}
}
