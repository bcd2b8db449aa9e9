package index

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/readsim/readsim/effort"
	"github.com/readsim/readsim/index/article"
	"github.com/readsim/readsim/index/build"
	"github.com/readsim/readsim/index/internal/synth"
	"github.com/readsim/readsim/index/records"
	"github.com/readsim/readsim/index/store"
	"github.com/readsim/readsim/internal/ground/testfs"
)

// hitsCover counts what the comparisons of Hits with Search went
// through: the cases of the record store that a snippet or a passage
// read by blocks must get right.
type hitsCover struct {
	hits       int // hits compared
	twoBlocks  int // snippets that read two blocks or more
	longPass   int // passages holding a whole block (longer than one)
	cjk        int // hits in Chinese, Japanese or Korean
	quietSnips int // snippets whose passage holds a quiet span
}

func (c hitsCover) String() string {
	return fmt.Sprintf("%d hits: %d snippets read two blocks or more, %d passages hold a whole block, %d hits in CJK, %d snippets' passages hold a quiet span",
		c.hits, c.twoBlocks, c.longPass, c.cjk, c.quietSnips)
}

// recordOf reads the record of article id from the snapshot's records
// file, at the place a search finds it (DocPlaces).
func recordOf(t *testing.T, s *snapshot, id string) (*records.Record, error) {
	sh := store.ShardOf(id, len(s.Bleve))
	return s.Recs[sh].Read(s.Places[sh][docNumber(t, s, sh, id)], false, nil)
}

// compareHits checks that x.Hits gives for pq what x.Search (the
// reference: every hit's article read whole) gives: the same hits in
// the same order with the same scores, titles, languages and lengths,
// the same passages' spans and the same snippets. It counts in c what
// the hits went through, making each hit's snippet again from a
// blockText of its record to see which blocks it reads.
func compareHits(t *testing.T, x *Index, q string, pq *Query, c *hitsCover) {
	t.Helper()
	ctx := context.Background()
	opt := Options{}
	want, err := x.Search(ctx, pq, 50, opt)
	if err != nil {
		t.Fatalf("Search %q: %v", q, err)
	}
	got, err := x.Hits(ctx, pq, 50, opt)
	if err != nil {
		t.Fatalf("Hits %q: %v", q, err)
	}
	if len(got) != len(want) {
		t.Errorf("%q: Hits gives %d hits, Search %d", q, len(got), len(want))
		return
	}
	for i, w := range want {
		g := got[i]
		var spans []effort.Span
		for _, p := range w.Passages {
			spans = append(spans, p.Span)
		}
		if g.Hit != w.Hit || g.Len != w.Doc.Len || !slices.Equal(g.Passages, spans) || g.Snippet != w.Snippet {
			t.Errorf("%q hit %d: Hits %+v len %d %v %q; Search %+v len %d %v %q", q, i, g.Hit, g.Len, g.Passages, g.Snippet, w.Hit, w.Doc.Len, spans, w.Snippet)
			continue
		}
		c.hits++
		if article.IsCJK(w.Lang) {
			c.cjk++
		}
		// the snippet's passage, as browseHits chooses it
		d := w.Doc
		p := Passage{Span: effort.Span{Start: 0, End: d.Len}}
		if len(d.Elems) > 0 {
			p.Start = d.Elems[0].Start
		}
		if len(w.Passages) > 0 {
			p = w.Passages[0]
		}
		for k := 0; k+1 < len(d.Quiet); k += 2 {
			if d.Quiet[k] < p.End && d.Quiet[k+1] > p.Start {
				c.quietSnips++
				break
			}
		}
		_, err := withSnapshot(x, func(s *snapshot) (struct{}, error) {
			r, err := recordOf(t, s, w.ID)
			if err != nil {
				return struct{}{}, err
			}
			for _, p := range w.Passages {
				for _, bl := range r.Blocks {
					if bl.Char >= p.Start && bl.Char+bl.Chars <= p.End {
						c.longPass++
						break
					}
				}
			}
			b := d.WithBlocks(r, &records.Arena{})
			snip := Snippet(b, p, pq, opt.snippetWidth(d.Lang))
			if _, berr := b.BlocksErr(); snip != w.Snippet || berr != nil {
				t.Errorf("%q %s: snippet from blocks %q (%v), Search's %q", q, w.ID, snip, berr, w.Snippet)
			}
			if b.BlocksRead() >= 2 {
				c.twoBlocks++
			}
			return struct{}{}, nil
		})
		if err != nil {
			t.Fatalf("%q %s: %v", q, w.ID, err)
		}
	}
}

