package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// CalibrateOptions configure Calibrate.
type CalibrateOptions struct {
	// Bootstrap is the number of resamples of the tolerance's interval (0:
	// 1,000); Seed seeds them.
	Bootstrap int
	Seed      uint64
	// NR is the effort's NR (0: 5).
	NR int
	// Warn receives warnings (nil: none): the visits left out.
	Warn func(string)
}

// ImplausibleFactor: a screen is implausible when it shows more than this
// many times the characters of any other screen of the same reading (a
// single read covering a whole 4,621-character article among screens of
// 600): a recorder gone wrong, or a page zoomed out to nothing. Such a
// visit is flagged in the figures and left out of calibration. A reading
// needs at least three screens to tell.
const ImplausibleFactor = 2

// ImplausibleScreens returns, per article of rd, the size of its largest
// screen when that screen is implausible (ImplausibleFactor); articles
// without one are absent.
func ImplausibleScreens(rd *Reading) map[*ReadArticle]int {
	type sized struct {
		a    *ReadArticle
		size int
	}
	var screens []sized
	for _, t := range rd.Topics {
		for _, a := range t.Articles {
			for i, v := range a.Views {
				if i == 0 || !sameScreen(a.Views[i-1], v) {
					screens = append(screens, sized{a: a})
				}
				screens[len(screens)-1].size += v.To - v.From
			}
		}
	}
	if len(screens) < 3 {
		return nil
	}
	// the largest and second-largest sizes
	first, second := -1, 0
	for i, sc := range screens {
		if first < 0 || sc.size > screens[first].size {
			if first >= 0 {
				second = max(second, screens[first].size)
			}
			first = i
		} else {
			second = max(second, sc.size)
		}
	}
	big := screens[first]
	if big.size <= ImplausibleFactor*second {
		return nil
	}
	return map[*ReadArticle]int{big.a: big.size}
}

// lastVisited is the article of t seen last (its latest read), or nil.
func lastVisited(t *ReadTopic) *ReadArticle {
	var last *ReadArticle
	var at int64 = -1
	for _, a := range t.Articles {
		if n := len(a.Views); n > 0 && a.Views[n-1].T >= at {
			last, at = a, a.Views[n-1].T
		}
	}
	return last
}

// Calibration is the simulated reader that best explains recorded readings.
//
// The model of a visit (an article opened in a topic): the reader reads
// the screens one after the other, counting the non-relevant characters
// new to them, and leaves when the count reaches their tolerance x (T2I,
// measures.md §3), at the end of the article, or when they have found what
// they wanted. A recording holds every screen shown, not how far down the
// last one the reader got, so a visit does not give x but an interval:
// with L the non-relevant characters of the screens before the last one
// that showed new text, and U those including it, x lies in (L, U]. A
// visit that may have ended for another reason only says x > L
// (right-censored): the article's last visit in a topic whose `done` says
// "found"; a visit in which the participant saw the article's last visible
// character (the recording's stop says reason "end": the study page writes
// it when a screen reached the end of the last text drawn, since what
// follows it, trailing newlines or a folded block, is never on screen); a
// last screen that showed no new non-relevant text (the reader moved on
// after reading relevant text: no tolerance was reached there); a last
// screen that reached the article's length or left no non-relevant
// character unread. A trace of readsim replay (no times) says where its
// reader stopped and why: its last read ends at the stop, so a stop with
// reason "t2i" gives x = U exactly and "end" (it read every character) x ≥
// U. docs/study.md states the rule.
//
// The tolerance's distribution is the nonparametric maximum-likelihood
// estimate over these intervals (Turnbull 1976: masses on the innermost
// intervals, computed by the EM-ICM hybrid of Wellner and Zhan 1997); with
// exact and right-censored visits only, it is the Kaplan–Meier estimate. T2I is its median, the mass
// of an innermost interval spread evenly over its characters.
type Calibration struct {
	// T2I is the tolerance to irrelevance: the median of the estimated
	// distribution. T2ILow and T2IHigh are its 95% bootstrap interval
	// (resampling visits).
	T2I, T2ILow, T2IHigh float64
	// T2IBounded is false when the median lies past every visit that
	// stopped (most visits were right-censored): the tolerance is then
	// more than T2I (a bound, not an estimate), T2ILow the first character
	// of the 95% interval and T2IHigh +Inf. T2IHigh is +Inf too when the
	// median is bounded but too many resamples' are not.
	T2IBounded bool
	// Screen is the characters on screen at once: the median size of the
	// full screens (the read events at one time; without times, each read
	// event) at least half as large as the largest. A visit's last screen
	// (cut by the stop) and screens reaching the article's end are not
	// full. ScreenBounded is false when no full screen was seen: the
	// screen is then at least Screen, the largest seen.
	Screen        int
	ScreenBounded bool
	// Order is the reading order that best predicts what was read after the
	// system's passages, by the mean Jaccard agreement of the characters
	// read and simulated (Agreement, per order).
	Order     effort.Order
	Agreement map[string]float64
	// Visits counts the article visits used (judged articles with text
	// read); Censored those right-censored (x > L: found, read to the end,
	// left after relevant text, or the last of an abandoned topic); Exact
	// those of a replay's t2i stop. Implausible counts the visits left out
	// for an implausible screen (ImplausibleScreens).
	Visits, Censored, Exact, Implausible int
	// Topics compares, per reading and topic, the recorded AgP\Read with the
	// fitted reader's AgP\T2Ip(T2I) over the same articles in the same order;
	// RMSE and Correlation (Pearson) summarise them.
	Topics      []TopicFit
	RMSE        float64
	Correlation float64
}

