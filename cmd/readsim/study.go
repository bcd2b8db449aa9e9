package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/readsim/readsim/internal/cli"
	"github.com/readsim/readsim/scenario"
	"github.com/readsim/readsim/web"
)

// runStudy implements `readsim study ACTION DIR`: the study folder's
// administration (web/studyadmin.go). list prints one line per
// participant; clear deletes the keys of consents that never recorded a
// reading, older than --older; repair cuts torn last lines; export writes
// the readings of the participants not withdrawn into --out.
//
// Decisions where the issue is silent: clear spares consents younger than
// --older (default 24h: a participant who just consented has not read
// yet); clear and repair are meant for a stopped server (docs/study.md).
func runStudy(e *cli.Env, fs *flag.FlagSet, args []string) error {
	older := fs.Duration("older", 24*time.Hour, "clear: only consents older than this (`D`, e.g. 24h, 30m)")
	out := fs.String("out", "", "export: the folder to write (`DIR`; created, must be empty)")
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return cli.Usagef("give an action (list, clear, repair or export) and the study's folder")
	}
	action, dir := pos[0], pos[1]
	switch action {
	case "list", "clear", "repair", "export":
	default:
		return cli.Usagef("unknown action %q: list, clear, repair or export", action)
	}
	if action == "export" && *out == "" {
		return cli.Usagef("export needs --out DIR")
	}
	if *older < 0 {
		return cli.Usagef("--older must not be negative")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		if err == nil {
			err = errors.New("not a folder")
		}
		return inputError{fmt.Errorf("%s: %v", dir, unwrapPath(err))}
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
			return inputError{err}
		}
		tw := tabwriter.NewWriter(e.Stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "participant\tconsented\tconsent text\ttopics\tdone\tevents\tstate")
		for _, p := range ps {
			when, text := "", ""
			if !p.Consented.IsZero() {
				when = p.Consented.UTC().Format(time.RFC3339)
			}
			if p.ConsentSHA256 != "" {
				text = p.ConsentSHA256[:16]
			}
			var state []string
			switch {
			case !p.Withdrawn.IsZero():
				state = append(state, "withdrawn "+p.Withdrawn.UTC().Format(time.RFC3339))
			case !p.Recorded:
				state = append(state, "no recording")
			case p.Done == p.Topics:
				state = append(state, "finished")
			default:
				state = append(state, "reading")
			}
			if p.TornBytes > 0 {
				state = append(state, fmt.Sprintf("torn last line (%d bytes: study repair cuts it)", p.TornBytes))
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%s\n", p.ID, when, text, p.Topics, p.Done, p.Events, strings.Join(state, "; "))
		}
		return tw.Flush()
	case "clear":
		gone, err := web.ClearUnrecorded(dir, time.Now().Add(-*older))
		for _, id := range gone {
			fmt.Fprintf(e.Stderr, "readsim: cleared %s: consented, never recorded a reading\n", id)
		}
		if err != nil {
			return inputError{err}
		}
		fmt.Fprintf(e.Stderr, "readsim: %d consent(s) without a recording cleared\n", len(gone))
	case "repair":
		cut, err := web.RepairTorn(dir)
		for id, n := range cut {
			fmt.Fprintf(e.Stderr, "readsim: %s.jsonl: cut its torn last line (%d bytes)\n", id, n)
		}
		if err != nil {
			return inputError{err}
		}
		fmt.Fprintf(e.Stderr, "readsim: %d recording(s) repaired\n", len(cut))
	case "export":
		done, withdrawn, err := web.ExportStudy(dir, *out)
		if err != nil {
			return inputError{err}
		}
		fmt.Fprintf(e.Stderr, "readsim: exported %d reading(s) to %s; left out %d withdrawn participant(s)\n", len(done), *out, len(withdrawn))
	}
	return nil
}

// unwrapPath is an error without its path (the message names it).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
