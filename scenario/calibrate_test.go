package scenario

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article/shareddata"
	"github.com/readsim/readsim/scenario/inex"
)

// Traces simulated with known parameters are calibrated back to them: the
// tolerance within 10%, the screen size, the reading order; and the fitted
// reader predicts the readings' AgP\Read exactly (they are its own).
func TestCalibrateRecoversSimulatedReaders(t *testing.T) {
	dir := shareddata.INEX(t)
	q, err := inex.OpenQrels(filepath.Join(dir, "inex2009-2010.qrels"), nil)
	if err != nil {
		t.Fatal(err)
	}
	run, err := inex.OpenRun(filepath.Join(dir, "article-run.trec"), inex.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	focused, err := inex.OpenRun(filepath.Join(dir, "passage-run.focused.fol"), inex.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		run *inex.Run
		cfg Reader
	}{
		{run, Reader{T2I: 300, Screen: 300}},
		{run, Reader{T2I: 2000, Screen: 2000}},
		{focused, Reader{T2I: 600, Screen: 500, Order: effort.Best, Group: true}},
	} {
		name := fmt.Sprintf("%s/x=%d/s=%d/%s", tc.run.File, tc.cfg.T2I, tc.cfg.Screen, tc.cfg.Order)
		t.Run(name, func(t *testing.T) {
			p, err := NewReplayer(q, tc.run, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := p.Replay(nil, func(e *Event) error { b.Write(e.AppendJSON(nil)); b.WriteByte('\n'); return nil }); err != nil {
				t.Fatal(err)
			}
			rd, err := ReadReading("sim.jsonl", &b)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Calibrate(q, []*Reading{rd}, CalibrateOptions{Bootstrap: 200, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			x := float64(tc.cfg.T2I)
			if math.Abs(c.T2I-x) > 0.1*x || !c.T2IBounded || c.T2ILow > x || c.T2IHigh < x {
				t.Errorf("T2I %v [%v, %v] observed %v, want %v", c.T2I, c.T2ILow, c.T2IHigh, c.T2IBounded, x)
			}
			if c.Screen != tc.cfg.Screen {
				t.Errorf("screen %d, want %d", c.Screen, tc.cfg.Screen)
			}
			if c.Order != tc.cfg.Order || c.Agreement[tc.cfg.Order.String()] < 0.999 {
				t.Errorf("order %s (agreement %v), want %s", c.Order, c.Agreement, tc.cfg.Order)
			}
			if c.RMSE > 1e-9 || len(c.Topics) < 100 {
				t.Errorf("RMSE %v over %d topics, want 0 (the readings are the fitted reader's own)", c.RMSE, len(c.Topics))
			}
		})
	}
}

// The Kaplan–Meier median by hand: stops at 100, 200, 400 and a visit
// read whole at 150 (censored). Four at risk: survival 3/4 after 100; the
// censored 150 leaves two at risk; after 200, 3/4·1/2 = 3/8 ≤ ½: the median
// is 200. Without the stop at 400, one is at risk at 200: 3/4·0 = 0, 200
// again. With only censored visits there is no median: the largest is a
// bound.
func TestKaplanMeierMedian(t *testing.T) {
	v := func(n int, c bool) visit { return visit{nonrel: n, censored: c} }
	for _, tc := range []struct {
		vs       []visit
		want     float64
		observed bool
	}{
		{[]visit{v(100, false), v(150, true), v(200, false), v(400, false)}, 200, true},
		{[]visit{v(100, false), v(150, true), v(200, false)}, 200, true},
		{[]visit{v(10, true), v(20, true)}, 20, false},
		{[]visit{v(5, false)}, 5, true},
	} {
		got, obs := kmMedian(tc.vs)
		if got != tc.want || obs != tc.observed {
			t.Errorf("kmMedian(%v) = %v, %v; want %v, %v", tc.vs, got, obs, tc.want, tc.observed)
		}
	}
}
