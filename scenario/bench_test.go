package scenario

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/readsim/readsim/index/article/shareddata"
	"github.com/readsim/readsim/internal/ground/procstat"
)

// defaultMeasures are cli.md's default measures of eval.
var benchMeasures = []string{
	`AgP\F(0.25)`, `gP[5]\F(0.25)`, `gP[10]\F(0.25)`, `gP[25]\F(0.25)`, `gP[50]\F(0.25)`,
	`AgP\T2Ip(300)`, `AgP\T2Ip(2000)`, `AgP\aveChP`, `ANCE[100]\LE(300,5)`, `ANCE[100]\LE(2000,5)`, `AP`,
}

// BenchmarkEvalRiC evaluates the default measures on passage-run.ric.fol,
// reading the files each time (as the command does).
func BenchmarkEvalRiC(b *testing.B) {
	dir := shareddata.INEX(b)
	opt := EvalOptions{Measures: mustMeasures(b, benchMeasures...)}
	for b.Loop() {
		q := openQrels(b, filepath.Join(dir, "inex2009-2010.qrels"))
		if _, err := EvaluateFiles(q, []string{filepath.Join(dir, "passage-run.ric.fol")}, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// synth describes a synthetic collection for the scale benchmarks.
type synth struct {
	runs, topics, articles int // articles retrieved per topic and run
	pool                   int // candidate articles per topic
	judged                 int // judged relevant articles per topic
	lengthScale            int // multiplies every article length
}

// articleLen is the length of article a: log-uniform 1,000–60,000 characters
// (Wikipedia-like), times scale.
func articleLen(a, scale int) int {
	r := rand.New(rand.NewPCG(uint64(a), 7))
	return int(1000*pow60(r.Float64())) * scale
}

func pow60(u float64) float64 { // 60^u
	x := 1.0
	for i := 0; i < 20; i++ { // crude but deterministic exp(u ln 60)
		x *= 1 + u*4.0943445622/20
	}
	return x
}

// passages appends 1–5 sorted disjoint passages of about 200–3,000
// characters (times scale) inside [0,L).
func passages(r *rand.Rand, L, scale int, dst [][2]int) [][2]int {
	n := 1 + r.IntN(5)
	pos := 0
	for i := 0; i < n && pos < L; i++ {
		gap := r.IntN(L/(2*n) + 1)
		ln := (200 + r.IntN(2800)) * scale
		s := pos + gap
		if s >= L {
			break
		}
		e := min(s+ln, L)
		dst = append(dst, [2]int{s, e})
		pos = e + 1
	}
	return dst
}

// generate writes the judgments and the runs into dir and returns their
// paths and the number of run lines.
func (s synth) generate(tb testing.TB, dir string) (qrels string, runs []string, lines int) {
	qrels = filepath.Join(dir, "synth.qrels")
	f, err := os.Create(qrels)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var buf []byte
	var ps [][2]int
	for t := 0; t < s.topics; t++ {
		r := rand.New(rand.NewPCG(uint64(t), 1))
		for j := 0; j < s.judged; j++ {
			a := t*s.pool + r.IntN(s.pool)*0 + j*(s.pool/s.judged) // distinct
			L := articleLen(a, s.lengthScale)
			ps = passages(r, L, s.lengthScale, ps[:0])
			rs := 0
			for _, p := range ps {
				rs += p[1] - p[0]
			}
			buf = fmt.Appendf(buf[:0], "%d Q0 %d %d %d 0", 3000+t, a, rs, L)
			for _, p := range ps {
				buf = fmt.Appendf(buf, " %d:%d", p[0], p[1]-p[0])
			}
			w.Write(append(buf, '\n'))
		}
	}
	w.Flush()
	f.Close()
	for i := 0; i < s.runs; i++ {
		name := filepath.Join(dir, "run"+strconv.Itoa(i)+".fol")
		runs = append(runs, name)
		f, err := os.Create(name)
		if err != nil {
			tb.Fatal(err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		r := rand.New(rand.NewPCG(uint64(i), 2))
		id := "synth" + strconv.Itoa(i)
		for t := 0; t < s.topics; t++ {
			perm := r.Perm(s.pool)[:s.articles]
			for rank, k := range perm {
				a := t*s.pool + k
				L := articleLen(a, s.lengthScale)
				ps = passages(r, L, s.lengthScale, ps[:0])
				for _, p := range ps {
					buf = strconv.AppendInt(buf[:0], int64(3000+t), 10)
					buf = append(buf, " Q0 "...)
					buf = strconv.AppendInt(buf, int64(a), 10)
					buf = append(buf, ' ')
					buf = strconv.AppendInt(buf, int64(rank+1), 10)
					buf = append(buf, ' ')
					buf = strconv.AppendFloat(buf, 1/float64(rank+1), 'f', 6, 64)
					buf = append(buf, ' ')
					buf = append(buf, id...)
					buf = append(buf, ' ')
					buf = strconv.AppendInt(buf, int64(p[0]), 10)
					buf = append(buf, ' ')
					buf = strconv.AppendInt(buf, int64(p[1]-p[0]), 10)
					w.Write(append(buf, '\n'))
					lines++
				}
			}
		}
		w.Flush()
		f.Close()
	}
	return qrels, runs, lines
}

// peakRSS returns the process's peak resident memory in MiB (Linux), or 0.
func peakRSS() float64 { return float64(procstat.PeakRSS()) / (1 << 20) }

func benchScale(b *testing.B, s synth) {
	dir := os.Getenv("READSIM_SCALE_DIR") // keep the files there (to time the binary)
	if dir == "" {
		dir = b.TempDir()
	}
	qrels, runs, lines := s.generate(b, dir)
	q := openQrels(b, qrels)
	opt := EvalOptions{Measures: mustMeasures(b, benchMeasures...)}
	runtime.GC()
	b.ResetTimer()
	for b.Loop() {
		res, err := EvaluateFiles(q, runs, opt)
		if err != nil {
			b.Fatal(err)
		}
		if len(res) != s.runs || len(res[0].Topics) != s.topics {
			b.Fatalf("%d results", len(res))
		}
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
	b.ReportMetric(float64(lines), "lines")
	b.ReportMetric(peakRSS(), "peakRSS-MiB")
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "procs")
}

// BenchmarkScale evaluates 100 runs × 120 topics × 1,500 articles (1–5
// passages each, about 540,000 lines per run) with the default measures, in
// one call using every core.
func BenchmarkScale(b *testing.B) {
	benchScale(b, synth{runs: 100, topics: 120, articles: 1500, pool: 3000, judged: 100, lengthScale: 1})
}

// BenchmarkScaleLength shows that the cost follows the number of passages,
// not the length of the articles: the same runs with articles (and passages)
// 1, 10 and 100 times longer.
func BenchmarkScaleLength(b *testing.B) {
	for _, k := range []int{1, 10, 100} {
		b.Run("x"+strconv.Itoa(k), func(b *testing.B) {
			benchScale(b, synth{runs: 4, topics: 120, articles: 1500, pool: 3000, judged: 100, lengthScale: k})
		})
	}
}

// BenchmarkScalePassages shows the cost growing linearly with the number of
// passages (articles retrieved per topic).
func BenchmarkScalePassages(b *testing.B) {
	for _, n := range []int{375, 750, 1500} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			benchScale(b, synth{runs: 4, topics: 120, articles: n, pool: 3000, judged: 100, lengthScale: 1})
		})
	}
}

// BenchmarkEvalVsLineReader measures eval of one run of about 1.2 million
// lines (120 topics × 4,200 articles × 1–5 passages) against a plain Go
// reader of the same file: bufio lines split into fields, the rank, score,
// offset and length parsed (what any program reading a run does). The
// target is eval ≤ 2.5 × the reader and under 256 MB; both sub-benchmarks
// report their time per run, and "eval" its peak resident memory.
func BenchmarkEvalVsLineReader(b *testing.B) {
	dir := os.Getenv("READSIM_SCALE_DIR") // keep the files there (to time the binary)
	if dir == "" {
		dir = b.TempDir()
	}
	s := synth{runs: 1, topics: 120, articles: 4200, pool: 5000, judged: 40, lengthScale: 1}
	qrels, runs, lines := s.generate(b, dir)
	b.Logf("%d lines", lines)
	b.Run("lines", func(b *testing.B) {
		for b.Loop() {
			f, err := os.Open(runs[0])
			if err != nil {
				b.Fatal(err)
			}
			sc := bufio.NewScanner(f)
			sc.Buffer(make([]byte, 256<<10), 16<<20)
			n, sum := 0, 0.0
			for sc.Scan() {
				fs := strings.Fields(sc.Text())
				rank, _ := strconv.Atoi(fs[3])
				score, _ := strconv.ParseFloat(fs[4], 64)
				off, _ := strconv.Atoi(fs[6])
				ln, _ := strconv.Atoi(fs[7])
				n++
				sum += float64(rank+off+ln) + score
			}
			f.Close()
			if n != lines || sum == 0 {
				b.Fatalf("%d lines", n)
			}
		}
		b.ReportMetric(float64(lines), "lines")
	})
	b.Run("eval", func(b *testing.B) {
		q := openQrels(b, qrels)
		opt := EvalOptions{Measures: mustMeasures(b, benchMeasures...)}
		for b.Loop() {
			if _, err := EvaluateFiles(q, runs, opt); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(lines), "lines")
		b.ReportMetric(peakRSS(), "peakRSS-MiB")
	})
}
