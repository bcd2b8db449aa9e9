package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
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
		return inputError{fmt.Errorf("%s: %v", dir, unwrapPath(err))}
	}
	if action == "export" {
		if err := scenario.CheckOutsideFolders(*out, scenario.InputFolder{What: "the study folder", Dir: dir}); err != nil {
			return cli.Usage(err)
		}
	}
	switch action {
	case "list":
		return studyList(e, dir)
	case "clear":
		if *expired {
			return studyClearExpired(e, dir)
		}
		gone, err := web.ClearUnrecorded(dir, time.Now().Add(-*older))
		for _, id := range gone {
			fmt.Fprintf(e.Stderr, "readsim: cleared %s: consented, never recorded a reading\n", id)
		}
		if err != nil {
			return studyError(err)
		}
		fmt.Fprintf(e.Stderr, "readsim: %d consent(s) without a recording cleared\n", len(gone))
	case "repair":
		return studyRepair(e, dir)
	case "export":
		return studyExport(e, dir, *out, web.ExportOptions{RedactQueries: *redact})
	}
	return nil
}

// studyList prints the participants of the study folder dir.
func studyList(e *cli.Env, dir string) error {
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
			text = p.ConsentSHA256[:min(16, len(p.ConsentSHA256))]
		}
		var state []string
		switch {
		case !p.Withdrawn.IsZero():
			state = append(state, "withdrawn "+p.Withdrawn.UTC().Format(time.RFC3339))
		case p.NoKey && p.ConsentOnRecord:
			state = append(state, "a recording without a key (its consent on record in audit.jsonl)")
		case p.NoKey:
			state = append(state, "a recording without a key or a consent on record: export leaves it out")
		case !p.Recorded:
			state = append(state, "no recording")
		case p.Finished():
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
}

// studyClearExpired deletes what is past its retention date and says what.
func studyClearExpired(e *cli.Env, dir string) error {
	rep, err := web.ClearExpired(dir, time.Now())
	if rep != nil {
		for _, id := range rep.Cleared {
			fmt.Fprintf(e.Stderr, "readsim: cleared %s: past the retention date of the consent text agreed to\n", id)
		}
		var texts []string
		for h := range rep.NoDate {
			texts = append(texts, h)
		}
		sort.Strings(texts)
		for _, h := range texts {
			fmt.Fprintf(e.Stderr, "readsim: warning: consent-%s.txt gives no retention date (YYYY-MM-DD in its Retention field, or its copy is missing): its %d participant(s) are kept\n", h, len(rep.NoDate[h]))
		}
	}
	if err != nil {
		return studyError(err)
	}
	fmt.Fprintf(e.Stderr, "readsim: %d participant(s) past their retention date cleared\n", len(rep.Cleared))
	return nil
}

// studyRepair cuts torn last lines and names the recordings without a key.
func studyRepair(e *cli.Env, dir string) error {
	rep, err := web.RepairTorn(dir)
	if rep != nil {
		var ids []string
		for id := range rep.Cut {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			fmt.Fprintf(e.Stderr, "readsim: %s.jsonl: cut its torn last line (%d bytes)\n", id, rep.Cut[id])
		}
		for _, id := range rep.NoKeyOnRecord {
			fmt.Fprintf(e.Stderr, "readsim: warning: %s.jsonl: a recording without a key (its participant can neither add to it nor withdraw by code); its consent is on record in audit.jsonl, so export keeps it\n", id)
		}
		for _, id := range rep.NoConsent {
			fmt.Fprintf(e.Stderr, "readsim: warning: %s.jsonl: a recording without a key and without a consent on record: export leaves it out; delete it if no one agreed to it\n", id)
		}
	}
	if err != nil {
		return studyError(err)
	}
	fmt.Fprintf(e.Stderr, "readsim: %d recording(s) repaired, %d without a key\n", len(rep.Cut), len(rep.NoKeyOnRecord)+len(rep.NoConsent))
	return nil
}

// studyExport exports the study and says what it left out.
func studyExport(e *cli.Env, dir, out string, opt web.ExportOptions) error {
	rep, err := web.ExportStudy(dir, out, opt)
	if err != nil {
		return inputError{err}
	}
	for _, id := range rep.NoKey {
		fmt.Fprintf(e.Stderr, "readsim: warning: %s.jsonl: a recording without a key, exported on its consent on record in audit.jsonl\n", id)
	}
	for _, id := range rep.NoConsent {
		fmt.Fprintf(e.Stderr, "readsim: warning: %s.jsonl: left out: a recording without a key and without a consent on record\n", id)
	}
	redacted := ""
	if opt.RedactQueries {
		redacted = " (queries redacted)"
	}
	fmt.Fprintf(e.Stderr, "readsim: exported %d reading(s)%s to %s with participants.csv and data-dictionary.md; left out %d withdrawn participant(s)\n",
		len(rep.Exported), redacted, out, len(rep.Withdrawn))
	return nil
}

// studyError is an error of the study's folder: bad input (status 2) but
// a folder in use by another process (status 1: a failure the message
// explains; run the command again once it has stopped).
func studyError(err error) error {
	if errors.Is(err, web.ErrStudyLocked) {
		return err
	}
	return inputError{err}
}

// unwrapPath is an error without its path (the message names it).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
