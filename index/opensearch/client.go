package opensearch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	osgo "github.com/opensearch-project/opensearch-go/v4"
)

// DefaultTimeout bounds a call (retries included) when Config.Timeout is 0.
const DefaultTimeout = 30 * time.Second

// maxResponse bounds a response body read from the cluster (docs/limits.md):
// a search of MaxK hits or a get of MaxIDs payloads stays far below it.
const maxResponse = 256 << 20

// Config says where a cluster is and how long a call to it may take.
type Config struct {
	// URLs are the nodes' addresses, http(s)://host:port. Requests go
	// round-robin over them; a node that refuses or fails is skipped and
	// the request tried on the next.
	URLs []string
	// Timeout bounds each call, its retries included (DefaultTimeout
	// when 0). A single attempt is bounded by a third of it, so that a
	// node that accepts connections and never answers leaves time to try
	// another.
	Timeout time.Duration
}

// Client talks to one cluster. It is safe for concurrent use.
type Client struct {
	os      *osgo.Client
	urls    []string
	timeout time.Duration
}

// ErrUnreachable is wrapped by errors of calls that reached no node.
var ErrUnreachable = errors.New("cluster unreachable")

// New returns a client of the cluster at cfg.URLs. It does not contact
// the cluster.
func New(cfg Config) (*Client, error) {
	if len(cfg.URLs) == 0 {
		return nil, errors.New("opensearch: no cluster URL")
	}
	var urls []string
	for _, raw := range cfg.URLs {
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("opensearch: %q is not a node address http(s)://host:port", raw)
		}
		urls = append(urls, u.Scheme+"://"+u.Host)
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	attempt := max(timeout/3, time.Second)
	transport := &http.Transport{
		DialContext:           (&net.Dialer{Timeout: attempt, KeepAlive: 30 * time.Second}).DialContext,
		ResponseHeaderTimeout: attempt,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       90 * time.Second,
	}
	noDiscovery := false
	c, err := osgo.NewClient(osgo.Config{
		Addresses:             urls,
		Transport:             transport,
		RequestTimeout:        attempt,
		MaxRetries:            len(urls) + 1,
		RetryOnStatus:         []int{502, 503, 504},
		EnableRetryOnTimeout:  true,
		DiscoverNodesOnStart:  &noDiscovery,
		HealthCheckMaxRetries: -1,
		RetryBackoff:          func(int) time.Duration { return 100 * time.Millisecond },
	})
	if err != nil {
		return nil, fmt.Errorf("opensearch %s: %w", strings.Join(urls, ","), err)
	}
	return &Client{os: c, urls: urls, timeout: timeout}, nil
}

// Close ends the client's background work and idle connections.
func (c *Client) Close() error { return c.os.Close() }

// URLs returns the nodes' addresses the client was given.
func (c *Client) URLs() []string { return append([]string(nil), c.urls...) }

// where names the cluster in errors.
func (c *Client) where() string { return strings.Join(c.urls, ",") }

// apiError is an error status from the cluster, with its error type and
// reason when the body has them.
type apiError struct {
	Status int
	Type   string
	Reason string
}

func (e *apiError) Error() string {
	if e.Type == "" {
		return fmt.Sprintf("status %d", e.Status)
	}
	return fmt.Sprintf("status %d: %s: %s", e.Status, e.Type, e.Reason)
}

// isType reports whether err is a cluster error of the given type
// (index_not_found_exception, …).
func isType(err error, typ string) bool {
	var e *apiError
	return errors.As(err, &e) && e.Type == typ
}

// isStatus reports whether err is a cluster error of the given status.
func isStatus(err error, status int) bool {
	var e *apiError
	return errors.As(err, &e) && e.Status == status
}

// call sends one request (body marshalled to JSON unless it is []byte,
// sent as is) and decodes the response into out (unless nil), within the
// client's timeout. A status of 400 or more is an *apiError; an error
// reaching the cluster wraps ErrUnreachable and names its URLs.
func (c *Client) call(ctx context.Context, method, path string, body, out any) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var rd io.Reader
	ctype := "application/json"
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
		ctype = "application/x-ndjson"
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, path, rd)
	if err != nil {
		return err
	}
	if rd != nil {
		req.Header.Set("Content-Type", ctype)
	}
	res, err := c.os.Stream(req)
	if res != nil && res.Body != nil {
		defer res.Body.Close()
	}
	if err != nil || res == nil {
		if ctx.Err() != nil {
			return fmt.Errorf("opensearch %s: %w: no answer within %v (%v)", c.where(), ErrUnreachable, c.timeout, err)
		}
		return fmt.Errorf("opensearch %s: %w: %v", c.where(), ErrUnreachable, err)
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, maxResponse+1))
	if err != nil {
		return fmt.Errorf("opensearch %s: %w: reading the answer to %s %s: %v", c.where(), ErrUnreachable, method, path, err)
	}
	if len(data) > maxResponse {
		return fmt.Errorf("opensearch %s: the answer to %s %s is over %d bytes", c.where(), method, path, maxResponse)
	}
	if res.StatusCode >= 400 {
		return c.statusError(method, path, res.StatusCode, data)
	}
	if raw, ok := out.(*json.RawMessage); ok {
		*raw = data
		return nil
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("opensearch %s: %s %s: %v", c.where(), method, path, err)
		}
	}
	return nil
}

// statusError makes an error of an error status and its body.
func (c *Client) statusError(method, path string, status int, data []byte) error {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	ae := &apiError{Status: status}
	if json.Unmarshal(data, &e) == nil && len(e.Error) > 0 {
		var d struct {
			Type      string `json:"type"`
			Reason    string `json:"reason"`
			RootCause []struct {
				Type   string `json:"type"`
				Reason string `json:"reason"`
			} `json:"root_cause"`
		}
		if json.Unmarshal(e.Error, &d) == nil {
			ae.Type, ae.Reason = d.Type, d.Reason
			if len(d.RootCause) > 0 && ae.Reason == "" {
				ae.Type, ae.Reason = d.RootCause[0].Type, d.RootCause[0].Reason
			}
		} else {
			ae.Reason = string(e.Error)
		}
	}
	return fmt.Errorf("opensearch %s: %s %s: %w", c.where(), method, path, ae)
}

// DataNodes returns the number of the cluster's data nodes (a build's
// replicas are at most one fewer: a copy is never on its primary's node).
func (c *Client) DataNodes(ctx context.Context) (int, error) {
	var health struct {
		N int `json:"number_of_data_nodes"`
	}
	if err := c.call(ctx, "GET", "/_cluster/health", nil, &health); err != nil {
		return 0, err
	}
	return health.N, nil
}
