package opensearch

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestUpdateAtomic publishes builds B and C of an index while clients open
// it, search and read payloads: each answer is wholly one build's (its
// hits and payloads all A, all B or all C), a reader keeps its build
// through the next publication, and a reader two publications behind gets
// ErrGone rather than another build's documents once its build is deleted
// (here at once: keepReplaced 0).
func TestUpdateAtomic(t *testing.T) {
	defer func(k time.Duration) { keepReplaced = k }(keepReplaced)
	keepReplaced = 0
	c, name := testClient(t)
	ctx := context.Background()
	// no replicas: what is atomic is the alias's move, whatever the
	// copies, and a publication waits for its replicas (seconds each)
	rA := publish(t, c, name, Settings{Shards: 2}, manyDocs(100, "A"))
	q := Query{Terms: []Term{{Text: "alpha", N: 1}, {Text: "beta", N: 1}}}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	seen := make([]map[string]int, 3)
	for g := range seen {
		seen[g] = map[string]int{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 10000; n++ {
				select {
				case <-stop:
					return
				default:
				}
				build, err := oneAnswer(ctx, c, name, q)
				if err != nil {
					t.Errorf("client %d, request %d: %v", g, n, err)
					return
				}
				seen[g][build]++
			}
		}()
	}
	for _, p := range []string{"B", "C"} {
		docs := manyDocs(60, p)
		if p == "C" {
			docs = manyDocs(120, p)
		}
		publish(t, c, name, Settings{Shards: 2}, docs)
		if p == "B" {
			if err := expectBuild(ctx, rA, q, "A"); err != nil {
				t.Errorf("the reader of A after B was published: %v", err)
			}
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("answers by build, per client: %v", seen)
	if _, err := rA.Search(ctx, q, 10); !errors.Is(err, ErrGone) {
		t.Errorf("the reader of A after C was published: %v, want ErrGone", err)
	}
	if _, err := rA.Payloads(ctx, []string{"doc00001"}); !errors.Is(err, ErrGone) {
		t.Errorf("payloads of the reader of A after C was published: %v, want ErrGone", err)
	}
	r, err := c.Open(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if err := expectBuild(ctx, r, q, "C"); err != nil || r.Docs() != 120 {
		t.Errorf("a reader opened after C: %d documents, %v", r.Docs(), err)
	}
}

// TestReplacedKept: a build the alias left less than keepReplaced ago
// stays, so a reader two publications behind (a server that had not
// switched yet) still answers wholly from its build; once that is longer
// ago, the next publication deletes it and the reader gets ErrGone.
func TestReplacedKept(t *testing.T) {
	defer func(k time.Duration) { keepReplaced = k }(keepReplaced)
	c, name := testClient(t)
	ctx := context.Background()
	q := Query{Terms: []Term{{Text: "alpha", N: 1}}}
	rA := publish(t, c, name, Settings{}, manyDocs(20, "A"))
	publish(t, c, name, Settings{}, manyDocs(20, "B"))
	publish(t, c, name, Settings{}, manyDocs(20, "C"))
	if err := expectBuild(ctx, rA, q, "A"); err != nil {
		t.Errorf("the reader of A two publications later: %v", err)
	}
	keepReplaced = time.Second
	time.Sleep(1100 * time.Millisecond)
	publish(t, c, name, Settings{}, manyDocs(20, "D"))
	if _, err := rA.Search(ctx, q, 10); !errors.Is(err, ErrGone) {
		t.Errorf("the reader of A once A was replaced over a second ago: %v, want ErrGone", err)
	}
}

// oneAnswer opens the index, searches and reads the payloads, and returns
// the one build all the payloads name.
func oneAnswer(ctx context.Context, c *Client, name string, q Query) (string, error) {
	r, err := c.Open(ctx, name)
	if err != nil {
		return "", err
	}
	hits, err := r.Search(ctx, q, 50)
	if err != nil {
		return "", err
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	ps, err := r.Payloads(ctx, ids)
	if errors.Is(err, ErrGone) {
		return "gone", nil // opened just before a second publication
	}
	if err != nil {
		return "", err
	}
	build := ""
	for i, p := range ps {
		b, _, _ := strings.Cut(string(p), ":")
		if build != "" && b != build {
			return "", fmt.Errorf("hit %s of build %s among hits of build %s", ids[i], b, build)
		}
		build = b
	}
	return build, nil
}

// expectBuild checks that r's answers are all of build want.
func expectBuild(ctx context.Context, r *Reader, q Query, want string) error {
	hits, err := r.Search(ctx, q, 50)
	if err != nil {
		return err
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	ps, err := r.Payloads(ctx, ids)
	if err != nil {
		return err
	}
	for i, p := range ps {
		if b, _, _ := strings.Cut(string(p), ":"); b != want {
			return fmt.Errorf("hit %s is of build %s", ids[i], b)
		}
	}
	return nil
}

// TestRefused checks the guards: a name that is a concrete index, an alias
// naming an index readsim did not write, a build of another layout, bad
// names, tokens and languages.
func TestRefused(t *testing.T) {
	c, name := testClient(t)
	ctx := context.Background()
	foreign := name + "-plain"
	if err := c.call(ctx, "PUT", "/"+foreign, map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	aliased := name + "-aliased"
	if err := c.call(ctx, "POST", "/_aliases", map[string]any{"actions": []any{
		map[string]any{"add": map[string]any{"index": foreign, "alias": aliased}}}}, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.call(ctx, "DELETE", "/"+foreign, nil, nil) })
	old := name + "-old"
	r := publish(t, c, old, Settings{}, tinyDocs())
	t.Cleanup(func() { dropBuilds(t, c, old) })
	m := r.m
	m.Layout = Layout - 1
	if err := c.call(ctx, "PUT", "/"+r.Build()+"/_mapping", map[string]any{"_meta": map[string]any{"readsim": m}}, nil); err != nil {
		t.Fatal(err)
	}
	bad := func(d Doc) error {
		b, err := c.NewBuild(ctx, name, Settings{})
		if err != nil {
			return err
		}
		defer b.Abort(ctx)
		return b.Add(ctx, []Doc{d})
	}
	cases := []struct {
		what string
		err  error
		is   error
		says string
	}{
		{"build over an index", func() error { _, err := c.NewBuild(ctx, foreign, Settings{}); return err }(), ErrForeign, "is an index, not an alias"},
		{"open an index", func() error { _, err := c.Open(ctx, foreign); return err }(), ErrForeign, foreign},
		{"build over a foreign alias", func() error { _, err := c.NewBuild(ctx, aliased, Settings{}); return err }(), ErrForeign, "alias " + aliased},
		{"open a foreign alias", func() error { _, err := c.Open(ctx, aliased); return err }(), ErrForeign, aliased},
		{"open another layout", func() error { _, err := c.Open(ctx, old); return err }(), ErrLayout, "rebuild with readsim index"},
		{"open nothing", func() error { _, err := c.Open(ctx, name+"-none"); return err }(), nil, "no index " + name + "-none"},
		{"bad name", func() error { _, err := c.NewBuild(ctx, "Bad/Name", Settings{}); return err }(), nil, "index name"},
		{"token with a space", bad(Doc{ID: "x1", Text: []string{"a b"}}), nil, "document x1: token"},
		{"empty token", bad(Doc{ID: "x2", Title: []string{""}}), nil, "document x2: token"},
		{"long token", bad(Doc{ID: "x3", Text: []string{strings.Repeat("x", MaxTokenBytes+1)}}), nil, "document x3: token"},
		{"bad language", bad(Doc{ID: "x4", Lang: "EN_us"}), nil, "document x4: language"},
		{"no id", bad(Doc{Text: []string{"a"}}), nil, "without an id"},
	}
	for _, tc := range cases {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.says) || (tc.is != nil && !errors.Is(tc.err, tc.is)) {
			t.Errorf("%s: %v, want an error saying %q (%v)", tc.what, tc.err, tc.says, tc.is)
		}
	}
}
