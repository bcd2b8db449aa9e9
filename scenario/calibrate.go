package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
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
}

// Calibration is the simulated reader that best explains recorded readings.
type Calibration struct {
	// T2I is the tolerance to irrelevance: the median of the non-relevant
	// characters read in an article before leaving it, estimated with
	// Kaplan–Meier over the article visits (a visit that read the whole
	// article is censored: the reader's tolerance was not reached).
	// T2ILow and T2IHigh are its 95% bootstrap interval (resampling visits).
	T2I, T2ILow, T2IHigh float64
	// T2IBounded is false when fewer than half the visits stopped early: the
	// tolerance is then at least T2I (no median is observed).
	T2IBounded bool
	// Screen is the characters on screen at once: the median size of the
	// read events at least half as large as the largest.
	Screen int
	// Order is the reading order that best predicts what was read after the
	// system's passages, by the mean Jaccard agreement of the characters
	// read and simulated (Agreement, per order).
	Order     effort.Order
	Agreement map[string]float64
	// Visits counts the article visits used (judged articles with text
	// read); Censored those that read the whole article.
	Visits, Censored int
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
	order    []effort.Span // the characters in the order read
	read     effort.Spans
	shown    effort.Spans
	rel      effort.Spans
	length   int
	nonrel   int  // non-relevant characters read
	censored bool // the whole article was read
}

// Calibrate fits the simulated reader to readings scored against q: the
// tolerance to irrelevance (with an interval), the screen size and the
// reading order, and reports how well the fitted reader predicts each
// topic's AgP\Read.
func Calibrate(q *inex.Qrels, readings []*Reading, opt CalibrateOptions) (*Calibration, error) {
	if opt.Bootstrap <= 0 {
		opt.Bootstrap = 1000
	}
	if opt.NR <= 0 {
		opt.NR = effort.DefaultNR
	}
	var visits []visit
	var views []int
	var o effort.Orderer
	for _, rd := range readings {
		for _, t := range rd.Topics {
			j := q.Topics[t.ID]
			if j == nil {
				continue
			}
			for _, a := range t.Articles {
				views = append(views, a.Views...)
				jd := j.Docs[a.Doc]
				if jd == nil || jd.Length == 0 || len(a.Order) == 0 {
					continue
				}
				v := visit{order: a.Order, read: a.Read().Clip(0, jd.Length), shown: a.Shown.Clip(0, jd.Length), rel: jd.Rel, length: jd.Length}
				tally := effort.T2I(o.Recorded(a.Order, jd.Rel), 0)
				v.nonrel = tally.Read - tally.RelRead
				v.censored = v.read.Len() >= jd.Length
				visits = append(visits, v)
			}
		}
	}
	if len(visits) == 0 {
		return nil, errors.New("no judged article was read: nothing to calibrate against (are these readings of the judged topics?)")
	}
	c := &Calibration{Visits: len(visits), Agreement: map[string]float64{}}
	for _, v := range visits {
		if v.censored {
			c.Censored++
		}
	}
	c.T2I, c.T2IBounded = kmMedian(visits)
	c.T2ILow, c.T2IHigh = bootstrapMedian(visits, opt.Bootstrap, opt.Seed)
	c.Screen = screenSize(views)
	x := max(int(math.Round(c.T2I)), 1)
	best := -1.0
	for _, ord := range []effort.Order{effort.Natural, effort.Best, effort.Worst} {
		a := agreement(visits, ord, x)
		c.Agreement[ord.String()] = a
		if a > best+1e-12 {
			best, c.Order = a, ord
		}
	}
	c.fitTopics(q, readings, x, opt.NR)
	return c, nil
}

// kmMedian returns the Kaplan–Meier median of the visits' non-relevant
// characters read (a censored visit's tolerance is at least its count), and
// whether a median is observed (the survival falls to ½).
func kmMedian(vs []visit) (float64, bool) {
	type obs struct {
		n        int
		censored bool
	}
	os := make([]obs, len(vs))
	for i, v := range vs {
		os[i] = obs{v.nonrel, v.censored}
	}
	sort.Slice(os, func(i, j int) bool {
		if os[i].n != os[j].n {
			return os[i].n < os[j].n
		}
		return !os[i].censored && os[j].censored // events before censorings at a tie
	})
	surv, atRisk := 1.0, len(os)
	for i := 0; i < len(os); {
		k, d := i, 0
		for k < len(os) && os[k].n == os[i].n {
			if !os[k].censored {
				d++
			}
			k++
		}
		if d > 0 {
			surv *= 1 - float64(d)/float64(atRisk)
			if surv <= 0.5 {
				return float64(os[i].n), true
			}
		}
		atRisk -= k - i
		i = k
	}
	return float64(os[len(os)-1].n), false
}

