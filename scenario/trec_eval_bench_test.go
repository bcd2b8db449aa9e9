package scenario

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/scenario/inex"
)

// trecBenchFiles writes graded qrels (200 judgments a topic, grades 0–3)
// and a run of lines results (1,000 a topic, scores of one decimal: many
// ties) into dir, as the speed figures of docs/trec_eval.md were measured
// (their 2 M-line run is READSIM_TREC_BENCH_LINES=2000000).
func trecBenchFiles(tb testing.TB, dir string, lines int) (qrels, run string) {
	tb.Helper()
	qrels, run = filepath.Join(dir, "bench.qrels"), filepath.Join(dir, "bench.run")
	qf, err := os.Create(qrels)
	if err != nil {
		tb.Fatal(err)
	}
	rf, err := os.Create(run)
	if err != nil {
		tb.Fatal(err)
	}
	qw, rw := bufio.NewWriter(qf), bufio.NewWriter(rf)
	r := rand.New(rand.NewPCG(7, 28))
	const per = 1000
	for t := 0; t*per < lines; t++ {
		topic := strconv.Itoa(100000 + t)
		for _, d := range r.Perm(2 * per)[:200] {
			fmt.Fprintf(qw, "%s 0 D%07d %d\n", topic, d, [...]int{0, 0, 0, 1, 1, 2, 3}[r.IntN(7)])
		}
		for i, d := range r.Perm(6 * per)[:per] {
			fmt.Fprintf(rw, "%s Q0 D%07d %d %.1f runA\n", topic, d, i+1, float64(r.IntN(401))/10)
		}
	}
	for _, err := range []error{qw.Flush(), rw.Flush(), qf.Close(), rf.Close()} {
		if err != nil {
			tb.Fatal(err)
		}
	}
	return qrels, run
}

func trecBenchLines() int {
	if n, err := strconv.Atoi(os.Getenv("READSIM_TREC_BENCH_LINES")); err == nil && n > 0 {
		return n
	}
	return 200_000
}

// BenchmarkTrecEvalAllTrec is readsim trec_eval -m all_trec on a
// synthetic run (200,000 lines; READSIM_TREC_BENCH_LINES sets another
// size), reading both files each time as the command does.
func BenchmarkTrecEvalAllTrec(b *testing.B) {
	qrels, run := trecBenchFiles(b, b.TempDir(), trecBenchLines())
	ms, err := effort.TrecSelect([]string{"all_trec"})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		q, err := inex.OpenTrecEvalQrels(qrels)
		if err != nil {
			b.Fatal(err)
		}
		if err := TrecEvalFile(io.Discard, q, run, TrecEvalOptions{Measures: ms, Config: effort.TrecConfig{RelevanceLevel: 1}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTrecEvalLineReader reads the same run with the project's plain
// line reader (BenchmarkEvalVsLineReader's): bufio lines split into fields,
// the rank and the score parsed.
func BenchmarkTrecEvalLineReader(b *testing.B) {
	_, run := trecBenchFiles(b, b.TempDir(), trecBenchLines())
	b.ResetTimer()
	for b.Loop() {
		f, err := os.Open(run)
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
			n++
			sum += float64(rank) + score
		}
		f.Close()
		if n == 0 || sum == 0 {
			b.Fatal("no line")
		}
	}
}
