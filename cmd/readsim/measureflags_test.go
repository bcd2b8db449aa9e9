package main

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/internal/cli"
)

func TestMeasureFlags(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		order effort.Order
		ms    string // canonical names, comma-separated
		err   string // usage error
	}{
		{name: "defaults", args: []string{"--qrels", "q"}, order: effort.Natural, ms: strings.Join(effort.DefaultNames, ",")},
		{name: "order and measures", args: []string{"--qrels", "q", "--order", "best", "-m", "AgP", "-m", "AP"}, order: effort.Best, ms: `AgP\F(0.25),AP`},
		{name: "repeat dropped", args: []string{"--qrels", "q", "-m", `AgP\F(0.25)`, "-m", "AgP"}, ms: `AgP\F(0.25)`},
		{name: "no qrels", args: []string{"--order", "x"}, err: "--qrels is required"},
		{name: "bad order", args: []string{"--qrels", "q", "--order", "x", "--compat", "y"}, err: `unknown reading order "x"`},
		{name: "bad compat", args: []string{"--qrels", "q", "--compat", "y", "-m", "nope"}, err: `unknown --compat "y" (only inex)`},
		{name: "bad measure", args: []string{"--qrels", "q", "-m", "nope"}, err: `unknown measure "nope"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("x", flag.ContinueOnError)
			fs.SetOutput(new(bytes.Buffer))
			f := addMeasureFlags(fs, "m", compatUsage).addOverlapFlags(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			o, ms, err := f.check(effort.DefaultNames)
			if tc.err != "" {
				var u *cli.UsageError
				if !errors.As(err, &u) || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want a usage error with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, m := range ms {
				names = append(names, m.String())
			}
			if o != tc.order || strings.Join(names, ",") != tc.ms {
				t.Errorf("order %v, measures %v; want %v, %s", o, names, tc.order, tc.ms)
			}
			if f.group || f.merge || f.config(0).CompatINEX {
				t.Error("--group, --merge-overlaps or --compat set by default")
			}
		})
	}
}