// bootstrapMedian returns the 2.5th and 97.5th percentiles of the
// Kaplan–Meier median over b resamples of the visits.
func bootstrapMedian(vs []visit, b int, seed uint64) (float64, float64) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	meds := make([]float64, b)
	sample := make([]visit, len(vs))
	for i := range meds {
		for k := range sample {
			sample[k] = vs[rng.IntN(len(vs))]
		}
		meds[i], _ = kmMedian(sample)
	}
	sort.Float64s(meds)
	return meds[int(0.025*float64(b-1))], meds[int(math.Ceil(0.975*float64(b-1)))]
}

// screenSize estimates the characters on screen at once from the read
// events' sizes: the median of those at least half the largest (smaller
// ones are the ends of passages and of articles).
func screenSize(views []int) int {
	big := 0
	for _, v := range views {
		big = max(big, v)
	}
	var keep []int
	for _, v := range views {
		if 2*v >= big && v > 0 {
			keep = append(keep, v)
		}
	}
	if len(keep) == 0 {
		return effort.DefaultScreen
	}
	sort.Ints(keep)
	return keep[len(keep)/2]
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

// Write writes the calibration in format f (table, tsv, markdown or json).
func (c *Calibration) Write(w io.Writer, f Format, digits int) error {
	if f == FormatJSON {
		type topic struct {
			Reading   string    `json:"reading"`
			Topic     string    `json:"topic"`
			Recorded  jsonFloat `json:"recorded_AgP_Read"`
			Simulated jsonFloat `json:"simulated_AgP_T2Ip"`
		}
		out := struct {
			T2I        float64            `json:"t2i"`
			T2ILow     float64            `json:"t2i_low"`
			T2IHigh    float64            `json:"t2i_high"`
			T2IBounded bool               `json:"t2i_observed"`
			Screen     int                `json:"screen"`
			Order      string             `json:"order"`
			Agreement  map[string]float64 `json:"order_agreement"`
			Visits     int                `json:"visits"`
			Censored   int                `json:"censored"`
			RMSE       jsonFloat          `json:"rmse"`
			Corr       jsonFloat          `json:"correlation"`
			Topics     []topic            `json:"topics"`
		}{c.T2I, c.T2ILow, c.T2IHigh, c.T2IBounded, c.Screen, c.Order.String(), c.Agreement, c.Visits, c.Censored, jsonFloat(c.RMSE), jsonFloat(c.Correlation), []topic{}}
		for _, t := range c.Topics {
			out.Topics = append(out.Topics, topic{t.Reading, t.Topic, jsonFloat(t.Recorded), jsonFloat(t.Simulated)})
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	var b strings.Builder
	t2i := fmt.Sprintf("%.0f characters (95%% interval %.0f–%.0f)", c.T2I, c.T2ILow, c.T2IHigh)
	if !c.T2IBounded {
		t2i = fmt.Sprintf("at least %.0f characters (fewer than half the visits stopped early)", c.T2I)
	}
	var orders []string
	for _, o := range []string{"natural", "best", "worst"} {
		orders = append(orders, fmt.Sprintf("%s %.3f", o, c.Agreement[o]))
	}
	params := &Table{Title: "The simulated reader that best explains the readings", Columns: []Column{{Name: "parameter"}, {Name: "estimate"}}, Rows: [][]Cell{
		{Text("tolerance to irrelevance (T2I)"), Text(t2i)},
		{Text("screen size"), Text(fmt.Sprintf("%d characters", c.Screen))},
		{Text("reading order"), Text(fmt.Sprintf("%s (agreement: %s)", c.Order, strings.Join(orders, ", ")))},
		{Text("article visits"), Text(fmt.Sprintf("%d (%d read whole)", c.Visits, c.Censored))},
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
