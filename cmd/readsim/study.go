package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/web"
)

// runStudy implements `readsim study ACTION DIR`: the study folder's
// administration (web/studyadmin.go, web/studyexport.go). list prints one
// line per participant; clear deletes the keys of consents that never
// recorded a reading, older than --older, or with --expired the
// recordings and keys past their consent text's retention date; repair
// cuts torn last lines and finds recordings without a key; export writes
// the readings of the participants not withdrawn, participants.csv and a
// data dictionary into --out.
//
// Decisions where the issue is silent: clear spares consents younger than
// --older (default 24h: a participant who just consented has not read
// yet); --expired goes alone (not with --older); clear and repair refuse
// while a server uses the folder (its lock), list and export do not.
func runStudy(e *cli.Env, fs *flag.FlagSet, args []string) error {
	older := fs.Duration("older", 24*time.Hour, "clear: only consents older than this (`D`, e.g. 24h, 30m)")
	expired := fs.Bool("expired", false, "clear: the recordings and keys past their consent text's retention date, instead")
	out := fs.String("out", "", "export: the folder to write (`DIR`; created, must be empty, outside the study's)")
	redact := fs.Bool("redact-queries", false, "export: leave out the words of each query")
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return cli.Usagef("give an action (list, clear, repair or export) and the study's folder")
	}
	action, dir := pos[0], pos[1]
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	switch {
	case action != "list" && action != "clear" && action != "repair" && action != "export":
		return cli.Usagef("unknown action %q: list, clear, repair or export", action)
	case action == "export" && *out == "":
		return cli.Usagef("export needs --out DIR")
	case *older < 0:
		return cli.Usagef("--older must not be negative")
	case *expired && given["older"]:
		return cli.Usagef("clear takes --older or --expired, not both")
	case (given["older"] || *expired) && action != "clear", (*out != "" || *redact) && action != "export":
		return cli.Usagef("a flag of another action: --older and --expired are clear's, --out and --redact-queries export's")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		if err == nil {
			err = errors.New("not a folder")
		}
		return cli.InputError{Err: fmt.Errorf("%s: %v", dir, unwrapPath(err))}
	}
	if action == "export" {
		if err := scenario.CheckOutsideFolders(*out, scenario.InputFolder{What: "the study folder", Dir: dir}); err != nil {
			return cli.Usage(err)
		}
	}
	switch action {
	case "list":
		ps, err := web.ReadStudyFolder(dir)
		if err != nil {
			return cli.InputError{Err: err}
		}
		return web.WriteStudyList(e.Stdout, ps)
	case "clear":
		if *expired {
			rep, err := web.ClearExpired(dir, time.Now())
			if rep != nil {
				say(e, rep.Lines(err == nil))
			}
			return studyError(err)
		}
		gone, err := web.ClearUnrecorded(dir, time.Now().Add(-*older))
		ls := web.ClearedLines(gone)
		if err != nil {
			say(e, ls[:len(ls)-1])
			return studyError(err)
		}
		say(e, ls)
	case "repair":
		rep, err := web.RepairTorn(dir)
		if rep != nil {
			say(e, rep.Lines(err == nil))
		}
		return studyError(err)
	case "export":
		opt := web.ExportOptions{RedactQueries: *redact}
		rep, err := web.ExportStudy(dir, *out, opt)
		if err != nil {
			return cli.InputError{Err: err}
		}
		say(e, rep.Lines(*out, opt))
	}
	return nil
}

// say writes each line on standard error after the program's name.
func say(e *cli.Env, lines []string) {
	for _, l := range lines {
		fmt.Fprintf(e.Stderr, "readsim: %s\n", l)
	}
}

// studyError is an error of the study's folder (nil for none): bad input
// (status 2) but a folder in use by another process (status 1: a failure
// the message explains; run the command again once it has stopped).
func studyError(err error) error {
	if err == nil || errors.Is(err, web.ErrStudyLocked) {
		return err
	}
	return cli.InputError{Err: err}
}

// unwrapPath is an error without its path (the message names it).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