// TopicFit is one reading's topic: the recorded and the simulated scores.
type TopicFit struct {
	Reading, Topic      string
	Recorded, Simulated float64
}

// visit is one article visit of a reading, against its judgments.
type visit struct {
	order  []effort.Span // the characters in the order read
	read   effort.Spans
	shown  effort.Spans
	rel    effort.Spans
	length int
	// the tolerance lies in tol: (Lo, Hi], Hi = unbounded when censored;
	// exact: a replay's t2i stop
	tol             interval
	exact, censored bool
}

// interval is a tolerance interval (Lo, Hi] in characters; Hi = unbounded
// is (Lo, ∞).
type interval struct{ Lo, Hi int }

// unbounded is the upper end of a right-censored interval.
const unbounded = math.MaxInt

// screen is one screen of a visit: the read events at one time.
type screen struct {
	size   int // characters on screen
	added  int // characters new to the reader
	nonrel int // non-relevant characters among them
	end    int // the furthest offset on screen
}

// screensOf groups an article's read events into screens: consecutive read
// events at the same time t are one screen (the recorder writes a screen
// cut by a folded block as several events), and so are those of a replay
// with the same screen number (a replay's screen is cut by its jumps);
// otherwise each event is a screen. rel counts the non-relevant characters
// new on each.
func screensOf(a *ReadArticle, rel effort.Spans) []screen {
	var out []screen
	for i, v := range a.Views {
		if i == 0 || !sameScreen(a.Views[i-1], v) {
			out = append(out, screen{})
		}
		sc := &out[len(out)-1]
		sc.size += v.To - v.From
		sc.end = max(sc.end, v.To)
		for _, sp := range a.Order[v.First : v.First+v.Added] {
			n := sp.End - sp.Start
			sc.added += n
			sc.nonrel += n - effort.SpanIntersectLen(sp, rel)
		}
	}
	return out
}

// sameScreen reports whether consecutive read events v and w were on
// screen together.
func sameScreen(v, w View) bool {
	return v.T >= 0 && v.T == w.T || v.Screen > 0 && v.Screen == w.Screen
}