// setRecordsStamp writes into the manifest of the index idx the stamp
// (size and CRC-32) of the records file of shard 0 as it is now: a file
// damaged behind its stamp, which Open lets through.
func setRecordsStamp(t *testing.T, idx string) {
	t.Helper()
	st, err := stampRecords(firstRecords(t, idx))
	if err != nil {
		t.Fatal(err)
	}
	editManifest(t, idx, func(m map[string]any) {
		m["records"].([]any)[0] = map[string]any{"size": st.Size, "crc32": st.CRC}
	})
}

// oneShardTest builds the test collection into an index of one shard and
// returns the articles' folder, the index, its records file and the
// file's bytes.
func oneShardTest(t *testing.T) (articles, idx, recs string, b []byte) {
	t.Helper()
	dir := t.TempDir()
	articles, idx = filepath.Join(dir, "articles"), filepath.Join(dir, "idx")
	testfs.Write(t, articles, testArticles)
	if _, err := Build(BuildOptions{Articles: articles, Index: idx, Shards: 1}); err != nil {
		t.Fatal(err)
	}
	recs = firstRecords(t, idx)
	b, err := os.ReadFile(recs)
	if err != nil {
		t.Fatal(err)
	}
	return articles, idx, recs, b
}

// TestRecordsDamagedBehindStamp damages the records file of a one-shard
// index and writes its new size and CRC-32 into the manifest: Open
// passes, and then every read of a record — Search, Hits, Article,
// Passages — is a DamagedError naming the records file, never a panic
// nor a wrong answer. An update does not append to the file: readsim
// index builds the index again, naming it, when it can tell (records
// the manifest's articles do not fit in); a file garbled to its right
// size needs --rebuild, as the error says.
func TestRecordsDamagedBehindStamp(t *testing.T) {
	for _, tc := range []struct {
		name    string
		damage  func(b []byte) []byte
		rebuilt bool // readsim index sees it
	}{
		{"places outside the file", func(b []byte) []byte { return b[:len(records.Magic)+1] }, true},
		{"places outside the file but one", func(b []byte) []byte { return b[:len(b)-1] }, true},
		{"garbled records", func(b []byte) []byte {
			return append(b[:len(records.Magic)], bytes.Repeat([]byte{0xff}, len(b)-len(records.Magic))...)
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			articles, idx, p, b := oneShardTest(t)
			if err := os.WriteFile(p, tc.damage(b), 0o644); err != nil {
				t.Fatal(err)
			}
			setRecordsStamp(t, idx)
			x, err := Open(idx)
			if err != nil {
				t.Fatalf("Open: %v, want it opened (the damage is behind the stamp)", err)
			}
			ctx := context.Background()
			pq, err := x.Prepare("fresnel lens")
			if err != nil {
				t.Fatal(err)
			}
			damaged := func(what string, err error) {
				t.Helper()
				var de *DamagedError
				if !errors.As(err, &de) || de.File != p || !strings.Contains(err.Error(), p) {
					t.Errorf("%s: %v, want a DamagedError naming %s", what, err, p)
				}
			}
			res, err := x.Search(ctx, pq, 10, Options{})
			damaged(fmt.Sprintf("Search (%d results)", len(res)), err)
			hits, err := x.Hits(ctx, pq, 10, Options{})
			damaged(fmt.Sprintf("Hits (%d results)", len(hits)), err)
			// the last record stands whole in a file cut by one byte but
			// for the last: the article it is of is not known, so each is
			// asked and one at least must fail
			failed := 0
			for _, id := range []string{"1001", "2001", "3001"} {
				d, err := x.Article(id)
				if err != nil {
					damaged("Article "+id, err)
					failed++
				} else if d.Text == "" {
					t.Errorf("Article %s: no error, no text", id)
				}
				if _, err := x.Passages(ctx, "fresnel", id, Options{}); err != nil {
					damaged("Passages "+id, err)
				}
			}
			if failed == 0 {
				t.Error("every article read, want one at least damaged")
			}
			x.Close()
			br, err := Build(BuildOptions{Articles: articles, Index: idx})
			if err != nil {
				t.Fatalf("readsim index: %v", err)
			}
			if tc.rebuilt && (!br.Full || br.Indexed != 3 || !strings.Contains(br.Rebuilt, p)) {
				t.Errorf("update: full=%v indexed=%d rebuilt=%q, want a full build of 3 naming %s", br.Full, br.Indexed, br.Rebuilt, p)
			}
			if !tc.rebuilt {
				if br.Full || br.Indexed != 0 {
					t.Errorf("update: full=%v indexed=%d, want nothing done", br.Full, br.Indexed)
				}
				// an update that deletes an article reads its record (its
				// terms' counts): it fails naming the file, and leaves the
				// index as it was
				later := time.Now().Add(time.Hour)
				if err := os.Chtimes(filepath.Join(articles, "1001.xml"), later, later); err != nil {
					t.Fatal(err)
				}
				_, err := Build(BuildOptions{Articles: articles, Index: idx})
				damaged("an update deleting 1001", err)
				if x, err := Open(idx); err != nil {
					t.Errorf("Open after the failed update: %v", err)
				} else {
					x.Close()
				}
				if _, err := Build(BuildOptions{Articles: articles, Index: idx, Rebuild: true}); err != nil {
					t.Fatal(err)
				}
			}
			if got := search(t, openTest(t, idx), "fresnel lens"); len(got) != 2 {
				t.Errorf("after the build: %+v, want 1001 and 3001", got)
			}
		})
	}
}

