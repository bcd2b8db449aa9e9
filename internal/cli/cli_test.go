package cli

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		args []string
		pos  []string
		n    int    // -n
		v    bool   // -v
		err  string // a usage error holding this
		help bool   // flag.ErrHelp
	}{
		{args: nil, pos: nil},
		{args: []string{"a", "b"}, pos: []string{"a", "b"}},
		{args: []string{"-n", "3", "a"}, pos: []string{"a"}, n: 3},
		{args: []string{"a", "-n", "3", "b", "-v"}, pos: []string{"a", "b"}, n: 3, v: true},
		{args: []string{"a", "--", "-n", "3"}, pos: []string{"a", "-n", "3"}},
		{args: []string{"-v", "--", "--", "b"}, pos: []string{"--", "b"}, v: true},
		{args: []string{"a", "-x"}, err: "flag provided but not defined: -x"},
		{args: []string{"-n", "three"}, err: `invalid value "three" for flag -n`},
		{args: []string{"a", "-h"}, help: true},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			fs := flag.NewFlagSet("x", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			n, v := fs.Int("n", 0, ""), fs.Bool("v", false, "")
			pos, err := Parse(fs, tc.args)
			var ue *UsageError
			switch {
			case tc.help:
				if !errors.Is(err, flag.ErrHelp) {
					t.Errorf("error %v, want flag.ErrHelp", err)
				}
			case tc.err != "":
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want a usage error with %q", err, tc.err)
				}
			case err != nil:
				t.Fatal(err)
			case !slices.Equal(pos, tc.pos) || *n != tc.n || *v != tc.v:
				t.Errorf("positional %q, -n %d, -v %v; want %q, %d, %v", pos, *n, *v, tc.pos, tc.n, tc.v)
			}
		})
	}
}

// testProgram has three commands: "greet [--loud] [-n N] NAME", "fail
// KIND" and "own [-h]", which parses its arguments itself and prints its
// help on Env.Stdout.
func testProgram() *Program {
	p := &Program{
		Name: "tool",
		Commands: map[string]*Command{
			"greet": {Details: "Greets by name.", Run: func(e *Env, fs *flag.FlagSet, args []string) error {
				loud := fs.Bool("loud", false, "shout")
				fs.Int("n", 1, "greet `N` times")
				fs.String("to", "world", "whom to greet")
				pos, err := Parse(fs, args)
				if err != nil {
					return err
				}
				if len(pos) != 1 {
					return Usagef("want one NAME, not %d", len(pos))
				}
				s := "hello " + pos[0]
				if *loud {
					s = strings.ToUpper(s)
				}
				io.WriteString(e.Stdout, s+"\n")
				return nil
			}},
			"fail": {Run: func(e *Env, fs *flag.FlagSet, args []string) error {
				return errors.New(args[0])
			}},
			"own": {Run: func(e *Env, _ *flag.FlagSet, args []string) error {
				if len(args) > 0 && args[0] == "-h" {
					io.WriteString(e.Stdout, "own's help\n")
					return nil
				}
				io.WriteString(e.Stderr, "own: working\n")
				return nil
			}},
		},
		Footer: "See the manual.",
		Status: func(err error) int {
			if err.Error() == "bad input" {
				return 2
			}
			return 1
		},
		BadUsage: func(err error) bool { return err.Error() == "bad request" },
	}
	if err := p.Describe("# the commands\ngreet [--loud] [-n N] NAME\n\tsay hello\n\nfail KIND\n\tfail as told\nown [-h]\n\tits own help\n"); err != nil {
		panic(err)
	}
	return p
}

