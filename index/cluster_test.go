package index

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/article/shareddata"
	"github.com/readsim/readsim/index/opensearch"
	"github.com/readsim/readsim/index/opensearch/clustertest"
)

// clusterIndexURL returns the --index URL of a fresh index name on the
// test cluster (clustertest), whose builds are dropped when the test ends.
func clusterIndexURL(t *testing.T, what string) string {
	t.Helper()
	urls := clustertest.URLs(t)
	var hosts []string
	for _, u := range urls {
		hosts = append(hosts, strings.TrimPrefix(strings.TrimPrefix(strings.TrimRight(u, "/"), "http://"), "https://"))
	}
	name := fmt.Sprintf("readsim-test-%s-%d", what, time.Now().UnixNano())
	t.Cleanup(func() {
		c, err := opensearch.New(opensearch.Config{URLs: urls})
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close()
		if err := c.Drop(context.Background(), name); err != nil {
			t.Errorf("dropping %s: %v", name, err)
		}
	})
	return "http://" + strings.Join(hosts, ",") + "/" + name
}

// TestClusterSameAsEmbedded builds the bundled sample and the real
// Wikipedia articles (English, Chinese, Korean) into the embedded index
// and into an index on the test cluster, then searches every article's
// title in both: the same first article, and for every article both
// return in their top 10, the same passages (spans and XPaths) and
// snippet. The embedded index is the reference (its passages are tested
// against the specification elsewhere). A title that holds a lone CJK
// character is refused by the cluster, naming it (ErrCharTerm).
//
// Scores differ a little: Lucene stores a field's length in one byte
// (docs/cluster.md), and computes in 32-bit floats; the test reports the
// largest relative difference and fails above 10%.
func TestClusterSameAsEmbedded(t *testing.T) {
	for _, name := range []string{"sample", "wikipedia"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // one builds while the other searches
			dir := filepath.Join("..", "corpus-sample", "articles")
			if name == "wikipedia" {
				dir = shareddata.Wikipedia(t)
			}
			u := clusterIndexURL(t, name)
			folder := filepath.Join(t.TempDir(), "idx")
			for _, where := range []string{folder, u} {
				if _, err := Build(BuildOptions{Articles: dir, Index: where, Reader: &article.Reader{Root: dir}}); err != nil {
					t.Fatalf("building %s: %v", where, err)
				}

			}
			emb := openTest(t, folder)
			cl, err := OpenAt(u)
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			if emb.Articles() != cl.Articles() || !reflect.DeepEqual(emb.Langs(), cl.Langs()) {
				t.Fatalf("articles %d %v embedded, %d %v on the cluster", emb.Articles(), emb.Langs(), cl.Articles(), cl.Langs())
			}
			compareTitles(t, emb, cl)
			if _, err := cl.Prepare("塔 history"); !errors.Is(err, ErrCharTerm) || !strings.Contains(err.Error(), `"塔"`) {
				t.Errorf("a lone CJK character: %v, want ErrCharTerm naming 塔", err)
			}
		})
	}
}

// compareTitles searches every article's title in emb and cl and
// compares the results (TestClusterSameAsEmbedded), four titles at a
// time: the cluster answers several requests at once, and a test that
// waits for each in turn spends most of its time waiting.
func compareTitles(t *testing.T, emb *Index, cl Searcher) {
	ids := emb.articleIDs(t)
	outs := make([]titleOutcome, len(ids))
	next := make(chan int)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				outs[i] = compareTitle(t, emb, cl, ids[i])
			}
		}()
	}
	for i := range ids {
		next <- i
	}
	close(next)
	wg.Wait()
	var refused, compared, same, maxRel = 0, 0, 0, 0.0
	for _, o := range outs {
		refused += o.refused
		compared += o.compared
		same += o.same
		maxRel = math.Max(maxRel, o.maxRel)
	}
	t.Logf("%d titles compared, %d with the same first article, %d refused (a lone CJK character); largest relative score difference %.4f", compared, same, refused, maxRel)
	if compared == 0 || maxRel > 0.1 {
		t.Errorf("%d titles compared; largest relative score difference %.4f, want at most 0.1", compared, maxRel)
	}
}