// recordsSizes returns the size of each shard's records file of the
// index idx, read from the disk, and the manifest.
func recordsSizes(t *testing.T, idx string) ([]int64, *store.Manifest) {
	t.Helper()
	m, err := store.ReadManifest(idx)
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for i := range m.Shards {
		st, err := os.Stat(records.Path(store.ShardDir(idx, i)))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, st.Size())
	}
	return out, m
}

// TestRecordsUpdate updates a two-shard index (an article changed, one
// deleted, one added): each records file keeps its bytes and grows by the
// new records only, their lengths as the manifest gives them, and the
// file being served is left as it was (a copy is appended to); searches
// and result lists give what a fresh build of the same articles gives;
// the changed article reads its new text.
func TestRecordsUpdate(t *testing.T) {
	dir := t.TempDir()
	articles, idx := filepath.Join(dir, "articles"), filepath.Join(dir, "idx")
	queries := synthArticles(t, articles, 50)
	if _, err := Build(BuildOptions{Articles: articles, Index: idx, Shards: 2}); err != nil {
		t.Fatal(err)
	}
	before, _ := recordsSizes(t, idx)
	var old [][]byte
	var served []*os.File // the files a server has mapped, held open
	for i := range before {
		p := records.Path(store.ShardDir(idx, i))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		old = append(old, b)
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		served = append(served, f)
	}
	x := openTest(t, idx)
	oldText := func(id string) string {
		d, err := x.Article(id)
		if err != nil {
			t.Fatal(err)
		}
		return d.Text
	}("1000012")
	x.Close()
	// change 1000012, delete 1000003, add 2000000
	g := synth.New(synth.Options{Seed: 99, Vocab: 2000})
	changed := g.Article(1000012)
	testfs.Write(t, articles, map[string]string{"001/1000012.xml": changed, "009/2000000.xml": g.Article(2000000)})
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(articles, "001", "1000012.xml"), later, later)
	os.Remove(filepath.Join(articles, "000", "1000003.xml"))
	res, err := Build(BuildOptions{Articles: articles, Index: idx})
	if err != nil {
		t.Fatal(err)
	}
	if res.Full || res.Indexed != 2 || res.Removed != 1 {
		t.Fatalf("update: %+v, want 2 indexed and 1 removed", res)
	}
	after, m := recordsSizes(t, idx)
	grew := make([]int64, len(before))
	for _, rel := range []string{"001/1000012.xml", "009/2000000.xml"} {
		e, ok := m.Articles[rel]
		if !ok || e.Rec <= 0 {
			t.Fatalf("manifest entry of %s: %+v", rel, e)
		}
		grew[store.ShardOf(e.ID, m.Shards)] += e.Rec
	}
	for i := range before {
		if after[i] != before[i]+grew[i] || m.Records[i].Size != after[i] {
			t.Errorf("shard %d: records file of %d bytes (manifest %d), want %d + %d new", i, after[i], m.Records[i].Size, before[i], grew[i])
		}
		b, err := os.ReadFile(records.Path(store.ShardDir(idx, i)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, old[i]) {
			t.Errorf("shard %d: the records written before the update changed", i)
		}
		// the stamp the writer kept as it appended is the file's own
		if sum := crc32.ChecksumIEEE(b); sum != m.Records[i].CRC {
			t.Errorf("shard %d: manifest CRC %08x, the file's %08x", i, m.Records[i].CRC, sum)
		}
		// the update wrote a copy: the file being served is as it was
		if b, err := io.ReadAll(served[i]); err != nil || !bytes.Equal(b, old[i]) {
			t.Errorf("shard %d: the served records file has %d bytes (%v), %d before the update", i, len(b), err, len(old[i]))
		}
	}
	fresh := filepath.Join(dir, "fresh")
	if _, err := Build(BuildOptions{Articles: articles, Index: fresh, Shards: 2}); err != nil {
		t.Fatal(err)
	}
	x, y := openTest(t, idx), openTest(t, fresh)
	ctx := context.Background()
	for _, q := range queries {
		sameResults(t, "updated "+q, search(t, x, q), search(t, y, q))
		pq, err := x.Prepare(q)
		if err != nil {
			t.Fatal(err)
		}
		a, errA := x.Hits(ctx, pq, 10, Options{})
		b, errB := y.Hits(ctx, pq, 10, Options{})
		if errA != nil || errB != nil || len(a) != len(b) {
			t.Errorf("%q: Hits updated %d (%v), fresh %d (%v)", q, len(a), errA, len(b), errB)
			continue
		}
		for i := range a {
			if a[i].ID != b[i].ID || math.Abs(a[i].Score-b[i].Score) > 1e-9*math.Abs(b[i].Score) ||
				!slices.Equal(a[i].Passages, b[i].Passages) || a[i].Snippet != b[i].Snippet || a[i].Len != b[i].Len {
				t.Errorf("%q rank %d: Hits updated %+v, fresh %+v", q, i+1, a[i], b[i])
			}
		}
	}
	got, err := x.Article("1000012")
	if err != nil {
		t.Fatal(err)
	}
	want, err := y.Article("1000012")
	if err != nil {
		t.Fatal(err)
	}
	if got.Text != want.Text || got.Text == oldText || !slices.Equal(got.Elems, want.Elems) {
		t.Errorf("the changed article reads %.60q…, fresh %.60q…, before %.60q…", got.Text, want.Text, oldText)
	}
	if _, err := x.Article("1000003"); err == nil {
		t.Error("the deleted article 1000003 still reads")
	}
}

