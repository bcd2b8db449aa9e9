package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/readsim/readsim/scenario/inex"
	"github.com/readsim/readsim/web"
)

// defaultStudyTopics is how many topics a participant gets by default.
const defaultStudyTopics = 3

// studyOptions is the study mode of serve --study DIR (and of the demo):
// the topics of --topics, with their titles and descriptions, in the
// file's order; with --qrels only the judged ones (a reading of an unjudged
// topic could not be scored). It reads the topics and judgments again
// rather than sharing serve's copies, which keeps the study's wiring apart
// from the rest of serve (the judgments are read twice only with --study).
//
// Decisions where the issue is silent: --study needs --index (participants
// search) and --topics (they are given topics); the folder is created if
// missing; each participant gets --study-topics topics (default 3).
func studyOptions(e *env, cfg serveConfig) (*web.StudyOptions, error) {
	if cfg.index == "" || cfg.topics == "" {
		return nil, usageError{"--study needs --index (participants search) and --topics (they are given topics)"}
	}
	ts, err := inex.OpenTopics(cfg.topics)
	if err != nil {
		return nil, inputError{err}
	}
	var judged map[string]*inex.TopicJudgments
	if cfg.qrels != "" {
		q, err := inex.OpenQrels(cfg.qrels, nil)
		if err != nil {
			return nil, inputError{err}
		}
		judged = q.Topics
	}
	per := cfg.studyTopics
	if per <= 0 {
		per = defaultStudyTopics
	}
	opt := &web.StudyOptions{Dir: cfg.study, PerParticipant: per}
	for _, t := range ts {
		if judged != nil && judged[t.ID] == nil {
			continue
		}
		title, _ := t.Field("title")
		opt.Topics = append(opt.Topics, web.StudyTopic{ID: t.ID, Title: title, Description: t.Description})
	}
	if len(opt.Topics) == 0 {
		return nil, inputError{fmt.Errorf("%s: no topic for the study (none is judged in %s)", cfg.topics, cfg.qrels)}
	}
	if err := os.MkdirAll(cfg.study, 0o700); err != nil {
		return nil, inputError{fmt.Errorf("--study: %w", err)}
	}
	abs, _ := filepath.Abs(cfg.study)
	fmt.Fprintf(e.stderr, "readsim: reading study at /study: %d topics, %d per participant; recordings in %s\n",
		len(opt.Topics), min(per, len(opt.Topics)), abs)
	return opt, nil
}

// demoStudyPath is where the demo keeps its study's recordings: beside the
// demo's index (the user cache folder, or $READSIM_DEMO_INDEX's folder in
// tests).
func demoStudyPath() string {
	idx, err := demoIndexPath()
	if err != nil {
		return ""
	}
	return filepath.Join(filepath.Dir(idx), "demo-study")
}
