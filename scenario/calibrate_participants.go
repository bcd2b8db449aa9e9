package scenario

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/readsim/readsim/scenario/inex"
)

// readsim calibrate --by participant (issue 36): a study reports each
// person's tolerance, not one pooled reader. Each participant's visits
// (those of the readings whose ID, the `run` of their topic events, names
// them: a study's recording is one participant) give their own Turnbull
// median and 95% bootstrap interval, as Calibrate gives the pooled one
// (docs/study.md: censoring). The spread across participants is then the
// Turnbull estimate over the participants' own estimates, each taken as
// it is: a finite T2I as a point, "more than N" as right-censored at N.
// Its quartiles describe how tolerances differ between people, and the
// 95% interval of its median comes from 1,000 resamples of the
// participants (the participants' own intervals are not resampled: the
// interval says how the median would move with other participants, not
// how precise each participant's estimate is, which their own intervals
// say).
//
// Decisions where the issue is silent: a participant without a judged
// visit is listed with no estimate and left out of the spread; the lowest
// and highest estimates are over the finite ones (a "more than N" is no
// estimate of the highest).

// ParticipantFit is one participant's tolerance to irrelevance.
type ParticipantFit struct {
	Participant string
	// Visits, Censored and Exact count their visits as Calibration does.
	Visits, Censored, Exact int
	// T2I, T2ILow, T2IHigh and T2IBounded are as Calibration's (T2I NaN
	// when Visits is 0).
	T2I, T2ILow, T2IHigh float64
	T2IBounded           bool
}

// Spread is the spread of the tolerance across participants.
type Spread struct {
	// Participants counts those with an estimate; Bounded those whose
	// estimate is finite (the others are "more than N").
	Participants, Bounded int
	// Median, Q1 and Q3 are the quartiles of the Turnbull estimate over
	// the participants' estimates; each Bounded false when it lies past
	// every finite estimate (then it is more than the value). MedianLow
	// and MedianHigh are the median's 95% interval, resampling
	// participants (MedianHigh +Inf: no upper bound).
	Median, Q1, Q3                      float64
	MedianBounded, Q1Bounded, Q3Bounded bool
	MedianLow, MedianHigh               float64
	// Lowest and Highest are the smallest and largest finite estimates
	// (NaN when none is finite).
	Lowest, Highest float64
}

// ByParticipant is calibrate --by participant's result.
type ByParticipant struct {
	Participants []ParticipantFit
	Spread       Spread
}

// CalibrateByParticipant estimates each participant's tolerance from
// their readings, scored against q, and the spread across participants.
func CalibrateByParticipant(q *inex.Qrels, readings []*Reading, opt CalibrateOptions) (*ByParticipant, error) {
	opt = opt.withDefaults()
	vs, err := gatherVisits(q, readings, opt)
	if err != nil {
		return nil, err
	}
	tols := map[string][]interval{}
	fits := map[string]*ParticipantFit{}
	for _, rd := range readings {
		if fits[rd.ID] == nil {
			fits[rd.ID] = &ParticipantFit{Participant: rd.ID, T2I: math.NaN(), T2ILow: math.NaN(), T2IHigh: math.NaN()}
		}
	}
	for i, v := range vs.visits {
		id := vs.reading[i]
		tols[id] = append(tols[id], v.tol)
		f := fits[id]
		f.Visits++
		if v.censored {
			f.Censored++
		}
		if v.exact {
			f.Exact++
		}
	}
	out := &ByParticipant{}
	for _, f := range fits {
		if t := tols[f.Participant]; len(t) > 0 {
			med, _, bounded := turnbullMedian(t, nil)
			f.T2I, f.T2IBounded = float64(med), bounded
			f.T2ILow, f.T2IHigh = bootstrapMedian(t, opt.Bootstrap, opt.Seed)
		}
		out.Participants = append(out.Participants, *f)
	}
	sort.Slice(out.Participants, func(i, j int) bool { return out.Participants[i].Participant < out.Participants[j].Participant })
	out.Spread = spreadOf(out.Participants, opt)
	return out, nil
}

// spreadOf is the spread of the participants' estimates.
func spreadOf(ps []ParticipantFit, opt CalibrateOptions) Spread {
	sp := Spread{Lowest: math.NaN(), Highest: math.NaN()}
	var obs []interval
	for _, p := range ps {
		if p.Visits == 0 {
			continue
		}
		sp.Participants++
		x := int(p.T2I)
		if !p.T2IBounded {
			obs = append(obs, interval{x, unbounded})
			continue
		}
		sp.Bounded++
		obs = append(obs, interval{x - 1, x})
		if math.IsNaN(sp.Lowest) || p.T2I < sp.Lowest {
			sp.Lowest = p.T2I
		}
		if math.IsNaN(sp.Highest) || p.T2I > sp.Highest {
			sp.Highest = p.T2I
		}
	}
	if len(obs) == 0 {
		sp.Median, sp.Q1, sp.Q3, sp.MedianLow, sp.MedianHigh = math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()
		return sp
	}
	for _, q := range []struct {
		p       float64
		v       *float64
		bounded *bool
	}{{0.25, &sp.Q1, &sp.Q1Bounded}, {0.5, &sp.Median, &sp.MedianBounded}, {0.75, &sp.Q3, &sp.Q3Bounded}} {
		x, _, b := turnbullQuantile(obs, nil, q.p)
		*q.v, *q.bounded = float64(x), b
	}
	sp.MedianLow, sp.MedianHigh = bootstrapMedian(obs, opt.Bootstrap, opt.Seed)
	return sp
}