func TestRun(t *testing.T) {
	const list = "usage: tool COMMAND [flags] [arguments]\n\ncommands:\n" +
		"  fail      fail as told\n" +
		"  greet     say hello\n" +
		"  own       its own help\n" +
		"  help      tool help COMMAND: a command's arguments and flags\n" +
		"  version   tool's version, commit and Go version\n" +
		"\nSee the manual.\n"
	// the flags in the order of their names, each spelt as in the usage
	// line (--loud, -n), the defaults that are not zero values (a string
	// quoted), a placeholder in back quotes named in the list
	const greetHelp = "usage: tool greet [--loud] [-n N] NAME\n\nsay hello\n\nGreets by name.\n\nflags:\n" +
		"  --loud\n    \tshout\n" +
		"  -n N\n    \tgreet N times (default 1)\n" +
		"  --to string\n    \twhom to greet (default \"world\")\n"
	const usageLine = "usage: tool greet [--loud] [-n N] NAME\n"
	for _, tc := range []struct {
		args           []string
		status         int
		stdout, stderr string
	}{
		// help asked for is on standard output; the list that answers no
		// command or an unknown one on standard error
		{nil, 2, "", list},
		{[]string{"help"}, 0, list, ""},
		{[]string{"--help"}, 0, list, ""},
		{[]string{"-h"}, 0, list, ""},
		{[]string{"nosuch"}, 2, "", "tool: unknown command \"nosuch\"\n\n" + list},
		{[]string{"help", "nosuch"}, 2, "", "tool: unknown command \"nosuch\"\n\n" + list},
		{[]string{"help", "greet"}, 0, greetHelp, ""},
		{[]string{"greet", "-h"}, 0, greetHelp, ""},
		{[]string{"greet", "ann", "--help"}, 0, greetHelp, ""},
		// a command that prints its own help: on standard output when asked
		{[]string{"help", "own"}, 0, "own's help\n", ""},
		{[]string{"own", "-h"}, 0, "own's help\n", ""},
		{[]string{"own"}, 0, "", "own: working\n"},
		{[]string{"own", "--", "-h"}, 0, "", "own: working\n"},
		{[]string{"greet", "ann", "-loud"}, 0, "HELLO ANN\n", ""},
		{[]string{"greet"}, 2, "", "tool greet: want one NAME, not 0\n" + usageLine},
		// a bad flag is said once, with the usage line (not the whole help)
		{[]string{"greet", "-x", "ann"}, 2, "", "tool greet: flag provided but not defined: -x\n" + usageLine},
		{[]string{"fail", "broken"}, 1, "", "tool fail: broken\n"},
		{[]string{"fail", "bad input"}, 2, "", "tool fail: bad input\n"},
		// an error BadUsage tells is bad usage gets the usage line too
		{[]string{"fail", "bad request"}, 2, "", "tool fail: bad request\nusage: tool fail KIND\n"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := testProgram().Run(&Env{Stdout: &stdout, Stderr: &stderr}, tc.args)
			if status != tc.status || stdout.String() != tc.stdout || stderr.String() != tc.stderr {
				t.Errorf("status %d, stdout %q, stderr\n%s\nwant %d, %q,\n%s", status, stdout.String(), stderr.String(), tc.status, tc.stdout, tc.stderr)
			}
		})
	}
	var stdout bytes.Buffer
	if s := testProgram().Run(&Env{Stdout: &stdout, Stderr: io.Discard}, []string{"version"}); s != 0 || !strings.HasPrefix(stdout.String(), "tool devel") {
		t.Errorf("version: %d %q", s, stdout.String())
	}
}

func TestDescribe(t *testing.T) {
	for _, tc := range []struct{ text, err string }{
		{"greet X\n\tsummary\n", ""},
		{"\tsummary first\n", "line 1: a summary before any command"},
		{"# c\nnope ARGS\n", "line 2: no command nope"},
	} {
		err := testProgram().Describe(tc.text)
		if (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.err)
		}
	}
}

func TestVersionLine(t *testing.T) {
	set := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	for _, tc := range []struct {
		bi   *debug.BuildInfo
		want string
	}{
		{nil, "tool devel (no commit recorded)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "tool devel (no commit recorded)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "tool v1.2.3"},
		{&debug.BuildInfo{Settings: set("vcs.revision", "0123456789abcdef0123", "vcs.time", "2026-01-02T03:04:05Z")},
			"tool devel commit 0123456789ab (2026-01-02T03:04:05Z)"},
		{&debug.BuildInfo{Settings: set("vcs.revision", "abc", "vcs.modified", "true")}, "tool devel commit abc+changes"},
		{&debug.BuildInfo{Settings: set("vcs.time", "2026-01-02T03:04:05Z", "vcs.modified", "true")}, "tool devel (no commit recorded)"},
		// go build in a clone: a pseudo-version and the commit
		{&debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20260102030405-0123456789ab+dirty"},
			Settings: set("vcs.revision", "0123456789abcdef0123", "vcs.modified", "true")},
			"tool v0.0.0-20260102030405-0123456789ab+dirty commit 0123456789ab+changes"},
	} {
		if got := versionLine("tool", tc.bi); got != tc.want {
			t.Errorf("versionLine = %q, want %q", got, tc.want)
		}
	}
}

// A signal's exit status is the shell's: 128 + its number.
func TestSignalStatus(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGHUP, 129}, {syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		if got := signalStatus(tc.sig); got != tc.want {
			t.Errorf("%v: %d, want %d", tc.sig, got, tc.want)
		}
	}
}