// tolerance returns the interval a visit gives of the reader's tolerance
// (see Calibration), from its screens, the article's length and relevant
// text, and whether the interval is exact, right-censored or neither.
func tolerance(a *ReadArticle, scs []screen, length int, rel effort.Spans) (iv interval, exact, censored bool) {
	last := -1
	total := 0
	for i, sc := range scs {
		if sc.added > 0 {
			last = i
		}
		total += sc.nonrel
	}
	before := total
	if last >= 0 {
		before -= scs[last].nonrel
	}
	recorded := len(a.Views) > 0 && a.Views[0].T >= 0
	switch {
	case recorded:
	case a.Stop == "t2i":
		if total > 0 {
			return interval{total - 1, total}, true, false
		}
	case a.Stop == "end":
		return interval{max(total-1, 0), unbounded}, false, true
	}
	// a recording's stop "end": the participant saw the article's last
	// visible character (what follows it is never drawn)
	sawEnd := recorded && a.Stop == "end"
	unreadNonrel := length - rel.Clip(0, length).Len() - total
	if last < 0 || a.Found || sawEnd || scs[last].nonrel == 0 || scs[last].end >= length || unreadNonrel <= 0 {
		return interval{before, unbounded}, false, true
	}
	return interval{before, total}, false, false
}

// noVisits says, naming the reading files and the judgments, why the
// readings give calibration nothing: they share no topic with the
// judgments, or no article of a judged topic was read in them.
func noVisits(q *inex.Qrels, readings []*Reading) error {
	var files []string
	shared := false
	for _, rd := range readings {
		if len(files) < 3 {
			files = append(files, rd.File)
		}
		for _, t := range rd.Topics {
			shared = shared || q.Topics[t.ID] != nil
		}
	}
	if n := len(readings) - len(files); n > 0 {
		files = append(files, fmt.Sprintf("and %d more", n))
	}
	why := fmt.Sprintf("no judged article of a topic of the judgments %s was read (the readings hold only topic events, or articles those judgments do not judge): nothing to calibrate against", q.File)
	if !shared {
		why = fmt.Sprintf("the readings share no topic with the judgments %s: nothing to calibrate against (are these readings of the judged topics?)", q.File)
	}
	return &inex.Error{File: strings.Join(files, ", "), Err: errors.New(why)}
}

// Calibrate fits the simulated reader to readings scored against q: the
// tolerance to irrelevance (with an interval), the screen size and the
// reading order, and reports how well the fitted reader predicts each
// topic's AgP\Read.
func Calibrate(q *inex.Qrels, readings []*Reading, opt CalibrateOptions) (*Calibration, error) {
	opt = opt.withDefaults()
	vs, err := gatherVisits(q, readings, opt)
	if err != nil {
		return nil, err
	}
	c := &Calibration{Agreement: map[string]float64{}, Visits: len(vs.visits), Censored: vs.censored, Exact: vs.exact, Implausible: vs.implausible}
	tols := make([]interval, len(vs.visits))
	for i, v := range vs.visits {
		tols[i] = v.tol
	}
	med, _, bounded := turnbullMedian(tols, nil)
	c.T2I, c.T2IBounded = float64(med), bounded
	c.T2ILow, c.T2IHigh = bootstrapMedian(tols, opt.Bootstrap, opt.Seed)
	c.Screen, c.ScreenBounded = screenSize(vs.full)
	if !c.ScreenBounded {
		for _, s := range vs.all {
			c.Screen = max(c.Screen, s)
		}
		if c.Screen == 0 {
			c.Screen = effort.DefaultScreen
		}
	}
	x := max(int(math.Round(c.T2I)), 1)
	best := -1.0
	for _, ord := range []effort.Order{effort.Natural, effort.Best, effort.Worst} {
		a := agreement(vs.visits, ord, x)
		c.Agreement[ord.String()] = a
		if a > best+1e-12 {
			best, c.Order = a, ord
		}
	}
	c.fitTopics(q, readings, x, opt.NR)
	return c, nil
}

// withDefaults fills the options left zero.
func (o CalibrateOptions) withDefaults() CalibrateOptions {
	if o.Bootstrap <= 0 {
		o.Bootstrap = 1000
	}
	if o.NR <= 0 {
		o.NR = effort.DefaultNR
	}
	return o
}

// visitSet are the article visits of readings against their judgments,
// with what calibration counts of them.
type visitSet struct {
	visits []visit
	// reading is the ID of each visit's reading
	reading []string
	// full and all are the sizes of the full screens and of all screens
	full, all                    []int
	censored, exact, implausible int
}