// t2iText is a tolerance as a table says it: "N" or "more than N".
func t2iText(v float64, bounded bool) string {
	if math.IsNaN(v) {
		return "no visit"
	}
	if !bounded {
		return fmt.Sprintf("more than %.0f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

// intervalText is a 95% interval as a table says it.
func intervalText(low, high float64) string {
	switch {
	case math.IsNaN(low):
		return ""
	case math.IsInf(high, 1):
		return fmt.Sprintf("more than %.0f, no upper bound", low-1)
	}
	return fmt.Sprintf("%.0f–%.0f", low, high)
}

// Write writes the participants' tolerances and their spread in format f
// (table, tsv, markdown or json).
func (b *ByParticipant) Write(w io.Writer, f ReportFormat, digits int) error {
	if f == FormatJSON {
		return b.writeJSON(w)
	}
	each := &Table{Title: "Each participant's tolerance to irrelevance (T2I), in non-relevant characters",
		Columns: []Column{{Name: "participant"}, {Name: "visits", Num: true}, {Name: "censored", Num: true}, {Name: "T2I"}, {Name: "95% interval"}}}
	for _, p := range b.Participants {
		each.Rows = append(each.Rows, []Cell{Text(p.Participant), Text(fmt.Sprint(p.Visits)), Text(fmt.Sprint(p.Censored)),
			Text(t2iText(p.T2I, p.T2IBounded)), Text(intervalText(p.T2ILow, p.T2IHigh))})
	}
	var out strings.Builder
	if err := each.Write(&out, f, digits); err != nil {
		return err
	}
	out.WriteString("\n")
	sp := b.Spread
	rng := "none finite"
	if !math.IsNaN(sp.Lowest) {
		rng = fmt.Sprintf("%.0f–%.0f", sp.Lowest, sp.Highest)
	}
	spread := &Table{Title: fmt.Sprintf("The spread across participants (%d with visits; %d finite, %d more than N)", sp.Participants, sp.Bounded, sp.Participants-sp.Bounded),
		Columns: []Column{{Name: "statistic"}, {Name: "T2I"}}, Rows: [][]Cell{
			{Text("median across participants"), Text(t2iText(sp.Median, sp.MedianBounded))},
			{Text("95% interval of the median (resampling participants)"), Text(intervalText(sp.MedianLow, sp.MedianHigh))},
			{Text("quartiles (Q1–Q3)"), Text(t2iText(sp.Q1, sp.Q1Bounded) + " – " + t2iText(sp.Q3, sp.Q3Bounded))},
			{Text("lowest–highest finite estimate"), Text(rng)},
		}}
	if err := spread.Write(&out, f, digits); err != nil {
		return err
	}
	_, err := io.WriteString(w, out.String())
	return err
}

// writeJSON writes the result as JSON: a "more than N" is "t2i": null
// with "t2i_more_than": N, an interval without an upper end "t2i_high":
// null, as calibrate's pooled JSON.
func (b *ByParticipant) writeJSON(w io.Writer) error {
	type participant struct {
		Participant string    `json:"participant"`
		Visits      int       `json:"visits"`
		Censored    int       `json:"censored"`
		Exact       int       `json:"exact"`
		T2I         jsonFloat `json:"t2i"`
		T2IMoreThan jsonFloat `json:"t2i_more_than"`
		T2ILow      jsonFloat `json:"t2i_low"`
		T2IHigh     jsonFloat `json:"t2i_high"`
	}
	type spread struct {
		Participants   int       `json:"participants"`
		Finite         int       `json:"finite"`
		Median         jsonFloat `json:"median"`
		MedianMoreThan jsonFloat `json:"median_more_than"`
		MedianLow      jsonFloat `json:"median_low"`
		MedianHigh     jsonFloat `json:"median_high"`
		Q1             jsonFloat `json:"q1"`
		Q1MoreThan     jsonFloat `json:"q1_more_than"`
		Q3             jsonFloat `json:"q3"`
		Q3MoreThan     jsonFloat `json:"q3_more_than"`
		Lowest         jsonFloat `json:"lowest"`
		Highest        jsonFloat `json:"highest"`
	}
	// value and moreThan split an estimate into its JSON pair
	split := func(v float64, bounded bool) (jsonFloat, jsonFloat) {
		if bounded || math.IsNaN(v) {
			return jsonFloat(v), jsonFloat(math.NaN())
		}
		return jsonFloat(math.NaN()), jsonFloat(v)
	}
	out := struct {
		Participants []participant `json:"participants"`
		Spread       spread        `json:"spread"`
	}{Participants: []participant{}}
	for _, p := range b.Participants {
		j := participant{Participant: p.Participant, Visits: p.Visits, Censored: p.Censored, Exact: p.Exact, T2ILow: jsonFloat(p.T2ILow), T2IHigh: jsonFloat(p.T2IHigh)}
		j.T2I, j.T2IMoreThan = split(p.T2I, p.T2IBounded)
		out.Participants = append(out.Participants, j)
	}
	sp := b.Spread
	s := spread{Participants: sp.Participants, Finite: sp.Bounded, MedianLow: jsonFloat(sp.MedianLow), MedianHigh: jsonFloat(sp.MedianHigh),
		Lowest: jsonFloat(sp.Lowest), Highest: jsonFloat(sp.Highest)}
	s.Median, s.MedianMoreThan = split(sp.Median, sp.MedianBounded)
	s.Q1, s.Q1MoreThan = split(sp.Q1, sp.Q1Bounded)
	s.Q3, s.Q3MoreThan = split(sp.Q3, sp.Q3Bounded)
	out.Spread = s
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
