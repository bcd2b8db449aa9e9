package web

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/readsim/readsim/effort"
)

// snapshotLog records the snapshots an article request takes and whether
// each call to the pages and the searcher happened while one was held.
type snapshotLog struct {
	mu             sync.Mutex
	held, taken    int
	calls, outside []string
}

func (l *snapshotLog) call(what string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, what)
	if l.held == 0 {
		l.outside = append(l.outside, what)
	}
}

// snapPages and snapSearcher are the fakes, logging each call.
type snapPages struct {
	fakePages
	log *snapshotLog
}

func (p *snapPages) Has(id string) bool { p.log.call("Has " + id); return p.fakePages.Has(id) }
func (p *snapPages) Info(id string) (ArticleInfo, error) {
	p.log.call("Info " + id)
	return p.fakePages.Info(id)
}
func (p *snapPages) Render(id string, ps []effort.Span, opt PageOptions) ([]byte, error) {
	p.log.call("Render " + id)
	return p.fakePages.Render(id, ps, opt)
}

type snapSearcher struct{ log *snapshotLog }

func (s snapSearcher) Search(ctx context.Context, q string, k int) ([]Hit, error) {
	s.log.call("Search")
	return fakeSearcher{}.Search(ctx, q, k)
}
func (s snapSearcher) Passages(ctx context.Context, q, id string) ([]effort.Span, error) {
	s.log.call("Passages " + id)
	return fakeSearcher{}.Passages(ctx, q, id)
}

// TestSnapshotPerRequest checks that an article request, page or JSON,
// takes one snapshot (Options.Snapshot), uses its pages and searcher for
// every call, none outside it, and releases it once, also when the article
// is missing.
func TestSnapshotPerRequest(t *testing.T) {
	log := &snapshotLog{}
	pages := &snapPages{log: log}
	s, plain, _ := newTestServer(t, func(o *Options) {
		o.Snapshot = func() (Pages, Searcher, func()) {
			log.mu.Lock()
			log.held++
			log.taken++
			log.mu.Unlock()
			return pages, snapSearcher{log}, func() {
				log.mu.Lock()
				log.held--
				log.mu.Unlock()
			}
		}
	})
	tests := []struct {
		target string
		status int
		calls  string // the calls of the request, in order
	}{
		// 101's text links to no article: Has is not asked
		{"/article/101?q=lens", http.StatusOK, "Info 101,Passages 101,Render 101"},
		{"/api/article/101?q=lens", http.StatusOK, "Info 101,Passages 101"},
		{"/article/101", http.StatusOK, "Info 101,Render 101"},
		{"/article/999?q=lens", http.StatusNotFound, "Info 999"},
	}
	for i, tc := range tests {
		log.calls = nil
		w := get(t, s, tc.target)
		if w.Code != tc.status {
			t.Errorf("%s: status %d, want %d", tc.target, w.Code, tc.status)
		}
		if got := strings.Join(log.calls, ","); got != tc.calls {
			t.Errorf("%s: calls %q, want %q", tc.target, got, tc.calls)
		}
		if log.held != 0 || log.taken != i+1 {
			t.Errorf("%s: %d snapshots taken in all, %d held after it; want %d and 0", tc.target, log.taken, log.held, i+1)
		}
	}
	if len(log.outside) > 0 {
		t.Errorf("calls outside a snapshot: %v", log.outside)
	}
	if len(plain.calls) > 0 {
		t.Errorf("Options.Pages was asked %v during article requests", plain.calls)
	}
}