// gatherVisits collects the visits of readings against q: the judged
// articles with text read, each with the interval it gives of the
// tolerance (implausible screens left out, with a warning). It is an
// error when there is none.
func gatherVisits(q *inex.Qrels, readings []*Reading, opt CalibrateOptions) (*visitSet, error) {
	for _, rd := range readings {
		if err := checkLengths(q, rd); err != nil {
			return nil, err
		}
	}
	vs := &visitSet{}
	for _, rd := range readings {
		odd := ImplausibleScreens(rd)
		for a, size := range odd {
			vs.implausible++
			if opt.Warn != nil {
				opt.Warn(fmt.Sprintf("%s: warning: article %s (line %d) shows %d characters on one screen, more than %d times any other screen of the reading: the visit is left out of calibration", rd.File, a.Doc, a.Line, size, ImplausibleFactor))
			}
		}
		for _, t := range rd.Topics {
			if j := q.Topics[t.ID]; j != nil {
				vs.addTopic(rd, t, j, odd)
			}
		}
	}
	if len(vs.visits) == 0 {
		return nil, noVisits(q, readings)
	}
	return vs, nil
}

// addTopic adds the visits of topic t of reading rd (judged by j; odd the
// articles of an implausible screen, left out).
func (vs *visitSet) addTopic(rd *Reading, t *ReadTopic, j *inex.TopicJudgments, odd map[*ReadArticle]int) {
	// a recorded topic without its done event was abandoned: its last
	// visit ended for a reason the recording does not give
	var abandoned *ReadArticle
	if t.Start >= 0 && t.Outcome == "" {
		abandoned = lastVisited(t)
	}
	for _, a := range t.Articles {
		if odd[a] > 0 {
			continue
		}
		jd := j.Docs[a.Doc]
		var rel effort.Spans
		length := a.Length
		if jd != nil {
			rel, length = jd.Rel, jd.Length
		}
		scs := screensOf(a, rel)
		if length > 0 {
			for i, sc := range scs {
				vs.all = append(vs.all, sc.size)
				if i < len(scs)-1 && sc.end < length {
					vs.full = append(vs.full, sc.size)
				}
			}
		}
		if jd == nil || jd.Length == 0 || len(a.Order) == 0 {
			continue
		}
		v := visit{order: a.Order, read: a.Read().Clip(0, jd.Length), shown: a.Shown.Clip(0, jd.Length), rel: jd.Rel, length: jd.Length}
		var exact, censored bool
		v.tol, exact, censored = tolerance(a, scs, jd.Length, jd.Rel)
		if a == abandoned && !censored {
			v.tol, exact, censored = interval{v.tol.Lo, unbounded}, false, true
		}
		if exact {
			vs.exact++
		}
		if censored {
			vs.censored++
		}
		v.exact, v.censored = exact, censored
		vs.visits = append(vs.visits, v)
		vs.reading = append(vs.reading, rd.ID)
	}
}

// screenSize estimates the characters on screen at once from the sizes of
// full screens: the median of those at least half the largest (smaller
// ones are screens cut by a jump or a folded block). With no full screen it
// returns 0, false.
func screenSize(full []int) (int, bool) {
	big := 0
	for _, v := range full {
		big = max(big, v)
	}
	var keep []int
	for _, v := range full {
		if 2*v >= big && v > 0 {
			keep = append(keep, v)
		}
	}
	if len(keep) == 0 {
		return 0, false
	}
	sort.Ints(keep)
	return keep[len(keep)/2], true
}