// titleOutcome is what compareTitle found of one title: counts (0 or 1)
// and the largest relative score difference.
type titleOutcome struct {
	refused, compared, same int
	maxRel                  float64
}

// compareTitle searches the title of article id in emb and cl and
// compares the results: the same first article, and for every article
// both return, the same passages, snippet, title and language.
func compareTitle(t *testing.T, emb *Index, cl Searcher, id string) (out titleOutcome) {
	ctx := context.Background()
	d, err := emb.Article(id)
	if err != nil {
		t.Error(err)
		return out
	}
	q := d.Title
	eq, err := emb.Prepare(q)
	if errors.Is(err, ErrNoTerms) {
		return out
	}
	if err != nil {
		t.Errorf("%q: %v", q, err)
		return out
	}
	cq, err := cl.Prepare(q)
	if errors.Is(err, ErrCharTerm) {
		if !strings.Contains(err.Error(), "lone") {
			t.Errorf("%q: %v, want it to name the lone character", q, err)
		}
		return titleOutcome{refused: 1}
	}
	er, err1 := emb.Search(ctx, eq, 10, Options{})
	var cr []SearchResult
	if err == nil {
		cr, err = cl.Search(ctx, cq, 10, Options{})
	}
	if err1 != nil || err != nil {
		t.Errorf("%q: %v embedded, %v on the cluster", q, err1, err)
		return out
	}
	out.compared = 1
	if len(er) == 0 || len(cr) == 0 || er[0].ID != cr[0].ID {
		t.Errorf("%q: first article %v embedded, %v on the cluster", q, firstIDs(er), firstIDs(cr))
		return out
	}
	out.same = 1
	byID := map[string]SearchResult{}
	for _, r := range er {
		byID[r.ID] = r
	}
	for _, c := range cr {
		e, ok := byID[c.ID]
		if !ok {
			continue
		}
		if !reflect.DeepEqual(e.Passages, c.Passages) || e.Snippet != c.Snippet || e.Title != c.Title || e.Lang != c.Lang {
			t.Errorf("%q, article %s: passages %v, snippet %q embedded; %v, %q on the cluster", q, c.ID, e.Passages, e.Snippet, c.Passages, c.Snippet)
		}
		out.maxRel = math.Max(out.maxRel, math.Abs(e.Score-c.Score)/e.Score)
	}
	ep, err1 := emb.Passages(ctx, q, er[0].ID, Options{})
	cp, err2 := cl.Passages(ctx, q, er[0].ID, Options{})
	if err1 != nil || err2 != nil || !reflect.DeepEqual(ep, cp) {
		t.Errorf("%q, Passages of %s: %v (%v) embedded, %v (%v) on the cluster", q, er[0].ID, ep, err1, cp, err2)
	}
	return out
}