func TestParseFlagsOnly(t *testing.T) {
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{nil, ""},
		{[]string{"-v"}, ""},
		{[]string{"-v", "a b", "c"}, `unexpected argument "a b"`},
		{[]string{"--", "-v"}, `unexpected argument "-v"`},
		{[]string{"-x"}, "flag provided but not defined: -x"},
	} {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.Bool("v", false, "")
		err := ParseFlagsOnly(fs, tc.args)
		var ue *UsageError
		if tc.err == "" && err != nil || tc.err != "" && (!errors.As(err, &ue) || err.Error() != tc.err) {
			t.Errorf("%q: error %v, want %q", tc.args, err, tc.err)
		}
	}
}

func TestCommaList(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want []string
	}{
		{"sec,p", []string{"sec", "p"}},
		{" sec , p ,, ", []string{"sec", "p"}},
		{",", nil},
		{"", nil},
	} {
		if got := CommaList(tc.s); !slices.Equal(got, tc.want) {
			t.Errorf("CommaList(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

func TestStrings(t *testing.T) {
	var s Strings
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.Var(&s, "r", "")
	if err := fs.Parse([]string{"-r", "a", "-r", "b,c"}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s, Strings{"a", "b,c"}) || s.String() != "a,b,c" {
		t.Errorf("%q, String %q", s, s.String())
	}
}

// Lines written at once from several goroutines stay whole.
func TestWarner(t *testing.T) {
	var b bytes.Buffer
	warn := Warner(&b)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				warn("a whole line")
			}
		})
	}
	wg.Wait()
	if want := strings.Repeat("a whole line\n", 800); b.String() != want {
		t.Errorf("%d bytes, want 800 whole lines", b.Len())
	}
}

// An invisible bar (no terminal) writes nothing; BytesBar draws nothing
// either.
func TestNewBarInvisible(t *testing.T) {
	var b bytes.Buffer
	bar := NewBar(&Env{Stderr: &b}, 10, "working", false)
	bar.Add(5)
	bar.Finish()
	progress, finish := BytesBar(&Env{Stderr: &b})
	finish()
	if b.Len() != 0 || progress != nil {
		t.Errorf("wrote %q, progress %v", b.String(), progress != nil)
	}
}

// On a terminal BytesBar draws its bar once progress starts, with the
// description, and clears it at the end (the bar redraws at most every
// 100 ms, so what it shows of the bytes is not asserted).
func TestBytesBar(t *testing.T) {
	var b bytes.Buffer
	progress, finish := BytesBar(&Env{Stderr: &b, StderrIsTerminal: true})
	if b.Len() != 0 {
		t.Fatalf("drawn before progress: %q", b.String())
	}
	progress(512, 2048, "parsing")
	finish()
	if out := b.String(); !strings.Contains(out, "parsing") || !strings.HasSuffix(out, "\r") {
		t.Errorf("bar %q lacks the description or is not cleared", out)
	}
}

func TestSoftMemoryLimit(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Setenv("GOMEMLIMIT", "")
	restore := SoftMemoryLimit(123 << 20)
	if got := debug.SetMemoryLimit(-1); got != 123<<20 {
		t.Errorf("limit %d, want %d", got, 123<<20)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != prev {
		t.Errorf("restored limit %d, want %d", got, prev)
	}
	t.Setenv("GOMEMLIMIT", "1GiB") // the user's: left alone
	SoftMemoryLimit(5 << 20)()
	if got := debug.SetMemoryLimit(-1); got != prev {
		t.Errorf("limit %d with GOMEMLIMIT set, want %d", got, prev)
	}
}

// Once what is live passes three quarters of the soft limit, the limit is
// lifted: the collector would otherwise run without pause (1 million
// topics: 53 s of CPU instead of 15). It stayed before.
func TestSoftMemoryLimitLifted(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Setenv("GOMEMLIMIT", "")
	const n = 8 << 20
	restore := SoftMemoryLimit(n)
	defer restore()
	live := make([][]byte, 0, 32)
	for range 32 {
		live = append(live, make([]byte, 1<<20)) // 32 MiB kept live
	}
	lifted := false
	for i := 0; i < 200 && !lifted; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		lifted = debug.SetMemoryLimit(-1) == prev
	}
	runtime.KeepAlive(live)
	if !lifted {
		t.Errorf("limit %d with 32 MiB live, want it lifted to %d", debug.SetMemoryLimit(-1), prev)
	}
}
