package web

import (
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// The race: two replays of one topic side by side (/race), and the summary
// of a replay the race and the simulation view start from (/api/replay).
//
// Decisions where the specification is silent:
//   - The two readers are synchronised by reading effort: the page plays
//     the events of the one that has read fewer characters so far, so their
//     cumulative characters read stay within one read event (one screen) of
//     each other, and one sees who reaches relevant text first.
//   - By default a run races its own document baseline (b omitted: the
//     pseudo-run a~doc, ReplayRequest.DocBaseline).
//   - The scoreboard's measures are the replay's (the `done` event's names,
//     as readsim eval names them); while the race runs it shows them for
//     the run cut after the last article scored (ReplaySummary.Running), and
//     at the end the `done` event's values, which are readsim eval's.
//   - The run that won is the one better on more of the measures whose
//     direction is known; equal counts are a draw.

// lookupRun finds the run id, or the run whose document baseline id names
// (RUNID~doc); a run whose own id ends in ~doc is found under that id first.
func (s *Server) lookupRun(id string) (run RunInfo, baseline, ok bool) {
	runs := s.opt.Replayer.Runs()
	for _, r := range runs {
		if r.ID == id {
			return r, false, true
		}
	}
	if base, cut := strings.CutSuffix(id, BaselineSuffix); cut {
		for _, r := range runs {
			if r.ID == base {
				return r, true, true
			}
		}
	}
	return RunInfo{}, false, false
}

// raceChoice is one option of the race's run selects.
type raceChoice struct {
	ID, Label string
	Topics    string // the topics the run answers, space-separated
}

// raceChoices are the runs and their document baselines.
func (s *Server) raceChoices() []raceChoice {
	var out []raceChoice
	for _, r := range s.opt.Replayer.Runs() {
		ts := strings.Join(r.Topics, " ")
		out = append(out, raceChoice{r.ID, r.ID + " (" + r.Source + ")", ts})
	}
	for _, r := range s.opt.Replayer.Runs() {
		ts := strings.Join(r.Topics, " ")
		out = append(out, raceChoice{r.ID + BaselineSuffix, r.ID + ", document baseline", ts})
	}
	return out
}

// raceURL is the home page's link to a race: the first run that answers a
// topic against its document baseline, on that topic.
func (s *Server) raceURL() string {
	if s.opt.Replayer == nil {
		return ""
	}
	for _, r := range s.opt.Replayer.Runs() {
		if len(r.Topics) > 0 {
			return "/race?topic=" + url.QueryEscape(r.Topics[0]) + "&a=" + url.QueryEscape(r.ID)
		}
	}
	return ""
}

func (s *Server) handleRace(w http.ResponseWriter, r *http.Request) {
	if s.opt.Replayer == nil {
		s.errorPage(w, r, http.StatusNotFound, "This server has no judgments or runs to race: start it with --qrels and --run.")
		return
	}
	s.render(w, r, http.StatusOK, s.pages.race, map[string]any{
		"Title": "Race – readsim", "Topics": s.opt.Replayer.Topics(), "Runs": s.raceChoices(),
	})
}

// num is a float64 written as JSON with the fewest digits that read back
// exactly; NaN and infinities (which no measure produces) become null.
type num float64

func (n num) MarshalJSON() ([]byte, error) {
	v := float64(n)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

// replayDoc is an article of /api/replay: its id and whether this server
// has its text (an article without text is drawn as a schematic).
type replayDoc struct {
	ID   string `json:"id"`
	Text bool   `json:"text"`
}

// apiReplay answers GET /api/replay?topic=T&run=R&order=O&t2i=X&screen=S
// (the parameters of /ws/replay): the summary of that replay.
//
//	{"run","base","baseline","source","topic","title","trel","nr","order","t2i","screen",
//	 "measures":[{"name","better"}],"docScores":[{"name","better"}],
//	 "docs":[{"id","text"}],"noText":N,"running":[[…]]}
func (s *Server) apiReplay(w http.ResponseWriter, r *http.Request) {
	if s.opt.Replayer == nil {
		jsonError(w, http.StatusNotFound, "no replays on this server")
		return
	}
	req, _, err := s.replayRequest(r.URL.Query())
	if err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return
	}
	sum, err := s.opt.Replayer.Summary(r.Context(), req)
	if err != nil {
		s.opt.Logf("web: summary %s/%s: %v", req.Run, req.Topic, err)
		jsonError(w, http.StatusInternalServerError, "the replay failed")
		return
	}
	docs := make([]replayDoc, len(sum.Docs))
	noText := 0
	for i, id := range sum.Docs {
		docs[i] = replayDoc{ID: id, Text: validID(id) && s.opt.Pages.Has(id)}
		if !docs[i].Text {
			noText++
		}
	}
	running := make([][]num, len(sum.Running))
	for i, row := range sum.Running {
		running[i] = make([]num, len(row))
		for j, v := range row {
			running[i][j] = num(v)
		}
	}
	run, _, _ := s.lookupRun(req.Run)
	id := req.Run
	if req.DocBaseline {
		id += BaselineSuffix
	}
	title := ""
	for _, t := range s.opt.Replayer.Topics() {
		if t.ID == req.Topic {
			title = t.Title
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"run": id, "base": req.Run, "baseline": req.DocBaseline, "source": run.Source,
		"topic": req.Topic, "title": title, "trel": sum.Trel, "nr": sum.NR,
		"order": req.Order, "t2i": req.T2I, "screen": req.Screen,
		"measures": nonNil(sum.Measures), "docScores": nonNil(sum.DocScores),
		"docs": docs, "noText": noText, "running": running,
	})
}
