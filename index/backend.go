package index

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The backend seam: an index is a folder (the embedded Bleve index, Open)
// or an index on an OpenSearch cluster, named by a URL
// (docs/cluster.md). The rest of readsim opens either with OpenAt and
// searches it through Searcher, and builds either with Build.

// Searcher is an open index of either backend: a folder's (*Index) or a
// cluster's. Its methods are Index's: Prepare analyses a query with the
// index's languages and statistics, Search, Hits and Fetch retrieve,
// Passages browses one article, and a query prepared by one build is
// prepared again by another.
type Searcher interface {
	Prepare(q string) (*Query, error)
	Search(ctx context.Context, q *Query, k int, opt Options) ([]SearchResult, error)
	Hits(ctx context.Context, q *Query, k int, opt Options) ([]HitResult, error)
	Fetch(ctx context.Context, q *Query, k int, opt Options) ([]Hit, error)
	Passages(ctx context.Context, q, id string, opt Options) ([]Passage, error)
	// Articles is the number of articles, Langs those of each language.
	Articles() int
	Langs() map[string]int
	// Source is the articles folder the index was built from, an
	// absolute path ("" when it names none).
	Source() string
	// Rebuilt opens the index again when it is now another build than
	// the one open (a folder rebuilt or updated since, a cluster's alias
	// moved to a new build), as a new Searcher; nil when it is the same.
	// The receiver is left as it is (close whichever is no longer
	// needed).
	Rebuilt() (Searcher, error)
	Close() error
}

// Rebuilt is Reopen as a Searcher.
func (x *Index) Rebuilt() (Searcher, error) {
	y, err := x.Reopen()
	if y == nil {
		return nil, err
	}
	return y, err
}

// OpenAt opens the index at where: a folder (Open), or an index on an
// OpenSearch cluster when where is a URL (IsURL; ParseURL gives its
// syntax).
func OpenAt(where string) (Searcher, error) {
	if !IsURL(where) {
		x, err := Open(where)
		if err != nil {
			return nil, err
		}
		return x, nil
	}
	u, err := ParseURL(where)
	if err != nil {
		return nil, err
	}
	return openCluster(u)
}

// IsURL reports whether an --index names an index on a cluster (it begins
// with http:// or https://) rather than a folder. A folder whose name
// begins so is given as ./http://….
func IsURL(where string) bool {
	return strings.HasPrefix(where, "http://") || strings.HasPrefix(where, "https://")
}

// ClusterURL is an index on an OpenSearch cluster as --index names it.
type ClusterURL struct {
	// Nodes are the nodes' addresses, scheme://host:port each.
	Nodes []string
	// Name is the index's name (an alias of readsim's builds).
	Name string
	// Timeout bounds each call to the cluster (0: the client's default).
	Timeout time.Duration
	// Replicas, for a build, are the copies of each shard (-1: one when
	// the cluster has two data nodes or more, else none).
	Replicas int
	raw      string
}

// String returns the URL as it was given.
func (u *ClusterURL) String() string { return u.raw }

// ParseURL parses an index on a cluster:
//
//	http(s)://HOST:PORT[,HOST:PORT…]/NAME[?timeout=DURATION&replicas=N]
//
// a comma list of the nodes to send requests to (the client goes round
// them and skips a node that does not answer), the index's name, and
// optionally the bound of each call (a Go duration, 30s by default) and,
// for readsim index, the replicas of each shard. The error is an
// InputError naming the URL.
func ParseURL(s string) (*ClusterURL, error) {
	bad := func(format string, a ...any) error {
		return &InputError{Msg: fmt.Sprintf("--index %s: %s (want http(s)://HOST:PORT[,HOST:PORT…]/NAME)", s, fmt.Sprintf(format, a...))}
	}
	scheme, rest, _ := strings.Cut(s, "://")
	if scheme != "http" && scheme != "https" {
		return nil, bad("not an http or https URL")
	}
	hosts, path, ok := strings.Cut(rest, "/")
	if !ok {
		return nil, bad("no index name")
	}
	path, query, _ := strings.Cut(path, "?")
	u := &ClusterURL{Name: path, Replicas: -1, raw: s}
	if path == "" || strings.Contains(path, "/") {
		return nil, bad("the path must be the index's name alone")
	}
	for _, h := range strings.Split(hosts, ",") {
		host, port, err := net.SplitHostPort(h)
		if err != nil || host == "" {
			return nil, bad("node %q is not HOST:PORT", h)
		}
		if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
			return nil, bad("node %q: port %q", h, port)
		}
		u.Nodes = append(u.Nodes, scheme+"://"+h)
	}
	vals, err := url.ParseQuery(query)
	if err != nil {
		return nil, bad("%v", err)
	}
	for k, v := range vals {
		switch {
		case len(v) != 1:
			return nil, bad("%s given %d times", k, len(v))
		case k == "timeout":
			if u.Timeout, err = time.ParseDuration(v[0]); err != nil || u.Timeout < 100*time.Millisecond || u.Timeout > time.Hour {
				return nil, bad("timeout %q: want a duration from 100ms to 1h", v[0])
			}
		case k == "replicas":
			if u.Replicas, err = strconv.Atoi(v[0]); err != nil || u.Replicas < 0 || u.Replicas > 8 {
				return nil, bad("replicas %q: want 0 to 8", v[0])
			}
		default:
			return nil, bad("unknown parameter %q (timeout, replicas)", k)
		}
	}
	return u, nil
}
