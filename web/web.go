package web

import (
	"context"
	"errors"
	"net"
	"time"

	"github.com/readsim/readsim/effort"
)

// ErrNoArticle is Pages' answer for an id it does not have.
var ErrNoArticle = errors.New("no such article")

// Hit is one ranked article of a search.
type Hit struct {
	Rank     int           `json:"rank"`
	ID       string        `json:"id"`
	Title    string        `json:"title"`
	Snippet  string        `json:"snippet"`
	Score    float64       `json:"score"`
	Passages []effort.Span `json:"passages"`
	// Lang is the article's language (BCP 47: "en", "ja", "zh"…), for the
	// result's lang attribute; empty when unknown.
	Lang string `json:"lang,omitempty"`
	// Lead is true when no passage of the article holds a query word (it
	// matched by its title alone, say): its one passage is the article's
	// opening, where the reader starts.
	Lead bool `json:"lead,omitempty"`
}

// Searcher is the live retrieval system: fetch (ranked articles) and browse
// (the best non-overlapping passages of one article, in document order).
type Searcher interface {
	Search(ctx context.Context, q string, k int) ([]Hit, error)
	Passages(ctx context.Context, q, id string) ([]effort.Span, error)
}

// PageOptions are the links and looks of a rendered article page.
type PageOptions struct {
	// ResultsURL is the target of the ← links (the result list).
	ResultsURL string
	// ResultsLabel says where the ← links lead (their aria-label); empty:
	// "Back to the results".
	ResultsLabel string
	// IconURL is the page's icon (the site's favicon).
	IconURL string
	// ArticleURL gives the URL of a link to another article.
	ArticleURL func(id string) string
	// StylesheetURL is the page's only stylesheet (no inline style: the CSP
	// forbids it).
	StylesheetURL string
	// Highlight marks the passages.
	Highlight bool
	// ScriptURL, when not empty, is a script the page loads (deferred):
	// the study's recorder on a participant's pages.
	ScriptURL string
}

// ArticleInfo describes an article for the JSON API.
type ArticleInfo struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Length int    `json:"length"`
	// Lang is the article's language (BCP 47: "en", "zh", "ko"…), sent as
	// the article page's Content-Language; empty when unknown.
	Lang string `json:"lang,omitempty"`
}

// Pages gives articles: whether one exists, its description and its anchored
// XHTML page with the given passages.
type Pages interface {
	// Has reports whether there is an article id, cheaply (without reading
	// it): an article page links only to the articles the prototype has,
	// and leaves links to the others as plain text.
	Has(id string) bool
	// Info returns the article's description: ErrNoArticle when there is no
	// article id. Ids are looked up, never joined into a path.
	Info(id string) (ArticleInfo, error)
	// Render returns the article's anchored XHTML page (a complete document).
	Render(id string, passages []effort.Span, opt PageOptions) ([]byte, error)
}

// Topic is a topic of the simulation view.
type Topic struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// RunInfo is a run of the simulation view.
type RunInfo struct {
	ID string `json:"id"`
	// Source is "sample" (a run shipped with the sample), "flag" (given with
	// --run) or "live" (the live system's own run).
	Source string `json:"source"`
	// Topics are the topics the run answers.
	Topics []string `json:"topics"`
}

// ReplayRequest selects a replay: a topic of a run and the reader.
type ReplayRequest struct {
	Topic  string `json:"topic"`
	Run    string `json:"run"`
	Order  string `json:"order"`  // natural, best or worst
	T2I    int    `json:"t2i"`    // tolerance to irrelevance in characters; 0: none
	Screen int    `json:"screen"` // screen size in characters
	// DocBaseline replays Run's document baseline: every article read in
	// full from its beginning (eval --doc-baseline). The pages name it as
	// the pseudo-run Run+BaselineSuffix.
	DocBaseline bool `json:"docBaseline"`
}

// BaselineSuffix turns a run id into the id of its document baseline, a
// pseudo-run the race and the simulation view offer beside every run
// ("readsim-ric~doc"): the same ranked articles, each read in full from its
// beginning. No run is copied: the replay is the run's with
// ReplayRequest.DocBaseline.
const BaselineSuffix = "~doc"

// MeasureInfo names a measure as `readsim eval` does and says which way is
// better: "higher", "lower" or "neutral" (effort.Direction).
type MeasureInfo struct {
	Name   string `json:"name"`
	Better string `json:"better"`
}