// agreement is the mean Jaccard similarity of each visit's characters read
// and those a reader with order ord and tolerance x reads from the passages
// shown.
func agreement(vs []visit, ord effort.Order, x int) float64 {
	var o effort.Orderer
	sum := 0.0
	for _, v := range vs {
		segs := o.Read(ord, v.length, v.shown, v.rel)
		t := effort.T2I(segs, x)
		var sim effort.Spans
		for i := 0; i < t.End; i++ {
			end := segs[i].To
			if i == t.End-1 {
				end = t.EndAt
			}
			sim = append(sim, effort.Span{Start: segs[i].From, End: end})
		}
		sim = effort.Normalize(sim)
		inter := effort.IntersectLen(sim, v.read)
		union := sim.Len() + v.read.Len() - inter
		if union == 0 {
			sum++
			continue
		}
		sum += float64(inter) / float64(union)
	}
	return sum / float64(len(vs))
}

// fitTopics compares each reading's topics: recorded AgP\Read against the
// fitted reader's AgP\T2Ip(x) on the same ranked articles.
func (c *Calibration) fitTopics(q *inex.Qrels, readings []*Reading, x, nr int) {
	rec := effort.NewEvaluator([]effort.Measure{{List: effort.ListAgP, Doc: effort.DocScore{Kind: effort.DocRead}}}, effort.Config{})
	sim := effort.NewEvaluator([]effort.Measure{{List: effort.ListAgP, Doc: effort.DocScore{Kind: effort.DocT2Ip, X: x}}}, effort.Config{Order: c.Order})
	var ws effort.Workspace
	var in effort.TopicInput
	var out []float64
	for _, rd := range readings {
		for _, t := range rd.Topics {
			j := q.Topics[t.ID]
			if j == nil {
				continue
			}
			readingInput(&in, j, t)
			out = rec.Topic(&in, &ws, out[:0])
			f := TopicFit{Reading: rd.ID, Topic: t.ID, Recorded: out[0]}
			for i := range in.Docs {
				in.Docs[i].Reading = nil // the simulated reader reads from the passages shown
			}
			out = sim.Topic(&in, &ws, out[:0])
			f.Simulated = out[0]
			c.Topics = append(c.Topics, f)
		}
	}
	sort.SliceStable(c.Topics, func(i, k int) bool {
		if c.Topics[i].Reading != c.Topics[k].Reading {
			return c.Topics[i].Reading < c.Topics[k].Reading
		}
		return inex.TopicLess(c.Topics[i].Topic, c.Topics[k].Topic)
	})
	n := float64(len(c.Topics))
	if n == 0 {
		return
	}
	var se, ma, mb float64
	for _, f := range c.Topics {
		d := f.Recorded - f.Simulated
		se += d * d
		ma += f.Recorded
		mb += f.Simulated
	}
	c.RMSE = math.Sqrt(se / n)
	ma, mb = ma/n, mb/n
	var sab, saa, sbb float64
	for _, f := range c.Topics {
		sab += (f.Recorded - ma) * (f.Simulated - mb)
		saa += (f.Recorded - ma) * (f.Recorded - ma)
		sbb += (f.Simulated - mb) * (f.Simulated - mb)
	}
	c.Correlation = math.NaN()
	if saa > 0 && sbb > 0 {
		c.Correlation = sab / math.Sqrt(saa*sbb)
	}
}