// bigArticle is an article of n paragraphs of about 1 KB each of words
// drawn from rng: a text snappy compresses little.
func bigArticle(rng *rand.Rand, title string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<article><header><title>%s</title></header><bdy>", title)
	for range n {
		b.WriteString("<p>")
		for w := 0; w < 1000; {
			word := make([]byte, 2+rng.IntN(8))
			for i := range word {
				word[i] = byte('a' + rng.IntN(26))
			}
			b.Write(word)
			b.WriteByte(' ')
			w += len(word) + 1
		}
		b.WriteString("</p>")
	}
	b.WriteString("</bdy></article>")
	return b.String()
}

// TestRecordsWaste changes one big article again and again: each update
// appends its record and leaves the old one, until the old records are
// more than half the records files and recordsSlack besides; the build
// that finds them so is a full one, saying why, and leaves records files
// holding the live records only.
func TestRecordsWaste(t *testing.T) {
	dir := t.TempDir()
	articles, idx := filepath.Join(dir, "articles"), filepath.Join(dir, "idx")
	rng := rand.New(rand.NewPCG(27, 3))
	testfs.Write(t, articles, map[string]string{"1.xml": bigArticle(rng, "Big", 200), "2.xml": bigArticle(rng, "Small", 2)})
	if _, err := Build(BuildOptions{Articles: articles, Index: idx, Shards: 1}); err != nil {
		t.Fatal(err)
	}
	updates := 0
	for round := 1; ; round++ {
		if round > 20 {
			t.Fatalf("after %d updates the index is still updated", updates)
		}
		// by the rule, from the manifest before the build: more than half
		// old, and more than recordsSlack old
		sizes, m := recordsSizes(t, idx)
		var live int64
		for _, e := range m.Articles {
			live += e.Rec
		}
		size := sizes[0] - int64(len(records.Magic))
		wantFull := size-live > size/2 && size-live > live+build.RecordsSlack
		testfs.Write(t, articles, map[string]string{"1.xml": bigArticle(rng, "Big", 200)})
		later := time.Now().Add(time.Duration(round) * time.Hour)
		os.Chtimes(filepath.Join(articles, "1.xml"), later, later)
		res, err := Build(BuildOptions{Articles: articles, Index: idx})
		if err != nil {
			t.Fatal(err)
		}
		if res.Full != wantFull {
			t.Fatalf("round %d: %d bytes of records, %d live: full=%v rebuilt %q, want full=%v", round, size, live, res.Full, res.Rebuilt, wantFull)
		}
		if !res.Full {
			updates++
			continue
		}
		if !strings.Contains(res.Rebuilt, "records") {
			t.Errorf("rebuilt %q, want the records named", res.Rebuilt)
		}
		sizes, m = recordsSizes(t, idx)
		live = 0
		for _, e := range m.Articles {
			live += e.Rec
		}
		if sizes[0] != int64(len(records.Magic))+live {
			t.Errorf("after the full build: %d bytes of records, want %d live and the magic", sizes[0], live)
		}
		break
	}
	if updates < 2 {
		t.Errorf("%d updates before the full build: the test's article is too small", updates)
	}
	t.Logf("%d updates before the full build", updates)
}