// ReplaySummary describes a topic's replay before it is streamed: what the
// pages need to label and score it while it plays.
type ReplaySummary struct {
	// Trel is the number of relevant articles of the topic; NR the
	// reader's maximum effort per article.
	Trel, NR int
	// Measures are the list scores of the `done` event, in its order;
	// DocScores the document scores of the `score` events.
	Measures, DocScores []MeasureInfo
	// Docs are the ranked article ids.
	Docs []string
	// Running[r][m] is measure m of the run cut after rank r+1 (the scores
	// the reader has earned so far). It may stop short of the last rank (a
	// bound on the work of a long list); when it does not, its last row
	// equals the `done` event's scores.
	Running [][]float64
}

// Replayer replays runs against the judgments.
type Replayer interface {
	Topics() []Topic
	Runs() []RunInfo
	// Replay calls emit with each trace event (one JSON object of
	// scenario.md) in order. It stops with emit's error when emit fails and
	// with ctx's error when ctx is done.
	Replay(ctx context.Context, req ReplayRequest, emit func(event []byte) error) error
	// Relevant returns the judged relevant passages of doc for topic.
	Relevant(topic, doc string) []effort.Span
	// Summary describes the replay req (already checked against Runs).
	Summary(ctx context.Context, req ReplayRequest) (ReplaySummary, error)
}

// Options configure a Server.
type Options struct {
	Searcher Searcher // nil: no search (the pages say so)
	Pages    Pages    // required
	Replayer Replayer // nil: no simulation view
	// Snapshot, when not nil, returns the pages and the searcher as they
	// are now and a function to call when done with them. An article
	// request takes one snapshot and uses it throughout, so that a
	// collection replaced while the server runs (a rebuilt index) never
	// answers with one version's text and another's passages. Nil: Pages
	// and Searcher, which never change.
	Snapshot func() (Pages, Searcher, func())
	// ArticleCSS is the stylesheet of the article pages, served at
	// /static/article.css (the renderer's CSS).
	ArticleCSS []byte
	// AllowOrigins are the Origins besides the server's own that may open the
	// WebSocket ("*" allows any).
	AllowOrigins []string
	// K is the number of results of a search (default 20, at most 100).
	K int
	// RatePerSecond and RateBurst limit the requests of one client address
	// (defaults 50 and 200; RatePerSecond < 0 disables the limit).
	RatePerSecond float64
	RateBurst     int
	// TrustedProxies are the reverse proxies whose X-Forwarded-For is
	// believed: a request from one of them is limited (and keyed) by the
	// client address the header gives (limit.go's clientIP). In study
	// mode a participant's requests are limited per participant instead.
	TrustedProxies []*net.IPNet
	// SlowClientTimeout is how long a replay waits for a client to read before
	// dropping it (default 10s).
	SlowClientTimeout time.Duration
	// MaxSockets bounds the open replay WebSockets (default 1000); past it
	// a new one is refused with 503.
	MaxSockets int
	// PingInterval is the WebSocket ping period (default 20s); a client that
	// answers no ping for twice that is dropped.
	PingInterval time.Duration
	// Study, when not nil, turns on the study mode (/study): recorded
	// readings of real participants (study.go).
	Study *StudyOptions
	// Logf logs server events (nil: silent). The server logs no client
	// address or user agent.
	Logf func(format string, args ...any)
}

// DefaultRatePerSecond is the requests per second one client may make by
// default (Options.RatePerSecond).
const DefaultRatePerSecond = 50

// snapshot returns the pages and the searcher one request uses
// (Options.Snapshot) and their release.
func (o *Options) snapshot() (Pages, Searcher, func()) {
	if o.Snapshot != nil {
		return o.Snapshot()
	}
	return o.Pages, o.Searcher, func() {}
}

func (o *Options) defaults() {
	if o.K <= 0 {
		o.K = 20
	}
	if o.K > 100 {
		o.K = 100
	}
	if o.RatePerSecond == 0 {
		o.RatePerSecond = DefaultRatePerSecond
	}
	if o.RateBurst <= 0 {
		o.RateBurst = 200
	}
	if o.SlowClientTimeout <= 0 {
		o.SlowClientTimeout = 10 * time.Second
	}
	if o.MaxSockets <= 0 {
		o.MaxSockets = 1000
	}
	if o.PingInterval <= 0 {
		o.PingInterval = 20 * time.Second
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
}