// articleIDs returns the ids of the index's articles, sorted.
func (x *Index) articleIDs(t *testing.T) []string {
	t.Helper()
	s := x.snap()
	var ids []string
	for _, sh := range s.Bleve {
		r, err := shardReader(sh)
		if err != nil {
			t.Fatal(err)
		}
		dr, err := r.DocIDReaderAll()
		if err != nil {
			t.Fatal(err)
		}
		for {
			n, err := dr.Next()
			if err != nil {
				t.Fatal(err)
			}
			if n == nil {
				break
			}
			id, err := r.ExternalID(n)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		dr.Close()
		r.Close()
	}
	sort.Strings(ids)
	return ids
}

// firstIDs are the ids of the first three results.
func firstIDs(rs []SearchResult) []string {
	var out []string
	for _, r := range rs[:min(3, len(rs))] {
		out = append(out, fmt.Sprintf("%s %.4f", r.ID, r.Score))
	}
	return out
}

// TestClusterGuards: readsim index on a cluster never writes into an index
// it did not create (nor does a search read it), and leaves an index whose
// collection has not changed as it is.
func TestClusterGuards(t *testing.T) {
	u := clusterIndexURL(t, "guards")
	cu, err := ParseURL(u)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "corpus-sample", "articles")
	res, err := Build(BuildOptions{Articles: dir, Index: u})
	if err != nil || res.Articles != 52 || res.Indexed != 52 || !res.Full {
		t.Fatalf("first build: %+v, %v", res, err)
	}
	res, err = Build(BuildOptions{Articles: dir, Index: u})
	if err != nil || res.Unchanged != 52 || res.Indexed != 0 || res.Full {
		t.Fatalf("second build of the same folder: %+v, %v; want 52 unchanged", res, err)
	}
	// a plain index of OpenSearch's, not readsim's, under a name
	c, err := opensearch.New(opensearch.Config{URLs: cu.Nodes})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	foreign := strings.Replace(u, "/readsim-test-guards", "/readsim-test-foreign", 1)
	fu, _ := ParseURL(foreign)
	if err := putPlainIndex(cu.Nodes[0], fu.Name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { deletePlainIndex(cu.Nodes[0], fu.Name) })
	var ie interface{ BadInput() bool }
	if _, err := Build(BuildOptions{Articles: dir, Index: foreign}); !errors.As(err, &ie) || !errors.Is(err, opensearch.ErrForeign) {
		t.Errorf("building into a foreign index: %v, want an InputError saying it is not readsim's", err)
	}
	if _, err := OpenAt(foreign); !errors.As(err, &ie) || !errors.Is(err, opensearch.ErrForeign) {
		t.Errorf("opening a foreign index: %v, want an InputError saying it is not readsim's", err)
	}
	if _, err := OpenAt(strings.Replace(u, "/readsim-test-guards", "/readsim-test-none", 1)); !errors.As(err, &ie) || !strings.Contains(err.Error(), "build it with readsim index") {
		t.Errorf("opening a missing index: %v, want an InputError saying to build it", err)
	}
}

// putPlainIndex creates an index of OpenSearch's own (no readsim marker).
func putPlainIndex(node, name string) error {
	req, err := http.NewRequest("PUT", node+"/"+name, bytes.NewReader([]byte(`{"mappings":{"properties":{"x":{"type":"keyword"}}}}`)))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		return fmt.Errorf("creating %s: status %d", name, res.StatusCode)
	}
	return nil
}

// deletePlainIndex deletes it.
func deletePlainIndex(node, name string) {
	req, _ := http.NewRequest("DELETE", node+"/"+name, nil)
	if res, err := http.DefaultClient.Do(req); err == nil {
		res.Body.Close()
	}
}

// TestClusterDown: an index on a cluster that is down is an error naming
// its URL, within the URL's timeout: a port nothing listens on (refused at
// once), and a listener that accepts and never answers (bounded by
// ?timeout=2s). Neither needs a cluster.
func TestClusterDown(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := closed.Addr().String()
	closed.Close()
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	var held []net.Conn
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			held = append(held, c) // never answered
		}
	}()
	for _, c := range []struct {
		url    string
		within time.Duration
	}{
		{"http://" + refused + "/wiki", 5 * time.Second},
		{"http://" + silent.Addr().String() + "/wiki?timeout=2s", 6 * time.Second},
	} {
		for _, f := range []func() error{
			func() error { _, err := OpenAt(c.url); return err },
			func() error {
				_, err := Build(BuildOptions{Articles: filepath.Join("..", "corpus-sample", "articles"), Index: c.url})
				return err
			},
		} {
			t0 := time.Now()
			err := f()
			took := time.Since(t0)
			host := strings.SplitN(c.url, "/wiki", 2)[0]
			if err == nil || !strings.Contains(err.Error(), host) || !errors.Is(err, opensearch.ErrUnreachable) || took > c.within {
				t.Errorf("%s: %v after %v, want an error naming %s within %v", c.url, err, took, host, c.within)
			}
		}
	}
}