// sampleIndex builds the sample articles into an index and returns it;
// it skips the test when they are not there.
func sampleIndex(tb testing.TB) string {
	tb.Helper()
	dir := filepath.Join("..", "corpus-sample", "articles")
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("no articles at %s: %v", dir, err)
	}
	idx := filepath.Join(tb.TempDir(), "idx")
	if _, err := Build(BuildOptions{Articles: dir, Index: idx, Reader: &article.Reader{Root: dir}}); err != nil {
		tb.Fatal(err)
	}
	return idx
}

// TestHitsKeepNoArena runs two queries in turn through Hits: the
// first's snippets, titles and ids are what they were right after it,
// though the second decompresses its blocks into the arena the first
// gave back (blockArenas) — nothing a hit keeps points into one
// (TestSnippetKeepsNoArena: nor does a snippet).
func TestHitsKeepNoArena(t *testing.T) {
	x := openTest(t, sampleIndex(t))
	ctx := context.Background()
	hits := func(q string) []HitResult {
		pq, err := x.Prepare(q)
		if err != nil {
			t.Fatal(err)
		}
		res, err := x.Hits(ctx, pq, 20, Options{})
		if err != nil || len(res) == 0 {
			t.Fatalf("%q: %d hits, %v", q, len(res), err)
		}
		return res
	}
	for _, qs := range [][2]string{{"bridge history", "coffee roasting"}, {"volcano eruption", "bridge history"}, {"fermentation", "steam railway"}} {
		first := hits(qs[0])
		var kept []string
		for _, h := range first {
			kept = append(kept, strings.Clone(h.Snippet), strings.Clone(h.Title), strings.Clone(h.ID))
		}
		for range 3 {
			hits(qs[1])
		}
		for i, h := range first {
			if h.Snippet != kept[3*i] || h.Title != kept[3*i+1] || h.ID != kept[3*i+2] {
				t.Errorf("%q hit %d after %q: %s %q %q, right after it %s %q %q", qs[0], i, qs[1], h.ID, h.Title, h.Snippet, kept[3*i+2], kept[3*i+1], kept[3*i])
			}
		}
	}
}

