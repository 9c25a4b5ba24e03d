package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"time"
)

// backend is one node behind the balancer.
type backend struct {
	url *url.URL
	// downUntil is when a node that failed is tried again in turn (Unix
	// nanoseconds); the health check clears it as soon as it answers.
	downUntil atomic.Int64
}

func (b *backend) up(now time.Time) bool { return b.downUntil.Load() <= now.UnixNano() }

// balancer spreads requests over backends in turn, skipping those that
// failed recently. A request that fails before it reached a node (the
// connection was refused) goes to the next node, whatever its method; an
// idempotent request without a body (GET, HEAD, OPTIONS) also does when
// the node failed after (it died while answering): no such request is
// lost while one node is up.
type balancer struct {
	backends []*backend
	next     atomic.Uint64
	tr       http.RoundTripper
	log      *slog.Logger
	// downFor is how long a failed node is skipped if the health check
	// does not see it back first.
	downFor time.Duration
}

func newBalancer(urls []*url.URL, log *slog.Logger) *balancer {
	b := &balancer{log: log, downFor: 5 * time.Second}
	for _, u := range urls {
		b.backends = append(b.backends, &backend{url: u})
	}
	b.tr = &http.Transport{
		Proxy:                 nil,
		DialContext:           (&net.Dialer{Timeout: 2 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       90 * time.Second,
		ResponseHeaderTimeout: 60 * time.Second,
	}
	return b
}

// handler is the reverse proxy: it keeps the client's Host, adds
// X-Forwarded-*, streams answers (server-sent events too) and names the
// node that answered in X-Upstream.
func (b *balancer) handler() http.Handler {
	return &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			// The node is chosen by RoundTrip; this host is replaced there.
			r.Out.URL.Scheme, r.Out.URL.Host = "http", "backend"
			r.Out.Host = r.In.Host
			r.SetXForwarded()
		},
		Transport: b,
		ModifyResponse: func(res *http.Response) error {
			res.Header.Set("X-Upstream", res.Request.URL.Host)
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			b.log.Warn("no node answered", "method", r.Method, "path", r.URL.Path, "err", err)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = io.WriteString(w, `{"data":null,"error":{"status":502,"name":"BadGatewayError","message":"No node answered","details":{}}}`)
		},
	}
}

// retriable says whether a request may be sent again after a node failed
// while it had it.
func retriable(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0
	}
	return false
}

// notSent says whether an error happened before the request left: the
// connection to the node could not be made.
func notSent(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// RoundTrip sends the request to the next node that is up, and on to the
// others while it may be retried.
func (b *balancer) RoundTrip(req *http.Request) (*http.Response, error) {
	n := len(b.backends)
	start := int(b.next.Add(1) - 1)
	now := time.Now()
	// Nodes that are up first, in turn; those marked down last (they may
	// be back before the health check says so).
	order := make([]*backend, 0, n)
	var down []*backend
	for i := 0; i < n; i++ {
		be := b.backends[(start+i)%n]
		if be.up(now) {
			order = append(order, be)
		} else {
			down = append(down, be)
		}
	}
	order = append(order, down...)
	var lastErr error
	for _, be := range order {
		if err := req.Context().Err(); err != nil {
			return nil, err
		}
		out := req.Clone(req.Context())
		out.URL.Scheme, out.URL.Host = be.url.Scheme, be.url.Host
		if out.Body != nil && out.Body != http.NoBody {
			// The transport closes a body on failure; one not sent (the
			// node refused the connection) goes to the next node unread.
			out.Body = io.NopCloser(req.Body)
		}
		res, err := b.tr.RoundTrip(out)
		if err == nil {
			return res, nil
		}
		lastErr = err
		if req.Context().Err() == nil {
			be.downUntil.Store(time.Now().Add(b.downFor).UnixNano())
			b.log.Warn("node failed", "node", be.url.Host, "method", req.Method, "path", req.URL.Path, "err", err)
		}
		if !notSent(err) && !retriable(req) {
			break
		}
	}
	return nil, lastErr
}

// check asks every node's health endpoint every interval until ctx ends:
// a node that answers 200 is up, one that does not is skipped.
func (b *balancer) check(ctx context.Context, path string, interval time.Duration) {
	// A loaded node may answer slower than the interval: it is not down.
	client := &http.Client{Transport: b.tr, Timeout: max(interval, time.Second)}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		for _, be := range b.backends {
			res, err := client.Get(be.url.String() + path)
			ok := err == nil && res.StatusCode == http.StatusOK
			if res != nil {
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
			switch {
			case ok && !be.up(time.Now()):
				be.downUntil.Store(0)
				b.log.Info("node back", "node", be.url.Host)
			case !ok && be.up(time.Now()):
				be.downUntil.Store(time.Now().Add(b.downFor).UnixNano())
				b.log.Warn("node down", "node", be.url.Host, "err", err)
			case !ok:
				be.downUntil.Store(time.Now().Add(b.downFor).UnixNano())
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
