package index

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/build"
	"github.com/readsim/readsim/index/records"
	"github.com/readsim/readsim/internal/ground/procstat"
)

// BenchmarkPlainBleve is the baseline of BenchmarkScale's build: a plain
// Bleve index of the same synthetic collection, with the same fields
// analysed the same way — title and text, stored and indexed with Bleve's
// English analyzer (readsim's analysis of English text, TestAnalysisAnchors),
// BM25 — and the candidate elements' spans stored, indexed by Bleve's own
// batch indexing (Index.Batch, batches of DefaultBatchBytes of XML, Bleve's
// default scorch configuration) into one index. The articles are parsed
// (and mapped to Bleve documents) on GOMAXPROCS goroutines, as Build
// parses them. It reports what BenchmarkScale reports of a build: run each
// in a process of its own (peak-RSS-MB is the process's):
//
//	go test -run '^$' -bench 'PlainBleve/10k' -benchtime 1x ./index/
func BenchmarkPlainBleve(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) { benchPlain(b, n) })
	}
}

// xmlFiles returns the paths of the .xml files below dir, sorted.
func xmlFiles(dir string) []string {
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".xml") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return files
}

// plainDoc is what the plain Bleve index stores of an article.
type plainDoc struct {
	Title string `json:"title"`
	Text  string `json:"text"`
	Elems string `json:"elems"`
}

func plainMapping() *mapping.IndexMappingImpl {
	im := mapping.NewIndexMapping()
	im.ScoringModel = bindex.BM25Scoring
	dm := mapping.NewDocumentStaticMapping()
	for _, f := range []string{"title", "text"} {
		fm := mapping.NewTextFieldMapping()
		fm.Analyzer = en.AnalyzerName
		fm.Store = true
		fm.IncludeTermVectors = false
		fm.DocValues = false
		dm.AddFieldMappingsAt(f, fm)
	}
	em := mapping.NewTextFieldMapping()
	em.Index = false
	em.Store = true
	em.DocValues = false
	em.IncludeInAll = false
	dm.AddFieldMappingsAt("elems", em)
	im.DefaultMapping = dm
	return im
}

func benchPlain(b *testing.B, n int) {
	arts, xmlBytes := benchCollection(b, n)
	files := xmlFiles(arts)
	names := map[string]bool{}
	for _, e := range DefaultElements {
		names[e] = true
	}
	b.ResetTimer()
	cpu0 := procstat.CPUTime()
	var elapsed time.Duration
	idx := filepath.Join(b.TempDir(), "plain")
	for i := 0; i < b.N; i++ {
		os.RemoveAll(idx)
		t0 := time.Now()
		im := plainMapping()
		x, err := bleve.New(idx, im)
		if err != nil {
			b.Fatal(err)
		}
		rd := &article.Reader{Root: arts}
		type mapped struct {
			doc  *document.Document
			size int64
		}
		jobs, out := make(chan string), make(chan mapped, 64)
		var wg sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for p := range jobs {
					a, err := rd.ParseFile(p)
					if err != nil {
						b.Error(err)
						continue
					}
					id := strings.TrimSuffix(filepath.Base(p), ".xml")
					d := document.NewDocument(id)
					if err := im.MapDocument(d, plainDoc{Title: a.Title, Text: a.Text, Elems: encodeElems(build.Candidates(a, names))}); err != nil {
						b.Error(err)
						continue
					}
					st, _ := os.Stat(p)
					out <- mapped{d, st.Size()}
				}
			}()
		}
		go func() {
			for _, p := range files {
				jobs <- p
			}
			close(jobs)
			wg.Wait()
			close(out)
		}()
		batch, size := x.NewBatch(), int64(0)
		for m := range out {
			if err := batch.IndexAdvanced(m.doc); err != nil {
				b.Fatal(err)
			}
			if size += m.size; size >= build.DefaultBatchBytes {
				if err := x.Batch(batch); err != nil {
					b.Fatal(err)
				}
				batch, size = x.NewBatch(), 0
			}
		}
		if err := x.Batch(batch); err != nil {
			b.Fatal(err)
		}
		if err := x.Close(); err != nil {
			b.Fatal(err)
		}
		elapsed = time.Since(t0)
	}
	b.StopTimer()
	b.ReportMetric((procstat.CPUTime() - cpu0).Seconds(), "build-cpu-s")
	b.ReportMetric(float64(xmlBytes)/1e6/elapsed.Seconds(), "MB/s")
	b.ReportMetric(float64(len(files))/elapsed.Seconds(), "articles/s")
	b.ReportMetric(float64(dirSize(idx))/1e6, "index-MB")
	b.ReportMetric(float64(procstat.PeakRSS())/1e6, "peak-RSS-MB")
}

// encodeElems writes elements one per line: start TAB end TAB xpath.
func encodeElems(els []records.Elem) string {
	var b strings.Builder
	for _, e := range els {
		b.WriteString(strconv.Itoa(e.Start))
		b.WriteByte('\t')
		b.WriteString(strconv.Itoa(e.End))
		b.WriteByte('\t')
		b.WriteString(e.XPath)
		b.WriteByte('\n')
	}
	return b.String()
}