// BenchmarkHits measures a result list (Hits, the top 10 with their
// passages and snippets) against Search (the same, every hit read whole)
// on the sample articles, per query of sharedQueries:
//
//	go test -run '^$' -bench 'Hits' ./index/
func BenchmarkHits(b *testing.B) {
	x, err := Open(sampleIndex(b))
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	var qs []*Query
	for _, q := range sharedQueries {
		if pq, err := x.Prepare(q); err == nil && len(pq.Terms) > 0 {
			qs = append(qs, pq)
		}
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		run  func(q *Query) error
	}{
		{"hits", func(q *Query) error { _, err := x.Hits(ctx, q, 10, Options{}); return err }},
		{"search", func(q *Query) error { _, err := x.Search(ctx, q, 10, Options{}); return err }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if err := tc.run(qs[i%len(qs)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestRecordBlockDamaged garbles, behind its stamp, the head of the last
// text block of the last record of a one-shard index (its decompressed
// length): the record decodes, its text does not. Search, Hits and
// Article of that article are a DamagedError naming the records file;
// Passages, which reads no text, still answers.
func TestRecordBlockDamaged(t *testing.T) {
	_, idx, p, b := oneShardTest(t)
	m, err := store.ReadManifest(idx)
	if err != nil {
		t.Fatal(err)
	}
	// the last record is the one of the manifest's lengths that decodes
	// from the file's end
	id, off := "", int64(0)
	for _, e := range m.Articles {
		if e.Rec > int64(len(b)) {
			continue
		}
		if d, err := records.Decode(b[int64(len(b))-e.Rec:], false, nil); err == nil && len(d.Blocks) > 0 {
			id, off = e.ID, int64(len(b))-e.Rec
			copy(b[len(b)-d.Blocks[len(d.Blocks)-1].ZLen:], []byte{0xff, 0xff, 0xff, 0xff, 0xff})
			break
		}
	}
	if id == "" {
		t.Fatal("no record decodes from the records file's end")
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	setRecordsStamp(t, idx)
	x := openTest(t, idx)
	// every error names the file and the record's byte offset
	// (docs/safety.md)
	at := fmt.Sprintf("the record at byte %d", off)
	d, err := x.Article(id)
	var de *DamagedError
	if !errors.As(err, &de) || de.File != p || !strings.Contains(err.Error(), at) {
		t.Fatalf("Article %s: %+v, %v; want a DamagedError naming %s and %s", id, d, err, p, at)
	}
	title := map[string]string{"1001": "Fresnel lens", "2001": "Suspension bridge", "3001": "Optics"}[id]
	pq, err := x.Prepare(title)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if res, err := x.Search(ctx, pq, 10, Options{}); !errors.As(err, &de) || de.File != p || !strings.Contains(err.Error(), at) {
		t.Errorf("Search %q: %d results, %v; want a DamagedError naming %s and %s", title, len(res), err, p, at)
	}
	if res, err := x.Hits(ctx, pq, 10, Options{}); !errors.As(err, &de) || de.File != p || !strings.Contains(err.Error(), "article "+id) || !strings.Contains(err.Error(), at) {
		t.Errorf("Hits %q: %d results, %v; want a DamagedError naming %s, %s and article %s", title, len(res), err, p, at, id)
	}
	if ps, err := x.Passages(ctx, title, id, Options{}); err != nil || len(ps) == 0 {
		t.Errorf("Passages %q %s: %v, %v; want passages", title, id, ps, err)
	}
}

// TestHitsConcurrent runs the shared queries through Hits on four
// goroutines at once, as the server's requests do, each search taking
// arenas others gave back: every result list is the one Search gives
// for the query alone. With -race it also checks that no two searches
// share an arena.
func TestHitsConcurrent(t *testing.T) {
	x := openTest(t, sampleIndex(t))
	ctx := context.Background()
	type want struct {
		q    *Query
		hits []HitResult
	}
	var wants []want
	for _, q := range sharedQueries {
		pq, err := x.Prepare(q)
		if err != nil || len(pq.Terms) == 0 {
			continue
		}
		res, err := x.Search(ctx, pq, 10, Options{})
		if err != nil {
			t.Fatal(err)
		}
		w := want{q: pq}
		for _, r := range res {
			h := HitResult{Hit: r.Hit, Len: r.Doc.Len, Snippet: r.Snippet, Passages: []effort.Span{}}
			for _, p := range r.Passages {
				h.Passages = append(h.Passages, p.Span)
			}
			w.hits = append(w.hits, h)
		}
		wants = append(wants, w)
	}
	errs := make(chan error, 4)
	for g := range 4 {
		go func() {
			for i := range 10 * len(wants) {
				w := wants[(i*(g+1)+g)%len(wants)]
				got, err := x.Hits(ctx, w.q, 10, Options{})
				if err == nil && !reflect.DeepEqual(got, w.hits) {
					err = fmt.Errorf("goroutine %d, query %v: Hits %+v, Search %+v", g, w.q.Terms, got, w.hits)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestHitsOutliveRecords keeps what Hits, Search and Article gave from a
// build, updates the index (an article changed) and reloads it, which
// unmaps the old build's records files: every byte of what was kept
// reads as it did (a string left in the mapped file would fault), and
// the reloaded index gives the changed article's new text.
func TestHitsOutliveRecords(t *testing.T) {
	articles, idx, _ := buildTest(t)
	x := openTest(t, idx)
	ctx := context.Background()
	pq, err := x.Prepare("fresnel lens")
	if err != nil {
		t.Fatal(err)
	}
	hits, err := x.Hits(ctx, pq, 10, Options{})
	if err != nil || len(hits) != 2 {
		t.Fatalf("Hits: %+v, %v; want 1001 and 3001", hits, err)
	}
	res, err := x.Search(ctx, pq, 10, Options{})
	if err != nil || len(res) != 2 {
		t.Fatalf("Search: %d results, %v; want 1001 and 3001", len(res), err)
	}
	d, err := x.Article("1001")
	if err != nil {
		t.Fatal(err)
	}
	// what was kept, as its bytes, copied now
	kept := func() []string {
		out := []string{d.Text, d.Title, d.Path, d.Lang}
		for _, el := range d.Elems {
			out = append(out, el.XPath)
		}
		for _, h := range hits {
			out = append(out, h.ID, h.Title, h.Lang, h.Snippet)
		}
		for _, r := range res {
			out = append(out, r.Snippet, r.Doc.Text, r.Doc.Title)
			for _, p := range r.Passages {
				out = append(out, p.XPaths...)
			}
		}
		return out
	}
	var before []string
	for _, s := range kept() {
		before = append(before, string([]byte(s)))
	}
	testfs.Write(t, articles, map[string]string{"1001.xml": `<article><header><title>Fresnel lens</title></header><bdy><p>A Fresnel lens is thin.</p></bdy></article>`})
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(articles, "1001.xml"), later, later)
	if br, err := Build(BuildOptions{Articles: articles, Index: idx}); err != nil || br.Full {
		t.Fatalf("update: %+v, %v", br, err)
	}
	if switched, err := x.Reload(); !switched || err != nil {
		t.Fatalf("Reload: %v, %v; want the updated build", switched, err)
	}
	if after := kept(); !slices.Equal(after, before) {
		t.Errorf("after the reload: %q, before %q", after, before)
	}
	if d, err := x.Article("1001"); err != nil || d.Text != "Fresnel lensA Fresnel lens is thin." {
		t.Errorf("1001 after the update: %q, %v", d.Text, err)
	}
}

// docNumber is the internal number of article id in shard sh.
func docNumber(t *testing.T, s *snapshot, sh int, id string) uint64 {
	t.Helper()
	r, err := shardReader(s.Bleve[sh])
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n, err := r.InternalID(id)
	if err != nil || len(n) != 8 {
		t.Fatalf("article %s: internal id %v, %v", id, n, err)
	}
	return binary.BigEndian.Uint64(n)
}

// stampRecords returns the size and CRC-32 of the records file p.
func stampRecords(p string) (store.RecordsStamp, error) {
	f, err := os.Open(p)
	if err != nil {
		return store.RecordsStamp{}, err
	}
	defer f.Close()
	h := crc32.NewIEEE()
	n, err := io.Copy(h, f)
	if err != nil {
		return store.RecordsStamp{}, err
	}
	return store.RecordsStamp{Size: n, CRC: h.Sum32()}, nil
}