// writeJSON writes the calibration as JSON.
func (c *Calibration) writeJSON(w io.Writer) error {
	type topic struct {
		Reading   string    `json:"reading"`
		Topic     string    `json:"topic"`
		Recorded  jsonFloat `json:"recorded_AgP_Read"`
		Simulated jsonFloat `json:"simulated_AgP_T2Ip"`
	}
	out := struct {
		T2I           jsonFloat          `json:"t2i"`
		T2IMoreThan   jsonFloat          `json:"t2i_more_than"`
		T2ILow        float64            `json:"t2i_low"`
		T2IHigh       jsonFloat          `json:"t2i_high"`
		T2IBounded    bool               `json:"t2i_observed"`
		Screen        int                `json:"screen"`
		ScreenBounded bool               `json:"screen_observed"`
		Order         string             `json:"order"`
		Agreement     map[string]float64 `json:"order_agreement"`
		Visits        int                `json:"visits"`
		Censored      int                `json:"censored"`
		Exact         int                `json:"exact"`
		Implausible   int                `json:"implausible"`
		RMSE          jsonFloat          `json:"rmse"`
		Corr          jsonFloat          `json:"correlation"`
		Topics        []topic            `json:"topics"`
	}{jsonFloat(c.T2I), jsonFloat(math.NaN()), c.T2ILow, jsonFloat(c.T2IHigh), c.T2IBounded, c.Screen, c.ScreenBounded, c.Order.String(), c.Agreement, c.Visits, c.Censored, c.Exact, c.Implausible,
		jsonFloat(c.RMSE), jsonFloat(c.Correlation), []topic{}}
	if !c.T2IBounded {
		// "reads everything": a bound, never a finite estimate
		out.T2I, out.T2IMoreThan, out.T2IHigh = jsonFloat(math.NaN()), jsonFloat(c.T2I), jsonFloat(math.Inf(1))
	}
	for _, t := range c.Topics {
		out.Topics = append(out.Topics, topic{t.Reading, t.Topic, jsonFloat(t.Recorded), jsonFloat(t.Simulated)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// Write writes the calibration in format f (table, tsv, markdown or json).
func (c *Calibration) Write(w io.Writer, f ReportFormat, digits int) error {
	if f == FormatJSON {
		return c.writeJSON(w)
	}
	var b strings.Builder
	var t2i string
	switch {
	case !c.T2IBounded:
		t2i = fmt.Sprintf("more than %.0f characters (95%% interval: more than %.0f; most visits ended before the tolerance: found, read to the end, or left after relevant text)", c.T2I, c.T2ILow-1)
	case math.IsInf(c.T2IHigh, 1):
		t2i = fmt.Sprintf("%.0f characters (95%% interval: more than %.0f, no upper bound: many visits ended before the tolerance)", c.T2I, c.T2ILow-1)
	default:
		t2i = fmt.Sprintf("%.0f characters (95%% interval %.0f–%.0f)", c.T2I, c.T2ILow, c.T2IHigh)
	}
	scr := fmt.Sprintf("%d characters", c.Screen)
	if !c.ScreenBounded {
		scr = fmt.Sprintf("at least %d characters (no full screen: every screen was a visit's last or reached an article's end)", c.Screen)
	}
	visits := fmt.Sprintf("%d (%d right-censored", c.Visits, c.Censored)
	if c.Exact > 0 {
		visits += fmt.Sprintf(", %d exact", c.Exact)
	}
	if c.Implausible > 0 {
		visits += fmt.Sprintf("; %d left out for an implausible screen", c.Implausible)
	}
	visits += ")"
	var orders []string
	for _, o := range []string{"natural", "best", "worst"} {
		orders = append(orders, fmt.Sprintf("%s %.3f", o, c.Agreement[o]))
	}
	params := &Table{Title: "The simulated reader that best explains the readings", Columns: []Column{{Name: "parameter"}, {Name: "estimate"}}, Rows: [][]Cell{
		{Text("tolerance to irrelevance (T2I)"), Text(t2i)},
		{Text("screen size"), Text(scr)},
		{Text("reading order"), Text(fmt.Sprintf("%s (agreement: %s)", c.Order, strings.Join(orders, ", ")))},
		{Text("article visits"), Text(visits)},
	}}
	if err := params.Write(&b, f, digits); err != nil {
		return err
	}
	b.WriteString("\n")
	fit := &Table{Title: fmt.Sprintf("Per topic: recorded AgP\\Read and the fitted reader's AgP\\T2Ip(%.0f); RMSE %s, correlation %s", c.T2I, FormatNumber(c.RMSE, max(digits, 0)), FormatNumber(c.Correlation, max(digits, 0))),
		Columns: []Column{{Name: "reading"}, {Name: "topic"}, {Name: "recorded", Num: true}, {Name: "simulated", Num: true}, {Name: "difference", Num: true}}}
	for _, t := range c.Topics {
		d := Num(t.Simulated - t.Recorded)
		d.Signed = true
		fit.Rows = append(fit.Rows, []Cell{Text(t.Reading), Text(t.Topic), Num(t.Recorded), Num(t.Simulated), d})
	}
	if err := fit.Write(&b, f, digits); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}
